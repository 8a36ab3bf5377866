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
$BIN/pytest -q -p no:cacheprovider "$@"
