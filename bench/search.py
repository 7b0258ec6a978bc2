"""The expert's search throughput: playouts per decision at a fixed time budget.

Collects turn-start positions of seeded heuristic games (standard rules, 2 and 4
players) and lets the default expert search each one for exactly its time budget (40
ms): its early stop is switched off, so every decision spends the whole budget and the
number of playouts it ran is the figure (more playouts at the same budget is a
stronger search). Prints one JSON line per player count: ``playouts_per_decision`` and ``playouts_per_s``.

``--compare`` measures the pure-Python and the compiled build (mypyc) in the same run,
each in its own process (the compiled one built as ``bench/engine.py --compare`` does),
and prints both figures and their ``ratio`` (compiled / pure).

    python bench/search.py [--positions N] [--players 2,4] [--budget SECONDS] [--compare]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import replace
from pathlib import Path

from yaniv import COMPILED, Game, Rules
from yaniv.bots import make_bot
from yaniv.bots import search as search_module
from yaniv.bots.base import bot_rngs
from yaniv.bots.search import ExpertBot
from yaniv.state import SeatView

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine import ROOT, build_compiled, run_in_build  # bench/engine.py builds the compiled copy


def positions(players: int, count: int, seed: int) -> list[SeatView]:
    """*count* turn-start views met in heuristic games with *players* players."""
    views: list[SeatView] = []
    game_seed = seed
    while len(views) < count:
        game = Game("standard", players=players, seed=game_seed)
        bots = [make_bot("heuristic") for _ in range(players)]
        rngs = bot_rngs(game_seed, players)
        game_seed += 1
        while not game.over and len(views) < count:
            state = game.round
            if state.is_over:
                game.next_round()
                continue
            seat = state.current
            view = state.view(seat)
            if view.phase == "turn_start" and len(view.legal) > 1:
                views.append(view)
            action = bots[seat].act(view, rngs[seat])
            assert action is not None
            game.apply(seat, action)
    return views


def measure(players: int, count: int, budget: float, seed: int) -> dict[str, object]:
    """Playouts of the default expert searching each position for *budget* seconds."""
    views = positions(players, count, seed)
    bot = ExpertBot("default")
    bot.level = replace(bot.level, determinizations=10**9, max_seconds=budget)
    search_module.MIN_DETERMINIZATIONS = 10**9  # no early stop: every search runs to the budget
    rng = random.Random(seed)
    searched = 0
    for view in views:
        before = bot.playouts
        bot.act(view, rng)
        searched += bot.playouts > before  # a position with one candidate is not searched
    return {
        "players": players,
        "build": "compiled" if COMPILED else "pure",
        "budget_ms": round(budget * 1000, 1),
        "decisions": searched,
        "playouts_per_decision": round(bot.playouts / searched, 1) if searched else 0.0,
        "playouts_per_s": round(bot.playouts / bot.search_seconds) if bot.search_seconds else 0,
    }


def run_build(src: Path, pure: bool, args: argparse.Namespace, players: int) -> dict[str, object]:
    """One player count measured in a new process on the build in *src*."""
    argv = ["--positions", str(args.positions), "--players", str(players)]
    argv += ["--budget", str(args.budget), "--seed", str(args.seed)]
    return run_in_build(__file__, src, pure, argv)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=150, help="positions per player count (default 150)")
    parser.add_argument("--players", default="2,4", help="player counts (default 2,4)")
    parser.add_argument("--budget", type=float, default=0.04, help="seconds per decision (default 0.04)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", action="store_true", help="pure and compiled build, side by side")
    args = parser.parse_args()
    if args.positions < 1 or not 0 < args.budget <= 10:
        parser.error("--positions must be at least 1 and --budget in (0, 10] seconds")
    try:
        counts = [int(p) for p in args.players.split(",")]
    except ValueError:
        parser.error(f"--players {args.players!r}: not comma-separated numbers")
    for players in counts:
        problem = Rules.from_spec("standard").players_problem(players)
        if problem:
            parser.error(f"--players {players}: {problem}")
    if not args.compare:
        for players in counts:
            print(json.dumps(measure(players, args.positions, args.budget, args.seed)), flush=True)
        return
    compiled_src = build_compiled()
    for players in counts:
        pure = run_build(ROOT / "src", True, args, players)
        fast = run_build(compiled_src, False, args, players)
        line: dict[str, object] = {"players": players, "budget_ms": pure["budget_ms"]}
        for key in ("playouts_per_decision", "playouts_per_s"):
            p, c = pure[key], fast[key]
            assert isinstance(p, (int, float)) and isinstance(c, (int, float))
            line[key] = {"pure": p, "compiled": c, "ratio": round(c / p, 2) if p else None}
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
