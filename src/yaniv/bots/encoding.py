"""The fixed discrete action space and the observation vector, both derived from ``Rules``.

:class:`ActionTable` numbers every action a seat can ever be offered under a rule set
and deck count: every discard the engine can list (by card kinds, in the order the
engine lays it), every take and swap by card kind, draw, Yaniv, slap, pass and Asef.
:class:`ObservationEncoder` turns a :class:`~yaniv.SeatView` into the observation
vector and the action mask. Both layouts are tabled in :mod:`yaniv.env`'s docstring
and in ``docs/rl.md``.

The discard table is built by asking the engine's own generator
(:class:`yaniv.melds.MeldTable`) for the discards of every hand that could hold a
whole discard (the cards of one rank, or of one suit in a window of ranks, with the
jokers), so the table and the engine's legal lists cannot drift apart: a discard is
identified by its kind sequence, and the engine lists each distinct way of laying a
set (which cards end up takeable, RULES.md S7.2/A16) and each run (jokers by
position) once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, combinations, product
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..cards import CARDS, DECK_SIZE, JOKER, KIND
from ..melds import MeldTable
from ..rules import Rules
from ..table import DecisionKind

if TYPE_CHECKING:
    from .. import SeatView
    from ..table import RawSeatView

__all__ = ["KINDS", "ActionTable", "ObservationEncoder", "action_table"]

KINDS = 53
"""Card kinds: 52 natural cards (suit * 13 + rank - 1, suits S H D C) and the joker (52)."""

Mask = npt.NDArray[np.int8]
Vector = npt.NDArray[np.float32]

_JOKER_IDS = (52, 53, 106, 107)


def _physical_hand(kinds: Sequence[int]) -> int:
    """A hand bitmask holding these kinds (a second copy of a kind from the second deck)."""
    hand = 0
    jokers = 0
    for k in kinds:
        if k == JOKER:
            hand |= 1 << _JOKER_IDS[jokers]
            jokers += 1
        elif hand >> k & 1:
            hand |= 1 << (k + DECK_SIZE)
        else:
            hand |= 1 << k
    return hand


def _candidate_hands(rules: Rules, decks: int) -> list[tuple[int, ...]]:
    """Hands (kind lists) whose discards, together, are every discard of any hand.

    A discard is a single, a set (one rank, jokers where the rules let them join) or a
    run (one suit, consecutive positions, jokers anywhere); the hand made of exactly its
    cards lists it. So it is enough to list, up to the hand size: the cards of one rank
    (each suit up to *decks* times, with jokers), and the cards of one suit in a window
    of ranks with some positions left to jokers. The generator applies the rules.
    """
    size = rules.hand_size
    jokers = 2 * decks
    out: list[tuple[int, ...]] = []
    for rank in range(13):
        for copies in product(range(decks + 1), repeat=4):
            naturals = [s * 13 + rank for s in range(4) for _ in range(copies[s])]
            if not naturals or len(naturals) > size:
                continue
            for j in range(min(jokers, size - len(naturals)) + 1):
                if len(naturals) + j >= 2:
                    out.append((*naturals, *([JOKER] * j)))
    for suit in range(4):
        for length in range(3, size + 1):
            for first in range(14 - length + 1):  # rank index 13 is the ace above the king
                window = [suit * 13 + (first + i) % 13 for i in range(length)]
                for j in range(min(jokers, length - 1) + 1):
                    for holes in combinations(range(length), j):
                        kept = [k for i, k in enumerate(window) if i not in holes]
                        out.append((*kept, *([JOKER] * j)))
    return out


class ActionTable:
    """Every action of a rule set as one integer (a ``Discrete`` space).

    ======================  =============================================================
    indices                 action
    ======================  =============================================================
    ``0 .. D-1``            discards: the singles (by kind: AS .. KC, JK), then the sets
                            and runs, shortest first, each a kind sequence as laid
    ``take + k``            take the card of kind *k* (0..52) from the previous group
    ``draw``                draw the top of the stock
    ``yaniv``               call Yaniv
    ``swap + k``            joker exchange giving the natural card *k* (0..51), if played
    ``slap`` / ``pass_``    slap the card just drawn / let the slap window pass, if played
    ``asef``                the Asef blind call, if played
    ======================  =============================================================

    Offsets of knobs that are off are ``None`` and take no indices. Sizes follow the
    rules and the deck count (hand size, jokers, sets of identical cards), never constants.
    """

    def __init__(self, rules: Rules, decks: int) -> None:
        """The table for *rules* played with *decks* decks (1 or 2)."""
        if decks not in (1, 2):
            raise ValueError(f"a game has 1 or 2 decks, not {decks!r}")
        self.rules = rules
        self.decks = decks
        meld = MeldTable(rules)
        found: set[tuple[int, ...]] = {(k,) for k in range(KINDS)}
        for kinds in _candidate_hands(rules, decks):
            for discard in meld.discards(_physical_hand(kinds)):
                found.add(tuple(KIND[c] for c in discard))
        self.discards: tuple[tuple[int, ...], ...] = tuple(sorted(found, key=lambda d: (len(d), d)))
        """Every discard as the kinds laid, first card first."""
        self._discard_index = {d: i for i, d in enumerate(self.discards)}
        n = len(self.discards)
        self.take = n
        """Index of taking kind 0; kind *k* is ``take + k``."""
        self.draw = n + KINDS
        self.yaniv = self.draw + 1
        size = self.yaniv + 1
        self.swap: int | None = None
        """Index of the exchange giving kind 0 (``swap + k``), or None without joker exchange."""
        if rules.joker_swap != "off":
            self.swap, size = size, size + 52
        self.slap: int | None = None
        self.pass_: int | None = None
        if rules.quick_discard != "off":
            self.slap, self.pass_, size = size, size + 1, size + 2
        self.asef: int | None = None
        if rules.asef:
            self.asef, size = size, size + 1
        self.size = size
        """The number of actions."""
        self._actions: list[Action | None] = [
            Action("discard", tuple(CARDS[k] for k in d)) for d in self.discards
        ]
        self._actions += [Action("take", card=CARDS[k]) for k in range(KINDS)]
        self._actions += [Action.draw(), Action.yaniv()]
        if self.swap is not None:
            self._actions += [Action("swap", card=CARDS[k]) for k in range(52)]
        if self.slap is not None:
            self._actions += [None, None]  # the slap's card is the one just drawn: filled per decision
        if self.asef is not None:
            self._actions.append(Action.asef())
        assert len(self._actions) == size
        # the engine's laid discards (physical ids) seen so far, to their index: the mask
        # is built every step, and a tuple lookup is much cheaper than mapping kinds
        self._by_cards: dict[tuple[int, ...], int] = {}
        counts = np.zeros((n, KINDS), dtype=np.int8)
        for i, d in enumerate(self.discards):
            for k in d:
                counts[i, k] += 1
        self.discard_counts: npt.NDArray[np.int8] = counts
        """``discard_counts[i, k]``: cards of kind *k* in discard *i* (for policies' features)."""
        self.discard_ends: npt.NDArray[np.int16] = np.array(
            [(d[0], d[-1]) for d in self.discards], dtype=np.int16
        )
        """The kinds of the first and last card of each discard (the takeable ends)."""

    # ----- one action -----

    def action(self, index: int, drawn: int | None = None) -> Action | None:
        """The engine action of *index* (``None``: pass the slap). *drawn*: the card a slap slaps."""
        if not 0 <= index < self.size:
            raise ValueError(f"there is no action {index}: actions are 0..{self.size - 1}")
        if index == self.slap:
            if drawn is None:
                raise ValueError("a slap needs the card just drawn")
            return Action("slap", card=CARDS[drawn])
        return self._actions[index]

    def index(self, action: Action | None) -> int:
        """The index of an engine action (``None``: pass), ``ValueError`` if it has none."""
        if action is None:
            if self.pass_ is None:
                raise ValueError("there is no slap window under these rules")
            return self.pass_
        kind = action.type
        if kind == "discard":
            i = self._by_cards.get(action.cards)
            if i is None:
                try:
                    i = self._discard_of(action.cards)
                except ValueError:
                    raise ValueError(f"{action} is not in the action table of {self.rules}") from None
            return i
        card = action.card
        if kind == "take" and card is not None:
            return self.take + KIND[card]
        if kind == "draw":
            return self.draw
        if kind == "yaniv":
            return self.yaniv
        if kind == "swap" and self.swap is not None and card is not None and KIND[card] < JOKER:
            return self.swap + KIND[card]
        if kind == "slap" and self.slap is not None:
            return self.slap
        if kind == "asef" and self.asef is not None:
            return self.asef
        raise ValueError(f"{action} is not in the action table of {self.rules}")

    def describe(self, index: int) -> str:
        """The action in the engine's text notation (``pass`` for letting a slap go)."""
        if index == self.slap:
            return "slap (the card just drawn)"
        action = self.action(index)
        return "pass" if action is None else str(action)

    # ----- masks -----

    def mask(self, legal: Sequence[Action], kind: DecisionKind | None) -> Mask:
        """The mask of the legal actions of a decision of *kind* (zeros for ``None``).

        *legal* is the seat's ``SeatView.legal``; in a slap window (``kind`` slap) the
        pass is legal too, and outside one a slap listed in an old view is not.
        :meth:`mask_raw` is the same from a :class:`~yaniv.table.RawSeatView`.
        """
        discards: list[tuple[int, ...]] = []
        takes: list[int] = []
        others: list[Action] = []
        draw = yaniv = False
        for a in legal:
            t = a.type
            if t == "discard":
                discards.append(a.cards)
            elif t == "take":
                takes.append(a.card)  # type: ignore[arg-type]
            elif t == "draw":
                draw = True
            elif t == "yaniv":
                yaniv = True
            else:
                others.append(a)
        return self._mask(kind, discards, takes, draw, yaniv, others)

    def mask_raw(self, view: RawSeatView, kind: DecisionKind | None) -> Mask:
        """The mask of *view*'s legal actions at a decision of *kind* (zeros for ``None``)."""
        takes = view.takeable if view.phase == "after_discard" else ()
        return self._mask(kind, view.discards, takes, view.draw, view.yaniv, view.others)

    def _mask(
        self,
        kind: DecisionKind | None,
        discards: Sequence[tuple[int, ...]],
        takes: Sequence[int],
        draw: bool,
        yaniv: bool,
        others: Sequence[Action],
    ) -> Mask:
        mask = np.zeros(self.size, dtype=np.int8)
        if kind is None or kind == DecisionKind.NEXT_ROUND:
            return mask
        if kind == DecisionKind.SLAP:
            assert self.slap is not None and self.pass_ is not None
            mask[self.pass_] = 1
            if any(a.type == "slap" for a in others):
                mask[self.slap] = 1
            return mask
        # the hot path: a discard's laid cards are looked up as they are (one tuple lookup)
        by_cards = self._by_cards
        out = [i if (i := by_cards.get(d)) is not None else self._discard_of(d) for d in discards]
        take = self.take
        out += [take + KIND[c] for c in takes]
        if draw:
            out.append(self.draw)
        if yaniv:
            out.append(self.yaniv)
        out += [self.index(a) for a in others if a.type != "slap"]
        mask[out] = 1
        return mask

    def _discard_of(self, cards: tuple[int, ...]) -> int:
        """The index of a discard laid as *cards* (physical ids), remembered for next time."""
        key = tuple(int(c) for c in cards)
        i = self._discard_index.get(tuple(KIND[c] for c in key))
        if i is None:
            raise ValueError(f"the discard {cards} is not in the action table of {self.rules}")
        self._by_cards[key] = i
        return i


_TABLES: dict[tuple[Rules, int], ActionTable] = {}


def action_table(rules: Rules, decks: int) -> ActionTable:
    """The shared :class:`ActionTable` of a rule set and deck count (built once per process)."""
    table = _TABLES.get((rules, decks))
    if table is None:
        table = _TABLES[(rules, decks)] = ActionTable(rules, decks)
    return table


_PICKUP = ("first_or_last", "top_only", "ends_or_any_of_set")
_SWAP = ("off", "as_draw", "as_turn")
_QUICK = ("off", "same_rank", "fits_meld")
_CARD_BLOCKS = ("hand", "takeable", "previous_group", "pile", "own_last", "drawn")
_SEAT_BLOCKS = ("seen", "last")
_SEAT_SCALARS = ("hand_count", "total", "active", "current")


class ObservationEncoder:
    """The observation vector of a seat from its :class:`~yaniv.SeatView`, and its bounds.

    The layout (see :mod:`yaniv.env`) has 53-wide card blocks counting kinds, then
    scalars. :attr:`slices` names every block (``hand``, ``takeable``, ``opponent1.seen``
    …); opponents are numbered clockwise from the seat (1 = the next player). Only the
    view is read, so no other seat's hidden card can get in.
    """

    def __init__(self, rules: Rules, players: int) -> None:
        """The layout for *players* players under *rules*."""
        self.rules = rules
        self.players = players
        self.decks = rules.decks_for(players)
        self.slices: dict[str, slice] = {}
        at = 0

        def block(name: str, width: int) -> int:
            nonlocal at
            self.slices[name] = slice(at, at + width)
            at += width
            return at - width

        for name in _CARD_BLOCKS:
            block(name, KINDS)
        for i in range(1, players):
            for name in _SEAT_BLOCKS:
                block(f"opponent{i}.{name}", KINDS)
        self._hand_count = block("hand_count", 1)  # the scalars from here to turns are contiguous
        block("hand_value", 1)
        self._total = block("total", 1)
        block("can_call", 1)
        block("phase", 3)  # turn, take, slap
        block("stock", 1)
        self._turns = block("turns", 1)
        self._seat_scalars = [block(f"opponent{i}.scalars", len(_SEAT_SCALARS)) for i in range(1, players)]
        knobs = self._knobs()
        self._knob_at = block("knobs", len(knobs))
        self.size = at
        """The length of the observation vector."""
        low = np.zeros(at, dtype=np.float32)
        high = np.ones(at, dtype=np.float32)
        copies = np.full(KINDS, self.decks, dtype=np.float32)
        copies[JOKER] = 2 * self.decks
        for name in ("hand", "previous_group", "pile", "own_last"):
            high[self.slices[name]] = copies
        for i in range(1, players):
            high[self.slices[f"opponent{i}.seen"]] = copies
            high[self.slices[f"opponent{i}.last"]] = copies
            low[self._seat_scalars[i - 1] + 1] = -_TOTAL_CLIP
            high[self._seat_scalars[i - 1] + 1] = _TOTAL_CLIP
        low[self._total] = -_TOTAL_CLIP
        high[self._total] = _TOTAL_CLIP
        high[self._knob_at : self._knob_at + len(knobs)] = _KNOB_CLIP
        self.low = low
        """The lowest value of every feature."""
        self.high = high
        """The highest value of every feature."""
        self._base = np.zeros(at, dtype=np.float32)
        self._base[self._knob_at : self._knob_at + len(knobs)] = knobs
        self._per_total = 1.0 / rules.score_limit
        self._per_hand = 1.0 / rules.hand_size
        self._per_value = 1.0 / (10 * rules.hand_size)
        self._per_stock = 1.0 / (DECK_SIZE * self.decks)
        self._threshold = rules.threshold
        scalars = [*range(self._hand_count, self._turns + 1)]
        for at in self._seat_scalars:
            scalars += range(at, at + len(_SEAT_SCALARS))
        self._scalars = np.array(scalars, dtype=np.intp)
        # per card block, in the order encode lists the cards: the position of every
        # physical card id (its kind's place), as the lookup function map() calls
        blocks = [self.slices[name].start for name in _CARD_BLOCKS]
        for name in _SEAT_BLOCKS:
            blocks += [self.slices[f"opponent{i}.{name}"].start for i in range(1, players)]
        self._getters = [_positions(start).__getitem__ for start in blocks]

    def _knobs(self) -> list[float]:
        """The knobs that shape play, scaled to about 0..1 (constant for one environment)."""
        r = self.rules
        out = [
            min(r.threshold / 10, _KNOB_CLIP),
            min(r.score_limit / 200, _KNOB_CLIP),
            r.hand_size / 7,
            float(self.decks == 2),
            self.players / 8,
            float(r.min_set_size == 3),
            float(r.jokers_in_sets),
            float(r.jokers_in_runs == "gaps_only"),
            float(r.allow_jqk_run),
            float(r.allow_qka_run),
            float(r.king_of_hearts_zero),
            min(r.assaf_penalty / 30, _KNOB_CLIP),
            float(r.assaf_penalty_adds_hand),
            float(r.false_yaniv_penalty is not None),
            float(bool(r.halving_scores)),
            float(r.asef),
        ]
        out += [float(r.pickup_mode == p) for p in _PICKUP]
        out += [float(r.joker_swap == s) for s in _SWAP]
        out += [float(r.quick_discard == q) for q in _QUICK]
        return out

    def encode(self, view: SeatView | RawSeatView, kind: DecisionKind | None) -> Vector:
        """The observation of *view*'s seat, deciding a decision of *kind* (``None``: not on turn)."""
        seat = view.seat
        assert seat is not None, "a spectator has no observation"
        # Every card adds one at its block's position of its kind: one flat list of
        # positions, made by C-level iteration over (block, cards) pairs and counted by
        # a single bincount (the hot path: no per-card Python or NumPy call).
        last = view.last_discards
        seen = view.seen
        drawn = view.drawn
        cards: list[Iterable[int]] = [
            view.hand,
            view.takeable,
            view.previous_group or (),
            chain.from_iterable(view.discard_pile),
            last[seat] or (),
            (drawn,) if drawn is not None and kind == DecisionKind.SLAP else (),
        ]
        after = seat + 1  # the opponents clockwise from the seat: seen blocks, then last discards
        cards += seen[after:]
        cards += seen[:seat]
        cards += [g or () for g in last[after:]]
        cards += [g or () for g in last[:seat]]
        idx = list(chain.from_iterable(map(map, self._getters, cards)))
        n = self.players
        obs = np.bincount(idx, minlength=self.size).astype(np.float32)
        obs += self._base
        # the scalars, in the order of self._scalars (one NumPy assignment for all)
        counts = view.hand_counts
        totals = view.totals
        value = view.hand_value or 0
        per_hand, per_total = self._per_hand, self._per_total
        phase = _PHASE_ONE_HOT[kind]
        vals = [
            counts[seat] * per_hand,
            value * self._per_value,
            _clip_total(totals[seat] * per_total),
            1.0 if value <= self._threshold else 0.0,
            *phase,
            view.stock_count * self._per_stock,
            min(view.turns, _TURNS_SCALE) / _TURNS_SCALE,
        ]
        active = view.active
        current = view.current
        for i in range(1, n):
            p = (seat + i) % n
            vals += (
                counts[p] * per_hand,
                _clip_total(totals[p] * per_total),
                1.0 if p in active else 0.0,
                1.0 if p == current else 0.0,
            )
        obs[self._scalars] = vals
        return obs


_PHASE_ONE_HOT: dict[DecisionKind | None, tuple[float, float, float]] = {
    DecisionKind.TURN: (1.0, 0.0, 0.0),
    DecisionKind.TAKE: (0.0, 1.0, 0.0),
    DecisionKind.SLAP: (0.0, 0.0, 1.0),
    DecisionKind.NEXT_ROUND: (0.0, 0.0, 0.0),
    None: (0.0, 0.0, 0.0),
}
_TOTAL_CLIP = 4.0
"""Totals are given as a fraction of the score limit, clipped to ±4 (only long Asef streaks reach it)."""
_KNOB_CLIP = 5.0
_TURNS_SCALE = 500


def _positions(start: int) -> tuple[int, ...]:
    """The observation position of every physical card id in a card block at *start*."""
    return tuple(start + KIND[c] for c in range(2 * DECK_SIZE))


def _clip_total(x: float) -> float:
    return _TOTAL_CLIP if x > _TOTAL_CLIP else -_TOTAL_CLIP if x < -_TOTAL_CLIP else x
