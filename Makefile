# Two commands on a fresh clone: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test test-compiled compiled lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

$(VENV)/.installed-tui: pyproject.toml $(VENV)/.installed
	$(BIN)/pip install --quiet -e '.[tui]'
	touch $@

## play: install what it needs (the terminal app too) and start a game against the computer
play: $(VENV)/.installed-tui
	$(BIN)/yaniv play $(ARGS)

## test: install what it needs and run the whole test suite, linters and type check
## (on the pure-Python modules, even where compiled ones sit beside them: YANIV_PURE=1)
test: $(VENV)/.installed
	$(BIN)/ruff check src tests bench tools
	$(BIN)/mypy
	YANIV_PURE=1 $(BIN)/pytest

## compiled: build the engine's compiled modules in place (mypyc; setup.py lists them);
## --force: the per-module shims never change, so an incremental build would copy old ones
## (with their old times) beside newer sources
compiled: $(VENV)/.installed
	find src -name '*.so' -delete  # a module no longer compiled must not leave its old build behind
	YANIV_COMPILE=1 $(BIN)/python setup.py --quiet build_ext --inplace --force
	$(BIN)/python -c "import yaniv, sys; print(yaniv.build_name()); sys.exit(not yaniv.COMPILED)"

## test-compiled: build the compiled modules and run the test suite on them (the doctests,
## which read the sources, run in `make test`)
test-compiled: compiled
	$(BIN)/pytest -o addopts="-q --strict-markers" tests

## bench: print the engine benchmark figures
bench: $(VENV)/.installed
	$(BIN)/python bench/engine.py

## clean: remove the virtual environment, caches and any compiled modules
clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build src/*.egg-info
	find src -name '*.so' -delete
