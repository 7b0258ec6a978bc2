"""Fit the expert's reading of how loosely an opponent calls Yaniv: ``python tools/fit_reading.py``.

For each rule family (a preset: ``standard``, ``jdross``, ``finnish``) and number of
players, plays untimed games of the expert against heuristics (one expert, the other
seats heuristic, seat-rotated) and of expert self-play, with the expert's own reading
off (``READ_CALLS``, so the data does not depend on an earlier fit), and reads every
Yaniv call from the game's public events with :class:`yaniv.bots.reading.CallReader`:
the caller's Assaf risk by the model, over its score-aware factor. The heuristic's calls
are the "loose" kind, the expert's (in both kinds of game) the "tight" one. The table
is the log-likelihood ratio of the bins of :data:`~yaniv.bots.reading.CALL_EDGES`
(add-one smoothing); a held-out score (a third of the games) says how often a seat's
reading at the end of its game names its kind. The tables go to
``src/yaniv/bots/reading.json`` (merged: other entries stay), with that provenance, and
the expert reads them instead of its built-in table. None ships: session 26's fit
(``standard``, seed 80000) won 49.6% of 800 games against the frozen expert where the
built-in table won 53.25% (docs/bots.md §2): measure a fit at the table before keeping it.

    python tools/fit_reading.py [--families standard,jdross,finnish] [--players 2]
                                [--games 200] [--seed 80000] [--out PATH] [--json]

A development tool, not part of the installed package.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from yaniv.arena.run import make_arena_bot
from yaniv.bots import search
from yaniv.bots.heuristic import HeuristicBot
from yaniv.bots.model import model_for
from yaniv.bots.reading import CALL_EDGES, PRIOR_LOG_ODDS, READING, CallReader, bin_of
from yaniv.events import redact
from yaniv.game import Game
from yaniv.rules import PRESETS
from yaniv.table import Table, player_rngs

__all__ = ["collect", "fit_entry", "main"]

TURN_CAP = 2001
"""A round that runs this long stops the game (as in the arena)."""

Call = tuple[int, int, bool, float]
"""One Yaniv call read: the game (its index), the caller's seat, whether a heuristic made it,
its normalised risk."""


def _play(preset: str, kinds: list[str], seed: int) -> Game:
    """One untimed game of *kinds* (``expert`` or ``heuristic`` per seat)."""
    rules = PRESETS[preset]
    seats = [make_arena_bot(kind, untimed=True) for kind in kinds]
    for bot in seats:
        if isinstance(bot, search.ExpertBot):
            bot.reader = None
    game = Game(rules, players=len(kinds), seed=seed)
    Table(game, seats, rngs=player_rngs(seed, len(kinds)), turn_cap=TURN_CAP).run()
    return game


def collect(preset: str, players: int, games: int, seed: int) -> list[Call]:
    """The calls of *games* games against heuristics and *games* of expert self-play."""
    rules = PRESETS[preset]
    model = model_for(rules)
    calls: list[Call] = []
    for g in range(2 * games):
        if g < games:  # the expert at seat g mod players, heuristics elsewhere
            kinds = ["heuristic"] * players
            kinds[g % players] = "expert"
        else:
            kinds = ["expert"] * players
        game = _play(preset, kinds, seed + g)
        reader = CallReader()
        for event in game.events[1:]:
            reader.last_call = None
            reader.feed(redact(event, None), rules, model)
            if reader.last_call is not None:
                caller, normalised = reader.last_call
                calls.append((g, caller, kinds[caller] == "heuristic", normalised))
        print(f"\r{preset} {players}p: game {g + 1}/{2 * games}, {len(calls)} calls",
              end="", file=sys.stderr, flush=True)  # fmt: skip
    print(file=sys.stderr)
    return calls


def fit_table(calls: list[Call]) -> list[float]:
    """Per bin, log P(bin | heuristic) - log P(bin | expert), add-one smoothed."""
    bins = len(CALL_EDGES) + 1
    loose = [1.0] * bins
    tight = [1.0] * bins
    for _, _, heuristic, normalised in calls:
        (loose if heuristic else tight)[bin_of(normalised)] += 1.0
    n_loose, n_tight = sum(loose), sum(tight)
    return [round(math.log((a / n_loose) / (b / n_tight)), 3) for a, b in zip(loose, tight, strict=True)]


def held_out(calls: list[Call], table: list[float]) -> dict[str, float]:
    """How often a seat's log-odds at the end of its game name its kind (games g % 3 == 0)."""
    odds: dict[tuple[int, int], tuple[bool, float]] = {}
    for g, seat, heuristic, normalised in calls:
        if g % 3 == 0:
            _, lo = odds.get((g, seat), (heuristic, PRIOR_LOG_ODDS))
            odds[g, seat] = (heuristic, lo + table[bin_of(normalised)])
    right = {True: 0, False: 0}
    seats = {True: 0, False: 0}
    for heuristic, lo in odds.values():
        seats[heuristic] += 1
        right[heuristic] += (lo > 0) == heuristic
    return {
        "heuristic_read_loose": round(right[True] / max(seats[True], 1), 3),
        "expert_read_tight": round(right[False] / max(seats[False], 1), 3),
    }


def fit_entry(calls: list[Call], games: int, seed: int, preset: str) -> dict[str, Any]:
    """One family's entry at one player count: the table, its held-out reading, provenance."""
    heuristic = sum(1 for c in calls if c[2])
    if heuristic < 20 or len(calls) - heuristic < 20:
        expert = len(calls) - heuristic
        raise SystemExit(f"{preset}: {heuristic} heuristic and {expert} expert calls: play more games")
    train = [c for c in calls if c[0] % 3 != 0]
    return {
        "llr": fit_table(calls),
        "source": f"untimed, {preset}, {games} games of the expert against heuristics and {games} of "
        f"expert self-play, seed {seed}",
        "calls": {"heuristic": heuristic, "expert": len(calls) - heuristic},
        "held_out": held_out(calls, fit_table(train)),
    }


def main(argv: list[str] | None = None) -> int:
    """Collect, fit and write; print each entry's figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--families", default="standard,jdross,finnish", help="presets, comma-separated")
    parser.add_argument("--players", default="2", help="player counts, comma-separated (2-8)")
    parser.add_argument("--games", type=int, default=200, help="games of each kind per entry")
    parser.add_argument("--seed", type=int, default=80000)
    parser.add_argument("--out", type=Path, default=READING)
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
    if args.out.is_dir():
        parser.error(f"--out {str(args.out)!r} is a directory")
    data: dict[str, Any] = {"edges": list(CALL_EDGES), "families": {}}
    if args.out.is_file():
        try:
            old = json.loads(args.out.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            parser.error(f"--out {str(args.out)!r} is kept but cannot be read: {e}")
        if not isinstance(old, dict):
            parser.error(f"--out {str(args.out)!r} is kept but is not a JSON object")
        if old.get("edges") == list(CALL_EDGES) and isinstance(old.get("families"), dict):
            data = old
    assert HeuristicBot().w.risk == 0.3  # the loose kind the table names
    report: dict[str, Any] = {}
    for preset in presets:
        for n in counts:
            calls = collect(preset, n, args.games, args.seed)
            entry = fit_entry(calls, args.games, args.seed, preset)
            data["families"].setdefault(preset, {})[str(n)] = entry
            report[f"{preset}/{n}"] = entry
            if not args.json:
                print(f"{preset} {n}p: {json.dumps(entry)}")
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
