"""Server CPU per move, in process: the tables service's whole move (parse, apply, log line in every language,
digest, SQLite group commit in the writer thread, push of every seat's and spectator's state message), without
sockets or a load client, so that two source trees can be compared on a machine shared with other jobs.

Why: on this shared 2-core machine (load average 10-25 from other engineers' jobs) the socket benchmark
(server_load.py) varies ±10% in server CPU per move between identical runs; here one process plays the same
seeded moves on each tree in turn, and the process CPU (all threads, so the database writer's too) per move is
compared as a ratio within one run.

    python benchmarks/server_move_cpu.py --src /work/main/src --src src --rounds 3

Each round runs every tree once, in alternation (A B A B ...); a tree's child process creates --tables Cacao
tables of --players human seats, attaches to each one connection holding every seat plus --spectators
spectator connections (the message is encoded as for a socket and dropped), and plays --moves random legal
moves round-robin over the tables (a finished table is replaced). Prints the CPU ms per move of each tree and
run (the process's, and the event-loop thread's alone), their medians and minimums, and their ratios to the first
tree, with the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()


class Sink:
    """A connection whose messages are counted and dropped (the encoding is the server's cost, the socket's not)."""

    def __init__(self, seats: list[int | None], lang: str) -> None:
        self.seats = seats
        self.lang = lang
        self.pushed = 0
        self.user_id = None

    def push(self, text: str) -> None:
        self.pushed += 1


async def child(a: argparse.Namespace) -> dict[str, Any]:
    from boardlab.server.bots import BotRunner
    from boardlab.server.service import TableService
    from boardlab.server.site import Site
    from boardlab.server.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'db.sqlite3'}")
        svc = TableService(store, BotRunner(workers=1, executor="thread", seconds=0.1))
        Site(svc)
        rng = random.Random(a.seed)
        sinks: list[Sink] = []

        async def table() -> Any:
            t, _ = await svc.create(a.game, a.players, {}, [{"kind": "human"}] * a.players, False)
            for conn in [Sink(list(range(a.players)), "en")] + [Sink([None], "en") for _ in range(a.spectators)]:
                t.conns.add(conn)  # as svc.attach, without the presence push
                sinks.append(conn)
            return t

        tables = [await table() for _ in range(a.tables)]
        for _ in range(a.warmup):  # the first moves import and warm what the measured ones use
            t = tables[0]
            await svc.act(t, t.state.current_player, t.version, str(t.state.legal_actions()[0]), None)
        cpu0, loop0, wall0 = time.process_time(), time.thread_time(), time.perf_counter()
        for i in range(a.moves):
            k = i % len(tables)
            t = tables[k]
            if t.over:
                t = tables[k] = await table()
            action = rng.choice(t.state.legal_actions())
            await svc.act(t, t.state.current_player, t.version, str(action), None)
        cpu, loop, wall = time.process_time() - cpu0, time.thread_time() - loop0, time.perf_counter() - wall0
        store.engine.dispose()
        return {
            "cpu_ms_per_move": round(cpu / a.moves * 1000, 4),
            "loop_cpu_ms_per_move": round(loop / a.moves * 1000, 4),  # the event-loop thread only
            "wall_ms_per_move": round(wall / a.moves * 1000, 4),
            "messages": sum(s.pushed for s in sinks),
        }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--src", action="append", help="a source tree (PYTHONPATH) to measure; give two or more")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--game", default="cacao")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--spectators", type=int, default=1, help="spectator connections per table")
    p.add_argument("--moves", type=int, default=3000)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        print(json.dumps(asyncio.run(child(a))))
        return
    srcs = [str(Path(s).resolve()) for s in (a.src or ["src"])]
    runs: dict[str, dict[str, list[float]]] = {s: {"cpu": [], "loop": []} for s in srcs}
    loads = []
    for r in range(a.rounds):
        for s in srcs:
            argv = [sys.executable, str(HERE), "--child", *sys.argv[1:]]
            env = {**os.environ, "PYTHONPATH": s}
            out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout
            res = json.loads(out.strip().splitlines()[-1])
            runs[s]["cpu"].append(res["cpu_ms_per_move"])
            runs[s]["loop"].append(res["loop_cpu_ms_per_move"])
            loads.append(os.getloadavg()[0])
            print(f"round {r + 1} {s}: {res} load {loads[-1]:.1f}", flush=True)

    def summary(kind: str, how: Any) -> dict[str, Any]:
        anchor = how(runs[srcs[0]][kind])
        return {s: {"ms": round(how(v[kind]), 4), "ratio": round(how(v[kind]) / anchor, 3)} for s, v in runs.items()}

    # on a loaded machine contention only adds CPU time (cache misses, migrations): the minimum is the steadier
    # figure, the median is given beside it
    print(json.dumps({
        "game": a.game, "players": a.players, "tables": a.tables, "spectators_per_table": a.spectators,
        "moves": a.moves, "rounds": a.rounds, "pure": os.environ.get("BOARDLAB_PURE") == "1",
        "process_cpu_ms_per_move": {"median": summary("cpu", statistics.median), "min": summary("cpu", min)},
        "loop_cpu_ms_per_move": {"median": summary("loop", statistics.median), "min": summary("loop", min)},
        "runs": runs, "load_average": [round(x, 1) for x in loads],
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }, indent=1))


if __name__ == "__main__":
    main()
