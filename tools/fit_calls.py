"""Fit the expert's playouts' Yaniv call on the expert's own calls: ``python tools/fit_calls.py``.

For each rule family (a preset: ``standard``, ``jdross``, ``finnish``) and number of
players, plays untimed expert self-play games with the playouts on the hand-set call
rule (``LEARNED_CALLS`` off, so the data does not depend on an earlier fit) and at
every turn start where a Yaniv call is allowed records the design row of
:func:`yaniv.bots.calls.call_features` and whether the expert called. A logistic
regression (NumPy, Newton steps, a small ridge) fitted on two thirds of the games is
scored on the other third against the hand-set rule (the model's Assaf risk at most
``playout_risk``, score-aware); the weights fitted on all the games go to
``src/yaniv/bots/calls.json`` (merged: other entries stay), with that provenance. The
expert's playouts read them (:func:`yaniv.bots.calls.call_weights_for`).

    python tools/fit_calls.py [--families standard,jdross,finnish] [--players 2]
                              [--games 300] [--seed 60000] [--out PATH] [--json]

A development tool, not part of the installed package: it reads the true round state
(``table.round``) of the games it plays, which no front end may do.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

from yaniv.arena.run import make_arena_bot
from yaniv.bots import search
from yaniv.bots.calls import CALL_FEATURES, call_features, call_logit
from yaniv.bots.model import model_for
from yaniv.bots.playout import playout_risk
from yaniv.bots.search import ExpertBot
from yaniv.game import Game
from yaniv.rules import PRESETS
from yaniv.table import DecisionKind, Table, player_rngs

__all__ = ["collect", "fit", "main"]

CALLS = Path(__file__).resolve().parent.parent / "src" / "yaniv" / "bots" / "calls.json"
"""The file the expert reads the rules from (the default ``--out``)."""

TURN_CAP = 2001
"""A round that runs this long stops the game (as in the arena)."""

RIDGE = 1e-3
"""The ridge on the weights: enough to keep Newton's steps finite on separable columns."""

Row = tuple[list[float], bool, int, float, float]
"""One turn start: the design row, whether the expert called, the game, the model's risk
and the hand-set rule's level there (the family's ``playout_risk`` score-aware)."""


def collect(preset: str, players: int, games: int, seed: int) -> list[Row]:
    """The expert's call decisions over *games* untimed self-play games (hand-set playout calls)."""
    rules = PRESETS[preset]
    model = model_for(rules)
    hand_set = playout_risk(rules, players)
    rows: list[Row] = []
    for g in range(games):
        seats = []
        for _ in range(players):
            bot = make_arena_bot("expert", untimed=True)
            assert isinstance(bot, ExpertBot)
            bot.learned_calls = False
            seats.append(bot)
        game = Game(rules, players=players, seed=seed + g)
        table = Table(game, seats, rngs=player_rngs(seed + g, players), turn_cap=TURN_CAP, auto_deal=False)
        while (d := table.waiting_for()) is not None:
            if d.kind == DecisionKind.NEXT_ROUND:
                table.next_round()
                continue
            row = None
            state = table.round
            if d.kind == DecisionKind.TURN and state.can_yaniv() and state.phase_name == "turn_start":
                row = call_features(state, model)
                # the raw risk and level, to score the hand-set rule on the same turn starts
                risk = 1.0 / (1.0 + math.exp(-row[1])) if row[11] == 0.0 else 0.0
                level = hand_set * math.exp(row[2])
            move = table.step()
            if row is not None and move is not None and move.action is not None:
                rows.append((row, move.action.type == "yaniv", g, risk, level))
        print(f"\r{preset} {players}p: game {g + 1}/{games}, {len(rows)} turn starts",
              end="", file=sys.stderr, flush=True)  # fmt: skip
    print(file=sys.stderr)
    return rows


def fit(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Logistic-regression weights of *y* on *x* (Newton steps with a small ridge)."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        hessian = x.T @ (x * (p * (1.0 - p))[:, None]) + RIDGE * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, x.T @ (p - y) + RIDGE * w)
        w -= step
        if float(np.abs(step).max()) < 1e-9:
            break
    return w


def fit_entry(rows: list[Row], games: int, seed: int, preset: str) -> dict[str, Any]:
    """One family's entry at one player count: weights, their held-out agreement, provenance."""
    if not rows or all(r[1] for r in rows) or not any(r[1] for r in rows):
        raise SystemExit(f"{preset}: {len(rows)} turn starts, not both calls and non-calls: play more games")
    x = np.array([r[0] for r in rows])
    y = np.array([float(r[1]) for r in rows])
    test = np.array([r[2] % 3 == 0 for r in rows])
    w = fit(x[~test], y[~test])
    learned = np.array([call_logit(list(w), r[0]) > 0.0 for r in rows])
    hand_set = np.array([r[3] <= r[4] for r in rows])
    held = y[test]
    w_all = fit(x, y)
    return {
        "weights": [round(float(v), 6) for v in w_all],
        "source": f"untimed expert self-play, {preset}, {games} games, seed {seed}",
        "turn_starts": len(rows),
        "calls": int(y.sum()),
        "held_out": {
            "turn_starts": int(test.sum()),
            "calls": int(held.sum()),
            "learned_agreement": round(float((learned[test] == held).mean()), 4),
            "learned_calls": int(learned[test].sum()),
            "hand_set_agreement": round(float((hand_set[test] == held).mean()), 4),
            "hand_set_calls": int(hand_set[test].sum()),
        },
    }


def main(argv: list[str] | None = None) -> int:
    """Collect, fit and write; print each entry's figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--families", default="standard,jdross,finnish", help="presets, comma-separated")
    parser.add_argument("--players", default="2", help="player counts, comma-separated (2-8)")
    parser.add_argument("--games", type=int, default=300, help="self-play games per entry")
    parser.add_argument("--seed", type=int, default=60000)
    parser.add_argument("--out", type=Path, default=CALLS)
    parser.add_argument("--json", action="store_true", help="print the entries as one JSON object")
    args = parser.parse_args(argv)
    presets = [p for p in args.families.split(",") if p]
    for p in presets:
        if p not in PRESETS:
            parser.error(f"--families: no preset {p!r} (known: {', '.join(sorted(PRESETS))})")
    try:
        counts = [int(n) for n in args.players.split(",") if n]
    except ValueError:
        parser.error(f"--players {args.players!r}: not comma-separated numbers")
    if not counts or any(not 2 <= n <= 8 for n in counts):
        parser.error("--players: counts of 2 to 8")
    if args.games < 3:
        parser.error("--games: at least 3 (a third is held out)")
    data: dict[str, Any] = {"features": list(CALL_FEATURES), "families": {}}
    if args.out.is_dir():
        parser.error(f"--out {str(args.out)!r} is a directory")
    if args.out.is_file():
        try:
            old = json.loads(args.out.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            parser.error(f"--out {str(args.out)!r} is kept but cannot be read: {e}")
        if not isinstance(old, dict):
            parser.error(f"--out {str(args.out)!r} is kept but is not a JSON object")
        features, families = old.get("features"), old.get("families")
        if isinstance(features, list) and tuple(features) == CALL_FEATURES and isinstance(families, dict):
            data = old
    search.LEARNED_CALLS = False  # belt and braces: every expert made here calls hand-set
    report: dict[str, Any] = {}
    for preset in presets:
        for n in counts:
            rows = collect(preset, n, args.games, args.seed)
            entry = fit_entry(rows, args.games, args.seed, preset)
            data["families"].setdefault(preset, {})[str(n)] = entry
            report[f"{preset}/{n}"] = {k: v for k, v in entry.items() if k != "weights"}
            if not args.json:
                print(f"{preset} {n}p: {json.dumps(report[f'{preset}/{n}'])}")
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
