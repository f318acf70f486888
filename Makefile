# `make play` and `make test` work on a fresh machine: they make .venv and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play serve test lint typecheck bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0  # the CPU wheel, before the rl-train extra asks for torch
	$(BIN)/pip install --quiet -e ".[all,dev]"
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/stich play jass

serve: $(STAMP)
	$(BIN)/stich serve $(ARGS)

test: $(STAMP)
	@# the browser tests drive Debian's Chromium: install it where we may (root), else they skip
	@command -v chromium >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1 || \
		{ echo "make test: installing chromium for the browser tests"; apt-get update -qq && \
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || true
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	test -d .venv-bench || ($(PYTHON) -m venv .venv-bench && .venv-bench/bin/pip install --quiet -r bench/requirements.txt)
	.venv-bench/bin/pip install --quiet -e .
	.venv-bench/bin/python bench/jass_playout.py --deals 3000

clean:
	rm -rf $(VENV) .venv-bench .pytest_cache .mypy_cache .ruff_cache .hypothesis
