"""The hint key's words: a move in plain words and the odds of a Yaniv call now."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..actions import Action
from ..bots.model import call_success_for_view
from ..cards import Card
from .widgets import card_face

__all__ = ["describe_action", "yaniv_odds"]

if TYPE_CHECKING:  # a front end reads views, never the state module itself
    from .. import SeatView


def _faces(cards: Sequence[Card]) -> str:
    return " ".join(card_face(c) for c in cards)


def describe_action(action: Action | None) -> str:
    """An action in plain words, as a hint gives it."""
    if action is None:
        return "let the drawn card go"
    kind = action.type
    if kind == "yaniv":
        return "call Yaniv"
    if kind == "asef":
        return "call Asef"
    if kind == "draw":
        return "draw from the stock"
    if kind == "discard":
        return f"discard {_faces(action.cards)}"
    if kind == "turn":
        then = "draw from the stock" if action.card is None else f"take {card_face(action.card)}"
        return f"discard {_faces(action.cards)}, then {then}"
    card = card_face(action.card) if action.card is not None else "?"
    if kind == "take":
        return f"take {card}"
    if kind == "swap":
        return f"give your {card} for the joker that stands for it"
    return f"slap {card} onto your discard"


def yaniv_odds(view: SeatView) -> float:
    """The chance that a Yaniv call by the viewing seat succeeds now (the bots' opponent model)."""
    return call_success_for_view(view)
