"""Calibrate the opponent model by simulation: ``python -m yaniv.bots.calibrate``.

Plays heuristic self-play games (standard rules, 2–5 players) and, at the start of
every turn, records the value of every card each player holds that the others have
not seen him take, per stage of the round. The histogram becomes ``calibration.json``
(the model of :mod:`yaniv.bots.model`). Run it again after changing the heuristic.

It also records what a single discard tells about the hand it came from: after a
player threw one card worth ``m``, the values of the hidden cards he kept (not the
card he took in exchange); and the same after a discard of several cards whose
highest is worth ``m``. The expert samples its opponents' hands with them.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from ..cards import cards_of_mask
from ..game import Game
from .base import bot_rngs
from .heuristic import HeuristicBot
from .model import MAX_CARD, STAGES, stage_of

__all__ = ["calibrate", "main"]


def calibrate(games: int, seed: int = 1) -> tuple[list[list[float]], list[list[float]], list[list[float]]]:
    """Hidden-card value histograms (Laplace-smoothed counts).

    Returns (per stage of the round, per value of the single card just thrown, per
    highest value of the several cards just thrown).
    """
    counts = [[1.0] * (MAX_CARD + 1) for _ in range(STAGES)]
    after_single = [[1.0] * (MAX_CARD + 1) for _ in range(MAX_CARD + 1)]
    after_group = [[1.0] * (MAX_CARD + 1) for _ in range(MAX_CARD + 1)]
    rng = random.Random(seed)
    for i in range(games):
        players = rng.choice((2, 3, 4, 5))
        game = Game("standard", players=players, seed=seed * 100_000 + i)
        bots = [HeuristicBot() for _ in range(players)]
        rngs = bot_rngs(seed * 100_000 + i, players)
        while not game.over:
            state = game.round
            if state.is_over:
                game.next_round()
                continue
            seat = state.current
            values = state.rules.card_values
            before = state.hands[seat] if state.phase_name == "turn_start" else None
            if before is not None:
                stage = stage_of(state.turns, len(state.active))
                for p in state.active:
                    for c in cards_of_mask(state.hands[p] & ~state.seen[p]):
                        counts[stage][values[c]] += 1
            action = bots[seat].act(state.view(seat), rngs[seat])
            assert action is not None
            game.apply(seat, action)
            if before is not None and action.type == "turn" and not state.is_over:
                thrown = max(values[int(c)] for c in action.cards)
                table = after_single if len(action.cards) == 1 else after_group
                kept = before & state.hands[seat] & ~state.seen[seat]
                for c in cards_of_mask(kept):
                    table[thrown][values[c]] += 1
            if state.turns > 2000:
                break
    return counts, after_single, after_group


def main() -> None:
    """Run the calibration and write calibration.json."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(Path(__file__).with_name("calibration.json")))
    args = parser.parse_args()
    counts, after_single, after_group = calibrate(args.games, args.seed)
    data = {
        "source": f"heuristic self-play, standard rules, {args.games} games, seed {args.seed}",
        "card_distribution": [[round(c / sum(row), 5) for c in row] for row in counts],
        "after_single": [[round(c / sum(row), 5) for c in row] for row in after_single],
        "after_group": [[round(c / sum(row), 5) for c in row] for row in after_group],
    }
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
