"""The bot interface."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..actions import Action
from ..state import SeatView

__all__ = ["Bot", "bot_rngs"]


def bot_rngs(seed: int | None, seats: int) -> list[random.Random]:
    """One independent, reproducible RNG per seat."""
    return [random.Random(f"{seed}-{seat}") for seat in range(seats)]


class Bot(ABC):
    """A computer player: from a seat's view to a legal action.

    ``act`` is called when the seat must act (``view.legal`` lists the choices) and
    in a slap window (``view.legal`` holds only the slap), where ``None`` means pass.
    """

    name: str = "bot"

    @abstractmethod
    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        """The action to play, chosen from ``view.legal`` (``None`` only to pass a slap)."""
