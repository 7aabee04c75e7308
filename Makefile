# bonepile: `make run` shows a game between bots, `make test` runs every check. Both set up .venv first.
# The tests run twice: on the editable pure-Python install (.venv) and on the mypyc-compiled
# build (.venv-compiled, `BONEPILE_COMPILE=1 pip install .`), which the benchmarks use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RSTAMP := $(VENV)/.run-installed
CVENV := .venv-compiled
CBIN := $(CVENV)/bin
CSTAMP := $(CVENV)/.installed
SOURCES := $(shell find src -name "*.py" -o -name "*.json") $(wildcard docs/games/*.md) pyproject.toml setup.py

.PHONY: run test lint typecheck pytest pytest-compiled bench bench-dominoes clean

# running needs bonepile alone; testing adds the test toolchain (mypy, ruff, Ray, ...)
$(RSTAMP): pyproject.toml setup.py
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e .
	touch $(RSTAMP)

$(STAMP): pyproject.toml setup.py
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP) $(RSTAMP)

$(CSTAMP): $(SOURCES)
	test -d $(CVENV) || $(PYTHON) -m venv $(CVENV)
	BONEPILE_COMPILE=1 $(CBIN)/python -m pip install --quiet '.[test]'
	touch $(CSTAMP)

run: $(RSTAMP)
	$(BIN)/bonepile watch super_dominoes --players 4 --agents greedy

test: $(STAMP) lint typecheck pytest pytest-compiled

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks setup.py
	$(BIN)/ruff format --check src

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest

pytest-compiled: $(CSTAMP)
	$(CBIN)/python -m pytest -p no:cacheprovider

bench: $(CSTAMP)
	$(CBIN)/python -m pip install --quiet open-spiel dominoes
	$(CBIN)/python benchmarks/playouts.py
	$(CBIN)/python benchmarks/search.py

bench-dominoes: $(CSTAMP)
	$(CBIN)/python -m pip install --quiet dominoes
	$(CBIN)/python benchmarks/vs_dominoes.py --deals 100

clean:
	rm -rf $(VENV) $(CVENV) build .pytest_cache .mypy_cache .ruff_cache .hypothesis
