"""The expert bot: determinized Monte Carlo search with fast playouts, and the oracle.

For each decision the expert takes the heuristic's best few candidate turns (and the
Yaniv call when allowed), then repeatedly

1. samples a *determinization*: a full deal consistent with what its seat knows
   (its hand, the pile, the cards opponents were seen taking, every hand size and the
   stock size), the hidden cards weighted by the calibrated opponent model, and an
   opponent's kept cards by what his last discard says about them;
2. plays every candidate on a copy of that deal and finishes the round with a fast
   greedy playout on the engine's unchecked path;
3. scores the outcome by its chance to win the game from the totals after the
   round (the calibrated win model of :mod:`.value`): landings, knock-outs and who
   gets the points all count what they are worth for the game.

Candidates share each determinization (common random numbers), and the search is
adaptive: clearly worse candidates are dropped, near-equal ones parked, and it stops
when one is left; near-ties go to the heuristic's favourite. The budget is a number
of determinizations and a time limit.

The oracle runs the same search on the true deal: it sees every hand, so it is an
analysis tool (how much does hidden information cost?), never a player's opponent.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..actions import Action
from ..cards import KIND, RANK, SUIT, deck
from ..rules import Rules
from ..state import ROUND_OVER, RoundState, SeatView
from .base import Bot
from .heuristic import HeuristicBot, Knowledge, call_risk
from .model import HandModel, default_model, default_win_model, model_for, win_model_for
from .value import WinModel, win_share

__all__ = [
    "CHECK_EVERY",
    "DROP_Z",
    "INDIFFERENCE",
    "LEVELS",
    "MIN_DETERMINIZATIONS",
    "VALUE_SCALE",
    "ExpertBot",
    "OracleBot",
    "SearchLevel",
    "determinize",
    "playout",
]


@dataclass(frozen=True)
class SearchLevel:
    """How hard the expert thinks: candidates, determinizations and a time cap."""

    candidates: int
    determinizations: int
    max_seconds: float


LEVELS = {
    "fast": SearchLevel(candidates=3, determinizations=30, max_seconds=0.015),
    "default": SearchLevel(candidates=4, determinizations=100, max_seconds=0.04),
    "strong": SearchLevel(candidates=6, determinizations=400, max_seconds=0.4),
}
"""The expert's named levels (``default`` keeps p95 decisions under 50 ms)."""


_BEST_DISCARD: dict[Rules, dict[int, tuple[tuple[int, ...], int]]] = {}
"""Per rule set: hand mask -> (the playout's discard, its highest card value).

Playouts meet the same hands again and again (every candidate of a decision, every
decision of a round), and generating every legal discard is most of a playout's time.
"""
_CACHE_LIMIT = 200_000


_SAME_RANK: tuple[int, ...] = tuple(
    0 if SUIT[c] < 0 else sum(1 << x for x in range(108) if SUIT[x] >= 0 and RANK[x] == RANK[c])
    for c in range(108)
)
"""Per physical card: the mask of every natural card of its rank (both decks); 0 for jokers."""


def _best_discard(state: RoundState, values: Sequence[int]) -> tuple[tuple[int, ...], int]:
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


def playout(state: RoundState, model: HandModel, risk: float = 0.3, cap: int = 400) -> None:
    """Finish the round with a fast policy (unchecked engine path).

    Everyone throws his most valuable discard, takes a pile card only if it is worth
    less than what he threw and is low (3 or less) or pairs with a card he holds, and
    calls Yaniv exactly when the heuristic would at the default *risk* (short of its
    stall allowance): when the calibrated model, from the hand sizes, the cards each
    opponent was seen taking and the stage of the round, puts the Assaf risk at or
    below *risk*, made score-aware by :func:`.heuristic.call_risk`.
    """
    values = state._values
    rules = state.rules
    thr = rules.threshold
    tie = 0 if rules.assaf_on_tie else 1
    hv = state.hv
    hands = state.hands
    seen = state.seen
    cdf = model.cdf
    players = len(state.active)
    same_rank = _SAME_RANK
    best_of = _BEST_DISCARD.get(rules)
    if best_of is None:
        best_of = _BEST_DISCARD[rules] = {}
    over = ROUND_OVER
    while state.phase != over:
        seat = state.current
        v = hv[seat]
        if v <= thr:
            # the heuristic's call: the model's Assaf risk from the hand sizes and the
            # cards each opponent was seen taking, against its score-aware risk level
            # (HandModel.p_hand_at_most inlined: this runs at every playout turn; a
            # test pins it to the heuristic's decision)
            table = cdf[min(state.turns // players, len(cdf) - 1)]
            safe = 1.0
            for p in state.active:
                if p != seat:
                    x = v - tie
                    hidden = hands[p].bit_count()
                    m = seen[p]
                    while m:
                        low = m & -m
                        x -= values[low.bit_length() - 1]
                        hidden -= 1
                        m ^= low
                    if x < 0:
                        continue
                    if hidden <= 0:
                        safe = 0.0
                        break
                    row = table[min(hidden, len(table) - 1)]
                    safe *= 1.0 - (row[x] if x < len(row) else 1.0)
            if 1.0 - safe <= call_risk(rules, state.totals, state.active, seat, v, risk):
                state.fast_yaniv()
                return
        mask = hands[seat]
        cached = best_of.get(mask)
        if cached is None:
            cached = _best_discard(state, values)
            if len(best_of) > _CACHE_LIMIT:
                best_of.clear()
            best_of[mask] = cached
        best, thrown = cached
        state.fast_discard(best)
        take = -1
        take_value = 11
        held = hands[seat]
        for c in state.takeable_cards():
            v = values[c]
            if v < take_value and (v <= 3 or held & same_rank[c]):
                take, take_value = c, v  # a low card, or one that pairs with the hand
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

    With *drawn_like_stock*, the card an opponent drew from the stock since his last
    discard is dealt like a stock card (uniformly from the unseen cards) and, when he
    took a pile card instead (it is seen), all his hidden cards are kept ones; else
    that card is dealt by the stage of the round like the cards nobody read.
    """
    assert view.seat is not None
    rules = view.rules
    values = rules.card_values
    decks = rules.decks_for(view.players)
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
    pile = [tuple(int(c) for c in g) for g in view.discard_pile]
    for g in pile:
        used.update(g)
    pool = [c for c in deck(decks) if c not in used]
    missing = [
        view.hand_counts[p] - hands[p].bit_count() if p != view.seat else 0 for p in range(view.players)
    ]
    # What an opponent's last discard says about the cards he kept: he threw it rather
    # than them. All his hidden cards but one (the card he drew since) were kept; they
    # follow the calibrated after-discard distribution.
    if view.phase == "turn_start":
        drew: list[int] = []
        for p in view.active:
            group = view.last_discards[p]
            if p == view.seat or group is None:
                continue
            took = drawn_like_stock and _took_from_pile(view, p)
            kept = missing[p] - (0 if took else 1)
            if kept <= 0:
                if drawn_like_stock and not took and missing[p] == 1:
                    drew.append(p)
                continue
            dist = model.after_discard([values[int(c)] for c in group])
            if dist is None:
                continue
            chosen = _weighted_order(pool, dist, values, rng)[:kept]
            for c in chosen:
                hands[p] |= 1 << c
            missing[p] -= kept
            taken = set(chosen)
            pool = [c for c in pool if c not in taken]
            if drawn_like_stock and not took and missing[p] == 1:
                drew.append(p)
        for p in drew:  # the card he drew is any unseen card: the stock's order is uniform
            if pool:
                c = pool.pop(rng.randrange(len(pool)))
                hands[p] |= 1 << c
                missing[p] -= 1
    keyed = _weighted_order(pool, model.card_distribution[stage], values, rng)
    at = 0
    for p in view.active:
        if missing[p] > 0:
            for c in keyed[at : at + missing[p]]:
                hands[p] |= 1 << c
            at += missing[p]
    stock = keyed[at:]
    rng.shuffle(stock)  # the stock's order is uniform, whatever the weights
    stock = stock[: view.stock_count]
    return RoundState.sampled(view, hands, stock, shuffler=rng)


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


def _weighted_order(
    pool: list[int], dist: Sequence[float], values: Sequence[int], rng: random.Random
) -> list[int]:
    """*pool* in the order of drawing one card at a time with weight dist[value] / copies.

    Weighted sampling without replacement in one sort (Efraimidis-Spirakis, with
    exponential keys): a card's weight is its value's probability spread over the
    pool's cards of that value, so the front of the order is a weighted deal.
    """
    by_value: dict[int, int] = {}
    for c in pool:
        by_value[values[c]] = by_value.get(values[c], 0) + 1
    inverse = {v: n / dist[min(v, 10)] if dist[min(v, 10)] > 0 else 1e12 for v, n in by_value.items()}
    expovariate = rng.expovariate
    return sorted(pool, key=lambda c: expovariate(1.0) * inverse[values[c]])


def _utility(state: RoundState, me: int, strength: Sequence[float]) -> float:
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


VALUE_SCALE = 150.0
"""Utility of a certain game win (early in a game one unit is worth about 3-4 points of round score)."""


def _apply_candidate(state: RoundState, action: Action, me: int) -> None:
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


class ExpertBot(Bot):
    """The ``expert`` bot (difficulty ``hard``; ``strong`` level = ``expert``)."""

    name = "expert"
    thinks_long = True

    def __init__(
        self, level: str = "default", model: HandModel | None = None, win_model: WinModel | None = None
    ) -> None:
        """An expert searching at a named level of :data:`LEVELS`.

        Without *model* and *win_model* it uses those of the rule family nearest to
        the game's rules (:func:`.model.family_of`), chosen at each decision.
        """
        if level not in LEVELS:
            raise ValueError(f"unknown expert level {level!r}; levels are: {', '.join(LEVELS)}")
        self.level = LEVELS[level]
        self._given = (model, win_model)
        self.model = model or default_model()
        self.win_model = win_model or default_win_model()
        self.heuristic = HeuristicBot(model=self.model)
        self._rules: Rules | None = None
        self.drawn_like_stock = DRAWN_LIKE_STOCK

    def _models_for(self, rules: Rules) -> None:
        """Use the models of *rules*' family (unless given fixed ones)."""
        if rules == self._rules:
            return
        self._rules = rules
        model, win_model = self._given
        self.model = model or model_for(rules)
        self.heuristic.model = self.model
        self.win_model = win_model or win_model_for(rules)

    def candidates(self, view: SeatView, know: Knowledge, rng: random.Random) -> list[Action]:
        """The heuristic's best turns, plus Yaniv when allowed."""
        h = self.heuristic
        ranked = h.rank_turns(view, know, allow_takes=h._stuck(view) < h.w.take_stuck_turns)
        out = [a for _, a in ranked[: self.level.candidates]]
        if any(a.type == "yaniv" for a in view.legal):
            out.insert(0, Action.yaniv())
        return out

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        """Search at turn start; the heuristic answers the other, rarer phases."""
        stock = self.drawn_like_stock
        return self._decide(
            view, rng, lambda know: lambda r: determinize(view, r, self.model, know.stage, stock)
        )

    def _decide(
        self,
        view: SeatView,
        rng: random.Random,
        sampler: Callable[[Knowledge], Callable[[random.Random], RoundState]],
    ) -> Action | None:
        """The search's choice over the deals *sampler* draws (given what the view tells).

        Off turn start, or with one candidate, the heuristic answers.
        """
        self._models_for(view.rules)
        legal = view.legal
        if not legal or legal[0].type == "slap" or view.phase == "after_discard":
            return self.heuristic.act(view, rng)
        know = Knowledge(view)
        cands = self.candidates(view, know, rng)
        if len(cands) <= 1:
            return cands[0] if cands else self.heuristic.act(view, rng)
        return self.search(view, cands, rng, sampler(know))

    def search(
        self,
        view: SeatView,
        cands: Sequence[Action],
        rng: random.Random,
        sample: Callable[[random.Random], RoundState],
    ) -> Action:
        """Mean utility of each candidate over determinizations; the best one.

        Candidates are compared on the same determinizations, so the noise of the deal
        cancels out of their differences. After :data:`MIN_DETERMINIZATIONS`, every
        :data:`CHECK_EVERY` determinizations, each candidate is tested against the
        leader on their paired differences: one that trails by more than
        :data:`DROP_Z` standard errors is out; one that cannot beat the leader by more
        than :data:`INDIFFERENCE` (utility units) is *parked* (no more playouts, still
        eligible). The search stops when one candidate is left, so clear decisions
        (most of them) cost a fraction of the budget.

        The choice: among the eligible candidates whose mean is within
        :data:`INDIFFERENCE` of the best, the first in the given order (the
        heuristic's ranking): where the playouts cannot tell candidates apart, the
        heuristic's judgement is better than their noise.
        """
        assert view.seat is not None
        me = view.seat
        strength = self.win_model.table(view.rules.score_limit)
        n_cands = len(cands)
        totals = [0.0] * n_cands
        counts = [0] * n_cands
        # squares[i][j] (i < j): the sum of squared differences u_i - u_j over shared determinizations
        squares = [[0.0] * n_cands for _ in range(n_cands)]
        alive = list(range(n_cands))
        eligible = set(alive)
        utils = [0.0] * n_cands
        deadline = time.perf_counter() + self.level.max_seconds
        done = 0
        while done < self.level.determinizations:
            base = sample(random.Random(rng.random()))
            for i in alive:
                s = base.copy()
                _apply_candidate(s, cands[i], me)
                playout(s, self.model)
                u = _utility(s, me, strength)
                utils[i] = u
                totals[i] += u
                counts[i] += 1
            for k, a in enumerate(alive):  # alive is sorted: each pair once, a < b
                row = squares[a]
                ua = utils[a]
                for b in alive[k + 1 :]:
                    d = ua - utils[b]
                    row[b] += d * d
            done += 1
            if time.perf_counter() > deadline:
                break
            if done >= MIN_DETERMINIZATIONS and done % CHECK_EVERY == 0:
                alive, out = _triage(alive, totals, squares, done)
                eligible -= out
                if len(alive) == 1:
                    break
        means = {i: totals[i] / counts[i] for i in eligible if counts[i]}
        top = max(means.values())
        return cands[min(i for i, m in means.items() if m >= top - INDIFFERENCE)]


DRAWN_LIKE_STOCK = False
"""Deal the card an opponent drew since his discard like a stock card (see :func:`determinize`).

Off: against the frozen session-7 expert it moved calls and rounds but not games
(51.5%, 44.6-58.3%, over 200 heads-up games), and session 6 measured it 2 points worse
at four players against the heuristic (docs/bots.md §2)."""

MIN_DETERMINIZATIONS = 16
"""Determinizations before the search may drop a candidate."""
CHECK_EVERY = 8
"""Determinizations between two checks for clearly worse candidates."""
DROP_Z = 2.0
"""Standard errors by which a candidate must trail the leader to be out."""
INDIFFERENCE = 1.0
"""Utility (see VALUE_SCALE) below which a difference between candidates is not worth more time."""


def _triage(
    alive: list[int], totals: list[float], squares: list[list[float]], n: int
) -> tuple[list[int], set[int]]:
    """(candidates still searched, candidates out) after *n* shared determinizations.

    Paired z test of each candidate against the leader: clearly worse ones are out,
    ones that cannot beat it by more than :data:`INDIFFERENCE` are parked (neither).
    """
    leader = max(alive, key=lambda i: totals[i])
    keep = [leader]
    out: set[int] = set()
    for j in alive:
        if j == leader:
            continue
        mean = (totals[leader] - totals[j]) / n  # j was searched on all n so far
        sq = squares[min(leader, j)][max(leader, j)]
        margin = DROP_Z * (max(sq / n - mean * mean, 0.0) / n) ** 0.5
        if mean > margin:
            out.add(j)
        elif mean + INDIFFERENCE <= margin:
            keep.append(j)
    keep.sort()
    return keep, out


class OracleBot(ExpertBot):
    """Sees every hand (analysis only): the expert's search on the true deal.

    Given only a view (``act``), it plays as the expert.
    """

    name = "oracle"
    sees_all = True

    def act_full(self, state: RoundState, seat: int, rng: random.Random) -> Action | None:
        """Decide with the full state (the stock order stays unknown: it is reshuffled)."""

        def sample(r: random.Random) -> RoundState:
            s = state.copy()
            s.log = None
            s.stock = s.stock[:]
            r.shuffle(s.stock)  # the hands are known; the stock order is not knowable
            s.shuffler = r
            return s

        return self._decide(state.view(seat), rng, lambda _know: sample)
