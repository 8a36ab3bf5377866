"""What issue #34's polled and paged reads cost, as ratios to an anchor read in the same run.

Starts a real server (tests/server/srvkit.py, SQLite in a temporary directory), signs up one account holding
`--tables` unfinished 2-player Cacao tables (half waiting for its move) and, for the leaderboard, nothing more
than the rated results the run makes; then times, alternately, `--requests` of each read over one keep-alive
connection: the anchor `GET /api/me` (one session lookup) and `GET /api/me/turns` (the header's poll every 30 s
per open page), the profile `GET /api/users/{name}` and `GET /api/leaderboard/cacao?players=2`. Prints medians
and ratios to the anchor; docs/benchmarks.md has a run.

    PYTHONPATH=src python benchmarks/community_figures.py [--tables 60] [--requests 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server"))
from srvkit import Server  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=60)
    p.add_argument("--requests", type=int, default=200)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(f"sqlite:///{tmp}/b.sqlite3", Path(tmp) / "server.log",
                     {"BOARDLAB_RATE_LIMIT": "100000/second", "BOARDLAB_RATE_CREATE": "100000/second"}).start()
        try:
            with httpx.Client(base_url=srv.url, timeout=30) as c:
                r = c.post("/api/account/signup", json={"name": "benchy", "password": "a long password"})
                csrf = r.json()["user"]["csrf"]
                for i in range(args.tables):
                    made = c.post("/api/site/tables", headers={"X-CSRF-Token": csrf}, json={
                        "game": "cacao", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
                    if i % 2:  # the other seat's turn at half of them
                        tok = made["seats"][0]["token"]
                        st = c.get(f"/api/tables/{made['id']}", headers={"Authorization": f"Bearer {tok}"}).json()
                        c.post(f"/api/tables/{made['id']}/actions", headers={"Authorization": f"Bearer {tok}"},
                               json={"move": st["version"], "action": st["legal"][0]["action"]})
                assert c.get("/api/me/turns").json()["count"] >= args.tables // 2
                paths = ["/api/me", "/api/me/turns", "/api/users/benchy", "/api/leaderboard/cacao?players=2"]
                took: dict[str, list[float]] = {x: [] for x in paths}
                for _ in range(args.requests):
                    for x in paths:
                        t0 = time.perf_counter()
                        assert c.get(x).status_code == 200
                        took[x].append((time.perf_counter() - t0) * 1000)
            anchor = statistics.median(took[paths[0]])
            print(f"{args.tables} tables, {args.requests} requests each, load average {os.getloadavg()[0]:.1f}")
            for x in paths:
                med = statistics.median(took[x])
                print(f"{x:40s} median {med:6.2f} ms  p90 {statistics.quantiles(took[x], n=10)[-1]:6.2f} ms  "
                      f"x{med / anchor:.2f} of GET /api/me")
        finally:
            srv.stop()


if __name__ == "__main__":
    main()
