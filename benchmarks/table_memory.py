"""Memory per cached live table of one server process (issue #37's plan to 100,000 live tables, docs/server.md).

    python benchmarks/table_memory.py [--tables 1000] [--moves 20] [--game cacao] [--db postgresql://...]

Starts a server (its own PostgreSQL schema, or SQLite in a temporary directory), reads its resident memory
(VmRSS), creates `--tables` tables of 2 people, plays `--moves` random legal moves at each over HTTP, reads the
memory again, and prints the difference per table (created, and after the moves).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from server_load import free_port, pg_run, pg_schema  # noqa: E402


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def main() -> None:
    import subprocess

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--moves", type=int, default=20)
    p.add_argument("--game", default="cacao")
    p.add_argument("--db", default=None)
    a = p.parse_args()
    tmp = tempfile.TemporaryDirectory()
    schema = None
    db = a.db or f"sqlite:///{Path(tmp.name) / 'm.sqlite3'}"
    if db.startswith("postgres"):
        schema, db = pg_schema(db)
    port = free_port()
    env = {**os.environ, "BOARDLAB_RATE_LIMIT": "1000000/second", "BOARDLAB_RATE_CREATE": "1000000/second",
           "BOARDLAB_MAX_TABLES_PER_CLIENT": "1000000", "BOARDLAB_MAX_CACHED_TABLES": str(a.tables * 2)}
    proc = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "server_load.py"), "--serve", "--port",
                             str(port), "--db", db], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(1200):
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        rng = random.Random(1)
        with httpx.Client(base_url=base, timeout=60) as c:
            c.get(f"/api/games/{a.game}")  # the game's modules loaded before the first reading
            time.sleep(1)
            before = rss_kib(proc.pid)
            tables = []
            for _ in range(a.tables):
                r = c.post("/api/tables", json={"game": a.game, "players": 2, "seats": [{"kind": "human"}] * 2})
                r.raise_for_status()
                tables.append(r.json())
            created = rss_kib(proc.pid)
            moves = 0
            for t in tables:
                toks = {s["seat"]: s["token"] for s in t["seats"]}
                for _ in range(a.moves):
                    s = c.get(f"/api/tables/{t['id']}", headers={"Authorization": f"Bearer {toks[0]}"}).json()
                    if s["over"]:
                        break
                    me = s["current"]
                    s = c.get(f"/api/tables/{t['id']}", headers={"Authorization": f"Bearer {toks[me]}"}).json()
                    act = rng.choice(s["legal"])["action"]
                    r = c.post(f"/api/tables/{t['id']}/actions", json={"move": s["version"], "action": act},
                               headers={"Authorization": f"Bearer {toks[me]}"})
                    moves += r.status_code == 200
            played = rss_kib(proc.pid)
        out = {"game": a.game, "tables": a.tables, "moves": moves, "rss_before_mib": round(before / 1024, 1),
               "kib_per_table_created": round((created - before) / a.tables, 1),
               "kib_per_table_after_moves": round((played - before) / a.tables, 1),
               "moves_per_table": round(moves / a.tables, 1), "load_average": os.getloadavg()[0],
               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
        print(json.dumps(out, indent=1))
    finally:
        proc.terminate()
        proc.wait(20)
        if schema is not None:
            pg_run(a.db, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        tmp.cleanup()


if __name__ == "__main__":
    main()
