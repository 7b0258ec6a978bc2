"""``yaniv simulate`` (many games between bots, summarised) and ``yaniv arena`` (measured matches)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from ..bots import Bot
from ..errors import RecordError
from ..game import Game
from ..match import bot_rngs, play_game
from ..record import RecordWriter
from ..rules import Rules
from ..session import make_opponent
from .common import Progress, UsageError, bot_names, cycled, player_count, rules_arg

__all__ = ["cmd_arena", "cmd_simulate"]


def _seat_bots(specs: list[str]) -> list[Bot]:
    """One new bot per seat (an external program starts here)."""
    try:
        return [make_opponent(spec) for spec in specs]
    except ValueError as e:
        raise UsageError(f"--bots: {e}") from None


def _close(bots: list[Bot]) -> None:
    for bot in bots:
        close = getattr(bot, "close", None)
        if close is not None:  # an external program
            close()


def _record_paths(directory: str | None, seeds: range) -> list[Path] | None:
    """The record file of every game, none of them existing yet (records are never overwritten)."""
    if directory is None:
        return None
    root = Path(directory)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--record: cannot make the directory {root}: {e.strerror or e}") from None
    paths = [root / f"game-{seed}.jsonl" for seed in seeds]
    existing = next((p for p in paths if p.exists()), None)
    if existing is not None:
        raise UsageError(
            f"--record: {existing} exists: a record is never overwritten; record into another directory"
        )
    return paths


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    """Play many games between built-in bots and summarise them."""
    rules = rules_arg(args.rules)
    players = player_count(rules, args.players, min(max(rules.min_players, 3), rules.max_players))
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.turn_cap < 1:
        raise UsageError("--turn-cap must be at least 1")
    specs = cycled(bot_names("--bots", args.bots), players)
    seeds = range(args.seed, args.seed + args.games)
    records = _record_paths(args.record, seeds)
    bots = _seat_bots(specs)
    try:
        summary = _simulate(args, rules, bots, seeds, records)
    finally:
        _close(bots)
    if args.json:
        out.write(json.dumps(summary) + "\n")
        return 0
    s = summary
    out.write(f"{s['games']} games of {rules}, {players} players ({', '.join(s['bots'])})\n")
    out.write(f"  rounds {s['rounds']} ({s['rounds_per_game']} per game)\n")
    out.write(f"  turns {s['turns']} ({s['turns_per_game']} per game)\n")
    out.write(f"  Yaniv calls {s['calls']}, Assafed {s['assafs']} ({s['assaf_rate']:.1%})\n")
    out.write(f"  reshuffles {s['reshuffles']}, capped games {s['capped']}\n")
    seats = ", ".join(f"P{p} ({bots[p].name}) {w:g}" for p, w in enumerate(s["wins_by_seat"]))
    out.write(f"  wins by seat: {seats}\n")
    out.write(f"  {s['seconds']:.2f} s\n")
    return 0


def _simulate(
    args: argparse.Namespace, rules: Rules, bots: list[Bot], seeds: range, records: list[Path] | None
) -> dict[str, Any]:
    """Play the games (each on the table driver, through :func:`yaniv.match.play_game`)."""
    players = len(bots)
    totals: dict[str, Any] = {"games": 0, "rounds": 0, "turns": 0, "calls": 0, "assafs": 0}
    totals |= {"reshuffles": 0, "capped": 0}
    wins = [0.0] * players
    progress = Progress(len(seeds), sys.stderr, "simulating")
    t0 = time.perf_counter()
    for i, seed in enumerate(seeds):
        game = Game(rules, players=players, seed=seed, dealer=i % players)
        try:
            if records is not None:
                game.subscribe(RecordWriter.create(records[i]), replay=True)
            stats = play_game(game, bots, bot_rngs(seed, players), turn_cap=args.turn_cap)
        except RecordError as e:
            raise UsageError(f"--record: {e}") from None
        except RuntimeError as e:  # a bot failed (an external program); the table says which
            raise UsageError(f"--bots: {e}") from None
        finally:
            game.close()
        totals["games"] += 1
        for key in ("rounds", "turns", "calls", "assafs", "reshuffles"):
            totals[key] += getattr(stats, key)
        totals["capped"] += stats.capped
        for w in stats.winners:
            wins[w] += 1 / len(stats.winners)
        progress.update(i + 1)
    progress.close()
    elapsed = time.perf_counter() - t0
    games = totals["games"]
    return {
        "rules": str(rules),
        "players": players,
        "bots": [b.name for b in bots],
        "seed": args.seed,
        **totals,
        "assaf_rate": round(totals["assafs"] / totals["calls"], 4) if totals["calls"] else 0.0,
        "rounds_per_game": round(totals["rounds"] / games, 2),
        "turns_per_game": round(totals["turns"] / games, 2),
        "wins_by_seat": [round(w, 2) for w in wins],
        "seconds": round(elapsed, 3),
    }


def cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    """Seat-rotated matches between bots on duplicate deals: statistics, Elo, plots."""
    from ..arena import plot, run_arena

    rules = rules_arg(args.rules)
    names = bot_names("--bots", args.bots)
    players = player_count(rules, args.players, max(len(names), rules.min_players))
    if len(names) > players:
        raise UsageError(f"--bots: {len(names)} bots do not fit in {players} seats")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.turn_cap < 1:
        raise UsageError("--turn-cap must be at least 1")
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        raise UsageError("--plot needs matplotlib: pip install 'yaniv[plots]'")
    games = -(-args.games // players) * players
    progress = Progress(games, sys.stderr, "arena")
    try:
        report = run_arena(
            rules,
            names,
            args.games,
            args.seed,
            players=players,
            workers=args.workers,
            turn_cap=args.turn_cap,
            untimed=args.untimed,
            progress=progress.update,
        )
    except ValueError as e:  # run_arena's own check of its arguments (a bot that cannot start)
        raise UsageError(str(e)) from None
    finally:
        progress.close()
    if args.plot:
        plot(report, args.plot)
    if args.json == "-":
        out.write(json.dumps(report.to_dict()) + "\n")
        return 0
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(report.to_dict(), indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            raise UsageError(f"--json: cannot write {args.json}: {e.strerror}") from None
    out.write(report.table() + "\n")
    for path in (args.json, args.plot):
        if path:
            out.write(f"wrote {path}\n")
    return 0
