#!/usr/bin/env python3
"""Learn to beat the greedy bot heads-up with a NumPy policy gradient (no torch, one core).

The policy is a masked linear softmax over the legal actions of ``yaniv.env``: each
legal action gets a small feature vector computed from the observation and the
environment's action table (points a discard sheds, what stays in the hand, pairs and
runs kept, the card it leaves the opponent to take; the value of a card to take and
whether it pairs; the hand value and the opponent's cards when Yaniv may be called),
and ``pi(a) ~ exp(theta . phi(a))``. It is trained with REINFORCE against ``greedy``
(Gymnasium wrapper, seat drawn at random each game): every decision of a round is
credited with that round's reward (minus the learner's change of total, the
environment's ``reward="round"``), less a running baseline, with Adam steps.

Then the greedy (argmax) policy is seated as a bot (``yaniv.env.PolicyBot``) and plays
``--eval`` games against ``greedy`` with ``yaniv.match.play_game``, seats alternating,
and the win rate is printed with its 95% interval. A learning curve goes to ``--plot``.
``--save FILE.json`` keeps the weights; ``examples/linear_policy.py`` seats them in the
arena as the bot spec ``policy:examples/linear_policy.py`` (it reads
``examples/linear_policy.json``, or the file ``$YANIV_LINEAR_POLICY`` names).

    python examples/policy_gradient.py [--games 2000] [--eval 1000] [--plot docs/rl-learning-curve.png]
        [--save examples/linear_policy.json]

Needs the ``rl`` extra (numpy, gymnasium, pettingzoo) and matplotlib for the plot.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np

from yaniv import Game
from yaniv.arena.stats import wilson_interval
from yaniv.bots import make_bot
from yaniv.bots.policy import Policy
from yaniv.env import ActionTable, ObservationEncoder, PolicyBot, SingleAgentEnv
from yaniv.match import play_game

FEATURES = [
    # discards (a common bias cancels: every feature is relative to the other discards)
    "discard.shed",  # points thrown / 10
    "discard.cards",  # cards thrown / 5
    "discard.pairs_kept",  # ranks held twice or more afterwards
    "discard.links_kept",  # same-suit neighbours (or one apart) kept, towards runs
    "discard.gives_low",  # the cheapest card it leaves the next player to take / 10
    "discard.joker",  # jokers thrown
    "discard.callable",  # what stays is at most the Yaniv threshold
    # Yaniv, against the best discard
    "yaniv.bias",
    "yaniv.value",  # own hand value / 7
    "yaniv.opp_one",  # an opponent holds one card
    "yaniv.opp_two",  # an opponent holds two cards
    "yaniv.opp_seen",  # points of opponents' cards seen taken / 10
    # takes, against drawing
    "take.bias",
    "take.value",  # value of the card / 10
    "take.pairs",  # it matches a rank in the hand
    "take.links",  # it lies next to (or one apart from) a same-suit card in the hand
    "take.joker",
    # the slap window (S20) and the other rules' extras, against passing / drawing
    "slap.bias",
    "swap.bias",
    "asef.bias",
]
F = len(FEATURES)
_AT = {name: i for i, name in enumerate(FEATURES)}


class Featurizer:
    """phi(obs, a) for the legal actions of one rule set and player count, vectorised."""

    def __init__(self, actions: ActionTable, encoder: ObservationEncoder) -> None:
        rules = actions.rules
        self.actions = actions
        self.hand = encoder.slices["hand"]
        self.opponents = [encoder.slices[f"opponent{i}.seen"] for i in range(1, encoder.players)]
        self.opp_counts = [encoder.slices[f"opponent{i}.scalars"].start for i in range(1, encoder.players)]
        self.hand_size = rules.hand_size
        self.threshold = rules.threshold
        self.v = np.array(rules.card_values[:53], dtype=np.float64)
        counts = actions.discard_counts.astype(np.float64)
        self.counts = counts
        self.shed = counts @ self.v
        self.ncards = counts.sum(1)
        ends = actions.discard_ends
        self.gives_low = np.minimum(self.v[ends[:, 0]], self.v[ends[:, 1]])
        self.nd = len(actions.discards)

    def __call__(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The feature matrix: one row per legal action index in *legal*."""
        a = self.actions
        phi = np.zeros((len(legal), F))
        h = obs[self.hand].astype(np.float64)
        hv = float(h @ self.v)
        is_d = legal < self.nd
        if is_d.any():
            d = legal[is_d]
            rest = h[None, :] - self.counts[d]
            nat = rest[:, :52].reshape(-1, 4, 13)
            ranks = nat.sum(1)
            held = nat > 0
            links = (held[:, :, :-1] & held[:, :, 1:]).sum((1, 2))
            links += (held[:, :, :-2] & held[:, :, 2:]).sum((1, 2))
            rows = np.flatnonzero(is_d)
            phi[rows, _AT["discard.shed"]] = self.shed[d] / 10
            phi[rows, _AT["discard.cards"]] = self.ncards[d] / 5
            phi[rows, _AT["discard.pairs_kept"]] = (ranks >= 2).sum(1)
            phi[rows, _AT["discard.links_kept"]] = links
            phi[rows, _AT["discard.gives_low"]] = self.gives_low[d] / 10
            phi[rows, _AT["discard.joker"]] = self.counts[d, 52]
            phi[rows, _AT["discard.callable"]] = (hv - self.shed[d]) <= self.threshold
        for row, i in enumerate(legal):
            if i < self.nd:
                continue
            if i == a.yaniv:
                opp = [obs[at] * self.hand_size for at in self.opp_counts]
                seen = sum(float(obs[s] @ self.v) for s in self.opponents)
                phi[row, _AT["yaniv.bias"]] = 1
                phi[row, _AT["yaniv.value"]] = hv / 7
                phi[row, _AT["yaniv.opp_one"]] = any(round(c) == 1 for c in opp)
                phi[row, _AT["yaniv.opp_two"]] = any(round(c) == 2 for c in opp)
                phi[row, _AT["yaniv.opp_seen"]] = seen / 10
            elif a.take <= i < a.take + 53:
                k = i - a.take
                phi[row, _AT["take.bias"]] = 1
                phi[row, _AT["take.value"]] = self.v[k] / 10
                if k == 52:
                    phi[row, _AT["take.joker"]] = 1
                else:
                    suit, rank = divmod(k, 13)
                    phi[row, _AT["take.pairs"]] = h[rank:52:13].sum() > 0
                    near = [suit * 13 + r for r in (rank - 2, rank - 1, rank + 1, rank + 2) if 0 <= r < 13]
                    phi[row, _AT["take.links"]] = h[near].sum() > 0
            elif i == a.slap:
                phi[row, _AT["slap.bias"]] = 1
            elif a.swap is not None and a.swap <= i < a.swap + 52:
                phi[row, _AT["swap.bias"]] = 1
            elif i == a.asef:
                phi[row, _AT["asef.bias"]] = 1
        return phi


def softmax(x: np.ndarray) -> np.ndarray:
    """Probabilities from logits."""
    e = np.exp(x - x.max())
    return e / e.sum()


class Adam:
    """The Adam optimiser, for gradient ascent on the weights."""

    def __init__(self, size: int, lr: float) -> None:
        self.m = np.zeros(size)
        self.v = np.zeros(size)
        self.t = 0
        self.lr = lr

    def step(self, grad: np.ndarray) -> np.ndarray:
        """The ascent step for *grad*."""
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        m = self.m / (1 - 0.9**self.t)
        v = self.v / (1 - 0.999**self.t)
        return self.lr * m / (np.sqrt(v) + 1e-8)


def train(
    rules: str, n_games: int, seed: int, lr: float, probe: int, every: int
) -> tuple[np.ndarray, list[dict[str, float]]]:
    """REINFORCE against greedy for *n_games* games; the weights and the learning curve.

    Before training and every *every* training games the argmax policy plays *probe*
    games against greedy (the same seeds each time; not counted in the training time).
    """
    env = SingleAgentEnv(rules=rules, players=2, opponents="greedy", seat=None, reward="round")
    feat = Featurizer(env.actions, env.encoder)
    rng = np.random.default_rng(seed)
    theta = np.zeros(F)
    adam = Adam(F, lr)
    baseline, games, wins = 0.0, 0, 0
    curve: list[dict[str, float]] = []
    window: list[int] = []
    trained = 0.0  # seconds spent training (the probes excluded)
    obs, info = env.reset(seed=seed)
    while True:
        if games % every == 0:
            recent = window[-every:]
            probe_wins, _ = evaluate(theta, rules, probe, seed=20_000_000)
            curve.append(
                {
                    "games": games,
                    "seconds": round(trained, 1),
                    "training_win_rate": sum(recent) / len(recent) if recent else 0.0,
                    "argmax_win_rate": probe_wins / probe,
                }
            )
            print(json.dumps(curve[-1]), flush=True)
        if games >= n_games:
            break
        start = time.perf_counter()
        grads: list[tuple[int, np.ndarray]] = []  # (round, grad log pi) of this game's decisions
        round_reward: dict[int, float] = {}
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            phi = feat(obs, legal)
            p = softmax(phi @ theta)
            j = int(rng.choice(len(legal), p=p))
            round_no = env.table.game.round_no
            grads.append((round_no, phi[j] - p @ phi))
            obs, reward, terminated, truncated, info = env.step(int(legal[j]))
            round_reward[round_no] = round_reward.get(round_no, 0.0) + reward / 30
            done = terminated or truncated
        grad = np.zeros(F)
        for round_no, g in grads:
            ret = round_reward[round_no]
            grad += (ret - baseline) * g
            baseline += 0.001 * (ret - baseline)
        theta += adam.step(grad / max(len(grads), 1))
        game = env.table.game
        won = int(game.over and env.learner in game.winners)
        games += 1
        wins += won
        window.append(won)
        obs, info = env.reset()
        trained += time.perf_counter() - start
    return theta, curve


def argmax_policy(theta: np.ndarray, actions: ActionTable, encoder: ObservationEncoder) -> Policy:
    """The trained policy played greedily: the legal action of the highest score."""
    feat = Featurizer(actions, encoder)

    def policy(obs: np.ndarray, mask: np.ndarray, rng: random.Random) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[int(np.argmax(feat(obs, legal) @ theta))])

    return policy


def evaluate(theta: np.ndarray, rules: str, games: int, seed: int) -> tuple[int, int]:
    """Games won by the argmax policy against greedy, seats alternating; (wins, games)."""
    env = SingleAgentEnv(rules=rules, players=2)
    policy = argmax_policy(theta, env.actions, env.encoder)
    wins = 0
    for g in range(games):
        bots = [PolicyBot(policy), make_bot("greedy")]
        me = g % 2
        if me:
            bots.reverse()
        stats = play_game(Game(rules, players=2, seed=seed + g), bots)
        wins += me in stats.winners and len(stats.winners) == 1
    return wins, games


def plot(curve: list[dict[str, float]], result: dict[str, float], path: Path) -> None:
    """The learning curve and the final result as a PNG (matplotlib, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=110)
    x = [c["games"] for c in curve]
    trained = [c for c in curve if c["games"] > 0]
    training = [100 * c["training_win_rate"] for c in trained]
    ax.plot([c["games"] for c in trained], training, label="training games (sampling)", alpha=0.6)
    probes = [100 * c["argmax_win_rate"] for c in curve]
    ax.plot(x, probes, marker=".", label="argmax policy, probe games")
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    final = f"final argmax policy, {result['games']:,} games"
    ax.axhline(100 * result["win_rate"], color="tab:green", lw=1.2, label=final)
    ax.axhspan(100 * result["low"], 100 * result["high"], color="tab:green", alpha=0.15)
    ax.set_xlabel("training games against greedy")
    ax.set_ylabel("games won against greedy (%)")
    ax.set_title("NumPy policy gradient vs greedy, heads-up (standard rules)")
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)


def main() -> None:
    """Train, evaluate, plot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--games", type=int, default=2000, help="training games")
    parser.add_argument("--eval", type=int, default=1000, help="evaluation games against greedy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--probe", type=int, default=200, help="games per learning-curve point")
    parser.add_argument("--every", type=int, default=250, help="training games between curve points")
    parser.add_argument("--plot", type=Path, help="write the learning curve here (PNG)")
    parser.add_argument("--save", type=Path, help="write the weights and results here (JSON)")
    args = parser.parse_args()
    theta, curve = train(args.rules, args.games, args.seed, args.lr, args.probe, args.every)
    print("weights:", json.dumps(dict(zip(FEATURES, np.round(theta, 3).tolist(), strict=True))))
    wins, games = evaluate(theta, args.rules, args.eval, seed=10_000_000)
    low, high = wilson_interval(wins, games)
    result = {"wins": wins, "games": games, "win_rate": wins / games, "low": low, "high": high}
    result["training_seconds"] = curve[-1]["seconds"]
    print(json.dumps({"against": "greedy", **{k: round(v, 4) for k, v in result.items()}}))
    if args.plot:
        plot(curve, result, args.plot)
    if args.save:
        out = {"features": FEATURES, "theta": theta.tolist(), "curve": curve, "result": result}
        args.save.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
