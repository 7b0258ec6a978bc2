"""Bot strength: the ladder's goals measured with seat-rotated arena matches.

Matches (each on every preset asked for):

* ``heuristic-vs-greedy``: heuristic against greedy, heads-up;
* ``expert-vs-heuristic``: expert (default level) against heuristic, heads-up;
* ``expert-vs-3-heuristic``: expert against three heuristic bots, 4 players
  (an even share is 25%); ``expert-vs-2-heuristic``: against two, 3 players (33%);
* ``expert-vs-frozen``: expert against the frozen expert of another checkout (issue 20:
  commit ca9ed9c), heads-up; ``expert-vs-3-frozen``: against three of them. The frozen
  bot runs from ``--frozen SRC`` (that checkout's ``src`` directory) through the bot
  protocol (``bench/frozen_bot.py``); these matches need ``--frozen``;
* ``expert-self-play`` and ``expert-self-play-4``: the expert against itself, heads-up
  and at four players (issue 20's stall check: the line's ``capped`` counts the games
  stopped by a round that reached the turn cap; its win rate is 50% by construction).

Prints one JSON line per match: the first bot's win rate with its 95% Wilson
interval, the even share, both bots' Elo and mean final totals. ``--games`` is the
number of games per match (rounded up to whole rotation sets).

    python bench/strength.py [--games 2000] [--workers 2] [--presets standard,jdross,finnish]
                             [--matches expert-vs-frozen,...] [--frozen /tmp/frozen/src]
                             [--markdown FILE]      # also write the results table (Markdown)
    python bench/strength.py --from FILE.jsonl      # only render the table of saved lines

``docs/bots.md`` gives the one command that regenerates its results table.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from yaniv.arena import BotStats, Report, run_arena
from yaniv.cli.common import Progress
from yaniv.rules import PRESETS

FROZEN = "frozen"
"""The line-up name of the frozen expert; ``--frozen SRC`` turns it into its ``cmd:`` spec."""

MATCHES: dict[str, tuple[tuple[str, ...], int]] = {
    "heuristic-vs-greedy": (("heuristic", "greedy"), 2),
    "expert-vs-heuristic": (("expert", "heuristic"), 2),
    "expert-vs-2-heuristic": (("expert", "heuristic"), 3),
    "expert-vs-3-heuristic": (("expert", "heuristic"), 4),
    "expert-vs-frozen": (("expert", FROZEN), 2),
    "expert-vs-3-frozen": (("expert", FROZEN), 4),
    "expert-self-play": (("expert", "expert"), 2),
    "expert-self-play-4": (("expert", "expert"), 4),
}


def frozen_spec(src: str, untimed: bool) -> str:
    """The ``cmd:`` spec that serves the expert of the checkout whose ``src`` is *src*."""
    script = Path(__file__).resolve().parent / "frozen_bot.py"
    argv = ["env", f"PYTHONPATH={Path(src).resolve()}", sys.executable, str(script), "expert"]
    return "cmd:" + shlex.join(argv + (["--untimed"] if untimed else []))


def per_bot(report: Report, value: Callable[[BotStats], object]) -> dict[str, object]:
    """One figure of every bot of the match, by name (the frozen expert's ``cmd:`` is ``frozen``)."""
    return {(FROZEN if b.bot.startswith("cmd:") else b.bot): value(b) for b in report.bots}


def markdown(lines: list[dict[str, Any]]) -> str:
    """The results table of docs/bots.md from the JSON lines (older lines lack some figures: -)."""
    out = [
        "| preset | match | players | games | win rate (95% CI) | even share | Elo | mean final total "
        "| Assaf rate per call | rounds won | decision ms mean / p95 | capped |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]

    def each(line: dict[str, Any], key: str, fmt: str) -> str:
        values = line.get(key)
        if not values:
            return "-"
        return " / ".join(f"{bot} {format(value, fmt)}" for bot, value in values.items())

    for line in lines:
        lo, hi = line["ci95"]
        means = line.get("mean_ms")
        times = " / ".join(
            f"{bot} {means[bot]:.1f} / {p95:.1f}" if means else f"{bot} - / {p95:.1f}"
            for bot, p95 in line["p95_ms"].items()
        )
        out.append(
            f"| {line['preset']} | {line['match']} | {line['players']} | {line['games']} "
            f"| {line['bot']} {line['win_rate']:.1%} ({lo:.1%}–{hi:.1%}) | {line['even_share']:.0%} "
            f"| {each(line, 'elo', '.0f')} | {each(line, 'mean_total', '.1f')} "
            f"| {each(line, 'assaf_rate', '.1%')} | {each(line, 'round_win_rate', '.1%')} "
            f"| {times} | {line['capped']} |"
        )
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games per match (default 200)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--presets", default="standard,jdross,finnish", help="rule presets, comma-separated")
    parser.add_argument(
        "--matches",
        help="matches to run, comma-separated (default: the ladder's three, and the two against"
        " the frozen expert with --frozen)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal (default 1)")
    parser.add_argument("--untimed", action="store_true", help="lift the expert's time limits")
    parser.add_argument("--markdown", metavar="FILE", help="also write the results table to FILE")
    parser.add_argument("--from", dest="source", metavar="JSONL", help="render the table of saved lines")
    parser.add_argument("--frozen", metavar="SRC", help="src directory of the frozen expert's checkout")
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    if args.markdown and Path(args.markdown).is_dir():
        parser.error(f"--markdown {args.markdown!r} is a directory")
    if args.source:
        try:
            with open(args.source, encoding="utf-8") as f:
                saved = [json.loads(text) for text in f if text.strip()]
            table = markdown(saved)
        except OSError as e:
            parser.error(f"--from {args.source!r}: {e.strerror or e}")
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:  # not UTF-8, JSON, ours
            parser.error(f"--from {args.source!r}: not this script's lines ({type(e).__name__}: {e})")
        print(table, end="")
        return
    results: list[dict[str, Any]] = []
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    if args.matches is None:
        ladder = ["heuristic-vs-greedy", "expert-vs-heuristic", "expert-vs-3-heuristic"]
        args.matches = ",".join(ladder + (["expert-vs-frozen", "expert-vs-3-frozen"] if args.frozen else []))
    matches = [m.strip() for m in args.matches.split(",") if m.strip()]
    for preset in presets:
        if preset not in PRESETS:
            parser.error(f"unknown preset {preset!r}; presets are: {', '.join(PRESETS)}")
    for match in matches:
        if match not in MATCHES:
            parser.error(f"unknown match {match!r}; matches are: {', '.join(MATCHES)}")
        if FROZEN in MATCHES[match][0] and not args.frozen:
            parser.error(f"match {match!r} needs --frozen SRC (the frozen checkout's src directory)")
    if args.frozen and not (Path(args.frozen) / "yaniv" / "bots").is_dir():
        parser.error(f"--frozen {args.frozen!r}: no yaniv package there")
    for preset in presets:
        for match in matches:
            lineup, players = MATCHES[match]
            problem = PRESETS[preset].players_problem(players)
            if problem:  # slovenian-yanef is played by 3 or more: its heads-up matches are skipped
                print(f"strength.py: {match} skipped on {preset}: {problem}", file=sys.stderr)
                continue
            if FROZEN in lineup:
                lineup = tuple(frozen_spec(args.frozen, args.untimed) if b == FROZEN else b for b in lineup)
            # a bar on a terminal; in a log, a line a minute (a 2,000-game match runs for an hour)
            progress = Progress(args.games, sys.stderr, f"{match} on {preset}", every=60.0)
            report = run_arena(
                preset,
                lineup,
                args.games,
                args.seed,
                players=players,
                workers=args.workers,
                untimed=args.untimed,
                progress=progress.update,
            )
            progress.close()
            first = report.bots[0]
            lo, hi = first.ci
            names = {b.bot: (FROZEN if b.bot.startswith("cmd:") else b.bot) for b in report.bots}
            line: dict[str, Any] = {
                "preset": preset,
                "match": match,
                "players": players,
                "lineup": [names.get(b, b) for b in report.lineup],
                "games": report.games,
                "bot": names[first.bot],
                "win_rate": round(first.win_rate, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "even_share": round(1 / players, 4),
                "elo": per_bot(report, lambda b: round(b.elo, 1)),
                "mean_total": per_bot(report, lambda b: round(b.mean_total, 2)),
                "assaf_rate": per_bot(report, lambda b: round(b.assaf_rate, 4)),
                "calls": per_bot(report, lambda b: b.calls),
                "round_win_rate": per_bot(report, lambda b: round(b.round_win_rate, 4)),
                "mean_ms": per_bot(report, lambda b: b.timing()["mean"]),
                "p95_ms": per_bot(report, lambda b: b.timing()["p95"]),
                "fallback_decisions": per_bot(report, lambda b: b.fallback_decisions),
                "capped": report.capped,
                "seed": args.seed,
                "workers": args.workers,
                "seconds": round(report.seconds, 1),
            }
            print(json.dumps(line), flush=True)
            results.append(line)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(markdown(results))


if __name__ == "__main__":
    main()
