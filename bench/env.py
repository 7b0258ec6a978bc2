"""RL environment speed: steps per second with random masked actions (issue: >= 20,000/s single AEC).

One JSON line per configuration: ``env`` (``aec``: the PettingZoo environment, every
seat a random masked agent; ``gym``: the Gymnasium wrapper, one random learner against
``random`` bots, its steps only; ``gym-vector``: Gymnasium's synchronous vector env of
those, ``gym-vector-async``: Gymnasium's asynchronous one, a worker process per
environment), ``vectorized``, ``num_envs``, ``rules``, ``players``, ``steps``, ``seconds`` and
``steps_per_s``. A step is one ``last()``/``step()`` pair (AEC) or one ``step()`` call
(Gymnasium), so the observation and the mask are built every step.

``--split`` adds, for the AEC lines, where a step's time goes (``split_us``, microseconds
per step: the table's raw seat view, its submit (with the checks and pending decisions it
runs inside), the pending decisions asked after it, the observation encoding, the mask,
and the rest: the environment's own bookkeeping and the benchmark's random choice).

    python bench/env.py [--seconds 3] [--rules standard,finnish] [--players 2,4] [--split]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from yaniv import Rules
from yaniv.bots.encoding import ActionTable, ObservationEncoder
from yaniv.env import SingleAgentEnv, make_vector, raw_env
from yaniv.table import Table


def aec(rules: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    e = raw_env(rules=rules, players=players)
    pick = random.Random(seed).randrange
    e.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(1000):
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.reset()
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[pick(len(legal))]))
            steps += 1
        if time.perf_counter() > deadline:
            break
    elapsed = time.perf_counter() - start
    return {"env": "aec", "vectorized": False, "num_envs": 1, "steps": steps, "seconds": round(elapsed, 2)}


def gym(rules: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    e = SingleAgentEnv(rules=rules, players=players, opponents="random")
    pick = random.Random(seed).randrange
    _, info = e.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(500):
            legal = info["action_mask"].nonzero()[0]
            _, _, terminated, truncated, info = e.step(int(legal[pick(len(legal))]))
            steps += 1
            if terminated or truncated:
                _, info = e.reset()
    elapsed = time.perf_counter() - start
    return {"env": "gym", "vectorized": False, "num_envs": 1, "steps": steps, "seconds": round(elapsed, 2)}


def gym_vector(
    rules: str, players: int, seconds: float, seed: int, num_envs: int, asynchronous: bool
) -> dict[str, Any]:
    v = make_vector(num_envs, asynchronous=asynchronous, rules=rules, players=players, opponents="random")
    rng = np.random.default_rng(seed)
    _, infos = v.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            # an ended episode's last mask is empty: its action is ignored by the autoreset
            actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in infos["action_mask"]]
            _, _, _, _, infos = v.step(np.array(actions))
            steps += num_envs
    elapsed = time.perf_counter() - start
    v.close()
    return {
        "env": "gym-vector-async" if asynchronous else "gym-vector",
        "vectorized": True,
        "num_envs": num_envs,
        "steps": steps,
        "seconds": round(elapsed, 2),
    }


class Split:
    """Cumulative time spent in a few functions, by wrapping them for one measurement."""

    PARTS: ClassVar[dict[str, tuple[type, str]]] = {
        "view": (Table, "raw_view"),
        "submit": (Table, "submit"),
        "pending": (Table, "pending"),
        "encode": (ObservationEncoder, "encode"),
        "mask": (ActionTable, "mask_raw"),
    }

    def __init__(self) -> None:
        self.spent = dict.fromkeys(self.PARTS, 0.0)
        self.saved: dict[str, Callable[..., Any]] = {}
        self.inside: list[str] = []  # the parts being timed now (pending also runs inside submit)

    def __enter__(self) -> Split:
        for name, (cls, attr) in self.PARTS.items():
            original = getattr(cls, attr)
            self.saved[name] = original
            setattr(cls, attr, self._timed(name, original))
        return self

    def _timed(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        spent = self.spent
        clock = time.perf_counter
        inside = self.inside

        def timed(*args: Any, **kwargs: Any) -> Any:
            if inside:  # counted once, in the outer part
                return fn(*args, **kwargs)
            inside.append(name)
            t = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += clock() - t
                inside.pop()

        return timed

    def __exit__(self, *exc: object) -> None:
        for name, (cls, attr) in self.PARTS.items():
            setattr(cls, attr, self.saved[name])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rules", default="standard,finnish,slovenian-yanef,jdross")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--num-envs", type=int, default=4, help="environments of the vector lines")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--split", action="store_true", help="also measure where an AEC step's time goes")
    args = parser.parse_args()
    if not (math.isfinite(args.seconds) and 0 < args.seconds <= 86_400):
        parser.error(f"--seconds must be more than 0 and at most 86400, not {args.seconds}")
    if not 1 <= args.num_envs <= 256:
        parser.error(f"--num-envs must be 1 to 256, not {args.num_envs}")
    try:
        specs = {rules: Rules.from_spec(rules) for rules in args.rules.split(",")}
        counts = [int(p) for p in args.players.split(",")]
    except ValueError as e:  # a rule set or a player count that cannot be read
        parser.error(f"--rules {args.rules!r}, --players {args.players!r}: {e}")
    for rules, parsed in specs.items():
        for players in (p for p in counts if parsed.players_problem(p) is None):
            for measure in (aec, gym):
                line = measure(rules, players, args.seconds, args.seed)
                line |= {"rules": rules, "players": players}
                line["steps_per_s"] = round(line["steps"] / line["seconds"])
                print(json.dumps(line), flush=True)
            if args.split:
                with Split() as split:
                    line = aec(rules, players, args.seconds, args.seed)
                us = {k: round(v / line["steps"] * 1e6, 1) for k, v in split.spent.items()}
                us["rest"] = round(line["seconds"] / line["steps"] * 1e6 - sum(us.values()), 1)
                split_line = {"env": "aec", "rules": rules, "players": players, "split_us": us}
                print(json.dumps(split_line), flush=True)
        heads = max(2, parsed.min_players)
        for asynchronous in (False, True):
            line = gym_vector(rules, heads, args.seconds, args.seed, args.num_envs, asynchronous)
            line |= {"rules": rules, "players": heads, "steps_per_s": round(line["steps"] / line["seconds"])}
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
