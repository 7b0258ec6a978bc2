# Two commands on a fresh clone: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test lint bench clean

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
test: $(VENV)/.installed
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/pytest

## bench: print the engine benchmark figures
bench: $(VENV)/.installed
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
