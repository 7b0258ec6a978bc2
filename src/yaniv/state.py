"""The round state machine: positions, phases, legal actions, checked and fast apply.

A :class:`RoundState` is one deal up to its showdown (RULES.md §2). Legality lives
here and only here. Three ways to change a state:

* :meth:`RoundState.apply` — checked: takes an explicit seat and an action (value,
  JSON dict or text), raises :class:`~yaniv.errors.IllegalActionError` with a reason
  a player understands and leaves the state unchanged.
* :meth:`RoundState.push` / :meth:`RoundState.pop` — unchecked with undo, for search.
* ``fast_*`` methods — unchecked, no undo, no allocation beyond the discard itself:
  the simulation hot path (``bench/engine.py``).

Internally cards are physical ids; a hand (and the cards seen taken) is two bitmask
words per seat, deck 0's cards and deck 1's shifted down by 54, so that every mask fits
a machine word even with two decks (a compiled build does native arithmetic on them);
:attr:`RoundState.hands` joins them. The stock is a list whose *end* is the top, the
discard pile a list of tuples (groups, oldest first).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Protocol, TypeVar

from .actions import Action
from .cards import (
    CARDS,
    JOKER,
    KIND,
    NAMES,
    RANK_NAMES,
    SUIT_NAMES,
    Card,
    cards_of_mask,
    format_cards,
    shuffle,
)
from .errors import IllegalActionError, InvalidNotationError
from .events import (
    Asef,
    Discard,
    Draw,
    FalseYaniv,
    Reshuffle,
    RoundEnd,
    Showdown,
    Slap,
    Swap,
    Take,
    YanivCall,
)
from .melds import TAKE_ANY_OF_SET, TAKE_TOP, MeldTable, classify, is_set_group, joker_targets, run_start
from .rules import Rules
from .scoring import RoundResult, settle

__all__ = ["PHASES", "Phase", "RoundState", "SeatView", "Shuffler", "add_card", "remove_card"]


class Phase(StrEnum):
    """The phases of a round (DESIGN.md §4), as positions, views and the web name them."""

    TURN_START = "turn_start"
    """The current player has not acted yet."""
    AFTER_DISCARD = "after_discard"
    """He has discarded and must take (draw, take, swap, or Asef)."""
    AFTER_DRAW = "after_draw"
    """The slap window of S20: the next player is current; the drawer may still slap."""
    ROUND_OVER = "round_over"
    """The round has ended (``result`` is set)."""


PHASES: tuple[Phase, ...] = tuple(Phase)
"""The phases by phase number: a state keeps the number (a plain int, for speed)."""
# phase numbers; Final, so a compiled build inlines them
TURN_START: Final = 0
AFTER_DISCARD: Final = 1
AFTER_DRAW: Final = 2
ROUND_OVER: Final = 3

_T = TypeVar("_T")
_MELD_TABLES: dict[Rules, MeldTable] = {}
# a table holds half a MB of caches or more; a server meets rule sets from anyone: forget
# them all when this many are kept (a game keeps its own table through its states)
_MELD_TABLES_LIMIT: Final = 64
_LAST_TABLE: list[tuple[Rules, MeldTable]] = []  # the rules last asked for and their table
# The events logged every turn (discard, draw, take) are built with dict's own C
# constructor: the same value as Discard(seat, cards), a tenth of the per-move overhead
# of a logged game (tests/test_events.py checks they equal the constructors' events).
_new_event: Final = dict.__new__
_fill_event: Final = dict.__init__


def meld_table(rules: Rules) -> MeldTable:
    """The shared discard generator of a rule set."""
    # Every round asks with the game's one rules object: found by identity first, so a
    # new round does not hash the ~40 knobs of a frozen dataclass.
    if _LAST_TABLE:
        last_rules, last_table = _LAST_TABLE[0]  # one read: another thread may replace it
        if last_rules is rules:
            return last_table
    table = _MELD_TABLES.get(rules)
    if table is None:
        if len(_MELD_TABLES) >= _MELD_TABLES_LIMIT:
            _MELD_TABLES.clear()
        table = _MELD_TABLES[rules] = MeldTable(rules)
    _LAST_TABLE[:] = [(rules, table)]
    return table


class Shuffler(Protocol):
    """Anything with ``random.Random``'s ``shuffle``: the source of reshuffle orders."""

    def shuffle(self, x: list[Any], /) -> None:
        """Shuffle *x* in place."""


_M54: Final = (1 << 54) - 1  # one deck's 54 bits
# Actions are read-only values, so legal_actions() hands out the same object for the same
# discard (by its physical ids) or take: listing them is most of the checked API's work.
_DISCARD_ACTIONS: Final[dict[tuple[int, ...], Action]] = {}
# cleared when full: 3,000 random 4-player rounds meet 1,143 distinct discards with one
# deck and 6,826 with two, so the bound (a few MB) is rarely reached
_DISCARD_ACTIONS_LIMIT: Final = 20_000
_TAKE_ACTIONS: Final[tuple[Action, ...]] = tuple(Action("take", card=CARDS[p]) for p in range(len(CARDS)))
# the physical copies of every kind (0..52), deck 0's first; a joker's are all four
_COPIES: Final[tuple[tuple[int, ...], ...]] = (*((k, k + 54) for k in range(JOKER)), (52, 53, 106, 107))


def _has(lo: int, hi: int, p: int) -> bool:
    """Whether the mask given as its two deck words (``lo``, ``hi``) holds physical id *p*."""
    return bool((lo >> p if p < 54 else hi >> (p - 54)) & 1)


def _mask_value(mask: int, values: tuple[int, ...]) -> int:
    """The sum of *values* over the physical ids in *mask*, bit by bit on its deck words."""
    total = 0
    for base, word in ((0, mask & _M54), (54, mask >> 54)):
        while word:
            low = word & -word
            total += values[base + low.bit_length() - 1]
            word ^= low
    return total


def add_card(lo: list[int], hi: list[int], seat: int, card: int) -> None:
    """Set physical id *card* in *seat*'s mask kept as the two deck words *lo*, *hi*."""
    if card < 54:
        lo[seat] = lo[seat] | (1 << card)  # not |=: native ints when compiled
    else:
        hi[seat] = hi[seat] | (1 << (card - 54))


def remove_card(lo: list[int], hi: list[int], seat: int, card: int) -> None:
    """Clear physical id *card* in *seat*'s mask kept as the two deck words *lo*, *hi*."""
    if card < 54:
        lo[seat] = lo[seat] & ~(1 << card)
    else:
        hi[seat] = hi[seat] & ~(1 << (card - 54))


def _joined(lo: list[int], hi: list[int]) -> tuple[int, ...]:
    """Every seat's mask from its two deck words, as one bitmask of physical ids."""
    return tuple([lo[p] | hi[p] << 54 if hi[p] else lo[p] for p in range(len(lo))])


def _discard_action(cards: tuple[int, ...]) -> Action:
    """The discard of physical *cards* as an action (its cards as :class:`Card` values)."""
    if len(cards) == 1:
        laid: tuple[Card, ...] = (CARDS[cards[0]],)
    else:
        laid = tuple([CARDS[p] for p in cards])
    return Action("discard", laid)


def _by_kind(p: int) -> tuple[int, int]:
    """Sort key: canonical order of kinds, the two decks' copies side by side."""
    return KIND[p], p


def _name(p: int) -> str:
    return NAMES[p]


class RoundState:
    """One round of Yaniv: hands, stock, discard pile, whose turn and which phase."""

    __slots__ = (
        "_meld",
        "_shared_rng",
        "_thr",
        "_undo",
        "_values",
        "active",
        "current",
        "dealer",
        "drawn",
        "eliminated",
        "hand_hi",
        "hand_lo",
        "hv",
        "last_discard",
        "log",
        "n",
        "names",
        "nxt",
        "phase",
        "pile",
        "reshuffles",
        "result",
        "rules",
        "seen_hi",
        "seen_lo",
        "shuffler",
        "slapper",
        "stock",
        "tiebreak",
        "totals",
        "turns",
    )

    rules: Rules
    n: int
    hand_lo: list[int]
    """Per seat, the deck-0 cards held (physical ids 0..53 as bits 0..53)."""
    hand_hi: list[int]
    """Per seat, the deck-1 cards held (physical ids 54..107 as bits 0..53); 0 with one deck."""
    hv: list[int]
    seen_lo: list[int]
    """Per seat, the deck-0 cards he was seen taking from the pile and still holds."""
    seen_hi: list[int]
    """Per seat, the deck-1 cards seen taken and still held (as :attr:`hand_hi`)."""
    stock: list[int]
    pile: list[tuple[int, ...]]
    current: int
    phase: int
    active: tuple[int, ...]
    nxt: list[int]
    totals: list[int]
    eliminated: tuple[int, ...]
    dealer: int | None
    names: list[str] | None
    tiebreak: bool
    drawn: int | None
    slapper: int | None
    result: RoundResult | None
    shuffler: Shuffler
    log: list[dict[str, Any]] | None  # typed Event values (Game.events: header first)
    turns: int
    reshuffles: int

    def __new__(
        cls,
        rules: Rules,
        hands: Sequence[int],
        stock: Sequence[int],
        pile: Sequence[Sequence[int]],
        current: int,
        *,
        totals: Sequence[int] | None = None,
        eliminated: Sequence[int] = (),
        dealer: int | None = None,
        names: Sequence[str] | None = None,
        tiebreak: bool = False,
        shuffler: Shuffler | None = None,
        log: bool = False,
    ) -> RoundState:
        """A bare instance; :meth:`__init__` fills it from the same arguments.

        Defined so that :meth:`copy` can allocate without ``__init__`` in a compiled
        build too, where ``RoundState.__new__`` would otherwise run the whole
        constructor. It takes ``__init__``'s own parameters (and ignores them): with
        ``*args, **kwargs`` a compiled build would pack and parse every constructor's
        arguments as a Python call does.
        """
        return object.__new__(cls)

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[int],
        stock: Sequence[int],
        pile: Sequence[Sequence[int]],
        current: int,
        *,
        totals: Sequence[int] | None = None,
        eliminated: Sequence[int] = (),
        dealer: int | None = None,
        names: Sequence[str] | None = None,
        tiebreak: bool = False,
        shuffler: Shuffler | None = None,
        log: bool = False,
    ) -> None:
        """A state at the start of *current*'s turn from physical ids (no validation).

        *hands* are bitmasks, *stock* lists the top card **last**, *pile* lists groups
        oldest first. Use :meth:`from_position` for checked input.
        """
        n = len(hands)
        self.rules = rules
        self.n = n
        self._values = rules.card_values
        self._thr = rules.threshold
        self._meld = meld_table(rules)
        self.hand_lo = [h & _M54 for h in hands]
        self.hand_hi = [h >> 54 for h in hands]
        values = self._values
        self.hv = [_mask_value(h, values) for h in hands]
        self.seen_lo = [0] * n
        self.seen_hi = [0] * n
        # per seat, the group he last discarded this round (public history; an optional
        # position field, forgotten when a reshuffle takes the group into the stock)
        self.last_discard: list[tuple[int, ...] | None] = [None] * n
        self.stock = list(stock)
        self.pile = [tuple(g) for g in pile]
        self.current = current
        self.phase = TURN_START
        self.totals = list(totals) if totals is not None else [0] * n
        self.eliminated = tuple(sorted(eliminated))
        self.active = tuple(p for p in range(n) if p not in self.eliminated)
        self.nxt = [self._next_active(p) for p in range(n)]
        self.dealer = dealer
        self.names = list(names) if names is not None else None
        self.tiebreak = tiebreak
        self.drawn = None
        self.slapper = None
        self.result = None
        self.shuffler = shuffler if shuffler is not None else random.Random(0)
        self.log = [] if log else None
        self.turns = 0
        self.reshuffles = 0
        self._undo: list[tuple[Any, ...]] = []
        self._shared_rng = False

    @classmethod
    def sampled(
        cls,
        view: SeatView,
        hands: Sequence[int],
        stock: Sequence[int],
        *,
        shuffler: Shuffler | None = None,
    ) -> RoundState:
        """A full state consistent with what *view*'s seat knows, the hidden cards filled in.

        For search over sampled deals (determinization): *hands* are every seat's
        bitmasks of physical ids (the view's own hand and the cards seen taken included),
        *stock* the sampled stock, top card **last**. The discard pile, whose turn and the
        phase, totals, eliminations, cards seen taken, last discards and the turn count
        come from the view. A slap window (``after_draw``) is sampled as the start of
        the current player's turn: the drawer's slap is not the sampled seat's to make.
        """
        if view.seat is None:
            raise ValueError("a spectator's view has no seat to sample a state for")
        state = cls(
            view.rules,
            hands,
            stock,
            [tuple(int(c) for c in g) for g in view.discard_pile],
            view.current,
            totals=view.totals,
            eliminated=view.eliminated,
            shuffler=shuffler,
        )
        state.turns = view.turns
        for p, cards in enumerate(view.seen):
            for card in cards:
                add_card(state.seen_lo, state.seen_hi, p, int(card))
        state.last_discard = [None if g is None else tuple(int(c) for c in g) for g in view.last_discards]
        if view.phase == Phase.AFTER_DISCARD:
            state.phase = AFTER_DISCARD
        return state

    def _next_active(self, seat: int) -> int:
        for step in range(1, self.n + 1):
            p = (seat + step) % self.n
            if p not in self.eliminated:
                return p
        return seat

    # ------------------------------------------------------------------ queries

    @property
    def hands(self) -> tuple[int, ...]:
        """Every seat's hand as one bitmask of physical ids (a copy: see :meth:`set_hand`)."""
        return _joined(self.hand_lo, self.hand_hi)

    @property
    def seen(self) -> tuple[int, ...]:
        """Per seat, the cards he was seen taking and still holds, one bitmask each (a copy)."""
        return _joined(self.seen_lo, self.seen_hi)

    def hand_mask(self, seat: int) -> int:
        """*seat*'s hand as one bitmask of physical ids."""
        hi = self.hand_hi[seat]
        return self.hand_lo[seat] | hi << 54 if hi else self.hand_lo[seat]

    def hand_count(self, seat: int) -> int:
        """How many cards *seat* holds."""
        return self.hand_lo[seat].bit_count() + self.hand_hi[seat].bit_count()

    def set_hand(self, seat: int, mask: int) -> None:
        """Give *seat* the hand *mask* (physical ids; unchecked), its value recounted.

        For tests, puzzles and search that edit a state; cards seen taken that the new
        hand no longer holds are forgotten.
        """
        self.hand_lo[seat] = mask & _M54
        self.hand_hi[seat] = mask >> 54
        self.hv[seat] = _mask_value(mask, self._values)
        self.seen_lo[seat] = self.seen_lo[seat] & self.hand_lo[seat]
        self.seen_hi[seat] = self.seen_hi[seat] & self.hand_hi[seat]

    def set_seen(self, seat: int, mask: int) -> None:
        """Mark the cards of *mask* as seen taken by *seat* (unchecked: he should hold them)."""
        self.seen_lo[seat] = mask & _M54
        self.seen_hi[seat] = mask >> 54

    @property
    def phase_name(self) -> Phase:
        """The phase as in the position format: turn_start, after_discard, after_draw, round_over."""
        return PHASES[self.phase]

    @property
    def is_over(self) -> bool:
        """Whether the round has ended (``result`` is set)."""
        return self.phase == ROUND_OVER

    def hand(self, seat: int) -> list[Card]:
        """The cards in *seat*'s hand, in canonical order (by kind: suits S H D C, then jokers)."""
        return sorted((CARDS[c] for c in cards_of_mask(self.hand_mask(seat))), key=_by_kind)

    def hand_value(self, seat: int) -> int:
        """The value of *seat*'s hand (S2)."""
        return self.hv[seat]

    def can_yaniv(self) -> bool:
        """Whether the current player may call Yaniv now (S10)."""
        return self.phase in (TURN_START, AFTER_DRAW) and self.hv[self.current] <= self._thr

    def previous_group(self) -> tuple[int, ...] | None:
        """The current player's previous group (RULES.md §1), or None if there is none."""
        pile = self.pile
        if self.phase == AFTER_DISCARD:
            return pile[-2] if len(pile) >= 2 else None
        if self.phase == ROUND_OVER:
            return None
        return pile[-1] if pile else None

    def discards(self) -> list[tuple[int, ...]]:
        """Every legal discard of the current player (physical ids, laid order); fast path."""
        seat = self.current
        return self._meld.discards_of(self.hand_lo[seat], self.hand_hi[seat])

    def takeable_cards(self) -> list[int]:
        """Physical ids of the takeable cards of the previous group, one per kind (S8).

        The same rule as :func:`yaniv.melds.takeable_positions`, inlined: this runs every turn.
        """
        group = self.previous_group()
        if group is None:
            return []
        meld = self._meld
        if len(group) == 1:
            return [group[0]]
        takes = meld.takes
        if takes == TAKE_TOP:
            return [group[-1]]
        if takes == TAKE_ANY_OF_SET and is_set_group(group, meld.jokers_in_sets):
            out: list[int] = []
            kinds: set[int] = set()
            for c in group:
                if KIND[c] not in kinds:
                    kinds.add(KIND[c])
                    out.append(c)
            return out
        first, last = group[0], group[-1]
        return [first] if KIND[first] == KIND[last] else [first, last]

    def takeable(self) -> list[Card]:
        """The takeable cards of the current player's previous group (S8)."""
        return [CARDS[c] for c in self.takeable_cards()]

    def swappable(self) -> list[Card]:
        """Natural cards the current player may exchange for a joker now (S19)."""
        mode = self.rules.joker_swap
        if mode == "off" or self.phase == ROUND_OVER:
            return []
        if (mode == "as_draw") != (self.phase == AFTER_DISCARD):
            return []
        group = self.previous_group()
        if group is None:
            return []
        lo = self.hand_lo[self.current]
        hi = self.hand_hi[self.current]
        out = []
        for _pos, kind in joker_targets(group, self.rules):
            if (lo | hi) >> kind & 1:
                out.append(CARDS[kind])
        return out

    def slap_card(self, seat: int) -> Card | None:
        """The card *seat* may slap onto his discard now (S20), if any."""
        if self.phase != AFTER_DRAW or seat != self.slapper or self.drawn is None:
            return None
        return CARDS[self.drawn] if self._slap_group(self.drawn) is not None else None

    def _slap_group(self, card: int) -> tuple[int, ...] | None:
        """The discard extended by *card* if the slap is legal (S20), else None."""
        seat = self.slapper
        if seat is None or self.hand_count(seat) <= 1 or not self.pile:
            return None  # the hand must keep a card
        group = self.pile[-1]
        mode = self.rules.quick_discard
        if mode == "same_rank":
            # a single or a set (jokers allowed where sets may hold them) of the card's rank
            naturals = [KIND[c] for c in group if KIND[c] != JOKER]
            # A lone joker has no rank, so no card is "of the same rank" (S20), even
            # though JK 7H would be a set under jokers_in_sets: at least one natural
            # card of the discard must give the rank.
            if not naturals or KIND[card] == JOKER or any(k % 13 != KIND[card] % 13 for k in naturals):
                return None
            extended = (*group, card)
            return extended if classify(extended, self.rules) == "set" else None
        if mode == "fits_meld":
            for extended in ((*group, card), (card, *group)):
                if classify(extended, self.rules) is not None:
                    return extended
        return None

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """What *seat* (default: the current player) may do now, as actions.

        In the slap window (phase ``after_draw``) the player who drew may slap while the
        current player may act; ask with ``seat`` to see either. A false Yaniv (S18) is
        accepted by :meth:`apply` but never listed: it is a penalised mistake.
        """
        if self.phase == ROUND_OVER:
            return []
        if seat is None:
            seat = self.current
        out: list[Action] = []
        if seat != self.current:
            slap = self.slap_card(seat)
            if slap is not None:
                out.append(Action("slap", card=slap))
            return out
        if self.phase == AFTER_DISCARD:
            if self.stock:
                out.append(Action.draw())
            takes = _TAKE_ACTIONS
            for p in self.takeable_cards():
                out.append(takes[p])
            for c in self.swappable():
                out.append(Action("swap", card=c))
            if self._asef_allowed():
                out.append(Action.asef())
            return out
        if self.can_yaniv():
            out.append(Action.yaniv())
        # plain loops, no generators: this runs for every decision through the checked API
        made = _DISCARD_ACTIONS
        for d in self.discards():
            act = made.get(d)
            if act is None:
                act = _discard_action(d)
                if len(made) >= _DISCARD_ACTIONS_LIMIT:
                    made.clear()
                made[d] = act
            out.append(act)
        for c in self.swappable():
            out.append(Action("swap", card=c))
        return out

    def _asef_allowed(self) -> bool:
        return (
            self.rules.asef
            and self.phase == AFTER_DISCARD
            and self.hand_lo[self.current] == 0
            and self.hand_hi[self.current] == 0
            and len(self.pile[-1]) == 1
            and bool(self.stock)
        )

    # ------------------------------------------------------------------ fast path
    # Per-seat lists are updated as ``x[i] = x[i] op y``, not ``x[i] op= y``: a compiled
    # build does the augmented form on boxed objects, the plain one on native ints.

    def random_playout(self, rng: random.Random, max_turns: int = 10_000) -> int:
        """Play on with uniformly random moves (unchecked) until the round ends; the turns played.

        The policy of ``bench/engine.py``: call Yaniv whenever allowed; otherwise a
        discard uniformly among the legal discards, then the stock or the previous
        group with equal chance (the group if the stock is empty), a takeable card
        uniformly. For Monte Carlo search and benchmarks: the loop runs inside the
        engine, so a compiled build runs it compiled too. Stops after *max_turns*.
        """
        rand = rng.random
        turns = 0
        # each random number typed float and each count made one, so that a compiled
        # build multiplies native floats (the same product as float times int)
        x: float
        while self.phase != ROUND_OVER and turns < max_turns:
            if self.phase != AFTER_DISCARD:
                if self.hv[self.current] <= self._thr:
                    self.fast_yaniv()
                    return turns + 1
                seat = self.current
                discards = self._meld.discards_of(self.hand_lo[seat], self.hand_hi[seat])
                x = rand()
                self.fast_discard(discards[int(x * float(len(discards)))])
            takeable = self.takeable_cards()
            take = False
            if takeable:  # a number drawn only when a card may be taken, as ever
                x = rand()
                take = x < 0.5 or not self.stock
            if take:
                x = rand()
                self.fast_take(takeable[int(x * float(len(takeable)))])
            else:
                self.fast_draw()
            turns += 1
        return turns

    def fast_discard(self, cards: tuple[int, ...]) -> None:
        """Discard physical *cards* (unchecked). Closes a slap window."""
        seat = self.current
        lo = 0  # the cards as two deck words: native ints when compiled, even with two decks
        hi = 0
        value = 0
        values = self._values
        for c in cards:
            if c < 54:
                lo |= 1 << c
            else:
                hi |= 1 << (c - 54)
            value += values[c]
        self.hand_lo[seat] = self.hand_lo[seat] ^ lo
        self.hv[seat] = self.hv[seat] - value
        if self.seen_lo[seat] & lo:
            self.seen_lo[seat] = self.seen_lo[seat] & ~lo
        if hi:
            self.hand_hi[seat] = self.hand_hi[seat] ^ hi
            if self.seen_hi[seat] & hi:
                self.seen_hi[seat] = self.seen_hi[seat] & ~hi
        self.pile.append(cards)
        self.last_discard[seat] = cards
        self.phase = AFTER_DISCARD
        self.slapper = None
        if self.log is not None:
            event = _new_event(Discard)  # = Discard(seat, cards), built without a Python frame
            _fill_event(event, type="discard", seat=seat, cards=[_name(c) for c in cards])
            self.log.append(event)

    def fast_draw(self) -> int:
        """Take the top of the stock (unchecked); reshuffles if it empties (S9)."""
        seat = self.current
        card = self.stock.pop()
        if card < 54:  # add_card() inlined: every turn of every playout draws or takes
            self.hand_lo[seat] = self.hand_lo[seat] | (1 << card)
        else:
            self.hand_hi[seat] = self.hand_hi[seat] | (1 << (card - 54))
        self.hv[seat] = self.hv[seat] + self._values[card]
        if self.log is not None:
            event = _new_event(Draw)
            _fill_event(event, type="draw", seat=seat, card=_name(card))
            self.log.append(event)
        if not self.stock:
            self._reshuffle()
        self.turns += 1
        self.current = self.nxt[seat]
        if self._meld.slaps:
            self.phase = AFTER_DRAW
            self.drawn = card
            self.slapper = seat
        else:
            self.phase = TURN_START
        return card

    def fast_take(self, card: int) -> None:
        """Take physical *card* from the previous group (unchecked)."""
        seat = self.current
        pile = self.pile
        group = pile[-2]
        if group[-1] == card:
            rest = group[:-1]
        elif group[0] == card:
            rest = group[1:]
        else:
            i = group.index(card)
            rest = group[:i] + group[i + 1 :]
        if rest:
            pile[-2] = rest
        else:
            del pile[-2]
        if card < 54:  # add_card() inlined, for the hand and the cards seen taken
            bit = 1 << card
            self.hand_lo[seat] = self.hand_lo[seat] | bit
            self.seen_lo[seat] = self.seen_lo[seat] | bit
        else:
            bit = 1 << (card - 54)
            self.hand_hi[seat] = self.hand_hi[seat] | bit
            self.seen_hi[seat] = self.seen_hi[seat] | bit
        self.hv[seat] = self.hv[seat] + self._values[card]
        if self.log is not None:
            event = _new_event(Take)
            _fill_event(event, type="take", seat=seat, card=_name(card))
            self.log.append(event)
        self.turns += 1
        self.current = self.nxt[seat]
        self.phase = TURN_START

    def fast_swap(self, card: int) -> None:
        """Exchange physical natural *card* for the joker standing for it (unchecked, S19)."""
        seat = self.current
        index = -2 if self.phase == AFTER_DISCARD else -1
        group = self.pile[index]
        pos = next(i for i, kind in joker_targets(group, self.rules) if kind == KIND[card])
        joker = group[pos]
        self.pile[index] = (*group[:pos], card, *group[pos + 1 :])
        remove_card(self.hand_lo, self.hand_hi, seat, card)
        add_card(self.hand_lo, self.hand_hi, seat, joker)
        self.hv[seat] = self.hv[seat] - self._values[card]
        remove_card(self.seen_lo, self.seen_hi, seat, card)
        add_card(self.seen_lo, self.seen_hi, seat, joker)
        if self.log is not None:
            self.log.append(Swap(seat, _name(card), pos))
        self.turns += 1
        self.slapper = None
        self.current = self.nxt[seat]
        self.phase = TURN_START

    def fast_slap(self) -> None:
        """Add the drawn card to the drawer's discard (unchecked, S20)."""
        seat = self.slapper
        card = self.drawn
        assert seat is not None and card is not None
        extended = self._slap_group(card)
        assert extended is not None
        self.pile[-1] = extended
        remove_card(self.hand_lo, self.hand_hi, seat, card)
        self.hv[seat] = self.hv[seat] - self._values[card]
        self.phase = TURN_START
        self.slapper = None
        self.drawn = None
        if self.log is not None:
            self.log.append(Slap(seat, _name(card)))

    def fast_yaniv(self) -> RoundResult:
        """The current player calls Yaniv (unchecked): showdown and result (S11)."""
        seat = self.current
        if self.log is not None:
            self.log.append(YanivCall(seat))
        return self._finish(seat, "yaniv", list(self.hv))

    def fast_asef(self) -> RoundResult:
        """The current player calls Asef (unchecked): blind card and showdown (S21)."""
        seat = self.current
        card = self.stock.pop()
        add_card(self.hand_lo, self.hand_hi, seat, card)
        self.hv[seat] = self.hv[seat] + self._values[card]
        if self.log is not None:
            self.log.append(Asef(seat, _name(card)))
        return self._finish(seat, "asef", list(self.hv))

    def fast_false_yaniv(self, seat: int) -> RoundResult:
        """An out-of-turn Yaniv call by *seat* under ``false_yaniv_penalty`` (S18)."""
        if self.log is not None:
            self.log.append(FalseYaniv(seat))
        return self._finish(seat, "false_yaniv", list(self.hv))

    def _finish(self, caller: int, kind: str, values: list[int]) -> RoundResult:
        result = settle(
            self.rules,
            self.n,
            self.active,
            self.totals,
            caller,
            kind,
            values,
            tiebreak=self.tiebreak,
        )
        if kind != "false_yaniv":
            self.turns += 1
        self.result = result
        self.phase = ROUND_OVER
        self.slapper = None
        if self.log is not None:
            if kind != "false_yaniv":
                hands: list[list[str] | None] = [None] * self.n
                for p in self.active:
                    # by kind, as the deal lists hands: a replay may hold the other deck's
                    # copy of a card (two decks), so physical ids would order them apart
                    hands[p] = [_name(c) for c in sorted(cards_of_mask(self.hand_mask(p)), key=_by_kind)]
                self.log.append(Showdown(hands))
            self.log.append(RoundEnd(result.to_dict()))
        return result

    def _reshuffle(self) -> None:
        """S9: all groups but the topmost become the new stock, shuffled."""
        old = self.pile
        cards = [c for group in old[:-1] for c in group]
        if not cards:
            return
        if self._shared_rng:
            self._shared_rng = False
            if isinstance(self.shuffler, random.Random):
                own = random.Random()
                own.setstate(self.shuffler.getstate())
                self.shuffler = own
        shuffle(self.shuffler, cards)  # = self.shuffler.shuffle(cards)
        self.stock = cards
        self.pile = [old[-1]]
        # the reshuffled groups are no longer anyone's last discard in view: their cards
        # may now be drawn into hidden hands
        top = old[-1]
        last = self.last_discard
        for p in range(self.n):
            if last[p] is not None and last[p] is not top:
                last[p] = None
        self.reshuffles += 1
        if self.log is not None:
            self.log.append(Reshuffle([_name(c) for c in reversed(cards)]))

    # ------------------------------------------------------------------ push / pop

    def push(self, action: Action, seat: int | None = None) -> None:
        """Apply *action* unchecked, remembering how to undo it with :meth:`pop`.

        *seat* matters only for a slap or a false Yaniv; a ``turn`` pushes two entries.
        """
        if action.type == "turn":
            discard, take = action.halves()
            self.push(discard)
            self.push(take)
            return
        self._undo.append(
            (
                self.current,
                self.phase,
                self.drawn,
                self.slapper,
                self.turns,
                self.reshuffles,
                self.result,
                self.hand_lo[:],
                self.hand_hi[:],
                self.hv[:],
                self.seen_lo[:],
                self.seen_hi[:],
                self.last_discard[:],
                self.stock,
                len(self.stock),
                self.stock[-1] if self.stock else None,
                self.pile,
                len(self.pile),
                self.pile[-2:],
                None if self.log is None else len(self.log),
                self.shuffler,
                self._shared_rng,
                # a draw of the last stock card reshuffles: keep the RNG state to undo it
                self.shuffler.getstate()
                if len(self.stock) == 1 and isinstance(self.shuffler, random.Random)
                else None,
            )
        )
        self._apply_unchecked(action, self.current if seat is None else seat)

    def pop(self) -> None:
        """Undo the last :meth:`push`."""
        (
            self.current,
            self.phase,
            self.drawn,
            self.slapper,
            self.turns,
            self.reshuffles,
            self.result,
            self.hand_lo,
            self.hand_hi,
            self.hv,
            self.seen_lo,
            self.seen_hi,
            self.last_discard,
            stock,
            stock_len,
            stock_top,
            pile,
            pile_len,
            pile_tail,
            log_len,
            self.shuffler,
            self._shared_rng,
            rng_state,
        ) = self._undo.pop()
        if rng_state is not None and isinstance(self.shuffler, random.Random):
            self.shuffler.setstate(rng_state)
        if len(stock) < stock_len:
            stock.append(stock_top)
        self.stock = stock
        del pile[max(0, pile_len - 2) :]
        pile.extend(pile_tail)
        self.pile = pile
        if self.log is not None and log_len is not None:
            del self.log[log_len:]

    def _apply_unchecked(self, action: Action, seat: int) -> None:
        kind = action.type
        if kind == "discard":
            self.fast_discard(self._physical(seat, action.cards))
        elif kind == "draw":
            self.fast_draw()
        elif kind == "take":
            self.fast_take(self._takeable_physical(action.card))
        elif kind == "yaniv":
            if seat == self.current:
                self.fast_yaniv()
            else:
                self.fast_false_yaniv(seat)
        elif kind == "swap":
            assert action.card is not None
            self.fast_swap(self._physical(self.current, (action.card,))[0])
        elif kind == "slap":
            self.fast_slap()
        elif kind == "asef":
            self.fast_asef()
        else:
            raise IllegalActionError(f"a {kind} action cannot be applied directly")

    def _physical(self, seat: int, cards: Sequence[int]) -> tuple[int, ...]:
        """Map card kinds to physical cards in *seat*'s hand; raise if not held.

        Of two copies of a kind, the one not seen taken is used first, so which copies
        stay public does not depend on internal ids (positions keep only kinds).
        """
        lo = self.hand_lo[seat]
        hi = self.hand_hi[seat]
        if hi == 0:
            # no deck-1 card held: a natural kind's only copy in the hand is its deck-0 id,
            # so only jokers (two copies in one deck) need the copies' order below
            left = lo
            found: list[int] = []
            for card in cards:
                kind = KIND[card]
                if kind == JOKER or not left >> kind & 1:
                    break
                left ^= 1 << kind
                found.append(kind)
            else:
                return tuple(found)
        seen_lo = self.seen_lo[seat]
        seen_hi = self.seen_hi[seat]
        out: list[int] = []
        for card in cards:
            kind = KIND[card]
            choices = _COPIES[kind]
            if seen_lo or seen_hi:
                # the copies not seen taken first, each part in id order (a stable sort by
                # the seen bit, without a key function per card)
                unseen = [p for p in choices if not _has(seen_lo, seen_hi, p)]
                choices = tuple(unseen + [p for p in choices if _has(seen_lo, seen_hi, p)])
            for p in choices:
                if p < 54:
                    if lo >> p & 1:
                        lo ^= 1 << p
                        out.append(p)
                        break
                elif hi >> (p - 54) & 1:
                    hi ^= 1 << (p - 54)
                    out.append(p)
                    break
            else:
                held = "" if KIND[card] not in (KIND[c] for c in out) else " that many times"
                raise IllegalActionError(f"you do not hold {CARDS[kind]}{held}")
        return tuple(out)

    def _takeable_physical(self, card: int | None) -> int:
        if card is not None:
            for p in self.takeable_cards():
                if KIND[p] == KIND[card]:
                    return p
        offered = format_cards(self.takeable_cards()) or "nothing"
        raise IllegalActionError(f"you may not take {card}: you may take {offered} or draw")

    # ------------------------------------------------------------------ checked apply

    def apply(self, seat: int | object, action: Action | dict[str, Any] | str | object) -> RoundResult | None:
        """Apply *action* by *seat*, checked; returns the result if the round ended.

        Raises :class:`~yaniv.errors.IllegalActionError` (state unchanged) with a reason,
        for any value of either argument (hence ``| object``: a compiled build would
        otherwise refuse a wrong type with a bare ``TypeError`` before the check).
        """
        try:
            act = Action.coerce(action)
        except InvalidNotationError as e:
            raise IllegalActionError(str(e)) from None
        seat = self._check_seat(seat)
        if act.type == "turn":
            discard, take = act.halves()
            self._check(seat, discard)
            self.push(discard)
            try:
                self._check(seat, take)
            except IllegalActionError:
                self.pop()
                raise
            self._undo.pop()  # the discard stays
            self._apply_unchecked(take, seat)
            return self.result
        found = self._check(seat, act)
        if found is not None and act.type == "discard":
            self.fast_discard(found)
        elif found is not None and act.type == "take":
            self.fast_take(found[0])
        else:
            self._apply_unchecked(act, seat)
        return self.result

    def _check_seat(self, seat: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise IllegalActionError(f"there is no seat {seat!r}: seats are 0..{self.n - 1}")
        if seat not in self.active:
            raise IllegalActionError(f"seat {seat} is not playing in this round")
        if self.phase == ROUND_OVER:
            raise IllegalActionError("the round is over")
        return seat

    def _who(self, seat: int) -> str:
        return self.names[seat] if self.names else f"P{seat}"

    def _check(self, seat: int, act: Action) -> tuple[int, ...] | None:
        """Raise IllegalActionError unless *seat* may do *act* now.

        Returns the physical cards the check found for a discard (the cards laid) or a
        take (the card taken), so that applying it need not look for them again.
        """
        kind = act.type
        rules = self.rules
        if kind == "slap":
            self._check_slap(seat, act)
            return None
        if seat != self.current:
            if kind == "yaniv" and rules.false_yaniv_penalty is not None:
                return None  # accepted, and penalised (S18)
            raise IllegalActionError(f"it is not your turn: {self._who(self.current)} is to play")
        at_start = self.phase in (TURN_START, AFTER_DRAW)
        if kind == "yaniv":
            if not at_start:
                raise IllegalActionError(
                    "Yaniv may only be called at the start of your turn, before discarding"
                )
            if self.hv[seat] > self._thr:
                raise IllegalActionError(
                    f"your hand is worth {self.hv[seat]}: Yaniv needs {self._thr} or less"
                )
        elif kind == "discard":
            if not at_start:
                raise IllegalActionError("you have already discarded: now draw or take a card")
            cards = self._physical(seat, act.cards)
            if classify(cards, rules) is None:
                raise IllegalActionError(explain_bad_discard(cards, rules))
            return cards
        elif kind in ("draw", "take", "asef"):
            if self.phase != AFTER_DISCARD:
                raise IllegalActionError("discard first, then take a card")
            if kind == "draw" and not self.stock:
                raise IllegalActionError("the stock is empty: take a card from the previous discard")
            if kind == "take":
                if self.previous_group() is None:
                    raise IllegalActionError("there is no previous discard to take from: draw")
                return (self._takeable_physical(act.card),)
            if kind == "asef" and not self._asef_allowed():
                if not rules.asef:
                    raise IllegalActionError("Asef is not played under these rules")
                raise IllegalActionError(
                    "Asef needs exactly one card at the start of your turn, discarded, and a stock"
                )
        elif kind == "swap":
            if rules.joker_swap == "off":
                raise IllegalActionError("the joker exchange is not played under these rules")
            if rules.joker_swap == "as_draw" and self.phase != AFTER_DISCARD:
                raise IllegalActionError("the joker exchange is your take: discard first")
            if rules.joker_swap == "as_turn" and not at_start:
                raise IllegalActionError("the joker exchange replaces your whole turn: you have discarded")
            if act.card is None or CARDS[KIND[act.card]] not in self.swappable():
                raise IllegalActionError(
                    f"no joker in the previous discard stands for {act.card} that you hold"
                )
        return None

    def _check_slap(self, seat: int, act: Action) -> None:
        if self.rules.quick_discard == "off":
            raise IllegalActionError("quick discard (slap) is not played under these rules")
        if self.phase != AFTER_DRAW or seat != self.slapper or self.drawn is None:
            raise IllegalActionError(
                "you may only slap the card you just drew from the stock, before the next player acts"
            )
        if act.card is None or KIND[act.card] != KIND[self.drawn]:
            raise IllegalActionError(f"you may only slap the card you just drew ({CARDS[self.drawn]})")
        if self._slap_group(self.drawn) is None:
            group = self.pile[-1] if self.pile else ()
            if self.rules.quick_discard == "same_rank" and group and all(KIND[c] == JOKER for c in group):
                raise IllegalActionError(
                    f"{CARDS[self.drawn]} does not fit your discard: a lone joker has no rank to match"
                )
            raise IllegalActionError(f"{CARDS[self.drawn]} does not fit your discard")

    # ------------------------------------------------------------------ copies

    def copy(self) -> RoundState:
        """An independent copy (shares the rules and meld tables, not the RNG).

        The copy takes its own copy of a ``random.Random`` shuffler (with its state) the
        first time it reshuffles, so playing on a copy (search) never changes the
        original game's future reshuffles, and copying stays cheap.
        """
        # every field by name: a compiled class has no __slots__ to walk at run time
        new = RoundState.__new__(RoundState, self.rules, (), (), (), 0)  # bare: no __init__
        new._meld = self._meld
        new._thr = self._thr
        new._values = self._values
        new.active = self.active
        new.current = self.current
        new.dealer = self.dealer
        new.drawn = self.drawn
        new.eliminated = self.eliminated
        new.n = self.n
        new.phase = self.phase
        new.reshuffles = self.reshuffles
        new.result = self.result
        new.rules = self.rules
        new.shuffler = self.shuffler
        new.slapper = self.slapper
        new.tiebreak = self.tiebreak
        new.turns = self.turns
        new.hand_lo = self.hand_lo[:]
        new.hand_hi = self.hand_hi[:]
        new.hv = self.hv[:]
        new.seen_lo = self.seen_lo[:]
        new.seen_hi = self.seen_hi[:]
        new.last_discard = self.last_discard[:]
        new.stock = self.stock[:]
        new.pile = self.pile[:]
        new.totals = self.totals[:]
        new.nxt = self.nxt[:]
        new.log = None if self.log is None else self.log[:]
        new.names = None if self.names is None else self.names[:]
        new._undo = []
        new._shared_rng = True
        return new

    def key(self) -> tuple[Any, ...]:
        """Everything that defines the state, for equality and hashing."""
        return (
            self.rules,
            self.hands,
            self.seen,
            tuple(self.stock),
            tuple(self.pile),
            self.current,
            self.phase,
            self.active,
            tuple(self.totals),
            self.drawn if self.phase == AFTER_DRAW else None,
            self.slapper,
            self.result,
            self.tiebreak,
        )

    def __eq__(self, other: object) -> bool:
        """Two states are equal when every card and every scalar of the round is."""
        return isinstance(other, RoundState) and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        """A short summary."""
        return (
            f"<RoundState {self.rules} players={self.n} current={self.current} "
            f"phase={self.phase_name} stock={len(self.stock)}>"
        )

    # ------------------------------------------------------------------ positions

    @classmethod
    def from_position(
        cls, position: dict[str, Any] | Any, *, shuffler: Shuffler | None = None, log: bool = False
    ) -> RoundState:
        """Load the position JSON of DESIGN.md §4; a :class:`PositionError` names a bad field.

        Any value is checked (a non-dict too: ``| Any`` keeps a compiled build from
        refusing it with a bare ``TypeError`` first).
        """
        from .position import load_position

        return load_position(cls, position, shuffler=shuffler, log=log)

    def to_position(self) -> dict[str, Any]:
        """The position JSON of this state (round-trips through :meth:`from_position`)."""
        from .position import dump_position

        return dump_position(self)

    # ------------------------------------------------------------------ views

    def view(self, seat: int | object | None) -> SeatView:
        """What *seat* may know (``None``: a spectator): DESIGN.md §2.4.

        ``ValueError`` for anything but a seat or ``None`` (``| object``: checked here,
        not refused with a bare ``TypeError`` by a compiled build).
        """
        if seat is None:
            return self._view(None)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise ValueError(f"there is no seat {seat!r}: seats are 0..{self.n - 1}")
        return self._view(seat)

    def _view(self, seat: int | None) -> SeatView:
        mine = seat is not None
        over = self.phase == ROUND_OVER
        return SeatView(
            seat=seat,
            rules=self.rules,
            players=self.n,
            names=list(self.names) if self.names else None,
            phase=self.phase_name,
            current=self.current,
            active=self.active,
            hand=self.hand(seat) if seat is not None else [],
            hand_value=self.hv[seat] if seat is not None else None,
            hand_counts=[self.hand_count(p) for p in range(self.n)],
            seen=[self._seen_cards(p) for p in range(self.n)],
            hands_shown=[self.hand(p) for p in range(self.n)] if over and self._showdown() else None,
            discard_pile=[[CARDS[c] for c in g] for g in self.pile],
            last_discards=[None if g is None else [CARDS[c] for c in g] for g in self.last_discard],
            previous_group=[CARDS[c] for c in g] if (g := self.previous_group()) is not None else None,
            takeable=self.takeable() if mine and seat == self.current and not over else [],
            stock_count=len(self.stock),
            totals=list(self.totals),
            eliminated=list(self.eliminated),
            drawn=CARDS[self.drawn] if mine and seat == self.slapper and self.drawn is not None else None,
            legal=self.legal_actions(seat) if mine and seat in self.active else [],
            result=self.result,
            turns=self.turns,
        )

    def _showdown(self) -> bool:
        return self.result is not None and self.result.kind != "false_yaniv"

    def _seen_cards(self, seat: int) -> list[Card]:
        hi = self.seen_hi[seat]
        return [CARDS[c] for c in cards_of_mask(self.seen_lo[seat] | hi << 54 if hi else self.seen_lo[seat])]

    def events_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The events of this round as *seat* may see them."""
        from .events import redact

        return [redact(e, seat) for e in (self.log or [])]


def _python_class(cls: type[_T]) -> type[_T]:
    """Leave a class to the interpreter in a compiled build (mypyc: a decorated class).

    A seat's view is built once per decision, and programs build their own from JSON
    with duck-typed values (a phase as text, cards as plain ids), which the field types
    of a compiled class would refuse.
    """
    return cls


@_python_class
@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know; never another seat's hidden card."""

    seat: int | None
    rules: Rules
    players: int
    names: list[str] | None
    phase: Phase
    current: int
    active: tuple[int, ...]
    hand: list[Card]
    hand_value: int | None
    hand_counts: list[int]
    seen: list[list[Card]]
    """Per seat: cards seen taken from the pile (or swapped), still in that hand."""
    hands_shown: list[list[Card]] | None
    """Every hand after a showdown; None before."""
    discard_pile: list[list[Card]]
    last_discards: list[list[Card] | None]
    """Per seat: the group it last discarded this round, as laid (None: none yet, or
    reshuffled into the stock since)."""
    previous_group: list[Card] | None
    takeable: list[Card]
    stock_count: int
    totals: list[int]
    eliminated: list[int]
    drawn: Card | None
    """The card this seat just drew, while it may still slap it."""
    legal: list[Action]
    result: RoundResult | None
    turns: int
    """Turns completed in this round (public)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (cards as notation, actions as action JSON)."""
        names = _card_names
        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "names": self.names,
            "phase": self.phase,
            "current": self.current,
            "active": list(self.active),
            "hand": names(self.hand),
            "hand_value": self.hand_value,
            "hand_counts": self.hand_counts,
            "seen": [names(s) for s in self.seen],
            "hands_shown": None if self.hands_shown is None else [names(h) for h in self.hands_shown],
            "discard_pile": [names(g) for g in self.discard_pile],
            "last_discards": [None if g is None else names(g) for g in self.last_discards],
            "previous_group": None if self.previous_group is None else names(self.previous_group),
            "takeable": names(self.takeable),
            "stock_count": self.stock_count,
            "totals": self.totals,
            "eliminated": self.eliminated,
            "drawn": None if self.drawn is None else str(self.drawn),
            "legal": [a.to_json() for a in self.legal],
            "result": None if self.result is None else self.result.to_dict(),
            "turns": self.turns,
        }


def _card_names(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def explain_bad_discard(cards: Sequence[int], rules: Rules) -> str:
    """One sentence on why an ordered list of cards is not a legal discard (S7)."""
    text = format_cards(cards)
    kinds = [KIND[c] for c in cards]
    naturals = [k for k in kinds if k != JOKER]
    if not naturals:
        return f"{text} is not a legal discard: jokers alone are not a combination"
    ranks = {k % 13 for k in naturals}
    suits = {k // 13 for k in naturals}
    if len(ranks) == 1:
        if len(naturals) < len(kinds) and not rules.jokers_in_sets:
            return f"{text} is not a legal discard: jokers may not join a set under these rules"
        if len(kinds) < rules.min_set_size:
            return f"{text} is not a legal discard: a set needs {rules.min_set_size} or more cards"
    if len(suits) > 1:
        return f"{text} is not a legal discard: a set needs one rank, a run one suit"
    if len(kinds) < 3:
        return f"{text} is not a legal discard: a run needs three or more cards"
    if rules.jokers_in_runs == "gaps_only" and (kinds[0] == JOKER or kinds[-1] == JOKER):
        return f"{text} is not a legal discard: a joker may only fill a gap inside a run"
    if not rules.allow_jqk_run and any(RANK_NAMES[k % 13] == "K" for k in naturals):
        return f"{text} is not a legal discard: runs with a king are not played under these rules"
    if run_start(list(reversed(kinds)), rules) is not None:
        return f"{text} is not a legal discard: lay a run in ascending order"
    if any(k % 13 == 0 for k in naturals) and any(k % 13 == 12 for k in naturals):
        return f"{text} is not a legal discard: the ace is low (A-2-3), Q-K-A is not a run"
    suit = SUIT_NAMES[next(iter(suits))]
    return f"{text} is not a legal discard: the cards are not consecutive {suit} with jokers in the gaps"
