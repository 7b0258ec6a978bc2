"""What a player means: a loosely written action matched to the legal one it names.

People and programs name cards by kind and lay a set or a run in whatever order they
picked them; the engine's legal actions hold the seat's own physical cards in a laid
order. :func:`legal_match` is the one place that joins the two (the terminal app, the
browser, external bots and the plain game all submit through it):

* actions are compared by notation, so ``take 9h`` names the takeable nine of hearts;
* a discard that is legal as written is kept exactly (its order chooses the card left
  on top, RULES.md S7.2);
* a set may be laid in any order, and keeps the order asked;
* a run may be selected in any order and is laid ascending, the one legal order;
* a compound ``turn`` is matched half by half: its discard as above, its take among
  the cards the seat may take (``stock`` while the stock has cards).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .actions import Action
from .cards import KIND, Card
from .rules import Rules
from .state import SeatView

__all__ = ["legal_match"]


def _key(action: Action) -> str:
    """An action's identity by notation (two decks' copies of a card are the same)."""
    return json.dumps(action.to_json(), sort_keys=True)


def legal_match(view: SeatView, action: Action) -> Action | None:
    """The engine's legal action (with the seat's own physical cards) *action* names, or None."""
    if action.type == "turn":
        discard = _match_discard(view, Action("discard", action.cards))
        if discard is None:
            return None
        if action.card is None:
            return Action("turn", discard.cards) if view.stock_count > 0 else None
        take = next((c for c in view.takeable if KIND[c] == KIND[action.card]), None)
        return None if take is None else Action("turn", discard.cards, take)
    if action.type == "discard":
        return _match_discard(view, action)
    key = _key(action)
    return next((a for a in view.legal if _key(a) == key), None)


def _match_discard(view: SeatView, action: Action) -> Action | None:
    key = _key(action)
    discards = [a for a in view.legal if a.type == "discard"]
    exact = next((a for a in discards if _key(a) == key), None)
    if exact is not None:
        return exact
    kinds = sorted(KIND[c] for c in action.cards)
    same = [a for a in discards if sorted(KIND[c] for c in a.cards) == kinds]
    if not same:
        return None
    if not _is_set(action.cards, view.rules):
        return same[0]  # a run (or a joker group): the legal order of the same cards
    own = list(same[0].cards)  # lay the seat's own cards in the order asked
    laid: list[Card] = []
    for c in action.cards:
        card = next(x for x in own if KIND[x] == KIND[c])
        own.remove(card)
        laid.append(card)
    return Action("discard", tuple(laid))


def _is_set(cards: Sequence[Card], rules: Rules) -> bool:
    """Whether *cards* would be a set in any order (one rank; jokers only if allowed)."""
    naturals = {KIND[c] % 13 for c in cards if not c.is_joker}
    has_joker = any(c.is_joker for c in cards)
    return len(naturals) == 1 and (rules.jokers_in_sets or not has_joker)
