#!/usr/bin/env bash
# The whole suite: lint, then pytest. Used by `make test` and CI.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
bash scripts/test-deps.sh
if $BIN/python - <<'PY' 2>/dev/null
import socket; socket.create_connection(("127.0.0.1", 5432), timeout=2).close()
PY
then
  echo "make test: PostgreSQL answers on 127.0.0.1:5432: the server suite runs on SQLite and PostgreSQL"
  export BOARDLAB_TEST_POSTGRES=1
else
  echo "make test: no PostgreSQL on 127.0.0.1:5432: the server suite runs on SQLite only"
fi
$BIN/ruff check src tests
$BIN/lint-imports --no-logo
# The native build (make native) is expected wherever a C compiler is: a silent fallback would go unnoticed.
if command -v cc >/dev/null; then export BOARDLAB_EXPECT_NATIVE=1; fi
NATIVE=$($BIN/python scripts/compile.py status)
echo "$NATIVE"
# In parallel: one worker per core (BOARDLAB_TEST_WORKERS to change it; 0 runs in this process). A file's tests
# stay on one worker (--dist loadfile), so a module's server or browser is started once; every server test
# takes its own free port, temporary directory and PostgreSQL schema (tests/server/srvkit.py).
WORKERS=${BOARDLAB_TEST_WORKERS:-auto}
$BIN/pytest -q -p no:cacheprovider -n "$WORKERS" --dist loadfile --no-loadscope-reorder --durations=30 "$@"
if [ $# -eq 0 ] && [[ $NATIVE == compiled* ]]; then
  # tests/test_compiled.py (above) plays the same games native and pure; here every recorded game (marker
  # `recorded`: golden playthroughs, replay digests, recorded searches, one or more per compiled game) is
  # replayed on the pure-Python source as well, so both modes are held to the same recorded games.
  echo "make test: the compiled engines passed; now the recorded games on the pure-Python source"
  BOARDLAB_PURE=1 BOARDLAB_EXPECT_NATIVE= $BIN/pytest -q -p no:cacheprovider -m recorded \
    tests/games tests/bots
  BOARDLAB_PURE=1 BOARDLAB_EXPECT_NATIVE= $BIN/pytest -q -p no:cacheprovider \
    tests/test_compiled.py::test_the_mode_is_the_expected_one \
    tests/test_compiled.py::test_the_search_bot_and_the_rng_helper_are_native_exactly_when_the_build_is
fi
