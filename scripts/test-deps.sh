#!/usr/bin/env bash
# Installs what the test suite needs outside Python, when this machine lets us:
# Debian's chromium (browser tests) and a running PostgreSQL (the scale-out suite).
# Nothing here is needed by `make run`; failures only mean those suites skip and say so.
set -u
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test-deps: installing Debian chromium for the browser tests"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      chromium chromium-driver fonts-noto-cjk >/dev/null) || echo "test-deps: could not install chromium"
  else
    echo "test-deps: chromium is missing and cannot be installed here; browser tests will skip"
  fi
fi
if command -v pg_ctlcluster >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  v=$(ls /etc/postgresql 2>/dev/null | head -n 1)
  [ -n "$v" ] && pg_ctlcluster --skip-systemctl-redirect "$v" main start 2>/dev/null || true
fi
exit 0
