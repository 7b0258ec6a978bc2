"""Engine speed: seeded random games with the standard rules (issue: >= 150,000 turns/s).

Policy: call Yaniv whenever allowed; otherwise a discard uniformly among the legal
discards, then the stock or the pile with equal chance, a takeable card uniformly.
A turn is one discard+take or one call. Prints one JSON line per player count.

    python bench/engine.py [--seconds S] [--players 2,4] [--rules SPEC]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from yaniv import Game, Rules


def play_rounds(rules: Rules, players: int, seconds: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    game_seed = seed
    turns = rounds = legal_calls = 0
    elapsed = 0.0
    while elapsed < seconds:
        t0 = time.perf_counter()
        game = Game(rules, players=players, seed=game_seed)
        game_seed += 1
        while True:
            state = game.round
            state.log = None  # the benchmark measures the engine, not event logging
            choice = rng.choice
            rand = rng.random
            while True:
                if state.can_yaniv():
                    state.fast_yaniv()
                    turns += 1
                    break
                discards = state.discards()
                legal_calls += 1
                state.fast_discard(choice(discards))
                takeable = state.takeable_cards()
                if takeable and (rand() < 0.5 or not state.stock):
                    state.fast_take(choice(takeable))
                else:
                    state.fast_draw()
                turns += 1
            rounds += 1
            game._end_round(state.result)  # type: ignore[arg-type]
            if game.over:
                break
            game.next_round()
        elapsed += time.perf_counter() - t0
    return {"turns": turns, "rounds": rounds, "legal": legal_calls, "seconds": elapsed}


def legal_rate(rules: Rules, players: int, seconds: float, seed: int) -> float:
    """legal_actions_per_s: full legal discard generation on positions met in play."""
    game = Game(rules, players=players, seed=seed)
    states = []
    rng = random.Random(seed)
    state = game.round
    state.log = None
    while len(states) < 2000:
        if state.is_over or state.can_yaniv():
            game = Game(rules, players=players, seed=rng.randrange(1 << 30))
            state = game.round
            state.log = None
            continue
        states.append(state.copy())
        state.fast_discard(rng.choice(state.discards()))
        state.fast_draw()
    count = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for s in states:
            s.discards()
        count += len(states)
    return count / (time.perf_counter() - t0)


def legal_action_objects_rate(rules: Rules, players: int, seconds: float, seed: int) -> float:
    """The checked API: state.legal_actions() as Action values, per second."""
    game = Game(rules, players=players, seed=seed)
    count = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(1000):
            game.round.legal_actions()
        count += 1000
    return count / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="time per setting (default 5)")
    parser.add_argument("--players", default="2,4", help="player counts (default 2,4)")
    parser.add_argument("--rules", default="standard", help="rule set (default standard)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules.from_spec(args.rules)
    for players in (int(p) for p in args.players.split(",")):
        r = play_rounds(rules, players, args.seconds, args.seed)
        print(
            json.dumps(
                {
                    "rules": str(rules),
                    "players": players,
                    "turns_per_s": round(r["turns"] / r["seconds"]),
                    "rounds_per_s": round(r["rounds"] / r["seconds"], 1),
                    "legal_actions_per_s": round(legal_rate(rules, players, args.seconds / 2, args.seed)),
                    "legal_action_objects_per_s": round(
                        legal_action_objects_rate(rules, players, args.seconds / 4, args.seed)
                    ),
                    "turns": r["turns"],
                    "rounds": r["rounds"],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
