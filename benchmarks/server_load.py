"""Load benchmark of the boardlab server: N concurrent tables played by client-driven random moves.

Starts a real server process on a free 127.0.0.1 port (SQLite in a temporary directory unless
--db is given, or uses --url), creates N tables whose seats are all held by this client (one
WebSocket per table carrying every seat, like hot-seat), and on every state update plays a random
legal move for the seat to move, over the WebSocket (default) or HTTP POST (--mode http). The
clock starts once every table is connected; when a game ends, a new table takes its place, so N
tables are live for the whole run, which stops after --seconds.

Latency is measured per move from sending it to receiving its acknowledgement, so it includes
the server's commit to the database (group commit) but no bot thinking. Throughput is
acknowledged moves per second over the whole run. Both processes share this machine's cores; the
client parses with orjson and keeps its garbage collector off while measuring, so that its own
pauses are not counted as the server's latency.

    python benchmarks/server_load.py --tables 200 --game cacao --players 2

With --processes N (N > 1, PostgreSQL and --redis), N server processes serve one database (docs/server.md, "Many
processes"): table i is created and played through process i mod N, and the server CPU is theirs together.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

HERE = Path(__file__).resolve()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu(pid: int | list[int]) -> float:
    """CPU seconds (user + system) used so far by process `pid` (Linux /proc), or by several together."""
    if isinstance(pid, list):
        return sum(_cpu(p) for p in pid)
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pg_run(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as c:
        c.execute(sql)


def pg_schema(url: str) -> tuple[str, str]:
    """A fresh schema for this run in the given PostgreSQL database (dropped at the end), so the
    benchmark leaves the database as it found it; returns it and the server URL that uses it."""
    schema = f"bl_bench_{os.getpid()}_{random.randrange(1 << 32):08x}"
    pg_run(url, f'CREATE SCHEMA "{schema}"')
    return schema, f"{url}?options=-csearch_path%3D{schema}"


def serve_main(argv: list[str]) -> None:
    """Server mode (run in the child process): boardlab.server.serve on the given port and database."""
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--db", required=True)
    p.add_argument("--redis", default=None)
    a = p.parse_args(argv)
    import boardlab.server as server

    apps: list[Any] = []
    make = server.create_app

    def create_app(*args: Any, **kw: Any) -> Any:  # keeps the app, for the memory sampler's cache size
        apps.append(make(*args, **kw))
        return apps[-1]

    server.create_app = create_app  # type: ignore[assignment]
    if os.environ.get("BENCH_PROFILE"):
        _profiler()
    if os.environ.get("BENCH_MEMORY"):
        _memory_sampler(Path(os.environ["BENCH_MEMORY"]), float(os.environ.get("BENCH_MEMORY_EVERY", "30")), apps)
    server.serve("127.0.0.1", a.port, a.db, a.redis)


def _profiler() -> None:
    """cProfile of the server's event-loop thread in CPU time (py-spy is not on this machine), switched on by SIGUSR1
    when the clock starts and written by SIGUSR2 when it stops (uvicorn ends the process by re-raising
    SIGTERM), so that creating and connecting the tables is not in the profile."""
    import cProfile

    # the thread's CPU time, not the wall clock: on a loaded machine the time a process waits for a core would
    # otherwise be charged to whatever function it was in
    prof = cProfile.Profile(time.thread_time)

    def dump(*_: Any) -> None:
        prof.disable()
        out = os.environ["BENCH_PROFILE"]
        prof.dump_stats(f"{out}.{os.getpid()}" if os.environ.get("BENCH_PROFILE_EACH") else out)

    signal.signal(signal.SIGUSR1, lambda *_: prof.enable())
    signal.signal(signal.SIGUSR2, dump)


def _memory_sampler(out: Path, every: float, apps: list[Any]) -> None:
    """Every `every` seconds, one JSON line: the server's RSS, the tables in its cache, the objects the
    collector tracks, the most common of them by type, and tracemalloc's top growth since the first
    sample (by line): whether memory levels off at the table cache's bound or keeps growing."""
    import threading
    import tracemalloc
    from collections import Counter

    tracemalloc.start(1)
    t0 = time.time()

    def loop() -> None:
        first = None
        while True:
            time.sleep(every)
            rss = next(
                int(line.split()[1]) for line in Path("/proc/self/status").read_text().splitlines()
                if line.startswith("VmRSS:")
            )
            snap = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
            first = first or snap
            growth = snap.compare_to(first, "lineno")[:8]
            del snap  # the first sample's is kept, for the comparison
            objs = gc.get_objects()
            kinds = Counter(type(o).__name__ for o in objs).most_common(8)
            svc = apps[0].state.svc if apps else None
            row = {
                "t": round(time.time() - t0),
                "rss_kib": rss,
                "traced_kib": tracemalloc.get_traced_memory()[0] // 1024,
                "tracemalloc_own_kib": tracemalloc.get_tracemalloc_memory() // 1024,  # in the RSS, not traced
                "cached_tables": len(svc._tables) if svc else None,
                "alive_tables": len(svc._alive) if svc else None,
                "gc_tracked": len(objs),
                "top_types": kinds,
                "growth": [f"{s.traceback[0].filename.rsplit('/', 3)[-1]}:{s.traceback[0].lineno} "
                           f"{s.size_diff // 1024:+d} KiB {s.count_diff:+d}" for s in growth],
            }
            del objs
            with out.open("a") as f:
                f.write(json.dumps(row) + "\n")

    threading.Thread(target=loop, daemon=True).start()


class Gate:
    """Lets every table start playing at once, when all are connected; the clock starts then."""

    def __init__(self, tables: int, seconds: float) -> None:
        self.waiting = tables
        self.seconds = seconds
        self.go = asyncio.Event()
        self.start = 0.0
        self.on_start: list[Any] = []

    async def ready(self) -> float:
        """Wait for the start; returns the deadline."""
        self.waiting -= 1
        if self.waiting == 0:
            for fn in self.on_start:
                fn()
            self.start = time.perf_counter()
            self.go.set()
        await self.go.wait()
        return self.start + self.seconds


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.games_done = 0
        self.tables_created = 0  # after the start, to replace finished games
        self.last = 0.0
        self.sent: dict[tuple[str, int], float] = {}  # (table, version the move makes) -> when it was sent
        self.push: list[float] = []  # move sent -> a spectator (on another process when there are several) has it


async def play_table(
    http: httpx.AsyncClient,
    table: dict[str, Any],
    args: argparse.Namespace,
    stats: Stats,
    gate: Gate | None,
    deadline: float,
    rng: random.Random,
) -> tuple[bool, float]:
    """One game at one table: connects; the first game of each slot then waits for every other
    table to connect too (connecting 200 sockets is set-up, not play). A reader task timestamps acks
    as they arrive; the player waits a think time (exponential, mean tables/rate seconds; none with
    --rate 0) and sends a random legal move. Returns whether the game ended, and the deadline."""
    base = table["_base"]  # the server process this table is played through
    ws_base = base.replace("http://", "ws://")
    tid = table["id"]
    toks = [s["token"] for s in table["seats"]]
    pending: dict[int, float] = {}
    states: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    mean_think = args.tables / args.rate if args.rate > 0 else 0.0
    async with websockets.connect(f"{ws_base}/ws/tables/{tid}", max_size=2**22, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "tokens": toks}))

        async def reader() -> None:
            try:
                async for raw in ws:
                    now = time.perf_counter()
                    m = orjson.loads(raw)
                    if m["type"] == "ack":
                        t0 = pending.pop(m["id"], None)
                        if t0 is not None:
                            stats.latencies.append(now - t0)
                            stats.last = now
                    elif m["type"] == "error":
                        stats.errors[m["error"]] = stats.errors.get(m["error"], 0) + 1
                        pending.pop(m.get("id"), None)
                        await states.put({"retry": True})
                    elif m["type"] == "state":
                        await states.put(m)
                        connected.set()
            finally:
                await states.put(None)
                connected.set()

        connected = asyncio.Event()
        task = asyncio.create_task(reader())
        await connected.wait()
        if gate is not None:
            deadline = await gate.ready()
        acted_version = -1
        next_id = 0
        latest: dict[str, Any] | None = None
        try:
            while time.perf_counter() < deadline:
                try:
                    m = await asyncio.wait_for(states.get(), max(0.01, deadline - time.perf_counter()))
                except TimeoutError:
                    return False, deadline
                if m is None:
                    return False, deadline
                if m.get("retry"):
                    acted_version = -1
                    m = latest
                    if m is None:
                        continue
                # keep only the newest state addressed to the seat to move
                while not states.empty():
                    nxt = states.get_nowait()
                    if nxt is None:
                        return False, deadline
                    if nxt.get("retry"):
                        acted_version = -1
                        continue
                    if nxt["version"] > m["version"] or (
                        nxt["version"] == m["version"] and nxt["seat"] == nxt["current"]
                    ):
                        m = nxt
                latest = m
                if m["over"]:
                    stats.games_done += 1
                    return True, deadline
                if m["seat"] != m["current"] or not m["legal"] or m["version"] <= acted_version:
                    continue
                if mean_think:
                    await asyncio.sleep(rng.expovariate(1 / mean_think))
                acted_version = m["version"]
                action = rng.choice(m["legal"])["action"]
                next_id += 1
                if args.mode == "ws":
                    pending[next_id] = stats.sent[(tid, m["version"] + 1)] = time.perf_counter()
                    await ws.send(
                        orjson.dumps(
                            {"type": "act", "id": next_id, "seat": m["seat"], "move": m["version"], "action": action}
                        ).decode()
                    )
                else:
                    t0 = stats.sent[(tid, m["version"] + 1)] = time.perf_counter()
                    r = await http.post(
                        f"{base}/api/tables/{tid}/actions",
                        json={"move": m["version"], "action": action},
                        headers={"Authorization": f"Bearer {toks[m['seat']]}"},
                    )
                    now = time.perf_counter()
                    if r.status_code == 200:
                        stats.latencies.append(now - t0)
                        stats.last = now
                    else:
                        err = r.json().get("error", str(r.status_code))
                        stats.errors[err] = stats.errors.get(err, 0) + 1
                        acted_version = -1
        finally:
            task.cancel()
    return False, deadline


async def play_slot(
    create: Callable[[], Awaitable[dict[str, Any]]],
    table: dict[str, Any],
    args: argparse.Namespace,
    stats: Stats,
    gate: Gate,
    rng: random.Random,
    play: Callable[..., Awaitable[tuple[bool, float]]],
) -> None:
    """One of the N concurrent tables: plays games back to back (a new table when one ends), so the
    number of live tables stays N for the whole run; creating the new tables is in the measured time."""
    over, deadline = await play(table, gate, 0.0, rng)
    while over and time.perf_counter() < deadline:
        stats.tables_created += 1
        over, deadline = await play(await create(), None, deadline, rng)


async def watchers_and_bots(
    args: argparse.Namespace,
    bases: list[str],
    http: httpx.AsyncClient,
    tables: list[dict[str, Any]],
    pid: int | list[int] | None,
    stats: Stats,
) -> dict[str, Any]:
    """Before the clock starts: --spectators WebSocket watchers spread over the first
    --spectator-tables tables (they only read), and --bot-tables all-bot tables of --bot bots that
    play by themselves during the run. Returns what was measured while connecting the watchers and
    a `finish(elapsed)` coroutine that closes them and reports what they and the bots did. With several server
    processes each watcher connects to a process other than its table's, so every state it gets was pushed across
    processes (Redis); the time from a move's sending to a watcher's receiving it is `stats.push`."""
    base = bases[0]
    out: dict[str, Any] = {}
    watchers: list[Any] = []
    received = [0]

    async def watch(ws: Any, tid: str) -> None:
        try:
            async for raw in ws:
                received[0] += 1
                now = time.perf_counter()
                m = orjson.loads(raw)
                t0 = stats.sent.get((tid, m.get("version", -1))) if m.get("type") == "state" else None
                if t0 is not None:
                    stats.push.append(now - t0)
        except websockets.ConnectionClosed:
            pass

    tasks = []
    if args.spectators:
        spread = tables[: max(1, min(len(tables), args.spectator_tables))]
        cpu0, t0 = (_cpu(pid) if pid else 0.0), time.perf_counter()
        for i in range(args.spectators):
            table = spread[i % len(spread)]
            other = bases[(bases.index(table["_base"]) + 1) % len(bases)]  # another process than the table's
            ws = await websockets.connect(
                f"{other.replace('http://', 'ws://')}/ws/tables/{table['id']}", max_size=2**22, compression=None
            )
            await ws.send(json.dumps({"type": "hello", "tokens": []}))
            watchers.append(ws)
            tasks.append(asyncio.create_task(watch(ws, table["id"])))
        await asyncio.sleep(1.0)  # let the last states arrive
        out["spectators"] = args.spectators
        out["spectator_tables"] = len(spread)
        out["spectators_connect_s"] = round(time.perf_counter() - t0 - 1.0, 2)
        out["server_cpu_s_for_spectator_connects"] = round((_cpu(pid) - cpu0) if pid else 0.0, 2)
        out["messages_to_spectators_while_connecting"] = received[0]
    bot_ids: list[str] = []
    for _ in range(args.bot_tables):
        r = await http.post(
            f"{base}/api/tables",
            json={
                "game": args.game,
                "players": args.players,
                "seats": [{"kind": "bot", "bot": args.bot}] * args.players,
            },
        )
        r.raise_for_status()
        bot_ids.append(r.json()["id"])
    received[0] = 0

    async def version_sum() -> int:
        return sum([(await http.get(f"{base}/api/tables/{tid}")).json()["version"] for tid in bot_ids])

    v0 = await version_sum() if bot_ids else 0

    async def finish(elapsed: float) -> dict[str, Any]:
        res: dict[str, Any] = {}
        if watchers:
            res["messages_to_spectators_while_playing"] = received[0]
        if bot_ids:
            moves = await version_sum() - v0
            res["bot_tables"] = len(bot_ids)
            res["bot"] = args.bot
            res["bot_moves"] = moves
            res["bot_moves_per_s"] = round(moves / elapsed, 1) if elapsed else 0
        for ws in watchers:
            await ws.close()
        for t in tasks:
            t.cancel()
        return res

    out["finish"] = finish
    return out


async def run(args: argparse.Namespace, bases: list[str], pid: int | list[int] | None) -> dict[str, Any]:
    turn = [0]
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        seats = [{"kind": "human"}] * args.players
        sem = asyncio.Semaphore(16)

        async def create() -> dict[str, Any]:
            at = bases[turn[0] % len(bases)]  # round-robin over the server processes
            turn[0] += 1
            async with sem:
                r = await http.post(
                    f"{at}/api/tables", json={"game": args.game, "players": args.players, "seats": seats}
                )
                r.raise_for_status()
                return {**r.json(), "_base": at}

        tables = await asyncio.gather(*(create() for _ in range(args.tables)))
        stats = Stats()
        extra = await watchers_and_bots(args, bases, http, tables, pid, stats)
        gate = Gate(len(tables), args.seconds)

        def quiet() -> None:
            # The client's own full garbage collections paused it ~60 ms each, 13 times in a 30 s run,
            # and showed up as server latency: it keeps its collector off while it measures.
            gc.collect()
            gc.freeze()
            gc.disable()

        cpu: dict[str, float] = {}

        def clocks() -> None:
            cpu["client"] = time.process_time()
            cpu["server"] = _cpu(pid) if pid else 0.0
            asyncio.get_running_loop().call_later(args.seconds, at_deadline)

        def at_deadline() -> None:
            # the CPU per move is taken over the --seconds of play only: the tables still thinking at the deadline
            # send one more move each when they wake, whose ack nobody waits for (not counted as moves), and the
            # last of them wakes long after at low rates (exponential think times, mean tables/rate s); measured to
            # the last table's exit, the server's CPU per move read 7.2 ms at 50 moves/s for ~2 ms of work
            cpu["client_window"] = time.process_time() - cpu["client"]
            cpu["server_window"] = (_cpu(pid) - cpu["server"]) if pid else 0.0
            cpu["moves_window"] = len(stats.latencies)
            if args.profile and pid:
                for p in pid if isinstance(pid, list) else [pid]:
                    os.kill(p, signal.SIGUSR1)

        gate.on_start.append(quiet)
        gate.on_start.append(clocks)
        rng = random.Random(args.seed)

        def play(table: dict[str, Any], g: Gate | None, deadline: float, r: random.Random) -> Any:
            return play_table(http, table, args, stats, g, deadline, r)

        await asyncio.gather(
            *(play_slot(create, t, args, stats, gate, random.Random(rng.random()), play) for t in tables)
        )
        elapsed = (stats.last or time.perf_counter()) - gate.start
        client_cpu = time.process_time() - cpu["client"]
        server_cpu = (_cpu(pid) - cpu["server"]) if pid else None
        if args.profile and pid:
            for p in pid if isinstance(pid, list) else [pid]:
                os.kill(p, signal.SIGUSR2)
        gc.enable()
        extra.update(await extra.pop("finish")(elapsed))
        window = cpu
    lat = sorted(stats.latencies)
    push = sorted(stats.push)
    if push:
        extra["pushes_to_spectators_measured"] = len(push)
        extra["push_p50_ms"] = round(push[len(push) // 2] * 1000, 2)
        extra["push_p99_ms"] = round(push[min(len(push) - 1, int(0.99 * len(push)))] * 1000, 2)

    def per_move(key: str) -> float | None:
        n = window.get("moves_window")
        return round(window[key] / n * 1000, 3) if n else None

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    return {
        "game": args.game,
        "players": args.players,
        "tables": args.tables,
        "mode": args.mode,
        "target_rate": args.rate,
        "db": "sqlite" if not args.db else args.db.split(":")[0],
        "processes": len(bases),
        "moves": len(lat),
        "seconds": round(elapsed, 2),
        "moves_per_s": round(len(lat) / elapsed, 1) if elapsed else 0,
        "p50_ms": round(pct(0.50), 2),
        "p90_ms": round(pct(0.90), 2),
        "p99_ms": round(pct(0.99), 2),
        "max_ms": round(lat[-1] * 1000, 2) if lat else None,
        "mean_ms": round(statistics.fmean(lat) * 1000, 2) if lat else None,
        "games_finished": stats.games_done,
        "tables_created_while_playing": stats.tables_created,
        # CPU while playing (after the tables are created and connected); the server's includes its
        # database writer thread
        "client_cpu_ms_per_move": round(client_cpu / max(1, len(lat)) * 1000, 3),
        "server_cpu_ms_per_move": round(server_cpu / max(1, len(lat)) * 1000, 3) if server_cpu is not None else None,
        # over the --seconds of play only (at_deadline): the figures to read; the two above run to the last exit
        "moves_in_window": window.get("moves_window"),
        "client_cpu_ms_per_move_window": per_move("client_window"),
        "server_cpu_ms_per_move_window": per_move("server_window") if server_cpu is not None else None,
        "errors": stats.errors,
        **extra,
        "machine": f"{platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve_main(sys.argv[2:])
        return
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--game", default="cacao")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--mode", choices=["ws", "http"], default="ws")
    p.add_argument(
        "--rate",
        type=float,
        default=500,
        help="target moves/s over all tables (each table thinks tables/rate s on average); 0 = no "
        "think time, every table always has a move in flight (measures saturation throughput)",
    )
    p.add_argument("--seconds", type=float, default=60, help="stop after this long even if games go on")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--spectators", type=int, default=0, help="WebSocket watchers connected before the clock starts")
    p.add_argument("--spectator-tables", type=int, default=10, help="the watchers are spread over this many tables")
    p.add_argument("--bot-tables", type=int, default=0, help="all-bot tables playing by themselves meanwhile")
    p.add_argument("--bot", default="random", help="the bots of --bot-tables (random, greedy, mcts, easy, ...)")
    p.add_argument("--url", help="use a running server instead of starting one")
    p.add_argument("--db", help="database URL for the started server (default: SQLite in a temp dir)")
    p.add_argument("--json", help="also write the result to this file")
    p.add_argument("--processes", type=int, default=1, help="server processes on one database (needs --redis)")
    p.add_argument("--redis", help="Redis URL for --processes > 1 (e.g. redis://127.0.0.1:6379/0)")
    p.add_argument("--profile", help="cProfile the server while playing; write its stats to this file (with several "
                   "processes, each to `<file>.<pid>`)")
    p.add_argument("--memory", help="the server appends a memory sample (a JSON line) here every --memory-every s")
    p.add_argument("--memory-every", type=float, default=30)
    p.add_argument("--max-cached", type=int, help="the server's table cache bound (default: max(5000, 2 × tables))")
    args = p.parse_args()
    procs: list[subprocess.Popen[bytes]] = []
    tmp = tempfile.TemporaryDirectory()
    bases = [args.url] if args.url else []
    schema = None
    if args.processes > 1 and not (args.redis and args.db and args.db.startswith("postgres")):
        raise SystemExit("--processes > 1 needs --db postgresql://... and --redis redis://...")
    try:
        if not bases:
            db = args.db or f"sqlite:///{Path(tmp.name) / 'bench.sqlite3'}"
            if db.startswith("postgres") and "?" not in db:
                schema, db = pg_schema(db)
            env = {
                **os.environ,
                "BOARDLAB_MAX_CACHED_TABLES": str(args.max_cached or max(5000, args.tables * 2)),
                # one client plays every table: the per-client limits (docs/server.md) would stop it
                "BOARDLAB_RATE_LIMIT": "1000000/second",
                "BOARDLAB_RATE_CREATE": "1000000/second",
                "BOARDLAB_MAX_TABLES_PER_CLIENT": "1000000",
                "BOARDLAB_MAX_BOT_TABLES_PER_CLIENT": "1000000",
                "BOARDLAB_MAX_WS_PER_CLIENT": "1000000",
                "BOARDLAB_MAX_WEBSOCKETS": "1000000",
                "BOARDLAB_MAX_SPECTATORS_PER_TABLE": "1000000",
            }
            if args.profile:
                env["BENCH_PROFILE"] = str(Path(args.profile).resolve())
                if args.processes > 1:  # each process its own file, `<profile>.<pid>`
                    env["BENCH_PROFILE_EACH"] = "1"
            if args.memory:
                env["BENCH_MEMORY"] = str(Path(args.memory).resolve())
                env["BENCH_MEMORY_EVERY"] = str(args.memory_every)
            for i in range(args.processes):  # one after the other: the first migrates the schema
                port = free_port()
                cmd = [sys.executable, str(HERE), "--serve", "--port", str(port), "--db", db]
                if args.redis:
                    cmd += ["--redis", args.redis]
                with open(Path(tmp.name) / "log", "ab") as log:
                    procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=log))
                base = f"http://127.0.0.1:{port}"
                for _ in range(600):
                    try:
                        if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    time.sleep(0.1)
                else:
                    raise SystemExit(f"server {i} did not start: " + (Path(tmp.name) / "log").read_text()[-2000:])
                bases.append(base)
        pids: int | list[int] | None = [p.pid for p in procs] if len(procs) > 1 else (procs[0].pid if procs else None)
        result = asyncio.run(run(args, bases, pids))
        result["load_average_after"] = os.getloadavg()[0]
        if procs and args.bot_tables:  # bots past their budget play a random move instead
            result["bot_fallbacks"] = (
                (Path(tmp.name) / "log").read_text(errors="replace").count("playing a random move")
            )
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if schema is not None:
            pg_run(args.db, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        tmp.cleanup()
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
