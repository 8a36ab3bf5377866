"""A small run of the server fuzzer (benchmarks/fuzz_server.py): 0 server errors, no traceback in the
server log, the reference tables unchanged. `BOARDLAB_DEEP=1` runs 100,000 inputs (docs/server.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from srvkit import ROOT

from depth import DEEP


def test_fuzz_small(tmp_path: Path) -> None:
    inputs = "100000" if DEEP else "1500"
    out = tmp_path / "fuzz.json"
    r = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "fuzz_server.py"),
            "--inputs",
            inputs,
            "--concurrency",
            "8",
            "--seed",
            "7",
            "--json",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert out.exists(), r.stdout[-2000:] + r.stderr[-2000:]
    res = json.loads(out.read_text())
    assert res["inputs"] >= int(inputs)
    assert res["server_errors"] == 0, res["first_errors"]
    assert res["tracebacks_in_server_log"] == 0, res["log_tail"]
    assert res["reference_tables_unchanged"] and res["server_alive_after"]
    assert r.returncode == 0
    # the inputs reached the handlers, not only the validation layer: accepted requests, and deliberately stale
    # moves (real seat tokens, move 0 on a table at move 1, HTTP and WebSocket), every one refused with 409
    # `stale_move` (any other answer, or that table moving, is a server error above)
    codes = res["codes"]
    assert codes.get("200", 0) > 0
    assert codes.get("stale:409", 0) >= 10, codes
