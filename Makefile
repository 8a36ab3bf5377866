# The two commands a fresh machine needs: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: run test lint bench clean install dev

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip setuptools wheel >/dev/null

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e . >/dev/null
	touch $@

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e '.[dev]'
	touch $(STAMP) $@

install: $(STAMP)
dev: $(DEVSTAMP)

run: $(STAMP)
	$(BIN)/boardlab serve $(if $(PORT),--port $(PORT))

test: $(DEVSTAMP)
	bash scripts/test.sh

lint: $(DEVSTAMP)
	$(BIN)/ruff check src tests

bench: $(STAMP)
	$(BIN)/boardlab bench

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache
