#!/usr/bin/env python3
"""Train sb3-contrib's MaskablePPO on ``yaniv.env`` against ``greedy``, then measure it (CPU only).

The second, optional RL example (the first, ``policy_gradient.py``, needs NumPy only):
a well-known library on the Gymnasium environment as it is. ``SingleAgentEnv`` already
offers ``action_masks()``, which is all MaskablePPO asks of an environment; the
observation is the environment's own vector, no features added. After training the
deterministic policy is seated as a bot (``yaniv.env.PolicyBot``) and plays ``--eval``
games against ``greedy``, seats alternating; the win rate is printed with its 95%
interval, and the model saved with ``--save`` (a zip; ``MaskablePPO.load`` reads it).

    pip install 'yaniv[sb3]'      # torch 2.13.0 (the CPU build) and sb3-contrib
    python examples/maskable_ppo.py [--steps 200000] [--eval 1000] [--save ppo_yaniv.zip]
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from yaniv import Game
from yaniv.arena.stats import wilson_interval
from yaniv.bots import make_bot
from yaniv.env import PolicyBot, SingleAgentEnv
from yaniv.match import play_game


def evaluate(model: MaskablePPO, rules: str, games: int, seed: int) -> tuple[int, int]:
    """Games won by the deterministic policy against greedy, seats alternating; (wins, games)."""

    def policy(obs: np.ndarray, mask: np.ndarray, rng: random.Random) -> int:
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    wins = 0
    for g in range(games):
        bots = [PolicyBot(policy), make_bot("greedy")]
        me = g % 2
        if me:
            bots.reverse()
        stats = play_game(Game(rules, players=2, seed=seed + g), bots)
        wins += me in stats.winners and len(stats.winners) == 1
    return wins, games


def main() -> None:
    """Train, evaluate, save."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--steps", type=int, default=200_000, help="learner steps to train for")
    parser.add_argument("--eval", type=int, default=1000, help="evaluation games against greedy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="write the trained model here (a zip)")
    args = parser.parse_args()
    torch.set_num_threads(1)  # one core: small networks gain nothing from more threads
    env = SingleAgentEnv(rules=args.rules, players=2, opponents="greedy", seat=None, reward="round")
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=2048, batch_size=256, verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    trained = time.perf_counter() - start
    if args.save:
        model.save(args.save)
    wins, games = evaluate(model, args.rules, args.eval, seed=10_000_000)
    low, high = wilson_interval(wins, games)
    out = {"against": "greedy", "steps": args.steps, "training_seconds": round(trained, 1), "wins": wins}
    out |= {"games": games, "win_rate": round(wins / games, 4), "low": round(low, 4), "high": round(high, 4)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
