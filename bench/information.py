"""What the hidden cards cost the expert, and at which decisions.

Plays the same deals against three heuristic bots (4 players, standard rules) with the
expert in seat ``seed % 4`` made to see the true hands at chosen decisions only:

* ``expert``: the expert as shipped (the reference);
* ``oracle``: the search on the true deal at every decision;
* ``oracle-at-calls``: the true deal only where it may call Yaniv (hand low enough);
* ``oracle-elsewhere``: the true deal only where it may not call;
* ``safe-calls``: the expert, but it calls whenever a call would truly not be Assafed;
* ``no-assafs``: the expert, but a call that would be Assafed is replaced by its best
  other turn.

Prints one JSON line per mode: win rate with its 95% Wilson interval.

    python bench/information.py [--games 150] [--seed 50000] [--workers 2] [--modes expert,oracle,...]

docs/bots.md (the oracle) quotes its figures.
"""

from __future__ import annotations

import argparse
import json
import random
from concurrent.futures import ProcessPoolExecutor

from yaniv.actions import Action
from yaniv.arena import wilson_interval
from yaniv.bots.heuristic import HeuristicBot, Knowledge
from yaniv.bots.search import ExpertBot, OracleBot, determinize
from yaniv.game import Game
from yaniv.match import bot_rngs, play_game
from yaniv.state import RoundState

MODES = ("expert", "oracle", "oracle-at-calls", "oracle-elsewhere", "safe-calls", "no-assafs")
PLAYERS = 4


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


def play(task: tuple[str, int]) -> float:
    """The informed expert's share of the win in one game."""
    mode, seed = task
    seat = seed % PLAYERS
    bots = [HeuristicBot() if p != seat else Informed(mode) for p in range(PLAYERS)]
    stats = play_game(Game("standard", players=PLAYERS, seed=seed), bots, bot_rngs(seed, PLAYERS))
    return 1.0 / len(stats.winners) if seat in stats.winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=150, help="games per mode (default 150)")
    parser.add_argument("--seed", type=int, default=50000, help="seed of the first deal (default 50000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--modes", default=",".join(MODES), help="modes, comma-separated")
    args = parser.parse_args()
    modes = args.modes.split(",")
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        parser.error(f"unknown mode(s) {', '.join(unknown)}; modes are: {', '.join(MODES)}")
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    with ProcessPoolExecutor(args.workers) as pool:
        for mode in modes:
            tasks = [(mode, args.seed + i) for i in range(args.games)]
            wins = sum(pool.map(play, tasks, chunksize=4))
            lo, hi = wilson_interval(wins, args.games)
            line = {
                "mode": mode,
                "games": args.games,
                "seed": args.seed,
                "win_rate": round(wins / args.games, 4),
            }
            print(json.dumps(line | {"ci95": [round(lo, 4), round(hi, 4)]}), flush=True)


if __name__ == "__main__":
    main()
