"""What the hidden cards cost the expert, and at which decisions.

Plays the same deals against three heuristic bots (4 players, standard rules; or
``--players`` and ``--rules``, and with ``--frozen SRC`` against the frozen expert of
another checkout, issue 20) with the expert in seat ``seed % players`` made to see the
true hands at chosen decisions only:

* ``expert``: the expert as shipped (the reference);
* ``oracle``: the search on the true deal at every decision;
* ``oracle-at-calls``: the true deal only where it may call Yaniv (hand low enough);
* ``oracle-elsewhere``: the true deal only where it may not call;
* ``safe-calls``: the expert, but it calls whenever a call would truly not be Assafed;
* ``no-assafs``: the expert, but a call that would be Assafed is replaced by its best
  other turn.

Prints one JSON line per mode: win rate with its 95% Wilson interval, and the informed
seat's calls and how many of them were Assafed.

    python bench/information.py [--games 150] [--seed 50000] [--workers 2] [--modes expert,oracle,...]
                                [--players 4] [--rules standard] [--frozen /tmp/frozen/src] [--untimed]

docs/bots.md (the oracle) quotes its figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

from strength import frozen_spec
from yaniv.actions import Action
from yaniv.arena import wilson_interval
from yaniv.arena.run import make_arena_bot
from yaniv.bots.heuristic import Knowledge
from yaniv.bots.search import ExpertBot, OracleBot, determinize
from yaniv.game import Game
from yaniv.match import bot_rngs, play_game
from yaniv.rules import PRESETS
from yaniv.state import RoundState

MODES = ("expert", "oracle", "oracle-at-calls", "oracle-elsewhere", "safe-calls", "no-assafs")


class Informed(OracleBot):
    """The expert, told the true deal at the decisions its *mode* chooses."""

    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode

    def act_full(self, state: RoundState, seat: int, rng: random.Random) -> Action | None:
        view = state.view(seat)
        may_call = any(a.type == "yaniv" for a in view.legal)
        sees = (
            self.mode == "oracle"
            or (self.mode == "oracle-at-calls" and may_call)
            or (self.mode == "oracle-elsewhere" and not may_call)
        )
        if sees:
            return super().act_full(state, seat, rng)
        action = ExpertBot.act(self, view, rng)
        if not may_call or self.mode not in ("safe-calls", "no-assafs"):
            return action
        mine = state.hv[seat]
        safe = all(state.hv[p] > mine for p in state.active if p != seat)
        calls = action is not None and action.type == "yaniv"
        if self.mode == "safe-calls" and safe and not calls:
            return Action.yaniv()
        if self.mode == "no-assafs" and calls and not safe:
            know = Knowledge(view)
            others = [a for a in self.candidates(view, know, rng) if a.type != "yaniv"]
            if len(others) == 1:
                return others[0]
            return self.search(view, others, rng, lambda r: determinize(view, r, self.model, know.stage))
        return action


@dataclass(frozen=True)
class Task:
    """One game: the mode, its deal seed and the table."""

    mode: str
    seed: int
    players: int
    rules: str
    opponent: str
    """The other seats' bot spec (``heuristic``, or the frozen expert's ``cmd:``)."""
    untimed: bool


def play(task: Task) -> tuple[float, int, int]:
    """The informed expert's share of the win in one game, its calls and its Assafed calls."""
    seat = task.seed % task.players
    informed = Informed(task.mode)
    if task.untimed:
        informed.level = replace(informed.level, max_seconds=math.inf)
    bots = [
        informed if p == seat else make_arena_bot(task.opponent, untimed=task.untimed)
        for p in range(task.players)
    ]
    try:
        game = Game(PRESETS[task.rules], players=task.players, seed=task.seed)
        stats = play_game(game, bots, bot_rngs(task.seed, task.players))
    finally:
        for bot in bots:  # a frozen expert's program ends with its game
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    calls = assafed = 0
    for result in game.results:
        if result.kind == "yaniv" and result.caller == seat:
            calls += 1
            assafed += result.assaf
    return (1.0 / len(stats.winners) if seat in stats.winners else 0.0), calls, assafed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=150, help="games per mode (default 150)")
    parser.add_argument("--seed", type=int, default=50000, help="seed of the first deal (default 50000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--modes", default=",".join(MODES), help="modes, comma-separated")
    parser.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    parser.add_argument(
        "--rules", default="standard", choices=sorted(PRESETS), help="preset (default standard)"
    )
    parser.add_argument(
        "--frozen", metavar="SRC", help="the other seats are the frozen expert of this checkout's src"
    )
    parser.add_argument("--untimed", action="store_true", help="lift the experts' time limits")
    args = parser.parse_args()
    modes = args.modes.split(",")
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        parser.error(f"unknown mode(s) {', '.join(unknown)}; modes are: {', '.join(MODES)}")
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    problem = PRESETS[args.rules].players_problem(args.players)
    if problem:
        parser.error(f"--players: {problem}")
    opponent = frozen_spec(args.frozen, args.untimed) if args.frozen else "heuristic"
    with ProcessPoolExecutor(args.workers) as pool:
        for mode in modes:
            tasks = [
                Task(mode, args.seed + i, args.players, args.rules, opponent, args.untimed)
                for i in range(args.games)
            ]
            games = list(pool.map(play, tasks, chunksize=1 if args.frozen else 4))
            wins = sum(g[0] for g in games)
            lo, hi = wilson_interval(wins, args.games)
            line = {
                "mode": mode,
                "rules": args.rules,
                "players": args.players,
                "against": "frozen" if args.frozen else "heuristic",
                "games": args.games,
                "seed": args.seed,
                "win_rate": round(wins / args.games, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "calls": sum(g[1] for g in games),
                "assafed": sum(g[2] for g in games),
            }
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
