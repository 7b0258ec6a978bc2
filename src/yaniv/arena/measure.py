"""One measured game: bots play a game at a :class:`~yaniv.table.Table`, every seat's figures noted.

:func:`play_measured` plays like :func:`yaniv.match.play_game` and keeps, per seat, the
figures the arena adds up (:class:`SeatRecord`) and the time of every decision; of a
seat played by an external program (:class:`~yaniv.bots.external.ExternalBot`) also its
failures and the decisions its fallback bot made in the game, so that a report can say
how much of the seat's result is the fallback's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..bots.external import ExternalBot
from ..game import Game
from ..scoring import RoundResult
from ..table import DEFAULT_TURN_CAP, Player, Table

__all__ = ["GameRecord", "SeatRecord", "play_measured"]


@dataclass(frozen=True)
class SeatRecord:
    """What one seat did in one game."""

    win: float
    """1 for a sole winner, 1/k for a k-way shared win, else 0."""
    total: int
    """Final total."""
    rank_key: tuple[int, int, int]
    """Sorts the seats best first: (not a winner, -rounds survived, total)."""
    rounds: int
    """Rounds the seat took part in."""
    rounds_won: int
    calls: int
    assafed: int
    assafs_made: int
    landings: int
    totals_by_round: tuple[int, ...]
    """The seat's total after each round of the game."""
    decision_ms: tuple[float, ...]
    """The time of each of the seat's decisions, in milliseconds."""
    external: bool = False
    """Whether an external program (the bot protocol) played the seat."""
    failures: int = 0
    """The external program's failures in this game (bad answers, timeouts, a crash)."""
    fallback_decisions: int = 0
    """The seat's decisions in this game made by the external program's fallback bot."""


@dataclass(frozen=True)
class GameRecord:
    """One measured game: per-seat records and the game's own figures."""

    seed: int | None
    rounds: int
    turns: int
    capped: bool
    seats: tuple[SeatRecord, ...]
    """Indexed by seat."""
    deal: int = 0
    rotation: int = 0
    slot_seats: tuple[int, ...] = ()
    """The seat of each line-up slot (arena games only)."""


def _round_winners(scores: Sequence[int], active: Sequence[int]) -> list[int]:
    """The seats with the lowest round score, if some other seat scored more."""
    if not active:
        return []
    low = min(scores[p] for p in active)
    if max(scores[p] for p in active) == low:
        return []
    return [p for p in active if scores[p] == low]


class _Tally:
    """The per-seat round figures of one game, added up as its rounds end."""

    def __init__(self, n: int) -> None:
        self.rounds_in = [0] * n
        self.won = [0] * n
        self.calls = [0] * n
        self.assafed = [0] * n
        self.assafs = [0] * n
        self.landings = [0] * n
        self.out_round = [0] * n  # the round in which the seat was eliminated (0: never)
        self.curve: list[list[int]] = [[] for _ in range(n)]
        self.turns = 0

    def round_ended(self, active: Sequence[int], turns: int, result: RoundResult, number: int) -> None:
        """Add round *number* (1 the first), played by *active* for *turns* turns."""
        self.turns += turns
        for p in active:
            self.rounds_in[p] += 1
        for p in _round_winners(result.round_scores, active):
            self.won[p] += 1
        if result.kind in ("yaniv", "asef"):
            self.calls[result.caller] += 1
            self.assafed[result.caller] += result.assaf
        for p in result.assafers:
            self.assafs[p] += 1
        for p in result.landed:
            self.landings[p] += 1
        for p in result.eliminated:
            if not self.out_round[p]:
                self.out_round[p] = number
        for p, total in enumerate(result.totals):
            self.curve[p].append(total)


def _external_counts(bot: Player) -> tuple[int, int] | None:
    """An external bot's (failures, fallback decisions) so far; None for any other player."""
    if isinstance(bot, ExternalBot):
        return bot.failure_count, bot.fallback_decisions
    return None


def _external_figures(bot: Player, before: tuple[int, int] | None) -> dict[str, Any]:
    """The SeatRecord fields of an external bot for the game since *before*; {} for others."""
    now = _external_counts(bot)
    if now is None or before is None:
        return {}
    return {"external": True, "failures": now[0] - before[0], "fallback_decisions": now[1] - before[1]}


def play_measured(
    game: Game,
    bots: Sequence[Player],
    rngs: Sequence[random.Random] | None = None,
    turn_cap: int = DEFAULT_TURN_CAP,
    timed: Sequence[bool] | None = None,
) -> GameRecord:
    """Play *game* to its end like :func:`yaniv.match.play_game`, measuring every seat.

    Every decision of a seat in *timed* (default: every seat) is timed: building what
    the bot is asked with (its view, or the full state for an oracle) and the bot's
    answer, as a front end asking a bot would spend it; neither the table's check and
    play of the answer nor the next deal is. A bot that fails or answers illegally
    stops the game with its error (a measurement must not hide a bot's bug).
    """
    n = game.n
    before = [_external_counts(bot) for bot in bots]  # a bot may have played earlier games
    table = Table(game, bots, rngs=rngs, turn_cap=turn_cap)
    timing = list(timed) if timed is not None else [True] * n
    times: list[list[float]] = [[] for _ in range(n)]
    tally = _Tally(n)
    clock = time.perf_counter
    # The table says who decides (slap window first, the turn cap, the end of the game);
    # this loop only puts a stopwatch around the bot, which table.step() cannot do.
    while (decision := table.waiting_for()) is not None:
        seat = decision.seat
        if seat is None:  # a round has ended: the next deal is nobody's decision
            table.next_round()
            continue
        t0 = clock()
        action = table.thinker(decision)()
        if timing[seat]:
            times[seat].append((clock() - t0) * 1000.0)
        move = table.submit(seat, action, expect=decision)
        if move.result is not None:
            ended = table.view(None)  # the round just ended: its players and its turns
            tally.round_ended(ended.active, ended.turns, move.result, len(game.results))
    capped = table.stalled is not None
    if capped:
        tally.turns += table.view(None).turns
    totals = list(game.totals)
    if game.over:
        winners = list(game.winners)
    else:  # stopped by the turn cap: the lowest total still in the game wins
        alive = [p for p in range(n) if p not in game.out] or list(range(n))
        low = min(totals[p] for p in alive)
        winners = [p for p in alive if totals[p] == low]
    rounds = len(game.results)
    seats = tuple(
        SeatRecord(
            win=1.0 / len(winners) if p in winners else 0.0,
            total=totals[p],
            rank_key=(0 if p in winners else 1, -(tally.out_round[p] or rounds + 1), totals[p]),
            rounds=tally.rounds_in[p],
            rounds_won=tally.won[p],
            calls=tally.calls[p],
            assafed=tally.assafed[p],
            assafs_made=tally.assafs[p],
            landings=tally.landings[p],
            totals_by_round=tuple(tally.curve[p]),
            decision_ms=tuple(times[p]),
            **_external_figures(bots[p], before[p]),
        )
        for p in range(n)
    )
    return GameRecord(seed=game.seed, rounds=rounds, turns=tally.turns, capped=capped, seats=seats)
