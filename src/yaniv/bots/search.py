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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..rules import Rules
from ..state import RoundState, SeatView
from .base import Bot
from .calls import call_weights_for
from .heuristic import HeuristicBot, Knowledge
from .model import HandModel, default_model, default_win_model, family_of, model_for, win_model_for
from .playout import VALUE_SCALE, Determinizer, determinize, play_candidates, playout, playout_risk, read_risk
from .reading import LOOSE_RISK, CallReader
from .value import WinModel

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
    "choice",
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
    # strong's candidates and determinizations under a 40 ms cap. Untimed, standard, each against
    # the narrower 4 and 100 on the same deals (docs/bots.md §2): heads-up against the frozen
    # expert 54.65% of 2,000 where it won 53.45%, against the heuristic 76.7% of 2,000 (75.55%,
    # session 30); against three heuristic bots 45.45% of 2,000 (43.0%, session 29); at three
    # players 55.2% of 1,800 (56.7%: the other way, inside the noise)
    "default": SearchLevel(candidates=6, determinizations=400, max_seconds=0.04),
    "strong": SearchLevel(candidates=6, determinizations=400, max_seconds=0.4),
}
"""The expert's named levels. ``default`` keeps p95 decisions under 50 ms (its time cap binds
first); ``strong`` has the same budget with ten times the time, so it finishes its searches
where ``default`` is cut short (pure Python, a slow or busy machine)."""


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
        self._reads = False  # whether the game's rule family is one READ_FAMILIES names
        self.drawn_like_stock = DRAWN_LIKE_STOCK
        self.learned_calls = LEARNED_CALLS
        self.opponent_risk = OPPONENT_RISK
        self.multiway_opponent_risk = MULTIWAY_OPPONENT_RISK
        self.read_discards = READ_DISCARDS
        self.reader: CallReader | None = CallReader() if READ_CALLS else None
        """How loosely each opponent calls Yaniv, read from the game's events (:mod:`.reading`)."""
        self.playouts = 0
        """Playouts run by all its searches so far (a benchmark's throughput figure)."""
        self.search_seconds = 0.0
        """Seconds spent in those searches."""
        self.last_means: dict[int, float] = {}
        """The mean utility of each candidate its last search kept eligible, by index (analysis)."""

    def _models_for(self, rules: Rules) -> None:
        """Use the models of *rules*' family (unless given fixed ones)."""
        if rules == self._rules:
            return
        self._rules = rules
        model, win_model = self._given
        self.model = model or model_for(rules)
        self.heuristic.model = self.model
        self.win_model = win_model or win_model_for(rules)
        self._reads = family_of(rules) in READ_FAMILIES

    def observe(self, event: Mapping[str, Any]) -> None:
        """Follow the game: the table hands over every (redacted) event before a decision."""
        if self.reader is not None:
            self.reader.feed(event, self._rules, self.model)

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
        return self._decide(view, rng, lambda know: Determinizer(view, self.model, know.stage, stock).sample)

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
        calls = call_weights_for(view.rules, len(view.active)) if self.learned_calls else None
        risk = playout_risk(view.rules, len(view.active))
        # each opponent's chance of calling like the heuristic, read from his calls (heads-up
        # only, and in the families where it was measured to help: docs/bots.md §2)
        loose: list[tuple[int, float]] = []
        others = self.opponent_risk
        if others is None and len(view.active) > 2:
            others = self.multiway_opponent_risk
        reader = self.reader if self._reads and len(view.active) == 2 else None
        if reader is not None and others is None and calls is None:
            loose = [(p, reader.p_loose(p)) for p in view.active if p != me]
        # heads-up, every seat that calls like an expert reads the other's last discard
        read_all = 0
        if self.read_discards and len(view.active) == 2 and calls is None and others is None:
            level = read_risk(view.rules)
            if level is not None:
                risk = level
                for p in view.active:
                    read_all |= 1 << p
        loose_risk = max(LOOSE_RISK, risk)
        seat_risks: list[float] | None = None
        n_cands = len(cands)
        totals = [0.0] * n_cands
        counts = [0] * n_cands
        # squares[i][j] (i < j): the sum of squared differences u_i - u_j over shared determinizations
        squares = [[0.0] * n_cands for _ in range(n_cands)]
        alive = list(range(n_cands))
        eligible = set(alive)
        start = time.perf_counter()
        deadline = start + self.level.max_seconds
        done = 0
        while done < self.level.determinizations:
            # the deal's own reshuffles draw from rng too: its candidates' copies each
            # take a copy of it when they reshuffle, so they see the same stock
            base = sample(rng)
            read_seats = read_all
            if loose:  # each opponent's calling in this deal's playouts: loose with his odds
                seat_risks = [risk] * len(view.totals)
                for p, q in loose:
                    if rng.random() < q:
                        seat_risks[p] = loose_risk
                        read_seats &= ~(1 << p)  # a loose caller reads the stage alone
            play_candidates(
                base,
                cands,
                alive,
                me,
                self.model,
                strength,
                totals,
                counts,
                squares,
                calls,
                risk,
                others,
                seat_risks,
                read_seats,
            )
            done += 1
            if time.perf_counter() > deadline:
                break
            if done >= MIN_DETERMINIZATIONS and done % CHECK_EVERY == 0:
                alive, out = _triage(alive, totals, squares, done)
                eligible -= out
                if len(alive) == 1:
                    break
        self.playouts += sum(counts)
        self.search_seconds += time.perf_counter() - start
        self.last_means = {i: totals[i] / counts[i] for i in eligible if counts[i]}
        return cands[choice(self.last_means)]


DRAWN_LIKE_STOCK = False
"""Deal the card an opponent drew since his discard like a stock card (see :func:`determinize`).

Off: against the frozen session-7 expert it moved calls and rounds but not games
(51.5%, 44.6-58.3%, over 200 heads-up games), and session 6 measured it 2 points worse
at four players against the heuristic (docs/bots.md §2)."""

LEARNED_CALLS = False
"""Whether the playouts call Yaniv by the rule fitted on the expert's own calls, where one is fitted.

For the rule family and number of players of the game (:func:`.calls.call_weights_for`,
``python tools/fit_calls.py``); elsewhere, and when off, by the hand-set rule at
:data:`.playout.PLAYOUT_RISK`. Off: it agrees with the expert's calls on 89.6% of
held-out turn starts (the hand-set rule 85.4%), but against the frozen session-7 expert
it won 52.25% (47.4-57.1%) of 400 heads-up games where the hand-set rule won 55.25%
(50.4-60.1%) on the same deals (docs/bots.md §2, session 21)."""

OPPONENT_RISK: float | None = None
"""The Assaf risk at which the other seats of the playouts call Yaniv; None: the searcher's own.

Off. At the heuristic's level (0.3), with its own later turns at
:func:`.playout.playout_risk`, the expert beats the heuristic more often (standard,
untimed, the same deals: heads-up 76.2% of 1,300 games against 72.8%, at four players
43.7% of 300 against 40.0%), but it lost to the frozen session-7 expert, which calls
where the expert does: 49.1% (45.7-52.6%) of 800 heads-up games against 53.5% on the
same deals. The playouts must call as the real opponents do, so a fixed level for them
is wrong against one kind or the other (docs/bots.md §2, session 24)."""

MULTIWAY_OPPONENT_RISK: float | None = 0.3
"""The Assaf risk at which the other seats of the playouts call when more than two play the round.

None: the searcher's own level (:func:`.playout.playout_risk`). At more seats the expert's
own calls agree best with 0.25 and the heuristic's with 0.3 (heads-up: 0.15 and 0.3), so
one level fits both kinds of opponent. Untimed, on the same deals: against three heuristic
bots 42.0% of 1,000 ``standard`` games (40.9% with None), 27.0% of 300 on
``slovenian-yanef`` (22.7%: there the heuristic calls at 77% of its chances, and with the
others at 0.15 even the oracle won only 21% of 100), against three frozen session-7
experts 30.0% of 200 (26.5% with None) (docs/bots.md §2, session 27)."""

READ_CALLS = True
"""Whether the playouts let each opponent call as loosely as his calls so far say (:mod:`.reading`).

Heads-up only. In each determinization the opponent calls at :data:`.reading.LOOSE_RISK`
with the probability his calls give that he calls like the heuristic, at the expert's
own level otherwise. Untimed, on the same deals as the shipped expert before it:
against the heuristic 75.1% of 1,000 games on ``standard`` (72.9% before) and 77.4% on
``finnish`` (73.4%); against the frozen session-7 expert 53.25% of 800 (53.5%). At four
players it lost (38.7% of 300 against 40.0%), so it reads only heads-up
(docs/bots.md §2, session 26), and only in the families of :data:`READ_FAMILIES`."""

READ_FAMILIES = frozenset({"standard", "finnish"})
"""The rule families (:func:`.model.family_of`) whose games the reading of :data:`READ_CALLS` plays.

Not ``jdross`` (and the presets nearest it): there, untimed on the same deals, it won
79.3% of 300 heads-up games against the heuristic (80.0% without) and 51.0% of 400
against the frozen session-7 expert (54.75% without) (docs/bots.md §2, session 27)."""

READ_DISCARDS = False
"""Whether, heads-up, the playouts' callers read each other's last discard (:func:`.playout.read_risk`).

As the search's deals do: the cards an opponent kept at his last discard by the
after-discard tables, the card he drew since by the stage. Every seat that calls like an
expert reads (the searcher, and the opponent unless the reading of :data:`READ_CALLS`
makes him loose in a deal: the heuristic reads the stage alone), at the family's level
of :data:`.playout.READ_RISK_BY_FAMILY`; in a family not listed there nobody reads.

Off. Reading, the playouts' call rule agrees with the expert's own calls on 89.8% of the
turn starts where a call is allowed (standard, heads-up, 1,564 in 20 self-play games;
the stage alone at 0.15: 85.2%), but against the frozen session-7 expert it won 56.6%
(53.2-60.0%) of 800 heads-up games where the shipped expert won 56.5% on the same deals
(untimed, seed 11000; docs/bots.md §2, session 31)."""

MIN_DETERMINIZATIONS = 32
"""Determinizations before the search may drop a candidate.

32 and :data:`DROP_Z` 3 since session 32 (16 and 2 before): tested every 8 deals from the
16th at 2 standard errors, a good candidate was often dropped on a bad run of deals. On
3,607 heads-up decisions (``bench/triage.py``) the search picked the choice of a
1,500-determinization search without early stop on 86.1% of them (76.4% before; a second
such search 96.1%), losing 0.106 utility units a decision against it (0.185; the noise
floor 0.094), for 631 playouts a decision instead of 255. Against the frozen session-7
expert, untimed, heads-up, ``standard``, 800 games of seed 11000: 67.1% (63.8-70.3%)
where the session-31 search won 56.5% on the same deals; over 2,000 games (seeds 11000,
12000 and 13000) 66.05% (63.9-68.1%), and against the heuristic 83.65% of 2,000 where the
session-30 search won 76.7% (docs/bots.md §2)."""
CHECK_EVERY = 8
"""Determinizations between two checks for clearly worse candidates."""
DROP_Z = 3.0
"""Standard errors by which a candidate must trail the leader to be out (see :data:`MIN_DETERMINIZATIONS`)."""
INDIFFERENCE = 1.0
"""Utility (see VALUE_SCALE) below which a difference between candidates is not worth more time."""


def choice(means: Mapping[int, float]) -> int:
    """The search's pick from its candidates' mean utilities: the first within INDIFFERENCE of the best.

    *means* is by candidate index, in the heuristic's order (:meth:`ExpertBot.search`).
    """
    top = max(means.values())
    return min(i for i, m in means.items() if m >= top - INDIFFERENCE)


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
