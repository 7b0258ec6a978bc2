"""Running games between bots: the loop that asks each seat for its action."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from .actions import Action
from .bots import Bot
from .bots.base import bot_rngs
from .game import Game
from .scoring import RoundResult
from .state import RoundState

__all__ = ["DEFAULT_TURN_CAP", "Ask", "GameStats", "bot_rngs", "decide", "drive", "play_game"]

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


Ask = Callable[[int], "Action | None"]
"""Asks the bot of a seat for its action in the current state."""


def drive(
    game: Game, ask: Ask, turn_cap: int = DEFAULT_TURN_CAP
) -> Iterator[tuple[RoundState, RoundResult | None]]:
    """Play *game* on, asking each seat in turn; yields (round, result or None) per action.

    Deals the next round when one ends, offers a slap window to the player who may slap
    before the current player acts, and stops early (the game not over) when a round
    reaches *turn_cap* turns.
    """
    while not game.over:
        state = game.round
        if state.is_over:
            game.next_round()
            continue
        slapper = state.slapper
        if slapper is not None and state.slap_card(slapper) is not None:
            slap = ask(slapper)
            if slap is not None:
                game.apply(slapper, slap)
        seat = state.current
        action = ask(seat)
        if action is None:
            raise RuntimeError(f"the bot at seat {seat} passed its turn")
        result = game.apply(seat, action)
        yield state, result
        if result is None and state.turns >= turn_cap:
            return


def play_game(
    game: Game,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random] | None = None,
    turn_cap: int = DEFAULT_TURN_CAP,
) -> GameStats:
    """Play *game* to its end with one bot per seat; returns its statistics."""
    seat_rngs = list(rngs) if rngs is not None else bot_rngs(game.seed, game.n)
    stats = GameStats()

    def ask(seat: int) -> Action | None:
        return decide(bots[seat], game.round, seat, seat_rngs[seat])

    for state, result in drive(game, ask, turn_cap):
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
    stats.winners = game.winners
    stats.totals = list(game.totals)
    return stats
