"""The attack figures of issue #32, measured against a real server process (docs/server.md, "Abuse figures").

    python benchmarks/abuse_figures.py [--db URL] [--seconds 2]

Starts the server (tests/server/launch.py, the test game `tally`, SQLite in a temporary directory unless --db)
with its default limits and reports, as one client would see them: tables created per second on each create
route, spectator WebSockets one address can hold (and whether a newcomer is still answered), how many passwords
are checked when 290 sign-ins for one name arrive at once, and the lobby list's latency while 32 connections
flood the server with sign-ins (from one address, then from 32). Run it against another checkout with that
checkout's PYTHONPATH to get its figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "server"))
from srvkit import Server  # noqa: E402

SEATS = [{"kind": "human"}, {"kind": "human"}]
PROBE = """
import json, sys, time, httpx
url, seconds = sys.argv[1], float(sys.argv[2])
stop, out = time.monotonic() + seconds, []
time.sleep(1.0)  # let the flood build up
with httpx.Client(base_url=url, timeout=120, headers={"X-Forwarded-For": "10.81.0.1"}) as c:
    while time.monotonic() < stop:
        t0 = time.monotonic()
        c.get("/api/tables")
        out.append((time.monotonic() - t0) * 1000)
        time.sleep(0.1)
print(json.dumps(out))
"""


def fwd(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


async def tables_per_second(c: httpx.AsyncClient, route: str, address: str, seconds: float) -> float:
    """Tables one address creates per second on `route` (16 requests in flight)."""
    made = 0
    stop = time.monotonic() + seconds

    async def worker() -> None:
        nonlocal made
        while time.monotonic() < stop:
            r = await c.post(route, json={"game": "tally", "players": 2, "seats": SEATS}, headers=fwd(address))
            made += r.status_code == 201

    t0 = time.monotonic()
    await asyncio.gather(*(worker() for _ in range(16)))
    return made / (time.monotonic() - t0)


async def rematches_per_second(c: httpx.AsyncClient, address: str, n: int) -> float:
    """Rematch tables one address creates per second, asking for the rematch of `n` finished tables at once."""
    finished = []
    for i in range(n):  # finished tables, each made by a client of its own
        r = await c.post("/api/tables", json={"game": "tally", "players": 2, "seats": SEATS, "options": {"target": 1}},
                         headers=fwd(f"10.77.{i // 250}.{i % 250 + 1}"))
        t = r.json()
        tok = t["seats"][0]["token"]
        await c.post(f"/api/tables/{t['id']}/actions", json={"move": 0, "action": "add1"},
                     headers={"Authorization": f"Bearer {tok}", **fwd(f"10.77.{i // 250}.{i % 250 + 1}")})
        finished.append((t["id"], tok))
    t0 = time.monotonic()
    rs = await asyncio.gather(*(
        c.post(f"/api/tables/{tid}/rematch", headers={"Authorization": f"Bearer {tok}", **fwd(address)})
        for tid, tok in finished
    ))
    return sum(r.status_code == 200 for r in rs) / (time.monotonic() - t0)


async def sockets_held(srv: Server, c: httpx.AsyncClient, tries: int) -> tuple[int, int, int]:
    """(spectator sockets one address holds, a newcomer's GET status, a newcomer's socket accepted 0/1)."""
    tid = (await c.post("/api/tables", json={"game": "tally", "players": 2, "seats": SEATS},
                        headers=fwd("10.78.0.1"))).json()["id"]
    held = []

    async def watch(address: str) -> Any:
        ws = await websockets.connect(f"{srv.ws_url}/ws/tables/{tid}", additional_headers=fwd(address),
                                      open_timeout=10)
        await ws.send(json.dumps({"type": "hello", "tokens": []}))
        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if first.get("type") == "state":
            return ws
        await ws.close()
        return None

    for _ in range(tries):
        try:
            ws = await watch("10.78.0.2")
        except Exception:
            ws = None
        if ws is not None:
            held.append(ws)
    try:
        status = (await c.get("/api/games", headers=fwd("10.78.0.3"))).status_code
    except httpx.HTTPError:
        status = 0
    try:
        newcomer = await watch("10.78.0.3")
    except Exception:
        newcomer = None
    for ws in [*held, newcomer]:
        if ws is not None:
            await ws.close()
    return len(held), status, int(newcomer is not None)


async def checks_per_name(c: httpx.AsyncClient, n: int) -> dict[str, int]:
    """Answers to `n` simultaneous wrong sign-ins for one existing name, from `n` addresses (401 = checked)."""
    name = f"victim{os.getpid() % 10000}"
    async with httpx.AsyncClient(base_url=str(c.base_url)) as owner:  # its device cookie must not reach `c`
        await owner.post("/api/account/signup", json={"name": name, "password": "correct horse 1"},
                         headers=fwd("10.79.9.9"))
    rs = await asyncio.gather(*(
        c.post("/api/account/signin", json={"name": name, "password": f"wrong {i}"},
               headers=fwd(f"10.79.{i // 250}.{i % 250 + 1}"), timeout=300)
        for i in range(n)
    ), return_exceptions=True)
    out: dict[str, int] = {}
    for r in rs:
        key = str(r.status_code) if isinstance(r, httpx.Response) else type(r).__name__
        out[key] = out.get(key, 0) + 1
    return out


async def lobby_under_flood(c: httpx.AsyncClient, seconds: float, flooders: int, addresses: int) -> dict[str, Any]:
    """The lobby list's latency (ms) while `flooders` connections send sign-ins for unknown names in a loop."""
    stop = time.monotonic() + seconds
    signins: dict[str, int] = {}

    async def flood(i: int) -> None:
        async with httpx.AsyncClient(base_url=str(c.base_url), timeout=60) as own:
            k = 0
            while time.monotonic() < stop:
                k += 1
                try:
                    r = await own.post("/api/account/signin", json={"name": f"nobody{i}x{k}", "password": "guess 1234"},
                                       headers=fwd(f"10.80.0.{i % addresses + 1}"))
                    signins[str(r.status_code)] = signins.get(str(r.status_code), 0) + 1
                except httpx.HTTPError:
                    signins["error"] = signins.get("error", 0) + 1

    async def probe() -> list[float]:
        # a process of its own, so that the flooders' event loop here cannot delay the probe's own requests
        proc = await asyncio.create_subprocess_exec(sys.executable, "-c", PROBE, str(c.base_url), str(seconds),
                                                    stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()
        return list(json.loads(out))

    results = await asyncio.gather(probe(), *(flood(i) for i in range(flooders)))
    lat = sorted(results[0])
    q95 = lat[min(len(lat) - 1, math.ceil(0.95 * len(lat)) - 1)] if lat else None
    return {
        "probes": len(lat),
        "p50_ms": round(statistics.median(lat), 1) if lat else None,
        "p95_ms": round(q95, 1) if q95 is not None else None,
        "max_ms": round(lat[-1], 1) if lat else None,
        "signins_per_s": round(sum(signins.values()) / seconds, 1),
        "answers": signins,
    }


async def measure(srv: Server, seconds: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=srv.url, timeout=60,
                                 limits=httpx.Limits(max_connections=400, max_keepalive_connections=50)) as c:
        out["lobby_idle"] = await lobby_under_flood(c, 4, 0, 1)
        out["tables_per_s"] = {
            "POST /api/tables": round(await tables_per_second(c, "/api/tables", "10.76.0.1", seconds), 1),
            "POST /api/site/tables": round(await tables_per_second(c, "/api/site/tables", "10.76.0.2", seconds), 1),
            "rematch": round(await rematches_per_second(c, "10.76.0.3", 60), 1),
        }
        held, status, newcomer = await sockets_held(srv, c, 300)
        out["sockets"] = {"held_by_one_address_of_300": held, "newcomer_get": status, "newcomer_socket": newcomer}
        out["signin_checks_of_290_at_once"] = await checks_per_name(c, 290)
        out["lobby_flood_1_address"] = await lobby_under_flood(c, 10, 32, 1)
        out["lobby_flood_32_addresses"] = await lobby_under_flood(c, 10, 32, 32)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default=None)
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'figures.sqlite3'}"
        srv = Server(db, Path(tmp) / "server.log", env={"BOARDLAB_BOT_DELAY": "0"}).start()
        try:
            figures = asyncio.run(measure(srv, args.seconds))
        finally:
            srv.stop()
    figures["load_average"] = os.getloadavg()
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
