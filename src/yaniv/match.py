"""Running games between bots: the loop that asks each seat for its action."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .actions import Action
from .bots import Bot
from .bots.base import bot_rngs
from .game import Game
from .state import RoundState

__all__ = ["DEFAULT_TURN_CAP", "GameStats", "bot_rngs", "decide", "play_game"]

DEFAULT_TURN_CAP = 2000
"""Turns after which a round counts as stalled and the game is stopped."""


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


def decide(bot: Bot, state: RoundState, seat: int, rng: random.Random) -> Action | None:
    """Ask *bot* for *seat*'s action: its view only, or the full state for an oracle."""
    if getattr(bot, "sees_all", False):
        return bot.act_full(state, seat, rng)  # type: ignore[attr-defined, no-any-return]
    return bot.act(state.view(seat), rng)


def play_game(
    game: Game,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random] | None = None,
    turn_cap: int = DEFAULT_TURN_CAP,
) -> GameStats:
    """Play *game* to its end with one bot per seat; returns its statistics."""
    rngs = list(rngs) if rngs is not None else bot_rngs(game.seed, game.n)
    stats = GameStats()
    while not game.over:
        state = game.round
        if state.is_over:
            game.next_round()
            continue
        slapper = state.slapper
        if slapper is not None and state.slap_card(slapper) is not None:
            action = decide(bots[slapper], state, slapper, rngs[slapper])
            if action is not None:
                game.apply(slapper, action)
        seat = state.current
        action = decide(bots[seat], state, seat, rngs[seat])
        if action is None:
            raise RuntimeError(f"bot {bots[seat].name} at seat {seat} passed its turn")
        result = game.apply(seat, action)
        if result is not None:
            stats.rounds += 1
            stats.turns += state.turns
            stats.reshuffles += state.reshuffles
            if result.kind in ("yaniv", "asef"):
                stats.calls += 1
                stats.assafs += result.assaf
        elif state.turns >= turn_cap:
            stats.capped = True
            stats.turns += state.turns
            break
    stats.winners = game.winners
    stats.totals = list(game.totals)
    return stats
