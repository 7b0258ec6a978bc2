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

M13 = 0x1FFF
NAT = (1 << 52) - 1
M54 = (1 << 54) - 1
JOKER_BITS = (1 << 52) | (1 << 53) | (1 << 106) | (1 << 107)
"""The bits of the four physical jokers (two per deck)."""
_J = 99  # template marker: a joker stands here
_SINGLE: tuple[tuple[int], ...] = tuple((p,) for p in range(108))


def _jokers_of(hand: int) -> list[int]:
    """Physical ids of the jokers in a hand, ascending."""
    out = []
    for p in (52, 53, 106, 107):
        if hand >> p & 1:
            out.append(p)
    return out


class MeldTable:
    """The discard generator and checks for one rule set (cached per ``Rules``)."""

    __slots__ = (
        "_run_cache",
        "_set_cache",
        "_single_deck_runs",
        "gaps_only",
        "jokers_in_sets",
        "jqk",
        "min_set",
        "pickup",
        "qka",
    )

    def __init__(self, rules: Rules) -> None:
        """Tables for *rules*; filled lazily as hands are seen."""
        self.min_set = rules.min_set_size
        self.jokers_in_sets = rules.jokers_in_sets
        self.gaps_only = rules.jokers_in_runs == "gaps_only"
        self.jqk = rules.allow_jqk_run
        self.qka = rules.allow_qka_run
        self.pickup = rules.pickup_mode
        self._run_cache: dict[int, tuple[tuple[int, ...], ...]] = {}
        self._set_cache: dict[tuple[tuple[int, ...], tuple[int, ...]], list[tuple[int, ...]]] = {}
        self._single_deck_runs: dict[int, list[tuple[int, ...]]] = {}

    # ----- generation -----

    def discards(self, hand: int) -> list[tuple[int, ...]]:
        """Every legal discard (S7) of the hand bitmask, each an ordered tuple of ids."""
        lo = hand & M54
        hi = hand >> 54
        nat = (lo | hi) & NAT
        jokers = hand & JOKER_BITS
        single = _SINGLE
        out: list[tuple[int, ...]] = []
        m = nat
        if hi:
            while m:
                low = m & -m
                k = low.bit_length() - 1
                out.append(single[k] if lo & low else single[k + 54])
                m ^= low
        else:
            while m:
                low = m & -m
                out.append(single[low.bit_length() - 1])
                m ^= low
        jl: list[int] = _jokers_of(jokers) if jokers else []
        if jl:
            out.append(single[jl[0]])
        a = nat & M13
        b = (nat >> 13) & M13
        c = (nat >> 26) & M13
        d = nat >> 39
        # Ranks held in at least two suits: the only ranks that can form a set.
        multi = (a & b) | (c & d) | ((a | b) & (c | d))
        if hi:
            dup = lo & hi & NAT
            multi |= (dup | dup >> 13 | dup >> 26 | dup >> 39) & M13
        if jl and self.jokers_in_sets:
            multi = a | b | c | d
        while multi:
            low = multi & -multi
            r = low.bit_length() - 1
            multi ^= low
            naturals = []
            for k in (r, r + 13, r + 26, r + 39):
                if lo >> k & 1:
                    naturals.append(k)
                if hi >> k & 1:
                    naturals.append(k + 54)
            out.extend(self._sets(tuple(naturals), tuple(jl) if self.jokers_in_sets else ()))
        nj = len(jl)
        for s, lane in ((0, a), (1, b), (2, c), (3, d)):
            if lane and lane.bit_count() + nj >= 3:
                if hi:
                    out.extend(self._runs_two_decks(s, lane, lo, hi, jl))
                else:
                    key = lane | s << 13 | jokers >> 52 << 15
                    runs = self._single_deck_runs.get(key)
                    if runs is None:
                        runs = self._runs_two_decks(s, lane, lo, 0, jl)
                        self._single_deck_runs[key] = runs
                    out.extend(runs)
        return out

    def _runs_two_decks(self, s: int, lane: int, lo: int, hi: int, jl: list[int]) -> list[tuple[int, ...]]:
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
                    k = base + r % 13
                    cards.append(k if lo >> k & 1 else k + 54)
            out.append(tuple(cards))
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

    def _sets(self, naturals: tuple[int, ...], jokers: tuple[int, ...]) -> list[tuple[int, ...]]:
        key = (naturals, jokers)
        cached = self._set_cache.get(key)
        if cached is not None:
            return cached
        pool = naturals + jokers
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
