"""Supplied deals and misdeals (RULES.md S17, A9).

Engines that accept a deal made by people (a physical table, a puzzle, a test) must
mend a deal that gave someone too many or too few cards:

* ``misdeal_rule: "return_extra"`` — a player holding more than ``hand_size`` returns
  the excess cards of his choice to the stock, which is then shuffled; a player
  holding too few receives the missing cards from the top of the (shuffled) stock.
* ``"redeal"`` — all cards are collected, shuffled and dealt again (S4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import CARDS, parse_cards
from .errors import PositionError
from .rules import Rules
from .state import Shuffler

__all__ = ["is_misdeal", "mend_misdeal"]

Chooser = Callable[[int, list[int], int], Sequence[int]]
"""(seat, hand, how many) -> the cards that seat returns."""


def _highest_first(rules: Rules) -> Chooser:
    """The default choice of returned cards: a sensible player's, the highest values."""
    values = rules.card_values

    def choose(_seat: int, hand: list[int], count: int) -> list[int]:
        return sorted(hand, key=lambda c: (-values[c], c))[:count]

    return choose


def is_misdeal(rules: Rules, hands: Sequence[Sequence[int]]) -> bool:
    """Whether any hand holds other than ``hand_size`` cards."""
    return any(len(h) != rules.hand_size for h in hands)


def mend_misdeal(
    rules: Rules,
    hands: Sequence[Sequence[int]],
    stock: Sequence[int],
    shuffler: Shuffler,
    choose: Chooser | None = None,
) -> tuple[list[list[int]], list[int]]:
    """Mend a supplied deal by the rule set's ``misdeal_rule`` (S17).

    *hands* are lists of physical card ids (or card names), *stock* lists the top card
    first. Returns the mended hands and stock (top first). *choose* picks the cards a
    player returns (default: his highest cards).
    """
    hand_lists = [[int(c) for c in parse_cards(h)] for h in hands]
    stock_list = [int(c) for c in parse_cards(stock)]
    size = rules.hand_size
    total = sum(len(h) for h in hand_lists) + len(stock_list)
    if total < size * len(hand_lists):
        raise PositionError(f"the deal has {total} cards: too few for {len(hand_lists)} hands of {size}")
    if rules.misdeal_rule == "redeal":
        cards = [c for h in hand_lists for c in h] + stock_list
        shuffler.shuffle(cards)
        out = [cards[i :: len(hand_lists)][:size] for i in range(len(hand_lists))]
        dealt = {c for h in out for c in h}
        return out, [c for c in cards if c not in dealt]
    chooser = choose or _highest_first(rules)
    returned_any = False
    for seat, hand in enumerate(hand_lists):
        extra = len(hand) - size
        if extra > 0:
            returned = list(chooser(seat, list(hand), extra))
            if len(returned) != extra or any(c not in hand for c in returned):
                raise PositionError(
                    f"seat {seat} must return {extra} of his own cards, not "
                    f"{' '.join(str(CARDS[c]) for c in returned)}"
                )
            for c in returned:
                hand.remove(c)
            stock_list.extend(returned)
            returned_any = True
    if returned_any:
        shuffler.shuffle(stock_list)
    for hand in hand_lists:
        while len(hand) < size:
            hand.append(stock_list.pop(0))
    return hand_lists, stock_list
