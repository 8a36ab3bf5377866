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
$BIN/pytest -q -p no:cacheprovider "$@"
if [ $# -eq 0 ] && [[ $NATIVE == compiled* ]]; then
  echo "make test: the compiled engines passed; now the same engine and bot tests on the pure-Python source"
  BOARDLAB_PURE=1 BOARDLAB_EXPECT_NATIVE= $BIN/pytest -q -p no:cacheprovider \
    tests/games/cacao tests/games/pocket_mars tests/games/block_and_key tests/games/cooper_island tests/bots \
    tests/test_compiled.py
fi
