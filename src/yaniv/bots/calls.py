"""The expert's playouts' learned Yaniv call: a logistic rule fitted on the expert's own calls.

The playouts stand for the players at the table, so they should call Yaniv where those
players would. The hand-set rule (call when the model's Assaf risk is at most
``playout.playout_risk``, score-aware) agrees with the expert's own calls at about 85% of the
turn starts where a call is allowed; this rule reads more of what the expert reads (its
best discard and what it leaves, the pile, the opponents' last discards, the hidden
cards) and is fitted to those calls per rule family and player count by
``python tools/fit_calls.py`` into ``calls.json`` beside this module.

:func:`call_row` is the rule's design row (the order of :data:`CALL_FEATURES`), the log-odds
are its dot product with the weights (:func:`call_logit`); :func:`call_features` computes
the row of a real position the plain way (what the fit reads, and what pins the
playouts' inlined computation); :func:`call_weights_for` gives the weights fitted for a
rule set and a number of players, or None where none was fitted (the hand-set rule
stands there).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from importlib import resources

from ..rules import Rules
from ..state import RoundState
from .model import HandModel, family_of

__all__ = [
    "CALL_FEATURES",
    "call_features",
    "call_logit",
    "call_row",
    "call_weights_for",
    "fitted_calls",
    "parse_calls",
]

CALL_FEATURES = (
    "bias",
    "logit risk",
    "log score-aware",
    "value",
    "stage",
    "cards",
    "opp cards",
    "opp hidden",
    "total",
    "opp total",
    "stock/10",
    "risk 0",
    "value 0",
    "shed",
    "value after shed",
    "top",
    "top <= 2",
    "opp last",
)
"""The names of the rule's weights, in the order of :func:`call_row`."""


def call_row(
    risk: float,
    score_aware: float,
    value: int,
    stage: int,
    cards: int,
    opp_cards: int,
    opp_hidden: int,
    total: float,
    opp_total: float,
    stock: int,
    shed: int,
    top: int,
    opp_last: int,
) -> list[float]:
    """The design row of a turn start where the seat may call (:data:`CALL_FEATURES`).

    *risk*: the model's Assaf risk (what the hand-set rule compares); *score_aware*:
    ``call_risk`` at level 1 (how much more or less risk the scores allow); *value*: the
    hand's value; *stage*: full turns played; *cards*: cards held; *opp_cards* /
    *opp_hidden*: the fewest cards an opponent holds / holds unseen; *total* /
    *opp_total*: the seat's / the highest opponent's game total over the score limit;
    *stock*: cards in the stock; *shed*: the value of the seat's most valuable discard;
    *top*: the lowest pile card it may take (11 if none); *opp_last*: the highest card of
    the opponents' last discards (-1 if none).
    """
    r = min(max(risk, 1e-3), 1.0 - 1e-3)  # the log-odds of a certain risk are infinite
    return [
        1.0,
        math.log(r / (1.0 - r)),
        math.log(score_aware),
        float(value),
        float(stage),
        float(cards),
        float(opp_cards),
        float(opp_hidden),
        total,
        opp_total,
        stock / 10.0,
        1.0 if risk <= 1e-9 else 0.0,
        1.0 if value == 0 else 0.0,
        float(shed),
        float(value - shed),
        float(top),
        1.0 if top <= 2 else 0.0,
        float(opp_last),
    ]


def call_logit(weights: Sequence[float], row: Sequence[float]) -> float:
    """The rule's log-odds that the seat calls: *weights* · *row* (call when above 0)."""
    z = 0.0
    for i in range(len(row)):
        z += weights[i] * row[i]
    return z


def call_features(state: RoundState, model: HandModel) -> list[float]:
    """The design row of the seat to play at *state* (a turn start), computed the plain way.

    The Assaf risk is the model's (``HandModel.p_hand_at_most``, the heuristic's and the
    playouts' estimate); everything else is what the table shows that seat.
    """
    from .playout import best_discard, call_risk  # playout imports this module

    rules = state.rules
    values = rules.card_values
    seat = state.current
    value = state.hand_value(seat)
    players = len(state.active)
    stage = state.turns // players
    tie = 0 if rules.assaf_on_tie else 1
    seen = state.seen
    safe = 1.0
    opp_cards = opp_hidden = 99
    opp_total = 0
    opp_last = -1
    for p in state.active:
        if p == seat:
            continue
        cards = state.hand_count(p)
        seen_cards = [c for c in range(seen[p].bit_length()) if seen[p] >> c & 1]
        seen_value = sum(values[c] for c in seen_cards)
        safe *= 1.0 - model.p_hand_at_most(value - tie, cards, seen_value, len(seen_cards), stage)
        opp_cards = min(opp_cards, cards)
        opp_hidden = min(opp_hidden, cards - len(seen_cards))
        opp_total = max(opp_total, state.totals[p])
        opp_last = max([opp_last] + [values[c] for c in state.last_discard[p] or ()])
    best, _ = best_discard(state, values)
    limit = rules.score_limit
    return call_row(
        1.0 - safe,
        call_risk(rules, state.totals, state.active, seat, value, 1.0),
        value,
        stage,
        state.hand_count(seat),
        opp_cards,
        opp_hidden,
        state.totals[seat] / limit,
        opp_total / limit,
        len(state.stock),
        sum(values[c] for c in best),
        min([values[c] for c in state.takeable_cards()] or [11]),
        opp_last,
    )


def parse_calls(data: object) -> dict[str, dict[str, tuple[float, ...]]]:
    """The weights of a ``calls.json`` document: family -> number of players -> weights.

    ``ValueError`` naming what is wrong: features other than :data:`CALL_FEATURES` (fitted
    on another rule: fit again), a weight count that does not match, a weight that is
    not a finite number, a player count that is not 2-8.
    """
    if not isinstance(data, dict) or not isinstance(data.get("families"), dict):
        raise ValueError("calls.json: not an object with 'families'")
    if tuple(data.get("features", ())) != CALL_FEATURES:
        raise ValueError("calls.json was fitted on other features: run python tools/fit_calls.py")
    out: dict[str, dict[str, tuple[float, ...]]] = {}
    for family, by_players in data["families"].items():
        if not isinstance(by_players, dict):
            raise ValueError(f"calls.json: family {family!r} is not an object")
        out[family] = {}
        for players, entry in by_players.items():
            if players not in {str(n) for n in range(2, 9)}:
                raise ValueError(f"calls.json: {family}: {players!r} is not a player count of 2-8")
            weights = entry.get("weights") if isinstance(entry, dict) else None
            if not isinstance(weights, list) or len(weights) != len(CALL_FEATURES):
                raise ValueError(f"calls.json: {family}/{players}: not {len(CALL_FEATURES)} weights")
            if not all(isinstance(w, (int, float)) and math.isfinite(w) for w in weights):
                raise ValueError(f"calls.json: {family}/{players}: a weight is not a finite number")
            out[family][players] = tuple(float(w) for w in weights)
    return out


@cache
def fitted_calls() -> dict[str, dict[str, tuple[float, ...]]]:
    """The fitted rules shipped in ``calls.json`` (:func:`parse_calls`; empty if there is none)."""
    path = resources.files("yaniv.bots").joinpath("calls.json")
    if not path.is_file():
        return {}
    return parse_calls(json.loads(path.read_text(encoding="utf-8")))


def call_weights_for(rules: Rules, players: int) -> tuple[float, ...] | None:
    """The learned rule of *rules*' family (:func:`.model.family_of`) at *players* seats, or None."""
    return fitted_calls().get(family_of(rules), {}).get(str(players))
