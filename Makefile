# The two commands a fresh machine needs: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: run test lint bench clean install dev native

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip setuptools wheel >/dev/null

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e '.[native]' >/dev/null
	touch $@

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e '.[dev,native]'
	touch $(STAMP) $@

# The hot engine modules compiled with mypyc (src/boardlab/_compiled.py); rebuilt when their sources
# change; never fails: without a C compiler the package runs from source.
native: $(STAMP)
	$(BIN)/python scripts/compile.py build

install: $(STAMP)
dev: $(DEVSTAMP)

run: $(STAMP) native
	$(BIN)/boardlab serve $(if $(PORT),--port $(PORT))

test: $(DEVSTAMP) native
	bash scripts/test.sh

lint: $(DEVSTAMP)
	$(BIN)/ruff check src tests
	$(BIN)/lint-imports --no-logo

bench: $(STAMP)
	$(BIN)/boardlab bench

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache
	find src -name '*.so' -delete; rm -f src/boardlab/_compiled.json
