"""yaniv: the Yaniv card game, every variant, exact and fast.

The core API::

    from yaniv import Rules, Game, RoundState, Action, IllegalActionError, RulesError

    game = Game(Rules.from_spec("finnish"), players=3, seed=7)
    state = game.round                     # the current RoundState
    state.legal_actions()                  # what the current player may do
    game.apply(state.current, "discard 7H 8H 9H; draw")
"""

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
