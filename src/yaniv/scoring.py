"""Round scoring and game progress: RULES.md S11–S16, S18, S21 and the §6b knobs.

:func:`settle` turns the end of a round (who called what, every hand value) into a
:class:`RoundResult`: round scores by the formal scoring of RULES.md §3, totals after
halving or landing (S13), eliminations (S14), game end and tie-breaks (S15) and the
next round's starter (S16). It is pure: the state and the game only call it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .rules import Rules

__all__ = ["RoundResult", "clockwise_from", "round_scores", "settle"]

_T = TypeVar("_T")


def _python_class(cls: type[_T]) -> type[_T]:
    """Leave a class to the interpreter in a compiled build (mypyc: a decorated class).

    A result is read through its ``__dict__`` (a copy with some fields changed:
    ``RoundResult(**{**result.__dict__, ...})``), which a compiled class has not.
    """
    return cls


@_python_class
@dataclass(frozen=True)
class RoundResult:
    """How a round ended and what follows from it. Per-seat tuples are indexed by seat."""

    kind: str
    """``"yaniv"``, ``"asef"`` or ``"false_yaniv"``."""
    caller: int
    values: tuple[int | None, ...]
    """Hand values shown at the showdown (``None``: not in the round or not compared)."""
    assaf: bool
    assafers: tuple[int, ...]
    round_scores: tuple[int, ...]
    totals: tuple[int, ...]
    """Totals after this round, halving or landing applied."""
    landed: tuple[int, ...]
    """Seats whose total was halved (or reduced by 50) this round."""
    eliminated: tuple[int, ...]
    """Seats eliminated by this round."""
    next_starter: int | None
    game_over: bool
    winners: tuple[int, ...]
    tiebreak: tuple[int, ...]
    """Seats that play the next round as a tie-break (S15); empty if none."""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (lists, ints, bools, None)."""
        return {
            "kind": self.kind,
            "caller": self.caller,
            "values": list(self.values),
            "assaf": self.assaf,
            "assafers": list(self.assafers),
            "round_scores": list(self.round_scores),
            "totals": list(self.totals),
            "landed": list(self.landed),
            "eliminated": list(self.eliminated),
            "next_starter": self.next_starter,
            "game_over": self.game_over,
            "winners": list(self.winners),
            "tiebreak": list(self.tiebreak),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        """Rebuild from :meth:`to_dict` output."""
        tup = ("values", "assafers", "round_scores", "totals", "landed", "eliminated", "winners", "tiebreak")
        fields: dict[str, Any] = {k: tuple(v) if k in tup else v for k, v in data.items()}
        return cls(**fields)


def clockwise_from(seat: int, seats: Sequence[int], n: int) -> list[int]:
    """*seats* (seat numbers below *n*) in clockwise order starting after *seat*."""
    # a walk round the table, not a sort with a key function: every round end and deal
    # asks, and n is at most 8
    out: list[int] = []
    for i in range(1, n + 1):
        p = (seat + i) % n
        for q in seats:
            if q == p:
                out.append(q)
    return out


def round_scores(
    rules: Rules,
    n: int,
    active: Sequence[int],
    caller: int,
    kind: str,
    values: Sequence[int],
) -> tuple[list[int], list[int], list[int]]:
    """Round scores (S11, S18, S21): (scores by seat, assafers, lowest non-callers L)."""
    scores = [0] * n
    if kind == "false_yaniv":
        scores[caller] = rules.false_yaniv_penalty or 0
        return scores, [], []
    c = values[caller]
    others = clockwise_from(caller, [p for p in active if p != caller], n)
    if rules.assaf_on_tie:
        assafers = [p for p in others if values[p] <= c]
    else:
        assafers = [p for p in others if values[p] < c]
    if not assafers:
        scores[caller] = rules.asef_win_delta if kind == "asef" else 0
        for p in others:
            scores[p] = values[p]
        return scores, [], []
    if kind == "asef":
        scores[caller] = rules.asef_loss_delta
    else:
        multi = rules.assaf_penalty_multi
        base = multi * len(assafers) if multi and len(assafers) >= 2 else rules.assaf_penalty
        scores[caller] = base + (c if rules.assaf_penalty_adds_hand else 0)
    m = min(values[p] for p in others)
    lowest = [p for p in others if values[p] == m]
    if rules.assafer_score == "zero":
        zero = lowest if rules.assaf_tie_winner == "all" else lowest[:1]
    elif rules.assafer_score == "hand_if_tied":
        zero = lowest if len(lowest) == 1 and m < c else []
    else:
        zero = []
    for p in others:
        if p in zero or rules.assaf_others_score == "zero":
            scores[p] = 0
        else:
            scores[p] = values[p]
    return scores, assafers, lowest


def settle(
    rules: Rules,
    n: int,
    active: Sequence[int],
    totals: Sequence[int],
    caller: int,
    kind: str,
    values: Sequence[int],
    *,
    tiebreak: bool = False,
) -> RoundResult:
    """Everything that follows from the end of a round (S11–S16)."""
    scores, assafers, lowest = round_scores(rules, n, active, caller, kind, values)
    new = list(totals)
    landed = []
    for p in active:
        t = totals[p] + scores[p]
        if scores[p] != 0 and t in rules.halving_scores:
            t = t // 2 if rules.landing_rule == "halve" else t - 50
            landed.append(p)
        new[p] = t
    over = [p for p in active if new[p] > rules.score_limit]
    game_over = False
    winners: list[int] = []
    tied: list[int] = []
    eliminated: list[int] = []
    contenders: list[int] = []
    if tiebreak:
        contenders = list(active)  # no elimination in a tie-break round (S15)
    elif rules.end_mode == "last_standing":
        eliminated = over
        remaining = [p for p in active if p not in over]
        if len(remaining) == 1:
            game_over, winners = True, remaining
        elif not remaining:
            contenders = list(active)
    elif over:  # first_over_limit: the game ends after this round
        eliminated = over
        contenders = list(active)
    if contenders:
        low = min(new[p] for p in contenders)
        tied = [p for p in contenders if new[p] == low]
        if len(tied) == 1 or rules.final_tie == "shared":
            game_over, winners, tied = True, tied, []
        # The winners and the players of a tie-break round are not out of the game.
        eliminated = [p for p in eliminated if p not in winners and p not in tied]
    if game_over:
        starter = None
    else:
        pool = tied or [p for p in active if p not in eliminated]
        starter = _next_starter(rules, n, active, caller, kind, bool(assafers), lowest, values, pool)
    shown: list[int | None] = [None] * n
    if kind != "false_yaniv":
        for p in active:
            shown[p] = values[p]
    # The value RoundResult(kind=..., ...) builds, its fields set in field order without
    # the frozen dataclass's generated __init__ (interpreted code, a tenth of a round's
    # cost in a compiled build).
    result: RoundResult = object.__new__(RoundResult)
    result.__dict__.update(
        kind=kind,
        caller=caller,
        values=tuple(shown),
        assaf=bool(assafers),
        assafers=tuple(assafers),
        round_scores=tuple(scores),
        totals=tuple(new),
        landed=tuple(landed),
        eliminated=tuple(eliminated),
        next_starter=starter,
        game_over=game_over,
        winners=tuple(winners),
        tiebreak=tuple(sorted(tied)),
    )
    return result


def _next_starter(
    rules: Rules,
    n: int,
    active: Sequence[int],
    caller: int,
    kind: str,
    assaf: bool,
    lowest: list[int],
    values: Sequence[int],
    pool: list[int],
) -> int:
    """S16 and ``round_starter``: the seat that starts the next round, within *pool*."""
    left = clockwise_from(caller, [p for p in active if p != caller], n)
    if rules.round_starter == "caller":
        seat = caller
    elif kind == "false_yaniv":
        seat = left[0] if left else caller
    elif not assaf:
        seat = caller
    else:
        shared = len(lowest) >= 2 or values[lowest[0]] == values[caller]
        if rules.starter_on_tie == "caller_left" and shared:
            seat = left[0]
        else:
            seat = lowest[0]
    if seat in pool:
        return seat
    return clockwise_from(seat, pool, n)[0]
