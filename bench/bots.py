"""Bot speed: decisions per second and latency percentiles on decisions met in real games.

Each measured bot plays standard games heads-up and with 4 players against heuristic
opponents, taking every seat in turn; only the measured bot's decisions are timed
(each one: its view built and the bot asked; a whole turn, a take after a discard, or
a slap). Half of the time budget goes to each table size; every table plays at least
one whole game.
Prints one JSON line per bot.

    python bench/bots.py [--seconds S] [--bots random,greedy,heuristic,expert] [--levels]

``--levels`` adds the expert's other levels (``expert:fast``, ``expert:strong``).
"""

from __future__ import annotations

import argparse
import json
import math
import time

from yaniv.arena import make_arena_bot, percentile, play_measured
from yaniv.game import Game
from yaniv.match import bot_rngs

TABLES = (2, 4)


def measure(spec: str, players: int, seconds: float, seed: int) -> tuple[list[float], int]:
    """Decision times (ms) of *spec* against heuristic bots, and the games played."""
    times: list[float] = []
    games = 0
    start = time.perf_counter()
    while games == 0 or time.perf_counter() - start < seconds:
        seat = games % players
        bots = [make_arena_bot(spec if p == seat else "heuristic") for p in range(players)]
        game = Game("standard", players=players, seed=seed + games)
        record = play_measured(
            game, bots, bot_rngs(seed + games, players), timed=[p == seat for p in range(players)]
        )
        times.extend(record.seats[seat].decision_ms)
        games += 1
    return times, games


def summary(times: list[float]) -> dict[str, float]:
    values = sorted(times)
    total = sum(values)
    return {
        "decisions": len(values),
        "decisions_per_s": round(len(values) / (total / 1000.0), 1) if total else 0.0,
        "mean_ms": round(total / len(values), 4) if values else 0.0,
        "p50_ms": round(percentile(values, 50), 4),
        "p95_ms": round(percentile(values, 95), 4),
        "p99_ms": round(percentile(values, 99), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="time budget per bot (default 10)")
    parser.add_argument("--bots", default="random,greedy,heuristic,expert", help="bot specs to measure")
    parser.add_argument("--levels", action="store_true", help="also measure expert:fast and expert:strong")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    args = parser.parse_args()
    if not (math.isfinite(args.seconds) and 0 < args.seconds <= 86_400):
        parser.error(f"--seconds must be more than 0 and at most 86400, not {args.seconds}")
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    if args.levels:
        specs += [s for s in ("expert:fast", "expert:strong") if s not in specs]
    if not specs:
        parser.error("--bots: name at least one bot")
    for spec in specs:
        try:
            make_arena_bot(spec)  # a bad name fails before anything runs
        except ValueError as e:
            parser.error(f"--bots: {e}")
    for spec in specs:
        t0 = time.perf_counter()
        everything: list[float] = []
        by_players: dict[str, dict[str, float]] = {}
        games = 0
        for players in TABLES:
            times, played = measure(spec, players, args.seconds / len(TABLES), args.seed)
            everything += times
            games += played
            by_players[str(players)] = {"games": played, **summary(times)}
        line = {
            "bot": spec,
            "rules": "standard",
            "opponents": "heuristic",
            "games": games,
            **summary(everything),
            "by_players": by_players,
            "seconds": round(time.perf_counter() - t0, 2),
        }
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
