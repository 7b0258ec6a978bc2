"""The opponent hand-value model: how much an unseen hand holds, calibrated by simulation.

A player's hidden cards are not a random draw from the unseen pool: players keep low
cards and throw high ones, more so the longer a round runs. The model is the
distribution of the value of one hidden card kept by a player, per stage of the round
(completed rotations of play), measured over self-play games of the heuristic bot by
``python tools/calibrate.py`` and stored in ``calibration.json`` beside this file.
A hand of ``u`` hidden cards is the sum of ``u`` such values (a convolution), plus the
values of the cards seen taken into it.

:func:`call_success_probability` is what ``yaniv odds`` prints and what the heuristic
bot uses before calling Yaniv.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..rules import PRESETS, Rules
from .value import WinModel

if TYPE_CHECKING:
    from .. import SeatView

__all__ = [
    "FAMILY_KNOBS",
    "STAGES",
    "HandModel",
    "call_success_for_view",
    "call_success_probability",
    "default_model",
    "default_win_model",
    "families",
    "family_of",
    "model_for",
    "stage_of",
    "win_model_for",
]

STAGES = 8
"""Stages of a round: 0, 1, …, 7 or more completed rotations."""
MAX_CARD = 10
MAX_CARDS = 8


def stage_of(turns: int, players: int) -> int:
    """The stage of a round after *turns* completed turns among *players*."""
    return min(turns // max(players, 1), STAGES - 1)


class HandModel:
    """P(the hidden part of a hand is worth at most x), per stage and card count."""

    def __init__(
        self,
        card_distribution: Sequence[Sequence[float]],
        after_single: Sequence[Sequence[float]] | None = None,
        after_group: Sequence[Sequence[float]] | None = None,
    ) -> None:
        """*card_distribution*[stage][v]: probability that one hidden card is worth v (0..10).

        *after_single*[m][v]: the same for a card kept by a player who just threw a
        single card worth m (None: not known, the stage distribution stands in);
        *after_group*[m] the same after a discard of several cards, the highest worth m.
        """
        if len(card_distribution) != STAGES or any(len(d) != MAX_CARD + 1 for d in card_distribution):
            raise ValueError(f"a card distribution has {STAGES} stages of {MAX_CARD + 1} values")
        for name, table in (("after_single", after_single), ("after_group", after_group)):
            if table is not None and (
                len(table) != MAX_CARD + 1 or any(len(d) != MAX_CARD + 1 for d in table)
            ):
                raise ValueError(f"{name} has {MAX_CARD + 1} rows of {MAX_CARD + 1} values")
        self.card_distribution = [list(d) for d in card_distribution]
        self.after_single = [list(d) for d in after_single] if after_single is not None else None
        self.after_group = [list(d) for d in after_group] if after_group is not None else None
        # cdf[stage][u][x] = P(sum of u hidden cards <= x), x = 0 .. 10*u
        self.cdf: list[list[list[float]]] = [_sum_tables(d, d) for d in self.card_distribution]
        # read_table's tables, built as the playouts first meet each (stage, discard)
        self._read: dict[int, list[list[float]]] = {}

    def after_discard(self, values: Sequence[int]) -> list[float] | None:
        """The distribution of a card kept by a player who just threw cards worth *values*.

        None when the model has no table for it (the stage distribution stands in).
        """
        table = self.after_single if len(values) == 1 else self.after_group
        return table[min(max(values), MAX_CARD)] if table is not None and values else None

    def read_table(self, stage: int, single: bool, top: int) -> list[list[float]]:
        """The cdf tables by hidden-card count for a player whose last discard is read.

        The discard was one card worth *top* (*single*) or several, the highest worth
        *top*. ``table[u][x]``: P(his *u* hidden cards are worth at most *x* together),
        where all but one are cards he kept at that discard (:meth:`after_discard`) and
        one, the card he drew since, follows the distribution of *stage*: the reading the
        search's deals make (:class:`.playout.Determinizer`), as a table the playouts'
        call rule can read. The stage's own tables (``cdf[stage]``) without a reading.
        """
        stage = min(stage, STAGES - 1)
        top = min(top, MAX_CARD)
        table_of = self.after_single if single else self.after_group
        if table_of is None:
            return self.cdf[stage]
        key = stage * 32 + top + (0 if single else 16)
        table = self._read.get(key)
        if table is None:
            table = self._read[key] = _sum_tables(self.card_distribution[stage], table_of[top])
        return table

    def p_at_most(self, x: int, hidden: int, stage: int) -> float:
        """P(*hidden* hidden cards are worth at most *x* together) at *stage*."""
        return _at_most(self.cdf[min(stage, STAGES - 1)], x, hidden)

    def p_hand_at_most(
        self,
        x: int,
        cards: int,
        seen_value: int,
        seen_count: int,
        stage: int,
        discard: Sequence[int] | None = None,
    ) -> float:
        """P(an opponent's hand of *cards* cards, *seen_count* of them known, is worth <= x).

        With *discard*, the values of his last discard this round, his hidden cards are
        read as :meth:`read_table` reads them; without, by the stage alone.
        """
        if discard:
            tables = self.read_table(stage, len(discard) == 1, max(discard))
        else:
            tables = self.cdf[min(stage, STAGES - 1)]
        return _at_most(tables, x - seen_value, cards - seen_count)

    def mean_card(self, stage: int) -> float:
        """Expected value of one hidden card at *stage*."""
        dist = self.card_distribution[min(stage, STAGES - 1)]
        return sum(v * p for v, p in enumerate(dist)) / sum(dist)


def _at_most(tables: Sequence[Sequence[float]], x: int, hidden: int) -> float:
    """P(*hidden* cards are worth at most *x*) from cdf *tables* by card count."""
    if x < 0:
        return 0.0
    if hidden <= 0:
        return 1.0
    table = tables[min(hidden, MAX_CARDS)]
    return table[x] if x < len(table) else 1.0


def _sum_tables(first: Sequence[float], rest: Sequence[float]) -> list[list[float]]:
    """The cdf tables of a sum of u card values (u = 0 .. MAX_CARDS): one by *first*, the rest by *rest*.

    ``tables[u][x]`` = P(the u cards are worth at most x together), x = 0 .. 10u; each
    distribution is normalised first.
    """
    norm_first = [p / sum(first) for p in first]
    norm_rest = [p / sum(rest) for p in rest]
    tables = [[1.0]]
    pmf = [1.0]
    for u in range(1, MAX_CARDS + 1):
        dist = norm_first if u == 1 else norm_rest
        nxt = [0.0] * (len(pmf) + MAX_CARD)
        for s, ps in enumerate(pmf):
            if ps:
                for v, pv in enumerate(dist):
                    nxt[s + v] += ps * pv
        pmf = nxt
        running, cdf = 0.0, []
        for p in pmf:
            running += p
            cdf.append(min(running, 1.0))
        tables.append(cdf)
    return tables


@cache
def _calibration() -> dict[str, Any]:
    text = resources.files("yaniv.bots").joinpath("calibration.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def default_model() -> HandModel:
    """The model calibrated by simulation, shipped with the package."""
    data = _calibration()
    return HandModel(data["card_distribution"], data.get("after_single"), data.get("after_group"))


@cache
def default_win_model() -> WinModel:
    """The game-value model calibrated by simulation, shipped with the package."""
    strengths = _calibration().get("win_strengths")
    if strengths is None:
        raise ValueError("calibration.json has no win_strengths: run python tools/calibrate.py --only win")
    return WinModel(strengths)


FAMILY_KNOBS = (
    "yaniv_threshold",
    "score_limit",
    "assaf_penalty",
    "assaf_penalty_adds_hand",
    "landing_rule",
    "halving_scores",
    "pickup_mode",
    "hand_size",
)
"""The knobs that change how a hand is kept and what a round is worth: a rule family's key."""


@cache
def families() -> dict[str, dict[str, Any]]:
    """The rule families fitted besides ``standard`` (``families.json``, ``python tools/fit_models.py``).

    Each has the ``knobs`` (:data:`FAMILY_KNOBS`) of the preset it was fitted on, its
    hand tables and its win strengths. ``standard`` is ``calibration.json``.
    """
    path = resources.files("yaniv.bots").joinpath("families.json")
    if not path.is_file():
        return {}
    data: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["families"]
    return data


def _distance(rules: Rules, knobs: dict[str, Any]) -> float:
    """How far a rule set is from a family's: the threshold first, then what a round is worth."""
    d = abs(rules.threshold - float(knobs["yaniv_threshold"])) * 4.0
    d += abs(rules.assaf_penalty / rules.score_limit - knobs["assaf_penalty"] / knobs["score_limit"]) * 20.0
    d += 1.0 if rules.landing_rule != knobs["landing_rule"] else 0.0
    d += 0.5 if rules.assaf_penalty_adds_hand != knobs["assaf_penalty_adds_hand"] else 0.0
    d += 0.5 if rules.pickup_mode != knobs["pickup_mode"] else 0.0
    d += abs(rules.hand_size - knobs["hand_size"]) * 1.0
    return float(d)


RULES_CACHE_SIZE = 256
"""Rule sets whose family :func:`family_of` remembers: a server meets rule sets from
anyone, so the cache is bounded (the models are kept per family, a handful)."""


@lru_cache(maxsize=RULES_CACHE_SIZE)
def family_of(rules: Rules) -> str:
    """The fitted rule family nearest to *rules* (``standard`` when none is nearer)."""
    standard = PRESETS["standard"].to_dict()
    best, best_d = "standard", _distance(rules, standard)
    for name, fam in families().items():
        d = _distance(rules, fam["knobs"])
        if d < best_d:
            best, best_d = name, d
    return best


def model_for(rules: Rules) -> HandModel:
    """The hand model of the rule family nearest to *rules* (:func:`family_of`)."""
    return _family_model(family_of(rules))


@cache
def _family_model(name: str) -> HandModel:
    """The hand model of the fitted family *name* (one per family, kept)."""
    if name == "standard":
        return default_model()
    fam = families()[name]
    return HandModel(fam["card_distribution"], fam.get("after_single"), fam.get("after_group"))


def win_model_for(rules: Rules) -> WinModel:
    """The win model of the rule family nearest to *rules* (:func:`family_of`)."""
    return _family_win_model(family_of(rules))


@cache
def _family_win_model(name: str) -> WinModel:
    """The win model of the fitted family *name* (one per family, kept)."""
    if name == "standard":
        return default_win_model()
    return WinModel(families()[name]["win_strengths"])


def call_success_probability(
    value: int,
    opponents: Sequence[tuple[int, int, int]],
    stage: int,
    *,
    assaf_on_tie: bool = True,
    model: HandModel | None = None,
) -> float:
    """P(a Yaniv call with hand *value* is not Assafed).

    *opponents*: per opponent (cards held, value of its seen cards, number of seen cards).
    Opponents' hands are taken as independent.
    """
    model = model or default_model()
    limit = value if assaf_on_tie else value - 1
    p = 1.0
    for cards, seen_value, seen_count in opponents:
        p *= 1.0 - model.p_hand_at_most(limit, cards, seen_value, seen_count, stage)
    return p


def call_success_for_view(view: SeatView) -> float:
    """The chance that a Yaniv call by *view*'s seat succeeds now (the hint of every front end).

    The opponents as :func:`call_success_probability` wants them: cards held, and the
    value and number of their cards this seat has seen them take.
    """
    assert view.seat is not None and view.hand_value is not None
    values = view.rules.card_values
    opponents = [
        (view.hand_counts[p], sum(values[c] for c in view.seen[p]), len(view.seen[p]))
        for p in view.active
        if p != view.seat
    ]
    stage = stage_of(view.turns, len(view.active))
    return call_success_probability(view.hand_value, opponents, stage, assaf_on_tie=view.rules.assaf_on_tie)
