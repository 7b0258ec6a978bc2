"""Games between bots: one bot per seat at a :class:`~yaniv.table.Table`, played to the end."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .bots import Bot
from .bots.base import bot_rngs
from .game import Game
from .table import DEFAULT_TURN_CAP, Move, Table

__all__ = ["DEFAULT_TURN_CAP", "GameStats", "bot_rngs", "play_game", "play_table"]


@dataclass
class GameStats:
    """What happened in one game between bots."""

    rounds: int = 0
    turns: int = 0
    calls: int = 0
    assafs: int = 0
    reshuffles: int = 0
    capped: bool = False
    winners: tuple[int, ...] = ()
    totals: list[int] = field(default_factory=list)


def play_table(table: Table, on_move: Callable[[Move], None] | None = None) -> None:
    """Let the bots at *table* play until it is over; *on_move* sees every move.

    ``RuntimeError`` if a seat has no bot or a bot failed (a built-in bot's bug must not
    pass unnoticed in a tournament; :attr:`Table.faults` says what happened).
    """
    while True:
        move = table.step()
        if move is None:
            break
        if on_move is not None:
            on_move(move)
        if table.faults:
            raise RuntimeError(f"a bot failed: {table.faults[0]}")
    if not table.over:
        waiting = table.waiting_for()
        raise RuntimeError(f"no bot plays seat {waiting.seat if waiting else '?'}")


def play_game(
    game: Game,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random] | None = None,
    turn_cap: int = DEFAULT_TURN_CAP,
) -> GameStats:
    """Play *game* to its end with one bot per seat; returns its statistics."""
    table = Table(game, bots, rngs=rngs, turn_cap=turn_cap)
    stats = GameStats()

    def count(move: Move) -> None:
        result = move.result
        if result is not None:
            state = game.round
            stats.rounds += 1
            stats.turns += state.turns
            stats.reshuffles += state.reshuffles
            if result.kind in ("yaniv", "asef"):
                stats.calls += 1
                stats.assafs += result.assaf

    play_table(table, count)
    if table.stalled is not None:
        stats.capped = True
        stats.turns += game.round.turns
    stats.winners = game.winners
    stats.totals = list(game.totals)
    return stats
