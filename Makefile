# bonepile: `make run` starts the web app (SQLite in .data/), `make test` runs every check.
# Both set up .venv first; the browser tests use Debian's chromium, the terminal app's tests
# tmux and the deployment's proxy test nginx, each installed here if missing.
# The tests run on the editable pure-Python install (.venv), and those of the compiled modules
# (marked `engine`) again on the mypyc-compiled build (.venv-compiled), which the benchmarks use.
# That one is what a normal `pip install .` builds where a C compiler works; BONEPILE_COMPILE=1
# makes it fail there instead of falling back to pure Python, so the compiled pass never tests
# pure Python unawares. Both passes spread their tests over the cores (pytest-xdist);
# docs/dev/testing.md says which test runs where and what the slow ones wait on.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RSTAMP := $(VENV)/.run-installed
CVENV := .venv-compiled
CBIN := $(CVENV)/bin
CSTAMP := $(CVENV)/.installed
CHROMIUM := /usr/bin/chromium
TMUX := /usr/bin/tmux
NGINX := /usr/sbin/nginx
DATA ?= .data
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest-xdist workers a pass (`make test WORKERS=1` runs each pass in one process)
WORKERS ?= 2
XDIST := -n $(WORKERS)
# each pass ends with its slowest tests, so a newly slow one shows in every log
DURATIONS := --durations=15
TIMES := .test-times
CLOG := .compiled-build.log
CTLOG := .compiled-tests.log
SOURCES := $(shell find src -name "*.py" -o -name "*.json") $(wildcard docs/games/*.md) pyproject.toml setup.py

.PHONY: run test test-setup test-pure test-compiled compiled-build-quietly pytest-compiled-quietly test-fast test-full test-times lint typecheck pytest pytest-compiled bench bench-dominoes bench-peers strength clean chromium tmux nginx

# running needs bonepile with its server and terminal-app extras; testing adds the test tools
$(RSTAMP): pyproject.toml setup.py
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[server,tui]'
	touch $(RSTAMP)

$(STAMP): pyproject.toml setup.py
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP) $(RSTAMP)

$(CSTAMP): $(SOURCES)
	test -d $(CVENV) || $(PYTHON) -m venv $(CVENV)
	BONEPILE_COMPILE=1 $(CBIN)/python -m pip install --quiet '.[test]'
	$(CBIN)/bonepile --version
	touch $(CSTAMP)

run: $(RSTAMP)
	$(BIN)/bonepile serve --data $(DATA) --host $(HOST) --port $(PORT)

# the browser tests drive Debian's chromium (Playwright cannot download its own browser here)
chromium:
	@test -x $(CHROMIUM) || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
		|| echo "chromium could not be installed: the browser tests will say so"

# the terminal app's tests run the real command in tmux
tmux:
	@test -x $(TMUX) || (apt-get update -qq && apt-get install -y -qq tmux >/dev/null) \
		|| echo "tmux could not be installed: the terminal app's tmux tests will say so"

# the deployment's proxy configuration is tested with nginx in front of a real site
nginx:
	@test -x $(NGINX) || (apt-get update -qq && apt-get install -y -qq nginx-light >/dev/null) \
		|| echo "nginx could not be installed: the proxy test will say so"

# `make test` runs its phases and ends with the time each took (also when one fails). The
# compiled build (mypyc, one core for two minutes) and then its tests run beside the setup,
# lint and pure-build tests, whose subprocesses, servers and browsers leave a core idle for
# much of the time.
define phase
start=$$(date +%s); $(MAKE) --no-print-directory $(2); status=$$?; \
echo "$(1)|$$(( $$(date +%s) - start ))" >> $(TIMES); \
if [ $$status -ne 0 ]; then $(MAKE) --no-print-directory test-times; exit $$status; fi
endef

test:
	@echo "start|$$(date +%s)" > $(TIMES)
	@rm -f $(CTLOG)
	@+$(MAKE) --no-print-directory -j2 test-pure test-compiled; status=$$?; \
	if [ -f $(CTLOG) ]; then echo "---- the compiled build's tests ($(CTLOG)) ----"; cat $(CTLOG); fi; \
	$(MAKE) --no-print-directory test-times; exit $$status

test-pure:
	@+$(call phase,setup,$(STAMP) chromium tmux nginx)
	@+$(call phase,lint and types,lint typecheck)
	@+$(call phase,pure build tests,pytest)

# beside the pure phases: the compiled build (its output goes to a log, shown if it fails),
# then its tests (their output goes to a log, shown once the pure pass is done)
test-compiled:
	@+$(call phase,compiled build (beside),compiled-build-quietly)
	@+$(call phase,compiled build tests (beside),pytest-compiled-quietly)

compiled-build-quietly:
	@$(MAKE) --no-print-directory $(CSTAMP) > $(CLOG) 2>&1 || { cat $(CLOG); exit 1; }

pytest-compiled-quietly:
	@$(MAKE) --no-print-directory pytest-compiled > $(CTLOG) 2>&1

# the phases' times, as `make test` prints them; the total is the wall-clock time since it
# started (the compiled build overlaps other phases)
test-times:
	@test -f $(TIMES) && awk -F'|' -v now=$$(date +%s) 'BEGIN { print "make test, seconds a phase:" } \
		$$1 == "start" { start = $$2; next } { printf "  %-40s %5d\n", $$1, $$2 } \
		END { if (start) { t = now - start; \
		printf "  %-40s %5d (%d min %02d s)\n", "total, wall clock", t, t / 60, t % 60 } }' \
		$(TIMES) && rm -f $(TIMES) || true

# everything the tests need: both builds, chromium, tmux and nginx
test-setup: $(STAMP) $(CSTAMP) chromium tmux nginx

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks setup.py
	$(BIN)/ruff format --check src

typecheck: $(STAMP)
	$(BIN)/mypy

# every test but the strength replays, which the compiled pass runs where they were measured
pytest: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) $(DURATIONS) -m "not strength"

# the tests of the compiled modules, again on the compiled build (the server, terminal and
# browser tests run the same Python on either build: the pure pass ran them)
pytest-compiled: $(CSTAMP)
	$(CBIN)/python -m pytest -p no:cacheprovider $(XDIST) $(DURATIONS) -m "engine"

# the inner loop: lint, types, and the engine and unit tests on the pure build (no processes,
# servers, browsers or strength replays), in a few minutes
test-fast: $(STAMP)
	$(BIN)/ruff check src tests benchmarks setup.py
	$(BIN)/ruff format --check src
	$(BIN)/mypy
	$(BIN)/python -m pytest $(XDIST) -m "not system and not browser and not strength"

# the nightly run: every test on both builds, the property and exhaustive tests at full size
test-full: test-setup lint typecheck
	$(BIN)/python -m pytest $(XDIST) --full
	$(CBIN)/python -m pytest -p no:cacheprovider $(XDIST) --full -m "not browser"

bench: $(CSTAMP)
	$(CBIN)/python -m pip install --quiet open-spiel dominoes
	$(CBIN)/python benchmarks/playouts.py
	$(CBIN)/python benchmarks/search.py

bench-dominoes: $(CSTAMP)
	$(CBIN)/python -m pip install --quiet dominoes
	$(CBIN)/python benchmarks/vs_dominoes.py --deals 100

# the search bot against its peers: OpenSpiel's ISMCTS (equal simulations) and dominoes' alpha-beta
bench-peers: bench-dominoes
	$(CBIN)/python -m pip install --quiet open-spiel
	$(CBIN)/python benchmarks/vs_openspiel.py --deals 300

# docs/strength.md's strength tables: every game's ladder built from its runs (saved, row by row, in
# benchmarks/results/ladder.json), the ceiling (a search that sees every hand), OpenSpiel's ISMCTS
# at equal simulations and equal time, the dominoes package (saved in
# benchmarks/results/tables.json); 400 deals a row, one seed a table (long: hours on 2 cores;
# --parts and --only in benchmarks/strength.py pick a part)
strength: $(CSTAMP) $(STAMP)
	$(CBIN)/python -m pip install --quiet open-spiel dominoes
	$(CBIN)/python benchmarks/strength.py --climb --markdown --workers 2
	$(BIN)/python benchmarks/bot_ratings.py

clean:
	rm -rf $(VENV) $(CVENV) build .pytest_cache .mypy_cache .ruff_cache .hypothesis
