"""How well the expert's determinizations read the opponents' hands where it may call.

Plays heuristic games (4 players, standard rules) and, at every turn start where the
seat to play may call Yaniv, samples ``--samples`` determinizations of its view (the
expert's :func:`~yaniv.bots.search.determinize`) and compares them with the true deal:

* the *Assaf event* (some opponent holds the caller's value or less; a tie Assafs under
  the standard rules): its predicted probability against what happened, as a Brier
  score, a log loss, the area under the ROC curve (how well the estimate sorts safe
  calls from unsafe ones) and a calibration table by predicted probability;
* the opponents' hand values, sampled mean against true mean, by cards held.

Prints one JSON object (``--table`` adds readable tables on stderr).

    python bench/belief.py [--games 40] [--seed 20000] [--samples 200] [--table]

docs/bots.md (the expert) quotes its figures.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import math
import random
import sys

from yaniv.bots.heuristic import HeuristicBot
from yaniv.bots.model import default_model, stage_of
from yaniv.bots.search import determinize
from yaniv.game import Game
from yaniv.match import bot_rngs

PLAYERS = 4
BUCKETS = (0.0, 0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.4, 0.6, 0.8, 1.0001)


def collect(games: int, seed: int, samples: int) -> tuple[list[tuple[float, bool]], dict[int, list[float]]]:
    """(predicted P(Assaf), happened) per decision; per cards held [sampled sum, true sum, count]."""
    model = default_model()
    decisions: list[tuple[float, bool]] = []
    hands: dict[int, list[float]] = {}
    for i in range(games):
        game = Game("standard", players=PLAYERS, seed=seed + i)
        bots = [HeuristicBot() for _ in range(PLAYERS)]
        rngs = bot_rngs(seed + i, PLAYERS)
        while not game.over and game.round.turns <= 2000:
            state = game.round
            if state.is_over:
                game.next_round()
                continue
            seat = state.current
            view = state.view(seat)
            if view.phase == "turn_start" and any(a.type == "yaniv" for a in view.legal):
                mine = state.hv[seat]
                others = [p for p in view.active if p != seat]
                stage = stage_of(view.turns, len(view.active))
                rng = random.Random(f"{seed + i}-{state.turns}")
                hits = 0
                for _ in range(samples):
                    sample = determinize(view, rng, model, stage)
                    hits += any(sample.hv[p] <= mine for p in others)
                    for p in others:
                        row = hands.setdefault(view.hand_counts[p], [0.0, 0.0, 0.0])
                        row[0] += sample.hv[p]
                        row[1] += state.hv[p]
                        row[2] += 1
                # Laplace-smoothed, so that a log loss stays finite
                decisions.append(((hits + 0.5) / (samples + 1), any(state.hv[p] <= mine for p in others)))
            action = bots[seat].act(view, rngs[seat])
            assert action is not None
            game.apply(seat, action)
    return decisions, hands


def area_under_roc(decisions: list[tuple[float, bool]]) -> float:
    """P(a decision that was Assafed got a higher estimate than one that was not; ties count half)."""
    negatives = sorted(p for p, hit in decisions if not hit)
    positives = [p for p, hit in decisions if hit]
    if not negatives or not positives:
        return float("nan")
    total = 0.0
    for p in positives:
        below = bisect.bisect_left(negatives, p)
        total += below + (bisect.bisect_right(negatives, p) - below) / 2
    return total / (len(positives) * len(negatives))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=40, help="heuristic games (default 40)")
    parser.add_argument("--seed", type=int, default=20000, help="seed of the first deal (default 20000)")
    parser.add_argument(
        "--samples", type=int, default=200, help="determinizations per decision (default 200)"
    )
    parser.add_argument("--table", action="store_true", help="also print readable tables on stderr")
    args = parser.parse_args()
    if args.games < 1 or args.samples < 1:
        parser.error("--games and --samples must be at least 1")
    decisions, hands = collect(args.games, args.seed, args.samples)
    if not decisions:
        parser.error("no decision where a call was allowed: play more games")
    n = len(decisions)
    calibration = []
    for lo, hi in itertools.pairwise(BUCKETS):
        cell = [(p, hit) for p, hit in decisions if lo <= p < hi]
        if cell:
            calibration.append(
                {
                    "from": lo,
                    "to": min(hi, 1.0),
                    "decisions": len(cell),
                    "predicted": round(sum(p for p, _ in cell) / len(cell), 4),
                    "true": round(sum(hit for _, hit in cell) / len(cell), 4),
                }
            )
    line = {
        "games": args.games,
        "seed": args.seed,
        "samples": args.samples,
        "decisions": n,
        "brier": round(sum((p - hit) ** 2 for p, hit in decisions) / n, 4),
        "log_loss": round(-sum(math.log(p if hit else 1 - p) for p, hit in decisions) / n, 4),
        "auc": round(area_under_roc(decisions), 4),
        "auc_below_0.4": round(area_under_roc([d for d in decisions if d[0] < 0.4]), 4),
        "predicted": round(sum(p for p, _ in decisions) / n, 4),
        "true": round(sum(hit for _, hit in decisions) / n, 4),
        "calibration": calibration,
        "hand_values": {
            str(cards): {"sampled": round(s / k, 2), "true": round(t / k, 2), "samples": int(k)}
            for cards, (s, t, k) in sorted(hands.items())
        },
    }
    print(json.dumps(line))
    if args.table:
        print("P(Assaf) predicted -> true", file=sys.stderr)
        for row in calibration:
            print(
                f"  [{row['from']:.2f}, {row['to']:.2f})  n={row['decisions']:5d}"
                f"  predicted {row['predicted']:.3f}  true {row['true']:.3f}",
                file=sys.stderr,
            )
        print("opponent hand value by cards held: sampled / true", file=sys.stderr)
        for cards, (s, t, k) in sorted(hands.items()):
            print(f"  {cards} cards: {s / k:6.2f} / {t / k:6.2f}", file=sys.stderr)


if __name__ == "__main__":
    main()
