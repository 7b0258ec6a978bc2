"""Build script: the pure-Python package by default, compiled extension modules on request.

``pip install .`` builds the pure-Python package (the metadata is in pyproject.toml).
``YANIV_COMPILE=1 pip install .`` compiles the engine's modules listed below with mypyc
(it ships with mypy, which the build then installs) from the same source, beside their
``.py`` files; ``make compiled`` does the same in place (``setup.py build_ext --inplace``).
``yaniv --version`` and ``yaniv.COMPILED`` say which build runs.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

# Compiled: the engine's hot path (cards, discards, actions, the round state, scoring,
# the game, positions, records) and the bots' hand model, simple bots and the expert's
# determinizations and playouts (bots/playout) and the win model's share (bots/share). A compiled
# module may still leave one class to the interpreter (a decorated class: Card, which
# subclasses int; RoundResult, read through its __dict__; SeatView). Left to the
# interpreter, each for a reason a compiled build would change what it does:
# * rules: a frozen dataclass with cached properties, its preset name kept in __dict__,
#   tuple knobs given as lists (the hot path reads the knobs it needs once per rule
#   set, into the compiled MeldTable);
# * events: dict subclasses with descriptors;
# * bots/value: its arguments are checked by the code (a seat that is True), where
#   compiled code would raise a bare TypeError first;
# * bots/heuristic and bots/search: their bots are subclassed by interpreted code, which a
#   compiled class allows only when marked so (mypyc_attr(allow_interpreted_subclasses));
#   the expert's hot path is not in them but in bots/playout, which is compiled;
# * the table driver and the front ends wait on people, sockets and files, not the engine.
COMPILED_MODULES = (
    "cards",
    "melds",
    "actions",
    "state",
    "scoring",
    "game",
    "position",
    "deal",
    "record",
    "intent",
    "bots/model",
    "bots/simple",
    "bots/calls",
    "bots/playout",
    "bots/share",
)


def _wanted() -> bool:
    value = os.environ.get("YANIV_COMPILE", "")
    if value not in ("", "0", "1"):
        sys.exit(f"YANIV_COMPILE must be 1 (compile) or 0 (pure Python), not {value!r}")
    return value == "1"


def _ext_modules() -> list[object]:
    try:
        from mypyc.build import mypycify
    except ImportError:
        # An isolated build first asks which build requirements to install: name mypy
        # (setuptools turns setup_requires into that answer), then it runs this again.
        setup(setup_requires=["mypy>=1.10"])
        sys.exit("YANIV_COMPILE=1 needs mypy (it ships mypyc): pip install mypy")
    paths = [f"src/yaniv/{name}.py" for name in COMPILED_MODULES]
    return list(mypycify(paths, opt_level="3", group_name="yaniv"))


setup(ext_modules=_ext_modules() if _wanted() else [])
