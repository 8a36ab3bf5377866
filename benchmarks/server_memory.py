"""Does the server's memory level off? The tables service played in process for --seconds (default 10 minutes):
--tables live Cacao tables, each with one connection holding every seat and --spectators spectators (messages
encoded and dropped, as in server_move_cpu.py), random legal moves round-robin, every finished table replaced by a
new one, with the table cache bounded at --max-cached (BOARDLAB_MAX_CACHED_TABLES). Every --every seconds one JSON
line: moves so far, RSS (and RSS less tracemalloc's own bookkeeping), the memory tracemalloc traces, the tables in
the cache, still referenced, and with site information, the objects the collector tracks, and the lines whose
traced memory grew most since the first sample taken with the cache full.

Why in process: the socket benchmark's load client and a starved server on a machine at load average 20-40 made a
10-minute socket run fail (a table creation's connection reset); the memory in question is the service's (tables,
logs, messages, site information), which this exercises the same way.

    python benchmarks/server_memory.py --seconds 600 --max-cached 100 --out mem.jsonl
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_move_cpu import Sink


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def main(a: argparse.Namespace) -> None:
    os.environ["BOARDLAB_MAX_CACHED_TABLES"] = str(a.max_cached)  # read when the service module loads
    from boardlab.server.bots import BotRunner
    from boardlab.server.service import TableService
    from boardlab.server.site import Site
    from boardlab.server.store import Store

    tracemalloc.start(a.frames)
    out = Path(a.out)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'db.sqlite3'}")
        svc = TableService(store, BotRunner(workers=1, executor="thread", seconds=0.1))
        site = Site(svc)
        rng = random.Random(a.seed)

        async def table() -> Any:
            t, _ = await svc.create(a.game, a.players, {}, [{"kind": "human"}] * a.players, False)
            for conn in [Sink(list(range(a.players)), "en")] + [Sink([None], "en") for _ in range(a.spectators)]:
                t.conns.add(conn)
            return t

        tables = [await table() for _ in range(a.tables)]
        t0 = time.monotonic()
        next_sample = t0 + a.every
        moves = created = 0
        first: tracemalloc.Snapshot | None = None
        while time.monotonic() - t0 < a.seconds:
            k = moves % len(tables)
            t = tables[k]
            if t.over:
                t.conns.clear()  # its players left
                t = tables[k] = await table()
                created += 1
            await svc.act(t, t.state.current_player, t.version, str(rng.choice(t.state.legal_actions())), None)
            moves += 1
            if time.monotonic() >= next_sample:
                del t
                gc.collect()
                snap = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
                if first is None and len(svc._tables) >= a.max_cached:
                    first = snap
                growth = snap.compare_to(first, "lineno")[:6] if first is not None else []
                del snap
                own = tracemalloc.get_tracemalloc_memory() // 1024
                row = {
                    "t": round(time.monotonic() - t0),
                    "moves": moves,
                    "tables_created": created,
                    "rss_kib": rss_kib(),
                    "rss_less_tracemalloc_kib": rss_kib() - own,
                    "traced_kib": tracemalloc.get_traced_memory()[0] // 1024,
                    "cached_tables": len(svc._tables),
                    "alive_tables": len(svc._alive),
                    "site_infos": len(site.info),
                    "gc_tracked": len(gc.get_objects()),
                    "growth_since_cache_full": [
                        f"{s.traceback[0].filename.rsplit('/', 3)[-1]}:{s.traceback[0].lineno} "
                        f"{s.size_diff // 1024:+d} KiB {s.count_diff:+d}"
                        for s in growth
                    ],
                }
                with out.open("a") as f:
                    f.write(json.dumps(row) + "\n")
                print(json.dumps(row), flush=True)
                next_sample = time.monotonic() + a.every
        store.engine.dispose()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=600)
    p.add_argument("--every", type=float, default=30)
    p.add_argument("--game", default="cacao")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--tables", type=int, default=40)
    p.add_argument("--spectators", type=int, default=1)
    p.add_argument("--max-cached", type=int, default=100)
    p.add_argument("--frames", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="server-memory.jsonl")
    asyncio.run(main(p.parse_args()))
