"""Start the real server in a subprocess with the test-only game registered (used by conftest)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import toygame  # noqa: F401  (registers "tally")

from boardlab.server.__main__ import main

if __name__ == "__main__":
    main()
