# `make play`, `make serve` and `make test` work on a fresh machine: they make .venv and install
# what each needs (play: the terminal extra; serve: the web extra; test: everything).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play serve test smoke lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# One stamp per set of extras. The install also compiles the Jass core's C extension in place
# (setup.py), so a change to it makes the stamps stale too.
BUILD := pyproject.toml setup.py $(wildcard stichkit/native/*.c stichkit/native/*.h)

$(VENV)/.installed-play: $(BUILD) | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[cli]"
	touch $@

$(VENV)/.installed-serve: $(BUILD) | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[cli,web]"
	touch $@

$(VENV)/.installed: $(BUILD) | $(BIN)/python
	$(BIN)/pip install --quiet torch==2.13.0  # the CPU wheel, before the rl-train extra asks for torch
	$(BIN)/pip install --quiet -e ".[all,dev]"
	touch $@ $(VENV)/.installed-play $(VENV)/.installed-serve

play: $(VENV)/.installed-play
	$(BIN)/stich play jass

serve: $(VENV)/.installed-serve
	$(BIN)/stich serve $(ARGS)

# tools/with-services starts PostgreSQL and Redis and finds Chromium for the tests that use
# them (installing them where it may); STICHKIT_REQUIRE_SERVICES=1 makes a missing one an error.
test: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/mypy bench
	$(BIN)/mypy tools/smoke
	tools/with-services $(BIN)/python tools/smoke/run.py
	tools/with-services $(BIN)/pytest

# Every install the README names, each in a fresh environment: what it gives works (tools/smoke/run.py)
smoke: $(VENV)/.installed
	tools/with-services $(BIN)/python tools/smoke/run.py

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(VENV)/.installed
	$(BIN)/mypy
	$(BIN)/mypy bench
	$(BIN)/mypy tools/smoke

bench: $(VENV)/.installed
	test -d .venv-bench || ($(PYTHON) -m venv .venv-bench && .venv-bench/bin/pip install --quiet -r bench/requirements.txt)
	.venv-bench/bin/pip install --quiet -e .
	.venv-bench/bin/python bench/jass_playout.py --deals 3000

clean:
	rm -rf $(VENV) .venv-bench .pytest_cache .mypy_cache .ruff_cache .hypothesis
