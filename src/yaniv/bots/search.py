"""The expert bot: determinized Monte Carlo search with fast playouts, and the oracle.

For each decision the expert takes the heuristic's best few candidate turns (and the
Yaniv call when allowed), then repeatedly

1. samples a *determinization*: a full deal consistent with what its seat knows
   (its hand, the pile, the cards opponents were seen taking, every hand size and the
   stock size), the hidden cards weighted by the calibrated opponent model;
2. plays every candidate on a copy of that deal and finishes the round with a fast
   greedy playout on the engine's unchecked path;
3. scores the outcome: the round score of the others minus its own, and heavy terms
   for eliminations.

Candidates share each determinization (common random numbers). The candidate with
the best mean wins. The budget is a number of determinizations and a time limit.

The oracle runs the same search on the true deal: it sees every hand, so it is an
analysis tool (how much does hidden information cost?), never a player's opponent.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..actions import Action
from ..cards import KIND, deck
from ..state import AFTER_DISCARD, RoundState, SeatView
from .base import Bot
from .heuristic import HeuristicBot, Knowledge, _held_all
from .model import HandModel, default_model

__all__ = ["LEVELS", "ExpertBot", "OracleBot", "SearchLevel", "determinize", "playout"]


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


def playout(state: RoundState, model: HandModel, risk: float = 0.3, cap: int = 400) -> None:
    """Finish the round with a fast policy (unchecked engine path).

    Everyone throws his most valuable discard, takes a pile card only if it is low
    and lower than what he threw, and calls Yaniv like the heuristic does: when the
    calibrated model, seeing only hand sizes, puts the Assaf risk at *risk* or less.
    """
    values = state._values
    thr = state.rules.threshold
    hv = state.hv
    hands = state.hands
    cdf = model.cdf
    players = len(state.active)
    while state.phase != 3:
        seat = state.current
        v = hv[seat]
        if v <= thr:
            table = cdf[min(state.turns // players, len(cdf) - 1)]
            safe = 1.0
            for p in state.active:
                if p != seat:
                    row = table[min(hands[p].bit_count(), len(table) - 1)]
                    safe *= 1.0 - (row[v] if v < len(row) else 1.0)
            if safe >= 1.0 - risk:
                state.fast_yaniv()
                return
        best: tuple[int, ...] = ()
        best_value = -1
        for d in state.discards():
            s = 0
            for c in d:
                s += values[c]
            if s > best_value or (s == best_value and len(d) > len(best)):
                best, best_value = d, s
        state.fast_discard(best)
        thrown = max(values[c] for c in best)
        take = -1
        take_value = 11
        for c in state.takeable_cards():
            if values[c] < take_value:
                take, take_value = c, values[c]
        if take >= 0 and ((take_value <= 3 and take_value < thrown) or not state.stock):
            state.fast_take(take)
        elif state.stock:
            state.fast_draw()
        else:
            return  # no card to take at all: cannot happen with <= 8 players
        cap -= 1
        if cap <= 0:
            return


def determinize(view: SeatView, rng: random.Random, model: HandModel, stage: int) -> RoundState:
    """A full round state consistent with *view*, hidden cards sampled by the model."""
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
    rng.shuffle(pool)
    dist = model.card_distribution[stage]
    by_value: dict[int, int] = {}
    for c in pool:
        by_value[values[c]] = by_value.get(values[c], 0) + 1
    weight = {v: dist[min(v, 10)] / n for v, n in by_value.items()}
    for p in view.active:
        if p == view.seat:
            continue
        missing = view.hand_counts[p] - hands[p].bit_count()
        for _ in range(missing):
            weights = [weight[values[c]] for c in pool]
            i = rng.choices(range(len(pool)), weights)[0]
            hands[p] |= 1 << pool[i]
            pool[i] = pool[-1]
            pool.pop()
    stock = pool[: view.stock_count]
    state = RoundState(
        rules,
        hands,
        stock,
        pile,
        view.current,
        totals=view.totals,
        eliminated=view.eliminated,
        tiebreak=False,
        shuffler=rng,
    )
    state.turns = view.turns
    if view.phase == "after_discard":
        state.phase = AFTER_DISCARD
    return state


def _utility(state: RoundState, me: int) -> float:
    result = state.result
    if result is None:  # a capped playout: compare hands
        others = [state.hv[p] for p in state.active if p != me]
        return -state.hv[me] + sum(others) / max(len(others), 1)
    scores = result.round_scores
    others = [p for p in state.active if p != me]
    u = -scores[me] + sum(scores[p] for p in others) / max(len(others), 1)
    if me in result.eliminated:
        u -= 80
    u += 25 * sum(1 for p in result.eliminated if p != me)
    if me in result.landed:
        u += 20
    return u


def _apply_candidate(state: RoundState, action: Action, me: int) -> None:
    """Play a candidate on a determinized state through the unchecked path."""
    if action.type == "yaniv":
        state.fast_yaniv()
        return
    if action.type == "turn":
        state.fast_discard(tuple(_held_all(state.hands[me], action.cards)))
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

    def __init__(self, level: str = "default", model: HandModel | None = None) -> None:
        """An expert searching at a named level of :data:`LEVELS`."""
        if level not in LEVELS:
            raise ValueError(f"unknown expert level {level!r}; levels are: {', '.join(LEVELS)}")
        self.level = LEVELS[level]
        self.model = model or default_model()
        self.heuristic = HeuristicBot(model=self.model)
        self.call_by_heuristic = False

    def candidates(self, view: SeatView, know: Knowledge, rng: random.Random) -> list[Action]:
        """The heuristic's best turns, plus Yaniv when allowed."""
        ranked = self.heuristic.rank_turns(view, know, allow_takes=self.heuristic._stuck(view) < 3)
        out = [a for _, a in ranked[: self.level.candidates]]
        if any(a.type == "yaniv" for a in view.legal):
            out.insert(0, Action.yaniv())
        return out

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        """Search at turn start; the heuristic answers the other, rarer phases."""
        legal = view.legal
        if not legal or legal[0].type == "slap" or view.phase == "after_discard":
            return self.heuristic.act(view, rng)
        know = Knowledge(view)
        if self.call_by_heuristic:
            first = self.heuristic.act(view, rng)
            if first is not None and first.type == "yaniv":
                return first
            cands = [a for a in self.candidates(view, know, rng) if a.type != "yaniv"]
        else:
            cands = self.candidates(view, know, rng)
        if len(cands) <= 1:
            return cands[0] if cands else self.heuristic.act(view, rng)
        return self.search(view, cands, rng, lambda r: determinize(view, r, self.model, know.stage))

    def search(
        self,
        view: SeatView,
        cands: Sequence[Action],
        rng: random.Random,
        sample: Callable[[random.Random], RoundState],
    ) -> Action:
        """Mean utility of each candidate over determinizations; the best one."""
        assert view.seat is not None
        me = view.seat
        totals = [0.0] * len(cands)
        deadline = time.perf_counter() + self.level.max_seconds
        for _ in range(self.level.determinizations):
            base = sample(random.Random(rng.random()))
            for i, action in enumerate(cands):
                s = base.copy()
                _apply_candidate(s, action, me)
                playout(s, self.model)
                totals[i] += _utility(s, me)
            if time.perf_counter() > deadline:
                break
        best = max(range(len(cands)), key=lambda i: totals[i])
        return cands[best]


class OracleBot(ExpertBot):
    """Sees every hand (analysis only): the expert's search on the true deal.

    Given only a view (``act``), it plays as the expert.
    """

    name = "oracle"
    sees_all = True

    def act_full(self, state: RoundState, seat: int, rng: random.Random) -> Action | None:
        """Decide with the full state (the stock order stays unknown: it is reshuffled)."""
        view = state.view(seat)
        legal = view.legal
        if not legal or legal[0].type == "slap" or view.phase == "after_discard":
            return self.heuristic.act(view, rng)
        know = Knowledge(view)
        cands = self.candidates(view, know, rng)
        if len(cands) <= 1:
            return cands[0] if cands else self.heuristic.act(view, rng)

        def sample(r: random.Random) -> RoundState:
            s = state.copy()
            s.log = None
            s.stock = s.stock[:]
            r.shuffle(s.stock)  # the hands are known; the stock order is not knowable
            s.shuffler = r
            return s

        return self.search(view, cands, rng, sample)
