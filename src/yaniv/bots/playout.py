"""The expert's hot path: determinizations, fast playouts and their scoring.

Every decision of the expert (:mod:`.search`) samples deals consistent with what its
seat knows (:func:`determinize`), plays each candidate on a copy and finishes the
round with a fast greedy policy on the engine's unchecked path (:func:`playout`),
and scores the outcome by its chance to win the game (:func:`utility`). These
functions are nearly all of the expert's time, so they sit in a module of their own,
compiled in the compiled build (setup.py), while the bot classes that drive them stay
interpreted (other code subclasses them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from ..actions import Action
from ..cards import KIND, RANK, SUIT, deck
from ..rules import Rules
from ..state import ROUND_OVER, RoundState, SeatView, add_card
from .calls import call_logit, call_row
from .model import HandModel, family_of
from .share import win_share

__all__ = [
    "VALUE_SCALE",
    "Determinizer",
    "apply_candidate",
    "best_discard",
    "call_risk",
    "determinize",
    "play_candidates",
    "playout",
    "playout_risk",
    "read_risk",
    "utility",
    "weighted_deal",
]


def call_risk(
    rules: Rules, totals: Sequence[int], active: Sequence[int], seat: int, value: int, risk: float
) -> float:
    """The Assaf risk *seat* accepts to call Yaniv with *value*: *risk*, score-aware.

    ×0.4 when an Assaf would eliminate it, ×1.5 when even an Assaf lands on a halving
    score, ×1.2 when a successful call may knock out an opponent close to the limit.
    The heuristic uses it, and so do the expert's playouts.
    """
    total = totals[seat]
    penalty = rules.assaf_penalty + (value if rules.assaf_penalty_adds_hand else 0)
    if total + penalty > rules.score_limit:
        risk *= 0.4  # an Assaf would eliminate it
    elif total + penalty in rules.halving_scores:
        risk *= 1.5  # even an Assaf lands on a halving score
    if any(totals[p] + 10 > rules.score_limit for p in active if p != seat):
        risk *= 1.2  # a successful call may knock out a near-dead opponent
    return risk


class _Knobs:
    """What a playout reads of its rule set, read once (Rules is an interpreted class).

    ``best_discard``: hand mask -> (the playout's discard, its highest card value).
    Playouts meet the same hands again and again (every candidate of a decision, every
    decision of a round), and generating every legal discard is most of a playout's time.
    """

    def __init__(self, rules: Rules) -> None:
        """The knobs of *rules* and an empty discard cache."""
        self.rules = rules
        self.threshold: int = rules.threshold
        self.tie = 0 if rules.assaf_on_tie else 1
        # cards of a rank a hand must hold for a pile card of that rank to complete a set
        self.set_from: int = max(rules.min_set_size - 1, 1)
        self.best_discard: dict[int, tuple[tuple[int, ...], int]] = {}


_KNOBS: dict[Rules, _Knobs] = {}
_LAST_KNOBS: list[_Knobs] = []


def _knobs_of(rules: Rules) -> _Knobs:
    """The playout's knobs of *rules* (the last ones by identity: hashing a Rules is slow)."""
    if _LAST_KNOBS and _LAST_KNOBS[0].rules is rules:
        return _LAST_KNOBS[0]
    knobs = _KNOBS.get(rules)
    if knobs is None:
        knobs = _KNOBS[rules] = _Knobs(rules)
    _LAST_KNOBS[:] = [knobs]
    return knobs


_CACHE_LIMIT = 200_000


_SAME_RANK: tuple[int, ...] = tuple(
    0 if SUIT[c] < 0 else sum(1 << x for x in range(54) if SUIT[x] >= 0 and RANK[x] == RANK[c])
    for c in range(108)
)
"""Per physical card: the natural cards of its rank as one deck word (0 for jokers), to test
against a hand's deck words folded together (``hand_lo | hand_hi``)."""


def best_discard(state: RoundState, values: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """The most valuable legal discard (the longer one on ties) and its highest card value."""
    best: tuple[int, ...] = ()
    best_value = -1
    for d in state.discards():
        s = 0
        for c in d:
            s += values[c]
        if s > best_value or (s == best_value and len(d) > len(best)):
            best, best_value = d, s
    return best, max(values[c] for c in best)


def _cached_best_discard(
    state: RoundState,
    values: Sequence[int],
    cache: dict[int, tuple[tuple[int, ...], int]],
    seat: int,
) -> tuple[tuple[int, ...], int]:
    """:func:`best_discard` of *seat* (the seat to play), from *cache* by the whole hand."""
    lo = state.hand_lo[seat]
    hi = state.hand_hi[seat]
    mask = lo | hi << 54 if hi else lo  # the cache's key: the whole hand
    cached = cache.get(mask)
    if cached is None:
        cached = best_discard(state, values)
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        cache[mask] = cached
    return cached


def playout(
    state: RoundState,
    model: HandModel,
    risk: float = 0.3,
    cap: int = 400,
    call_weights: Sequence[float] | None = None,
    me: int = -1,
    others_risk: float | None = None,
    seat_risks: Sequence[float] | None = None,
    read_seats: int = 0,
) -> None:
    """Finish the round with a fast policy (unchecked engine path).

    Everyone throws his most valuable discard, takes a pile card only if it is worth
    less than what he threw and is low (3 or less) or makes a set with cards he holds (a
    pair, or three where sets need three: ``min_set_size``), and calls Yaniv exactly
    when the heuristic would at the default *risk* (short of its stall allowance): when
    the calibrated model, from the hand sizes, the cards each opponent was seen taking
    and the stage of the round, puts the Assaf risk at or below *risk*, made score-aware
    by :func:`call_risk`. With *others_risk*, every seat but *me* calls at that level
    instead (the search: its own later turns at its level, the opponents at theirs);
    with *seat_risks* (one level per seat), every seat but *me* at its own.

    A seat in the bitmask *read_seats* reads each opponent's last discard as the search's
    deals do (:meth:`.model.HandModel.read_table`: the cards he kept then by the
    after-discard tables, the one he drew since by the stage) instead of the stage alone.

    With *call_weights* (:func:`.calls.call_weights_for`) the call is instead the
    logistic rule fitted on the expert's own calls (:mod:`.calls`): the same model risk
    and score-awareness, and what else the expert reads at the table.
    """
    values = state._values
    rules = state.rules
    knobs = _knobs_of(rules)
    thr = knobs.threshold
    tie = knobs.tie
    hv = state.hv
    hand_lo = state.hand_lo  # hands and cards seen taken as two deck words (RoundState)
    hand_hi = state.hand_hi
    seen_lo = state.seen_lo
    seen_hi = state.seen_hi
    cdf = model.cdf
    players = len(state.active)
    best_of = knobs.best_discard
    set_from = knobs.set_from
    other_risk = risk if others_risk is None else others_risk
    over = ROUND_OVER
    while state.phase != over:
        seat = state.current
        v = hv[seat]
        if v <= thr:
            # the heuristic's call: the model's Assaf risk from the hand sizes and the
            # cards each opponent was seen taking, against its score-aware risk level
            # (HandModel.p_hand_at_most inlined: this runs at every playout turn; a
            # test pins it to the heuristic's decision)
            stage = min(state.turns // players, len(cdf) - 1)
            table = cdf[stage]
            reads = read_seats >> seat & 1
            safe = 1.0
            min_cards = 99
            min_hidden = 99
            for p in state.active:
                if p != seat:
                    x = v - tie
                    hidden = hand_lo[p].bit_count() + hand_hi[p].bit_count()
                    if hidden < min_cards:
                        min_cards = hidden
                    m = seen_lo[p]
                    while m:
                        low = m & -m
                        x -= values[low.bit_length() - 1]
                        hidden -= 1
                        m ^= low
                    m = seen_hi[p]
                    while m:
                        low = m & -m
                        x -= values[low.bit_length() + 53]  # deck 1: id 54 + bit
                        hidden -= 1
                        m ^= low
                    if hidden < min_hidden:
                        min_hidden = hidden
                    if x < 0:
                        continue
                    if hidden <= 0:
                        safe = 0.0  # the rest cannot lift it
                        if call_weights is None:
                            break
                        continue  # the learned call still reads the others' card counts
                    rows = table
                    if reads:
                        group = state.last_discard[p]
                        if group is not None:
                            top = 0
                            for c in group:
                                if values[c] > top:
                                    top = values[c]
                            rows = model.read_table(stage, len(group) == 1, top)
                    row = rows[min(hidden, len(rows) - 1)]
                    safe *= 1.0 - (row[x] if x < len(row) else 1.0)
            if call_weights is None:
                if seat == me:
                    level = risk
                elif seat_risks is not None:
                    level = seat_risks[seat]
                else:
                    level = other_risk
                if 1.0 - safe <= call_risk(rules, state.totals, state.active, seat, v, level):
                    state.fast_yaniv()
                    return
            else:
                lo = hand_lo[seat]
                hi = hand_hi[seat]
                shed = 0
                for c in _cached_best_discard(state, values, best_of, seat)[0]:
                    shed += values[c]
                top = 11
                for c in state.takeable_cards():
                    if values[c] < top:
                        top = values[c]
                opp_last = -1
                opp_total = 0
                for p in state.active:
                    if p != seat:
                        if state.totals[p] > opp_total:
                            opp_total = state.totals[p]
                        group = state.last_discard[p]
                        if group is not None:
                            for c in group:
                                if values[c] > opp_last:
                                    opp_last = values[c]
                limit = rules.score_limit
                score_aware = call_risk(rules, state.totals, state.active, seat, v, 1.0)
                if (
                    call_logit(
                        call_weights,
                        call_row(
                            1.0 - safe,
                            score_aware,
                            v,
                            state.turns // players,
                            lo.bit_count() + hi.bit_count(),
                            min_cards,
                            min_hidden,
                            state.totals[seat] / limit,
                            opp_total / limit,
                            len(state.stock),
                            shed,
                            top,
                            opp_last,
                        ),
                    )
                    > 0.0
                ):
                    state.fast_yaniv()
                    return
        best, thrown = _cached_best_discard(state, values, best_of, seat)
        state.fast_discard(best)
        take = -1
        take_value = 11
        # the ranks held, both decks' copies folded onto one 54-bit word
        held = hand_lo[seat] | hand_hi[seat]
        for c in state.takeable_cards():
            v = values[c]
            # a low card, or one that makes a set with the hand (a pair where sets of
            # two are allowed; slovenian-yanef's sets need three)
            if v < take_value and (v <= 3 or (held & _SAME_RANK[c]).bit_count() >= set_from):
                take, take_value = c, v
        if take >= 0 and (take_value < thrown or not state.stock):
            state.fast_take(take)
        elif state.stock:
            state.fast_draw()
        else:
            return  # no card to take at all: cannot happen with <= 8 players
        cap -= 1
        if cap <= 0:
            return


def determinize(
    view: SeatView, rng: random.Random, model: HandModel, stage: int, drawn_like_stock: bool = False
) -> RoundState:
    """A full round state consistent with *view*, hidden cards sampled by the model.

    One deal of :class:`Determinizer` (which a search builds once per decision).
    """
    return Determinizer(view, model, stage, drawn_like_stock).sample(rng)


class Determinizer:
    """Deals full round states consistent with one view, the hidden cards sampled by the model.

    The view is read once (the cards every seat is known to hold, the unseen pool, what
    each opponent's last discard says); each :meth:`sample` then only draws the hidden
    cards and the stock. Hidden cards follow the calibrated hand model: the cards an
    opponent kept when he last discarded (all his hidden cards but the one he drew since)
    follow the after-discard distribution for that discard, the rest the distribution
    for the *stage* of the round.

    With *drawn_like_stock*, the card an opponent drew from the stock since his last
    discard is dealt like a stock card (uniformly from the unseen cards) and, when he
    took a pile card instead (it is seen), all his hidden cards are kept ones; else
    that card is dealt by the stage of the round like the cards nobody read.
    """

    def __init__(self, view: SeatView, model: HandModel, stage: int, drawn_like_stock: bool = False) -> None:
        """Read *view* (a seat's view, not a spectator's) for deals by *model* at *stage*."""
        if view.seat is None:
            raise ValueError("a spectator's view has no seat to sample a state for")
        rules = view.rules
        values = rules.card_values
        self.values = values
        hands = [0] * view.players
        used: set[int] = set()
        for card in view.hand:
            hands[view.seat] |= 1 << int(card)
            used.add(int(card))
        for p, cards in enumerate(view.seen):
            if p != view.seat:
                for card in cards:
                    hands[p] |= 1 << int(card)
                    used.add(int(card))
        for g in view.discard_pile:
            for card in g:
                used.add(int(card))
        self.groups = _by_value([c for c in deck(rules.decks_for(view.players)) if c not in used], values)
        self.missing = [
            view.hand_counts[p] - hands[p].bit_count() if p != view.seat else 0 for p in range(view.players)
        ]
        # What an opponent's last discard says about the cards he kept: he threw it
        # rather than them. Per such opponent: (seat, cards kept, their distribution,
        # whether the card he drew since is dealt like a stock card).
        self.kept: list[tuple[int, int, list[float] | None, bool]] = []
        if view.phase == "turn_start":
            for p in view.active:
                group = view.last_discards[p]
                if p == view.seat or group is None:
                    continue
                took = drawn_like_stock and _took_from_pile(view, p)
                kept = self.missing[p] - (0 if took else 1)
                dist = model.after_discard([values[int(c)] for c in group]) if kept > 0 else None
                # he drew a card since (not took) and it is his one card left to deal
                drew = drawn_like_stock and not took and (dist is not None or self.missing[p] == 1)
                self.kept.append((p, kept if dist is not None else 0, dist, drew))
        self.stage_dist = model.card_distribution[stage]
        self.stock_count = view.stock_count
        self.active = view.active
        self.template = RoundState.sampled(view, hands, [])

    def sample(self, rng: random.Random) -> RoundState:
        """One full deal: a fresh state the caller may play on (its reshuffles draw from *rng*)."""
        values = self.values
        state = self.template.copy()
        lo = state.hand_lo
        hi = state.hand_hi
        hv = state.hv
        missing = self.missing[:]
        groups = [g[:] for g in self.groups]
        for p, kept, dist, _ in self.kept:
            if kept > 0 and dist is not None:
                for c in _deal_from(groups, dist, kept, rng):
                    add_card(lo, hi, p, c)
                    hv[p] += values[c]
                missing[p] -= kept
        for p, _, _, drew in self.kept:
            if drew:  # the card he drew is any unseen card: the stock's order is uniform
                left = 0
                for g in groups:
                    left += len(g)
                if left:
                    i = int(rng.random() * left)
                    v = 0
                    while i >= len(groups[v]):
                        i -= len(groups[v])
                        v += 1
                    c = _take_any(groups[v], rng)
                    add_card(lo, hi, p, c)
                    hv[p] += values[c]
                    missing[p] -= 1
        wanted = 0
        for p in self.active:
            if missing[p] > 0:
                wanted += missing[p]
        keyed = _deal_from(groups, self.stage_dist, wanted, rng)
        at = 0
        for p in self.active:
            m = missing[p]
            if m > 0:
                for c in keyed[at : at + m]:
                    add_card(lo, hi, p, c)
                    hv[p] += values[c]
                at += m
        rest: list[int] = []
        for g in groups:
            rest += g
        # the stock's order is uniform, whatever the weights (the unseen cards left over
        # after the stock are out of play: buried in the pile)
        k = min(self.stock_count, len(rest))
        n = len(rest)
        for i in range(k):  # the first k steps of a Fisher-Yates shuffle: a uniform k-sample
            j = i + int(rng.random() * (n - i))
            rest[i], rest[j] = rest[j], rest[i]
        del rest[k:]
        state.stock = rest
        state.shuffler = rng
        state._shared_rng = False  # the deal is the caller's to play on: it reshuffles with rng
        return state


def _took_from_pile(view: SeatView, p: int) -> bool:
    """Whether *p* took a pile card at his last turn.

    He did if a card he was seen taking is of the group the active seat before him
    discarded last (the one he could take from).
    """
    active = view.active
    prev = active[(active.index(p) - 1) % len(active)]
    group = view.last_discards[prev]
    if group is None or not view.seen[p]:
        return False
    kinds = {KIND[c] for c in group}
    return any(KIND[c] in kinds for c in view.seen[p])


def weighted_deal(
    pool: Sequence[int], dist: Sequence[float], values: Sequence[int], k: int, rng: random.Random
) -> list[int]:
    """*k* cards of *pool* drawn one at a time, each with weight dist[value] / copies.

    A card's weight is its value's probability (``dist[min(value, 10)]``) spread over
    the pool's cards of that value; a value the distribution rules out (probability 0)
    comes only after every other card. The same law as sorting the pool by exponential
    keys (Efraimidis-Spirakis), for a dozen random numbers instead of one per card and
    a sort (see :func:`_deal_from`).
    """
    return _deal_from(_by_value(pool, values), dist, k, rng)


def _by_value(pool: Sequence[int], values: Sequence[int]) -> list[list[int]]:
    """The cards of *pool* grouped by value: group v holds the cards worth v."""
    top = 0
    for c in pool:
        if values[c] > top:
            top = values[c]
    groups: list[list[int]] = [[] for _ in range(top + 1)]
    for c in pool:
        groups[values[c]].append(c)
    return groups


def _deal_from(groups: list[list[int]], dist: Sequence[float], k: int, rng: random.Random) -> list[int]:
    """*k* cards taken out of *groups* (by value), each with weight dist[value] / copies.

    The copies are counted when the deal starts. Each draw picks a value by the weight
    its cards left hold together, then one of those cards uniformly.
    """
    top = len(groups) - 1
    weight = [0.0] * (top + 1)  # per card of each value
    left = 0
    for v in range(top + 1):
        n = len(groups[v])
        if n:
            left += n
            w = dist[min(v, 10)]
            weight[v] = w / n if w > 0 else 1e-12
    out: list[int] = []
    for _ in range(min(k, left)):
        total = 0.0
        for v in range(top + 1):
            total += weight[v] * len(groups[v])
        x = rng.random() * total
        chosen = -1
        for v in range(top + 1):
            if groups[v]:
                chosen = v
                x -= weight[v] * len(groups[v])
                if x < 0:
                    break
        out.append(_take_any(groups[chosen], rng))
    return out


def _take_any(group: list[int], rng: random.Random) -> int:
    """One card of *group*, uniformly, taken out of it (its order does not matter)."""
    i = int(rng.random() * len(group))  # random() is C code; randrange is not
    c = group[i]
    group[i] = group[-1]
    group.pop()
    return c


def utility(state: RoundState, me: int, strength: Sequence[float]) -> float:
    """How good the finished round is for *me*: my chance to win the game, scaled.

    :data:`VALUE_SCALE` times the win probability of the calibrated win model
    (:mod:`.value`, *strength* per total) from the totals after the round: a landing,
    a knock-out (mine or an opponent's), points given to the leader or to a player
    about to go out all count what they are worth for the game. A finished game
    counts 1 for a winner (shared on a tie), 0 for the others; a round ending in a
    tie-break counts an equal share for each tied seat. A playout stopped by its cap
    is scored as if every hand had been counted (without halving).
    """
    result = state.result
    totals: Sequence[int]
    if result is None:
        totals = [t + v for t, v in zip(state.totals, state.hv, strict=True)]
    elif result.game_over:
        return VALUE_SCALE / len(result.winners) if me in result.winners else 0.0
    elif result.tiebreak:  # only the tied seats play on for the game, on equal terms
        return VALUE_SCALE / len(result.tiebreak) if me in result.tiebreak else 0.0
    else:
        totals = result.totals
    # a seat knocked out this round is over the limit (S14): win_share gives it nothing
    return VALUE_SCALE * win_share(strength, totals, state.active, me)


PLAYOUT_RISK = 0.15
"""The Assaf risk at which the searching seat calls Yaniv in its playouts (score-aware, :func:`call_risk`).

Lower than the heuristic's 0.3: the expert's own calls agree best with a rule at
0.14-0.16 (85% of 2,542 allowed calls in 40 heads-up self-play games), and with it the
expert won 56.25% (51.4-61.0%) of 400 heads-up games against the frozen session-7 expert
(48.25% at 0.3, same deals) and 40.0% against three heuristics (32.0% at 0.3, 200 games)
(docs/bots.md, session 14); the other seats too, unless the search gives them a level
of their own (``search.OPPONENT_RISK``). Rule families that call by another level are in
:data:`PLAYOUT_RISK_BY_FAMILY`; :func:`playout_risk` gives a rule set's."""

PLAYOUT_RISK_BY_FAMILY: Final[dict[str, float]] = {"jdross": 0.2}
"""Heads-up Yaniv call levels of the playouts for the families (:func:`.model.family_of`) not at the default.

``jdross`` (calls at 5 points or less, 30 for an Assaf and nothing for the others, out
over 100): 0.2 agrees best with the expert's own calls there (88.0% of 3,856 turn starts,
1,877 calls against its 1,857; 0.15: 87.3%, 1,756), and against the frozen session-7
expert it won 54.25% and 54.75% of two sets of 400 heads-up games (seeds 7000 and 9000)
where 0.15 won 51.5% and 50.75% on the same deals: 54.5% against 51.1% over 800. At four
players it lost (17.0% of 100 games against three frozen experts, 31.0% of the rounds;
0.15: 25.0%, 36.5%), as calling more readily did on ``standard``: more seats keep
:data:`PLAYOUT_RISK` (docs/bots.md §2, sessions 17, 18 and 21)."""


def playout_risk(rules: Rules, players: int) -> float:
    """The Assaf risk at which the search's playouts call Yaniv under *rules* with *players* in the round."""
    if players == 2:
        return PLAYOUT_RISK_BY_FAMILY.get(family_of(rules), PLAYOUT_RISK)
    return PLAYOUT_RISK


READ_RISK_BY_FAMILY: Final[dict[str, float]] = {"standard": 0.2}
"""Heads-up call levels of the playouts where their callers read each other's last discard.

Per rule family (:func:`.model.family_of`); a family not listed does not read. Reading
the discard, the playouts' call rule agrees best with the expert's own calls at 0.2
(``python bench/fidelity.py``'s ``read_call_agreement_by_risk``; docs/bots.md §2, session 31).
The search reads only with ``search.READ_DISCARDS`` on (off)."""


def read_risk(rules: Rules) -> float | None:
    """The heads-up call level of playouts whose callers read discards under *rules* (None: no reading)."""
    return READ_RISK_BY_FAMILY.get(family_of(rules))


VALUE_SCALE = 150.0
"""Utility of a certain game win (early in a game one unit is worth about 3-4 points of round score)."""


def apply_candidate(state: RoundState, action: Action, me: int) -> None:
    """Play a candidate on a determinized state through the unchecked path."""
    if action.type == "yaniv":
        state.fast_yaniv()
        return
    if action.type == "turn":
        # the engine's choice of copies: the one nobody saw taken goes first, so the
        # cards left seen in the hand are the ones the opponents would count
        state.fast_discard(state._physical(me, [int(c) for c in action.cards]))
        if action.card is None:
            if state.stock:
                state.fast_draw()
            return
        for c in state.takeable_cards():
            if KIND[c] == KIND[action.card]:
                state.fast_take(c)
                return
        return
    state.push(action)


def play_candidates(
    base: RoundState,
    cands: Sequence[Action],
    alive: Sequence[int],
    me: int,
    model: HandModel,
    strength: Sequence[float],
    totals: list[float],
    counts: list[int],
    squares: list[list[float]],
    call_weights: Sequence[float] | None = None,
    risk: float = PLAYOUT_RISK,
    others_risk: float | None = None,
    seat_risks: Sequence[float] | None = None,
    read_seats: int = 0,
) -> None:
    """One determinization of the expert's search: every *alive* candidate played on it.

    Each candidate plays on its own copy of *base* and the round is finished by
    :func:`playout` (*me* calling at *risk*, :func:`playout_risk`, the others at
    *others_risk* or each at his *seat_risks* if given, or everyone by *call_weights* if
    given); its :func:`utility` is added to ``totals[i]`` (``counts[i]`` counts them),
    and for each pair ``i < j`` of *alive* (sorted) the squared difference of their
    utilities to ``squares[i][j]``: the search's paired tests read those.
    """
    utils = [0.0] * len(cands)
    for i in alive:
        s = base.copy()
        apply_candidate(s, cands[i], me)
        playout(s, model, risk, 400, call_weights, me, others_risk, seat_risks, read_seats)
        u = utility(s, me, strength)
        utils[i] = u
        totals[i] += u
        counts[i] += 1
    n = len(alive)
    for k in range(n):
        a = alive[k]
        row = squares[a]
        ua = utils[a]
        for m in range(k + 1, n):
            b = alive[m]
            d = ua - utils[b]
            row[b] += d * d
