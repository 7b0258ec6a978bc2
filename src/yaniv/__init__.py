"""yaniv: the Yaniv card game, every variant, exact and fast.

The core API::

    from yaniv import Rules, Game, RoundState, Action, IllegalActionError, RulesError

    game = Game(Rules.from_spec("finnish"), players=3, seed=7)
    state = game.round                     # the current RoundState
    state.legal_actions()                  # what the current player may do
    game.apply(state.current, "discard 7H 8H 9H; draw")

The same source also builds as compiled extension modules (mypyc, ``YANIV_COMPILE=1
pip install .`` or ``make compiled``): :data:`COMPILED` says which one runs, and
``YANIV_PURE=1`` in the environment runs the pure-Python modules even where compiled
ones are installed next to them.
"""

import importlib.abc as _abc
import importlib.machinery as _machinery
import importlib.util as _util
import os as _os
import sys as _sys
from collections.abc import Sequence as _Sequence
from types import ModuleType as _ModuleType


class _PurePython(_abc.MetaPathFinder):
    """Finds yaniv's submodules as their ``.py`` sources, never a compiled module beside them.

    Python prefers an extension module to the source of the same name, so without this
    a compiled build in place (``make compiled``) would always win; ``YANIV_PURE=1``
    (the test suite's default, and the pure half of ``bench/engine.py --compare``)
    installs it before any submodule is imported.
    """

    def find_spec(
        self, fullname: str, path: _Sequence[str] | None, target: _ModuleType | None = None
    ) -> _machinery.ModuleSpec | None:
        if not fullname.startswith("yaniv.") or path is None:
            return None
        leaf = fullname.rpartition(".")[2]
        for entry in path:
            base = _os.path.join(entry, leaf)
            if _os.path.isfile(base + ".py"):
                return _util.spec_from_file_location(fullname, base + ".py")
            init = _os.path.join(base, "__init__.py")
            if _os.path.isfile(init):
                return _util.spec_from_file_location(fullname, init, submodule_search_locations=[base])
        return None


if _os.environ.get("YANIV_PURE", "") not in ("", "0"):
    _sys.meta_path.insert(0, _PurePython())

from . import state as _state_module
from .actions import Action
from .cards import Card, hand_value, parse_cards
from .errors import (
    IllegalActionError,
    InvalidNotationError,
    PositionError,
    RecordError,
    RulesError,
    YanivError,
)
from .game import Game
from .rules import PRESETS, Rules
from .scoring import RoundResult
from .state import RoundState, SeatView

__all__ = [
    "COMPILED",
    "PRESETS",
    "Action",
    "Card",
    "Game",
    "IllegalActionError",
    "InvalidNotationError",
    "PositionError",
    "RecordError",
    "RoundResult",
    "RoundState",
    "Rules",
    "RulesError",
    "SeatView",
    "YanivError",
    "hand_value",
    "parse_cards",
]

__version__ = "0.1.0"

COMPILED: bool = not (_state_module.__file__ or ".py").endswith(".py")
"""Whether the engine runs as compiled extension modules (mypyc) rather than pure Python."""


def build_name() -> str:
    """The version and which build runs, e.g. ``yaniv 0.1.0 (compiled)``."""
    return f"yaniv {__version__} ({'compiled' if COMPILED else 'pure Python'})"
