"""Discards: legality (RULES.md S7), generation from a hand bitmask, takeable cards (S8).

A discard is an ordered tuple of physical card ids. :class:`MeldTable` holds the tables
of one rule set and generates every legal discard of a hand from its bitmask: singles
by walking bits, sets by folding the four suit lanes (ranks held in two suits at once),
runs from a per-lane template cache. It is the hot path of every simulation.

Sets are listed once per distinct set of takeable cards (the order of the cards that
are never takeable does not matter to anyone), so under ``first_or_last`` a set of
three appears three times: once per pair of cards at its ends, and a pair once (both
its cards are ends). Under ``top_only`` a set appears once per distinct last card, so
a pair of two kinds appears in both orders: which card the next player may take is the
discarder's choice (RULES.md A16). Any other order of the same cards is just as legal
when applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from .cards import JOKER, KIND
from .rules import Rules

__all__ = [
    "JOKER_BITS",
    "MeldTable",
    "classify",
    "is_set_group",
    "joker_targets",
    "run_start",
    "takeable_positions",
]

M13: Final = 0x1FFF
NAT: Final = (1 << 52) - 1
M54: Final = (1 << 54) - 1
JOKER_BITS: Final = (1 << 52) | (1 << 53) | (1 << 106) | (1 << 107)
"""The bits of the four physical jokers (two per deck)."""
_J: Final = 99  # template marker: a joker stands here
# each discard of one card, shared by every list of discards; typed ``tuple[int, ...]``:
# a compiled build keeps a ``tuple[int]`` unboxed and would build a new tuple per use
_SINGLE: Final[tuple[tuple[int, ...], ...]] = tuple((p,) for p in range(108))
_SUIT_BITS: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39  # one rank in each suit lane
# The jokers held, as 4 bits (52, 53, 106, 107 = bits 0..3), to their physical ids.
_JOKER_IDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(p for i, p in enumerate((52, 53, 106, 107)) if j >> i & 1) for j in range(16)
)
# what MeldTable._run_kinds knows of a suit lane and a number of jokers
_RUNS_UNKNOWN: Final = 0
_RUNS_NONE: Final = 1
_RUNS_SOME: Final = 2
_POP13: Final[tuple[int, ...]] = tuple(i.bit_count() for i in range(1 << 13))
# pickup modes (S8) as small ints, compared every turn
TAKE_ENDS: Final = 0
TAKE_TOP: Final = 1
TAKE_ANY_OF_SET: Final = 2
_TAKES: Final = {"first_or_last": TAKE_ENDS, "top_only": TAKE_TOP, "ends_or_any_of_set": TAKE_ANY_OF_SET}


class MeldTable:
    """The discard generator and checks for one rule set (cached per ``Rules``)."""

    __slots__ = (
        "_run_cache",
        "_run_kinds",
        "_runs",
        "_set_cache",
        "gaps_only",
        "jokers_in_sets",
        "jqk",
        "min_set",
        "pickup",
        "qka",
        "slaps",
        "takes",
    )

    def __init__(self, rules: Rules) -> None:
        """Tables for *rules*; filled lazily as hands are seen."""
        self.min_set = rules.min_set_size
        self.jokers_in_sets = rules.jokers_in_sets
        self.gaps_only = rules.jokers_in_runs == "gaps_only"
        self.jqk = rules.allow_jqk_run
        self.qka = rules.allow_qka_run
        self.pickup = rules.pickup_mode
        # Knobs read every turn, as plain values of this (compiled) class: the rules
        # object is interpreted, each attribute read through it a dictionary look-up.
        self.slaps = rules.quick_discard != "off"  # a draw opens a slap window (S20)
        self.takes = _TAKES[rules.pickup_mode]  # TAKE_ENDS, TAKE_TOP or TAKE_ANY_OF_SET
        self._run_cache: dict[int, tuple[tuple[int, ...], ...]] = {}
        # Both caches are keyed by small ints computed from the hand's two 54-bit deck
        # words, never by the 108-bit hand itself. The sets' keys are below 2**16, so
        # their cache is a list indexed by the key, which a compiled build reads without
        # boxing and hashing the key (most hands hold a pair: the hot look-up); the runs'
        # keys, below 2**32 and read less often, are kept in a dict.
        self._set_cache: list[list[tuple[int, ...]] | None] = [None] * (1 << 16)
        self._runs: dict[int, list[tuple[int, ...]]] = {}
        # Whether a suit lane with nj jokers makes any run at all, by ``lane | nj << 13``
        # (_RUNS_UNKNOWN until met): most lanes looked at make none, and this list spares
        # them the dict look-up (whose key a compiled build boxes and hashes)
        self._run_kinds: list[int] = [_RUNS_UNKNOWN] * (1 << 16)

    # ----- generation -----

    def discards(self, hand: int) -> list[tuple[int, ...]]:
        """Every legal discard (S7) of the hand bitmask, each an ordered tuple of ids."""
        return self.discards_of(hand & M54, hand >> 54)

    def discards_of(self, lo: int, hi: int) -> list[tuple[int, ...]]:
        """:meth:`discards` of the hand given as its two deck words.

        *lo* holds deck 0's cards (ids 0..53), *hi* deck 1's shifted down to the same
        54-bit lanes (ids 54..107 as bits 0..53), as :class:`~yaniv.state.RoundState`
        keeps hands.
        """
        nat_lo = lo & NAT
        nat_hi = hi & NAT
        nat = nat_lo | nat_hi
        single = _SINGLE
        out: list[tuple[int, ...]] = []
        m = nat
        if hi:
            while m:
                low = m & -m
                k = low.bit_length() - 1
                out.append(single[k] if nat_lo & low else single[k + 54])
                m ^= low
        else:
            while m:
                low = m & -m
                out.append(single[low.bit_length() - 1])
                m ^= low
        jbits = lo >> 52 | (hi >> 52) << 2  # the jokers held: bits 0..3 = ids 52, 53, 106, 107
        if jbits:
            out.append(single[_JOKER_IDS[jbits][0]])
        a = nat & M13
        b = (nat >> 13) & M13
        c = (nat >> 26) & M13
        d = nat >> 39
        # Ranks held in at least two suits: the only ranks that can form a set.
        multi = (a & b) | (c & d) | ((a | b) & (c | d))
        if hi:
            dup = nat_lo & nat_hi
            multi |= (dup | dup >> 13 | dup >> 26 | dup >> 39) & M13
        set_jokers = 0
        if self.jokers_in_sets:
            set_jokers = jbits << 12
            if jbits:
                multi = a | b | c | d
        sets = self._set_cache
        while multi:
            low = multi & -multi
            r = low.bit_length() - 1
            multi ^= low
            # the rank's cards as 4 suit bits per deck (folded from bits 0, 13, 26, 39)
            x = lo >> r & _SUIT_BITS
            y = hi >> r & _SUIT_BITS
            key = (
                r
                | ((x | x >> 12 | x >> 24 | x >> 36) & 15) << 4
                | ((y | y >> 12 | y >> 24 | y >> 36) & 15) << 8
                | set_jokers
            )
            found = sets[key]
            if found is None:
                found = self._sets(key)
            out.extend(found)
        nj = _POP13[jbits]
        runs = self._runs
        kinds = self._run_kinds
        for s in range(4):
            shift = 13 * s
            lane = (nat >> shift) & M13
            if lane and _POP13[lane] + nj >= 3:
                # whether any run exists depends on the lane and the number of jokers only
                kind = lane | nj << 13
                if kinds[kind] == _RUNS_NONE:
                    continue
                key = s | ((nat_lo >> shift) & M13) << 2 | ((nat_hi >> shift) & M13) << 15 | jbits << 28
                found = runs.get(key)
                if found is None:
                    found = self._runs_of(key)
                    kinds[kind] = _RUNS_SOME if found else _RUNS_NONE
                out.extend(found)
        return out

    def _runs_of(self, key: int) -> list[tuple[int, ...]]:
        """The runs of one suit: *key* holds the suit, its cards in each deck and the jokers."""
        s = key & 3
        lane_lo = (key >> 2) & M13
        lane = lane_lo | (key >> 15) & M13
        jl = _JOKER_IDS[key >> 28]
        base = s * 13
        out = []
        for tpl in self.run_templates(lane, len(jl)):
            cards = []
            j = 0
            for r in tpl:
                if r == _J:
                    cards.append(jl[j])
                    j += 1
                else:
                    k = r % 13
                    cards.append(base + k if lane_lo >> k & 1 else base + k + 54)
            out.append(tuple(cards))
        self._runs[key] = out
        return out

    def run_templates(self, lane: int, nj: int) -> tuple[tuple[int, ...], ...]:
        """Runs makeable from one suit lane and *nj* jokers: rank indices or joker marks."""
        key = lane << 3 | min(nj, 7)
        cached = self._run_cache.get(key)
        if cached is not None:
            return cached
        out: list[tuple[int, ...]] = []
        have = lane.bit_count() + nj
        top = 13 if self.qka else 12
        for first in range(top + 1):
            for last in range(first + 2, top + 1):
                if not self.jqk and last >= 12:
                    break
                if last - first + 1 > have:
                    break
                window = range(first, last + 1)
                present = [r for r in window if lane >> (r % 13) & 1]
                missing = len(window) - len(present)
                if missing > nj or not present:
                    continue
                # A joker may also stand in for a natural card the player holds.
                for extra in range(0, min(nj - missing, len(present) - 1) + 1):
                    for replaced in combinations(present, extra):
                        tpl = tuple(_J if (not lane >> (r % 13) & 1 or r in replaced) else r for r in window)
                        if self.gaps_only and (tpl[0] == _J or tpl[-1] == _J):
                            continue
                        out.append(tpl)
        result = tuple(out)
        self._run_cache[key] = result
        return result

    def _sets(self, key: int) -> list[tuple[int, ...]]:
        """The sets of one rank: *key* holds the rank, its cards in each deck, the jokers."""
        r = key & 15
        naturals: list[int] = []
        for i in range(4):
            k = r + 13 * i
            if key >> (4 + i) & 1:
                naturals.append(k)
            if key >> (8 + i) & 1:
                naturals.append(k + 54)
        pool = (*naturals, *_JOKER_IDS[key >> 12])
        seen: set[tuple[int, ...]] = set()
        out: list[tuple[int, ...]] = []
        for size in range(max(self.min_set, 2), len(pool) + 1):
            for combo in combinations(pool, size):
                kinds = tuple(sorted(KIND[c] for c in combo))
                if kinds[0] == JOKER or kinds in seen:
                    continue  # needs a natural card; identical copies give one set
                seen.add(kinds)
                out.extend(self._arrangements(sorted(combo, key=lambda c: (KIND[c], c))))
        self._set_cache[key] = out
        return out

    def _arrangements(self, cards: list[int]) -> list[tuple[int, ...]]:
        """One order of a set per distinct set of takeable cards (module docstring).

        Runs once per hand shape (``_sets`` caches the result), so listing more orders
        costs the hot path nothing after the first sight of a hand.
        """
        n = len(cards)
        out = []
        if self.pickup == "top_only":
            # Only the last card is takeable: one order per distinct kind on top. This
            # includes a pair (7H 7S and 7S 7H leave different cards to the next player);
            # identical two-deck copies give one.
            tops: set[int] = set()
            for i in range(n):
                if KIND[cards[i]] not in tops:
                    tops.add(KIND[cards[i]])
                    out.append((*cards[:i], *cards[i + 1 :], cards[i]))
            return out
        if n == 2 or self.pickup == "ends_or_any_of_set":
            # both cards of a pair are ends; under ends_or_any_of_set every card of a set is
            # takeable whatever the order
            return [tuple(cards)]
        seen: set[tuple[int, ...]] = set()
        for i in range(n):
            for j in range(i + 1, n):
                ends = (KIND[cards[i]], KIND[cards[j]])
                if ends in seen:
                    continue
                seen.add(ends)
                middle = [c for x, c in enumerate(cards) if x != i and x != j]
                out.append((cards[i], *middle, cards[j]))
        return out

    # ----- checks -----


def classify(cards: Sequence[int], rules: Rules) -> str | None:
    """``'single'``, ``'set'`` or ``'run'`` if the ordered cards are a legal discard, else None."""
    n = len(cards)
    if n == 0:
        return None
    if n == 1:
        return "single"
    kinds = [KIND[c] for c in cards]
    naturals = [k for k in kinds if k != JOKER]
    if not naturals:
        return None  # S7.4: a multi-card discard of jokers only
    if (
        n >= rules.min_set_size
        and len({k % 13 for k in naturals}) == 1
        and (len(naturals) == n or rules.jokers_in_sets)
    ):
        return "set"
    if n >= 3 and run_start(kinds, rules) is not None:
        return "run"
    return None


def run_start(kinds: Sequence[int], rules: Rules) -> int | None:
    """Rank index (0 = ace low .. 13 = ace high) of the first position of a legal run."""
    naturals = [(i, k) for i, k in enumerate(kinds) if k != JOKER]
    if not naturals or len(kinds) < 3:
        return None
    if len({k // 13 for _, k in naturals}) != 1:
        return None
    if rules.jokers_in_runs == "gaps_only" and (kinds[0] == JOKER or kinds[-1] == JOKER):
        return None
    top = 13 if rules.allow_qka_run else 12
    if not rules.allow_jqk_run:
        top = 11
    i0, k0 = naturals[0]
    starts = [k0 % 13 - i0]
    if k0 % 13 == 0 and rules.allow_qka_run:
        starts.append(13 - i0)
    for start in starts:
        if start < 0 or start + len(kinds) - 1 > top:
            continue
        fits = all((start + i) % 13 == k % 13 for i, k in naturals)
        if fits and len({k for _, k in naturals}) == len(naturals):
            return start
    return None


def is_set_group(group: Sequence[int], jokers_in_sets: bool = True) -> bool:
    """Whether a laid group of two or more cards is a set (its natural cards share a rank).

    With *jokers_in_sets* false a group holding a joker is never a set: one natural rank
    plus jokers (``JK 5H JK``) can then only have been laid as a run.
    """
    ranks = {KIND[c] % 13 for c in group if KIND[c] != JOKER}
    if len(group) < 2 or len(ranks) != 1:
        return False
    return jokers_in_sets or all(KIND[c] != JOKER for c in group)


def takeable_positions(
    group: Sequence[int], pickup_mode: str, jokers_in_sets: bool = True
) -> tuple[int, ...]:
    """Positions of the takeable cards of a group under *pickup_mode* (S8, §6b)."""
    n = len(group)
    if n == 1:
        return (0,)
    if pickup_mode == "top_only":
        return (n - 1,)
    if pickup_mode == "ends_or_any_of_set" and is_set_group(group, jokers_in_sets):
        return tuple(range(n))
    return (0, n - 1)


def joker_targets(group: Sequence[int], rules: Rules) -> list[tuple[int, int]]:
    """For a run group: (position, kind the joker stands for) of each joker in it (S19)."""
    kinds = [KIND[c] for c in group]
    if JOKER not in kinds:
        return []
    start = run_start(kinds, rules)
    if start is None:
        return []
    suit = next(k // 13 for k in kinds if k != JOKER)
    return [(i, suit * 13 + (start + i) % 13) for i, k in enumerate(kinds) if k == JOKER]
