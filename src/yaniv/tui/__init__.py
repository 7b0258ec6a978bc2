"""Yaniv in the terminal: a full-screen card table built on Textual (the ``tui`` extra).

``yaniv play`` opens it on a terminal: a start screen (rules, players, each opponent's
difficulty, your name), the table (your hand, the previous discard with its takeable
cards marked, the stock, the other players, a move log in plain words), the end of each
round and of the game, a hint key, a help screen with the active rules, and every game
saved as it is played (``yaniv play --resume``). ``yaniv replay FILE`` steps through a
recorded game on the same table. Keys: :data:`yaniv.tui.screens.KEYS`.

The app is a thin adapter over the engine: moves are checked by ``Game.apply`` (an
illegal one is explained with the engine's sentence), the computer plays through
:class:`yaniv.session.Session`, and nothing in the core imports this package.
"""

from __future__ import annotations

from .app import YanivApp, replay_states, run_game, run_replay
from .screens import KEYS, Settings

__all__ = ["KEYS", "Settings", "YanivApp", "replay_states", "run_game", "run_replay"]
