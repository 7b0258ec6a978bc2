"""Calibrate the opponent model by simulation: ``python tools/calibrate.py`` (from the repository).

Plays heuristic self-play games (standard rules, 2–5 players) and, at the start of
every turn, records the value of every card each player holds that the others have
not seen him take, per stage of the round. The histogram becomes ``calibration.json``
(the model of :mod:`yaniv.bots.model`). Run it again after changing the heuristic.

It also records what a single discard tells about the hand it came from: after a
player threw one card worth ``m``, the values of the hidden cards he kept (not the
card he took in exchange); and the same after a discard of several cards whose
highest is worth ``m``. The expert samples its opponents' hands with them.

Last, the game-value model (:mod:`yaniv.bots.value`): from more self-play games (2-5
players), the totals of the players still in at the start of every round and who won
the game, fitted as Bradley-Terry strengths per band of the total.

A development tool, not part of the installed package: the games are played at a
:class:`yaniv.table.Table` like every other game, and it reads the whole state of the
round (every hidden hand) through ``table.round``, which no front end may do.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from yaniv.bots.heuristic import HeuristicBot
from yaniv.bots.model import MAX_CARD, STAGES, stage_of
from yaniv.bots.value import band_of, fit_strengths
from yaniv.cards import cards_of_mask
from yaniv.game import Game
from yaniv.match import play_table
from yaniv.rules import Rules
from yaniv.table import DecisionKind, Table, player_rngs

__all__ = ["calibrate", "calibrate_win_model", "main"]

CALIBRATION = Path(__file__).resolve().parent.parent / "src" / "yaniv" / "bots" / "calibration.json"
"""The file the bots read their models from (the default ``--out``)."""

TURN_CAP = 2001
"""A round that runs this long stops the game: the loop it replaces stopped after 2000 turns."""


def _player_counts(rules: str) -> tuple[int, ...]:
    """The table sizes the fits mix: 2 to 5 players, as far as the rules allow."""
    r = Rules.from_spec(rules)
    return tuple(n for n in (2, 3, 4, 5) if r.min_players <= n <= r.max_players)


def calibrate(
    games: int, seed: int = 1, rules: str = "standard"
) -> tuple[list[list[float]], list[list[float]], list[list[float]]]:
    """Hidden-card value histograms (Laplace-smoothed counts), from self-play on *rules*.

    Returns (per stage of the round, per value of the single card just thrown, per
    highest value of the several cards just thrown).
    """
    counts = [[1.0] * (MAX_CARD + 1) for _ in range(STAGES)]
    after_single = [[1.0] * (MAX_CARD + 1) for _ in range(MAX_CARD + 1)]
    after_group = [[1.0] * (MAX_CARD + 1) for _ in range(MAX_CARD + 1)]
    rng = random.Random(seed)
    counts_of_players = _player_counts(rules)
    for i in range(games):
        players = rng.choice(counts_of_players)
        game = Game(rules, players=players, seed=seed * 100_000 + i)
        bots = [HeuristicBot() for _ in range(players)]
        table = Table(
            game, bots, rngs=player_rngs(seed * 100_000 + i, players), turn_cap=TURN_CAP, auto_deal=False
        )
        # Step one decision at a time: the counts are taken at every turn start, before
        # the seat plays, so the deal (auto_deal off) and the slap window are seen here.
        while (decision := table.waiting_for()) is not None:
            if decision.kind == DecisionKind.NEXT_ROUND:
                table.next_round()
                continue
            state = table.round
            seat = decision.seat
            assert seat is not None
            values = state.rules.card_values
            before = state.hands[seat] if decision.kind == DecisionKind.TURN else None
            if before is not None:
                stage = stage_of(state.turns, len(state.active))
                for p in state.active:
                    for c in cards_of_mask(state.hands[p] & ~state.seen[p]):
                        counts[stage][values[c]] += 1
            move = table.step()
            if table.faults:
                raise RuntimeError(f"a bot failed: {table.faults[0]}")
            assert move is not None
            action = move.action
            if before is not None and action is not None and action.type == "turn" and not state.is_over:
                thrown = max(values[int(c)] for c in action.cards)
                hist = after_single if len(action.cards) == 1 else after_group
                kept = before & state.hands[seat] & ~state.seen[seat]
                for c in cards_of_mask(kept):
                    hist[thrown][values[c]] += 1
    return counts, after_single, after_group


def calibrate_win_model(games: int, seed: int = 1, rules: str = "standard") -> list[float]:
    """Win-model strengths fitted to heuristic self-play games (*rules*, 2-5 players).

    Every round start gives one observation: the bands of the totals of the players
    still in, and which of them went on to win the game.
    """
    rng = random.Random(seed)
    observations: list[tuple[list[int], list[float]]] = []
    counts_of_players = _player_counts(rules)
    for i in range(games):
        players = rng.choice(counts_of_players)
        game_seed = seed * 1_000_000 + 500_000 + i
        game = Game(rules, players=players, seed=game_seed)
        limit = game.rules.score_limit
        bots = [HeuristicBot() for _ in range(players)]
        play_table(Table(game, bots, rngs=player_rngs(game_seed, players), turn_cap=TURN_CAP))
        if not game.over:
            continue  # a round ran into the turn cap: no winner to learn from
        for result_index in range(len(game.results)):  # the start of every round
            totals = game.results[result_index - 1].totals if result_index else [0] * players
            out = {p for r in game.results[:result_index] for p in r.eliminated}
            active = [p for p in range(players) if p not in out]
            if result_index and game.results[result_index - 1].tiebreak:
                active = list(game.results[result_index - 1].tiebreak)  # only they play on
            winners = [p for p in game.winners if p in active]
            if len(active) >= 2 and winners:
                observations.append(
                    (
                        [band_of(totals[p], limit) for p in active],
                        [1.0 / len(winners) if p in winners else 0.0 for p in active],
                    )
                )
    return fit_strengths(observations)


def main() -> None:
    """Run the calibration and write calibration.json."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games for the hand tables")
    parser.add_argument("--value-games", type=int, default=3000, help="games for the win model")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--only",
        choices=("hands", "win"),
        help="refit only the hand tables or only the win model, keeping the rest of --out",
    )
    parser.add_argument("--out", default=str(CALIBRATION))
    args = parser.parse_args()
    if args.games < 1 or args.value_games < 1:
        parser.error("--games and --value-games must be at least 1")
    if Path(args.out).is_dir():
        parser.error(f"--out {args.out!r} is a directory")
    data: dict[str, object] = {}
    if args.only:
        try:
            data = json.loads(Path(args.out).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            parser.error(f"--only keeps the rest of {args.out}, which cannot be read: {e}")
    if args.only != "win":
        counts, after_single, after_group = calibrate(args.games, args.seed)
        data["source"] = f"heuristic self-play, standard rules, {args.games} games, seed {args.seed}"
        data["card_distribution"] = [[round(c / sum(row), 5) for c in row] for row in counts]
        data["after_single"] = [[round(c / sum(row), 5) for c in row] for row in after_single]
        data["after_group"] = [[round(c / sum(row), 5) for c in row] for row in after_group]
        data.pop("after_single_source", None)
    if args.only != "hands":
        strengths = calibrate_win_model(args.value_games, args.seed)
        data["win_strengths"] = [round(s, 5) for s in strengths]
        data["win_strengths_source"] = (
            f"heuristic self-play, standard rules, {args.value_games} games, seed {args.seed}"
        )
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
