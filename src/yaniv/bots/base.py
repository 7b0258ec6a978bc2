"""The bot interface."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..actions import Action
from ..state import RoundState, SeatView
from ..table import player_rngs as bot_rngs

__all__ = ["Bot", "bot_rngs"]


class Bot(ABC):
    """A computer player: from a seat's view to a legal action.

    ``act`` is called when the seat must act (``view.legal`` lists the choices) and
    in a slap window (``view.legal`` holds only the slap), where ``None`` means pass.
    """

    name: str = "bot"
    sees_all: bool = False
    """Whether the table asks this bot with the full state (:meth:`act_full`): analysis bots only."""
    thinks_long: bool = False
    """Whether a decision can take tens of milliseconds or more (a search): servers ask it
    on a worker thread instead of their event loop."""

    def act_full(self, state: RoundState, seat: int, rng: random.Random) -> Action | None:
        """The action with every hand in sight; only bots with ``sees_all`` are asked this way."""
        return self.act(state.view(seat), rng)

    @abstractmethod
    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        """The action to play, chosen from ``view.legal`` (``None`` only to pass a slap)."""
