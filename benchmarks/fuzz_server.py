"""Fuzz a real boardlab server over HTTP and WebSocket; count server errors; check reference tables.

    python benchmarks/fuzz_server.py --inputs 100000 [--concurrency 16] [--db URL] [--seed 1]

Starts a server (SQLite in a temp dir, or --db), creates a few tables the fuzzer may play (it holds
their tokens) and reference tables it does not (their tokens are kept aside), then sends `--inputs`
inputs from `--concurrency` workers at once: HTTP requests on every route with valid, stale, forged,
malformed, oversized, wrongly typed, deeply nested and control-character bodies, headers and ids,
and WebSocket sessions with good and bad hellos and random act/undo/ping/garbage messages (one
message = one input). It reports the status codes, the number of 5xx answers and of WebSocket
`internal` errors, tracebacks in the server log, and whether the reference tables (state, log, seats)
are byte-for-byte what they were. Besides the random inputs, about one in 30 is a deliberately stale move
(move 0, over HTTP or WebSocket with a real seat token) on a table of its own that was moved once before
the run: each must be refused with 409 `stale_move`, and that table must still be at move 1 at the end, so
the stale-move path is exercised on every run instead of by chance. Exit status 1 if any of those is wrong.
A small run is in the test suite (tests/server/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import websockets

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent))
from server_load import free_port, pg_run, pg_schema, serve_main  # noqa: E402

NASTY_STRINGS = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\x1b[2J",
    "\ud800",
    "é" * 300,
    "𝕏" * 50,
    "x" * 5000,
    "null",
    "[]",
    "{}",
    "../../etc/passwd",
    "%00",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "\u202e",
    "\r\nX-Injected: 1",
]
NASTY_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.0,
    0.5,
    2**63,
    -(2**63),
    10**30,
    1e308,
    "1",
    [],
    {},
    [1],
    {"a": 1},
    "end",
    *NASTY_STRINGS,
]


def nasty(r: random.Random) -> Any:
    return r.choice(NASTY_VALUES)


def deep(r: random.Random) -> str:
    n = r.choice([100, 1000, 5000, 60000])
    return r.choice(["[" * n, "[" * n + "]" * n, '{"a":' * n + "1" + "}" * n])


class Fuzzer:
    def __init__(self, base: str, tables: list[dict[str, Any]], seed: int) -> None:
        self.base = base
        self.ws_base = base.replace("http", "ws", 1)
        self.tables = tables
        self.tokens = [s["token"] for t in tables for s in t["seats"] if s["token"]]
        self.r = random.Random(seed)
        self.codes: Counter[str] = Counter()
        self.errors: list[str] = []
        self.inputs = 0
        self.stale: dict[str, Any] | None = None  # a table at move 1 that only `stale_one` writes to

    async def stale_one(self, c: httpx.AsyncClient) -> None:
        """A move with an out-of-date move number, from a seat that holds a real token: the answer must be
        409 `stale_move` (and the table must not move; `run` checks that at the end)."""
        assert self.stale is not None
        r = self.r
        seat = r.choice(self.stale["seats"])
        action = r.choice(["end", "add1", "x", self.stale["next"]])
        self.inputs += 1
        if r.random() < 0.5:
            try:
                resp = await c.post(f"/api/tables/{self.stale['id']}/actions", json={"move": 0, "action": action},
                                    headers={"authorization": "Bearer " + seat["token"]})
            except httpx.HTTPError as e:
                self.codes[f"stale-http:{type(e).__name__}"] += 1
                return
            got = (resp.status_code, resp.json().get("error") if resp.headers.get("content-type", "").startswith(
                "application/json") else None)
        else:
            try:
                async with websockets.connect(f"{self.ws_base}/ws/tables/{self.stale['id']}", open_timeout=10,
                                              close_timeout=2) as ws:
                    await ws.send(json.dumps({"type": "hello", "tokens": [seat["token"]], "lang": "en"}))
                    await ws.send(json.dumps({"type": "act", "seat": seat["seat"], "move": 0, "action": action,
                                              "id": "stale"}))
                    while True:
                        reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
                        if reply.get("id") == "stale":
                            break
            except (websockets.ConnectionClosed, OSError, TimeoutError, websockets.InvalidStatus) as e:
                self.codes[f"stale-ws:{type(e).__name__}"] += 1
                return
            got = (reply.get("status"), reply.get("error"))
        if got == (409, "stale_move"):
            self.codes["stale:409"] += 1
        else:
            self.errors.append(f"stale move {action!r} for seat {seat['seat']} answered {got}")

    def table_id(self) -> str:
        r = self.r
        return r.choice([r.choice(self.tables)["id"]] * 3 + ["nosuch", "x" * 64, "x" * 65, "%2e%2e", "a b", "0", "-"])

    def token(self) -> str | None:
        r = self.r
        return r.choice([None, r.choice(self.tokens), r.choice(self.tokens), "forged", "x" * 3000, "\x00", ""])

    def body(self) -> Any:
        r = self.r
        kind = r.random()
        if kind < 0.15:
            return deep(r)
        if kind < 0.25:
            return r.choice(["{", "not json", '{"move": 0, "action": "end"', "\xff\xfe", "[1,2]", "null"])
        if kind < 0.3:
            return "x" * r.choice([65 * 1024, 200_000])
        shape = r.choice(["act", "undo", "join", "bot", "create", "junk"])
        if shape == "act":
            d: dict[str, Any] = {
                "move": r.choice([0, 1, 2, 5, nasty(r)]),
                "action": r.choice(["end", "add1", nasty(r)]),
            }
        elif shape == "undo":
            d = {"move": r.choice([0, 1, nasty(r)])}
        elif shape == "join":
            d = {"seat": r.choice([0, 1, 2, 15, 16, nasty(r)]), "name": nasty(r)}
        elif shape == "bot":
            d = {"bot": r.choice(["random", "greedy", "hard", nasty(r)])}
        elif shape == "create":
            n = r.choice([1, 2, 3, 4, 17, nasty(r)])
            d = {
                "game": r.choice(["cacao", "pocket_mars", "nosuch", nasty(r)]),
                "players": n,
                "options": r.choice([{}, {"components": "/etc/passwd"}, {"x": nasty(r)}, nasty(r)]),
                "seats": [
                    {
                        "kind": r.choice(["human", "open", "bot", nasty(r)]),
                        "bot": r.choice([None, "random", nasty(r)]),
                        "name": nasty(r),
                    }
                    for _ in range(r.choice([0, 1, 2, 3]))
                ],
                "public": r.choice([True, False, nasty(r)]),
            }
        else:
            d = {str(nasty(r))[:20]: nasty(r) for _ in range(r.randint(0, 4))}
        if r.random() < 0.2:
            d[str(nasty(r))[:10]] = nasty(r)  # an extra field
        try:
            return json.dumps(d)
        except (TypeError, ValueError):
            return "{}"

    async def http_one(self, c: httpx.AsyncClient) -> None:
        r = self.r
        tid = self.table_id()
        seat = r.choice(["0", "1", "5", "16", "-1", "x", "1.0"])
        method, path = r.choice(
            [
                ("GET", "/api/games"),
                ("GET", "/api/tables"),
                ("POST", "/api/tables"),
                ("GET", f"/api/tables/{tid}"),
                ("POST", f"/api/tables/{tid}/actions"),
                ("POST", f"/api/tables/{tid}/undo"),
                ("GET", f"/api/tables/{tid}/log"),
                ("GET", f"/api/tables/{tid}/replay?step={r.choice(['0', '-1', '99999999', 'x', '1e3'])}"),
                ("POST", f"/api/tables/{tid}/join"),
                ("POST", f"/api/tables/{tid}/seats/{seat}/bot"),
                ("POST", f"/api/tables/{tid}/seats/{seat}/human"),
                ("POST", f"/api/tables/{tid}/rematch"),
                ("GET", "/t/" + tid),
                ("GET", "/static/" + r.choice(["common.js", "../app.py", "%2e%2e/x", "i18n/en.json"])),
                (r.choice(["PUT", "DELETE", "PATCH", "OPTIONS"]), f"/api/tables/{tid}"),
            ]
        )
        if r.random() < 0.3:
            sep = "&" if "?" in path else "?"
            path += f"{sep}lang={r.choice(['en', 'zh-TW', 'xx', 'x' * 50, '%00'])}"
        headers: dict[str, str] = {"content-type": r.choice(["application/json"] * 4 + ["text/plain", "x/y"])}
        tok = self.token()
        if tok is not None:
            headers["authorization"] = r.choice(["Bearer ", "Bearer ", "Basic ", "bearer", ""]) + tok
        if r.random() < 0.05:
            headers["x-big"] = "a" * 20_000
        try:
            resp = await c.request(method, path, content=self.body().encode("utf-8", "surrogatepass"), headers=headers)
            self.codes[str(resp.status_code)] += 1
            if resp.status_code >= 500 and resp.status_code != 503:
                self.errors.append(f"{resp.status_code} {method} {path}: {resp.text[:200]}")
        except httpx.LocalProtocolError:  # the client library refuses to send it (e.g. NUL in a header)
            self.codes["not_sent"] += 1
            return
        except (httpx.HTTPError, UnicodeError) as e:
            self.codes[f"http:{type(e).__name__}"] += 1
        self.inputs += 1

    async def ws_session(self, budget: int) -> None:
        r = self.r
        tid = self.table_id()
        try:
            async with websockets.connect(
                f"{self.ws_base}/ws/tables/{tid}", open_timeout=10, max_size=2**22, close_timeout=2
            ) as ws:
                hello: Any = {"type": "hello", "tokens": [t for t in [self.token(), self.token()] if t], "lang": "en"}
                raw_hello = r.choice([json.dumps(hello)] * 6 + [deep(r), "{}", "[]", json.dumps({"tokens": nasty(r)})])
                await ws.send(raw_hello)
                self.inputs += 1
                for _ in range(budget):
                    kind = r.random()
                    if kind < 0.1:
                        msg: Any = deep(r)
                    elif kind < 0.15:
                        msg = r.choice([b"\x00\x01", "not json", "", "[]", "1"])
                    else:
                        m = {
                            "type": r.choice(["act", "act", "undo", "ping", nasty(r)]),
                            "seat": r.choice([0, 1, 1.0, True, None, -1, 99, nasty(r)]),
                            "move": r.choice([0, 1, 2, nasty(r)]),
                            "action": r.choice(["end", "add1", nasty(r)]),
                            "id": nasty(r),
                        }
                        msg = json.dumps(m)
                    if isinstance(msg, str) and len(msg) > 60_000:
                        msg = msg[:60_000]
                    await ws.send(msg)
                    self.inputs += 1
                    try:
                        while True:
                            reply = json.loads(await asyncio.wait_for(ws.recv(), 0.05))
                            if reply.get("type") == "error":
                                self.codes[f"ws:{reply.get('status')}"] += 1
                                if reply.get("status", 0) >= 500 and reply.get("error") != "storage":
                                    self.errors.append(f"ws {reply}")
                    except TimeoutError:
                        pass
        except (websockets.ConnectionClosed, OSError, TimeoutError, websockets.InvalidStatus) as e:
            self.codes[f"ws-closed:{type(e).__name__}"] += 1


async def moved_once(c: httpx.AsyncClient, t: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal move on a fresh table, so that move 0 is stale from then on."""
    seats = [s for s in t["seats"] if s["token"]]
    state = (await c.get(f"/api/tables/{t['id']}", headers={"authorization": "Bearer " + seats[0]["token"]})).json()
    mover = next(s for s in seats if s["seat"] == state["current"])
    first = (await c.get(f"/api/tables/{t['id']}", headers={"authorization": "Bearer " + mover["token"]})).json()
    r = await c.post(f"/api/tables/{t['id']}/actions", json={"move": 0, "action": first["legal"][0]["action"]},
                     headers={"authorization": "Bearer " + mover["token"]})
    r.raise_for_status()
    after = r.json()
    nxt = after["legal"][0]["action"] if after["legal"] else "end"
    return {"id": t["id"], "seats": seats, "next": nxt}


async def snapshot(c: httpx.AsyncClient, t: dict[str, Any]) -> list[str]:
    """Everything about a reference table, as each of its seats and a spectator sees it."""
    out = []
    for tok in [None] + [s["token"] for s in t["seats"] if s["token"]]:
        h = {"authorization": f"Bearer {tok}"} if tok else {}
        out.append((await c.get(f"/api/tables/{t['id']}", headers=h)).text)
        out.append((await c.get(f"/api/tables/{t['id']}/log", headers=h)).text)
    return out


async def run(base: str, inputs: int, concurrency: int, seed: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:

        async def create(seats: list[dict[str, Any]], public: bool = False) -> dict[str, Any]:
            r = await c.post("/api/tables", json={"game": "cacao", "players": 2, "seats": seats, "public": public})
            r.raise_for_status()
            return dict(r.json())

        playable = [
            await create([{"kind": "human"}, {"kind": "human"}]),
            await create([{"kind": "human"}, {"kind": "open"}], public=True),
            await create([{"kind": "human"}, {"kind": "bot", "bot": "random"}]),
        ]
        reference = [await create([{"kind": "human"}, {"kind": "human"}]) for _ in range(2)]
        before = [await snapshot(c, t) for t in reference]
        f = Fuzzer(base, playable + [{"id": t["id"], "seats": []} for t in reference], seed)
        f.stale = await moved_once(c, await create([{"kind": "human"}, {"kind": "human"}]))
        t0 = time.monotonic()
        limits = httpx.Limits(max_connections=concurrency)
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as fc:

            async def worker(k: int) -> None:
                while f.inputs < inputs:
                    if f.r.random() < 0.033:
                        await f.stale_one(fc)
                    elif f.r.random() < 0.15:
                        await f.ws_session(f.r.randint(1, 40))
                    else:
                        await f.http_one(fc)

            await asyncio.gather(*(worker(k) for k in range(concurrency)))
        seconds = time.monotonic() - t0
        after = [await snapshot(c, t) for t in reference]
        stale_version = (await c.get(f"/api/tables/{f.stale['id']}")).json().get("version")
    if stale_version != 1:
        f.errors.append(f"the stale-move table moved: it is at move {stale_version}, not 1")
    return {
        "inputs": f.inputs,
        "seconds": round(seconds, 1),
        "inputs_per_second": round(f.inputs / seconds, 1),
        "server_errors": len(f.errors),
        "first_errors": f.errors[:10],
        "codes": dict(sorted(f.codes.items())),
        "reference_tables_unchanged": before == after,
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve_main(sys.argv[2:])
        return
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--inputs", type=int, default=100_000)
    p.add_argument("--concurrency", type=int, default=16)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", help="database URL (default: SQLite in a temp dir)")
    p.add_argument("--json", help="also write the result to this file")
    args = p.parse_args()
    tmp = tempfile.TemporaryDirectory()
    port = free_port()
    db = args.db or f"sqlite:///{Path(tmp.name) / 'fuzz.sqlite3'}"
    schema = None
    if db.startswith("postgres") and "?" not in db:  # a schema of its own, dropped at the end
        schema, db = pg_schema(db)
    log_path = Path(tmp.name) / "log"
    env = {
        **os.environ,
        "BOARDLAB_RATE_LIMIT": "1000000/second",  # the fuzzer is one client sending as fast as it can
        "BOARDLAB_RATE_CREATE": "1000000/second",
        "BOARDLAB_RATE_SEATS": "1000000/second",
        "BOARDLAB_MAX_TABLES_PER_CLIENT": "1000000",
        "BOARDLAB_MAX_LOBBY_PER_CLIENT": "1000000",
        "BOARDLAB_MAX_BOT_TABLES_PER_CLIENT": "1000000",
        "BOARDLAB_BOT_SECONDS": "0.05",
        "BOARDLAB_SQLITE_SYNC": "NORMAL",
    }
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, str(HERE), "--serve", "--port", str(port), "--db", db], env=env, stdout=log, stderr=log
        )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        else:
            raise SystemExit("server did not start: " + log_path.read_text()[-2000:])
        result = asyncio.run(run(base, args.inputs, args.concurrency, args.seed))
        alive = httpx.get(base + "/healthz", timeout=5).status_code == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        if schema is not None:
            pg_run(args.db, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    text = log_path.read_text(errors="replace")
    result["server_alive_after"] = alive
    result["tracebacks_in_server_log"] = text.count("Traceback")
    result["log_tail"] = text[-1500:] if result["tracebacks_in_server_log"] else ""
    tmp.cleanup()
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    ok = (
        result["server_errors"] == 0
        and result["reference_tables_unchanged"]
        and alive
        and result["tracebacks_in_server_log"] == 0
    )
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
