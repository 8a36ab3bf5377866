#!/usr/bin/env bash
# Runs the whole suite: lint, then pytest. Used by `make test` and CI.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
$BIN/ruff check src tests
$BIN/pytest -q -p no:cacheprovider "$@"
