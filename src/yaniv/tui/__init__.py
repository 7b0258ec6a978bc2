"""Yaniv in the terminal: a full-screen card table built on Textual (the ``tui`` extra).

``yaniv play`` opens it on a terminal: a start screen (rules, players, each opponent's
difficulty, your name), the table (your hand, the previous discard with its takeable
cards marked, the stock, the other players, a move log in plain words), the end of each
round and of the game, a hint key, a help screen with the active rules, and every game
saved as it is played (``yaniv play --resume``). ``yaniv replay FILE`` steps through a
recorded game on the same table. Keys: :data:`yaniv.tui.screens.KEYS`.

The app is a thin adapter over the table driver (:class:`yaniv.table.Table`, the
session's ``table``): the person's moves are submitted to it and checked there (an
illegal one is explained with the engine's sentence), the computer plays through its
``step``, and the screens draw seats' views only. Nothing in the core imports this
package. The modules, one job each: ``app`` (the application and its screens' order),
``board`` (the card table drawn from a view), ``play`` (the play screen), ``replay``
(the replay screen), ``screens`` (start, help, card choice, round's end), ``hint``
(the hint's words and odds), ``widgets`` (cards, rows, choosers).
"""

from __future__ import annotations

from .app import YanivApp, replay_states, run_game, run_replay
from .screens import KEYS, Settings

__all__ = ["KEYS", "Settings", "YanivApp", "replay_states", "run_game", "run_replay"]
