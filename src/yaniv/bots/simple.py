"""The two simple bots: uniformly random legal play, and a greedy player."""

from __future__ import annotations

import random

from ..actions import Action
from ..state import SeatView
from .base import Bot

__all__ = ["GreedyBot", "RandomBot"]


class RandomBot(Bot):
    """Calls Yaniv whenever allowed; otherwise a uniformly random legal action."""

    name = "random"

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        """Yaniv if listed, else any legal action (a slap half the time)."""
        legal = view.legal
        if not legal:
            return None
        if legal[0].type == "slap":
            return legal[0] if rng.random() < 0.5 else None
        for a in legal:
            if a.type == "yaniv":
                return a
        return rng.choice(legal)


class GreedyBot(Bot):
    """Calls Yaniv whenever allowed, throws the highest-value discard, takes low cards."""

    name = "greedy"
    take_at_most = 3
    """Take a pile card worth this or less; otherwise draw."""

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        """The greedy choice for the current phase."""
        legal = view.legal
        if not legal:
            return None
        if legal[0].type == "slap":
            return legal[0]  # shedding a card is always good for a greedy player
        values = view.rules.card_values
        if any(a.type == "yaniv" for a in legal):
            return Action.yaniv()
        discards = [a for a in legal if a.type == "discard"]
        if discards:
            return max(discards, key=lambda a: (sum(values[c] for c in a.cards), len(a.cards)))
        takes = [a for a in legal if a.type in ("take", "swap")]
        draw = next((a for a in legal if a.type == "draw"), None)
        if takes:
            best = min(takes, key=lambda a: values[a.card] if a.card is not None else 0)
            card_value = values[best.card] if best.card is not None else 0
            # Only a card lower than the one just thrown: taking it back would loop.
            thrown = max((values[c] for c in view.discard_pile[-1]), default=0)
            low = card_value <= self.take_at_most and card_value < thrown
            if best.type == "swap" or low or draw is None:
                return best
        return draw if draw is not None else rng.choice(legal)
