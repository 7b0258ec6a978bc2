"""The golden playthrough: one seeded game per preset, printed turn by turn."""

from __future__ import annotations

from yaniv import Game
from yaniv.bots import make_bot
from yaniv.match import bot_rngs, play_game
from yaniv.narrate import event_text
from yaniv.rules import PRESETS


def golden_text(preset: str, seed: int = 2026) -> str:
    rules = PRESETS[preset]
    players = max(rules.min_players, 3)
    game = Game(rules, players=players, seed=seed)
    bots = [make_bot("greedy" if p % 2 == 0 else "random") for p in range(players)]
    stats = play_game(game, bots, bot_rngs(seed, players))
    assert not stats.capped
    lines = [f"# {preset}: {players} players, seed {seed}, bots greedy/random"]
    lines += [t for e in game.events if (t := event_text(e)) is not None]
    return "\n".join(lines) + "\n"
