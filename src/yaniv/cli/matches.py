"""``yaniv simulate`` (many games between bots, summarised) and ``yaniv arena`` (measured matches)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO

from ..bots import Bot, make_bot
from ..errors import RecordError
from ..game import Game
from ..match import bot_rngs, play_game
from ..record import RecordWriter
from ..rules import Rules
from .common import (
    Progress,
    UsageError,
    bot_names,
    bot_options,
    cycled,
    distinct_files,
    output_file,
    player_count,
    rules_arg,
    write_output,
)

__all__ = [
    "cmd_arena",
    "cmd_simulate",
    "external_lines",
    "external_report",
]


def _seat_bots(specs: list[str]) -> list[Bot]:
    """One new bot per seat (an external program starts here, with the --bot-… options)."""
    bots: list[Bot] = []
    try:
        for spec in specs:
            bots.append(make_bot(spec))
    except ValueError as e:
        _close(bots)  # the programs already started stop again
        raise UsageError(f"--bots: {e}") from None
    return bots


def _close(bots: list[Bot]) -> None:
    for bot in bots:
        close = getattr(bot, "close", None)
        if close is not None:  # an external program
            close()


def _record_paths(directory: str | None, seeds: range, made: list[Path]) -> list[Path] | None:
    """The record file of every game, none of them existing yet, in a directory that takes files.

    All checked before the first game: a record is never overwritten, and a run does not
    fail at its first record after the bots have started. The folders it makes are added
    to *made* (deepest first), for :func:`_unmake` if the run is refused before its games.
    """
    if directory is None:
        return None
    root = Path(directory)
    folder = root
    while not folder.exists() and not folder.is_symlink() and folder != folder.parent:
        made.append(folder)
        folder = folder.parent
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        made.clear()  # nothing was made, or what was is not ours to judge
        raise UsageError(f"--record: cannot make the directory {root}: {e.strerror or e}") from None
    paths = [root / f"game-{seed}.jsonl" for seed in seeds]
    existing = next((p for p in paths if p.exists()), None)
    if existing is not None:
        raise UsageError(
            f"--record: {existing} exists: a record is never overwritten; record into another directory"
        )
    output_file(str(paths[0]), "--record", force=True)  # the directory takes files (a probe, no record)
    return paths


def _unmake(made: list[Path]) -> None:
    """Remove the folders a refused run made, as long as they are still empty."""
    for folder in made:
        try:
            folder.rmdir()
        except OSError:  # something was put in it meanwhile: it stays
            return


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    """Play many games between built-in bots and summarise them.

    Everything that can be refused (the rules, the bots, the outputs, the programs to
    start) is, before the first game; a refused run leaves no folder it made behind.
    """
    rules = rules_arg(args.rules)
    players = player_count(rules, args.players, min(max(rules.min_players, 3), rules.max_players))
    specs = cycled(bot_names("--bots", args.bots), players)
    seeds = range(args.seed, args.seed + args.games)
    made: list[Path] = []
    with ExitStack() as stack:
        try:
            records = _record_paths(args.record, seeds, made)
            if records is not None and args.bot_stderr is not None:  # the bots would write into a record
                name = Path(args.bot_stderr).name
                record = next((p for p in records if p.name == name), None)
                distinct_files(("--record", record), ("--bot-stderr", args.bot_stderr))
            stack.enter_context(bot_options(args))
            bots = _seat_bots(specs)
        except UsageError:
            _unmake(made)
            raise
        try:
            summary = _simulate(args, rules, bots, seeds, records)
        finally:
            _close(bots)
    external = external_report(bots)
    if external:
        summary["external"] = external
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
    for line in external_lines(external):
        out.write(f"  {line}\n")
    out.write(f"  {s['seconds']:.2f} s\n")
    return 0


def external_report(bots: Sequence[Bot | None]) -> list[dict[str, Any]]:
    """Per external (``cmd:``) bot: its failures and how many decisions its fallback made."""
    out = []
    for seat, bot in enumerate(bots):
        count = getattr(bot, "failure_count", None)
        if bot is not None and isinstance(count, int):
            out.append(
                {
                    "seat": seat,
                    "bot": bot.name,
                    "failures": count,
                    "fallback_decisions": getattr(bot, "fallback_decisions", 0),
                    "decisions": getattr(bot, "decisions", 0),
                    "first_failures": list(getattr(bot, "failures", []))[:3],
                }
            )
    return out


def external_lines(report: list[dict[str, Any]]) -> list[str]:
    """The external bots' report as lines (their quoted failures are already printable)."""
    lines = []
    for r in report:
        share = r["fallback_decisions"] / r["decisions"] if r["decisions"] else 0.0
        lines.append(
            f"P{r['seat']} ({r['bot']}): {r['failures']} failures; the fallback made "
            f"{r['fallback_decisions']} of {r['decisions']} decisions ({share:.1%})"
        )
        lines.extend(f"    {f}" for f in r["first_failures"])
    return lines


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
        except KeyboardInterrupt:
            # between making the record file and hearing the game (a Ctrl-C can land there)
            # it is still empty: an empty file is no record, so none is left behind
            if records is not None and records[i].exists() and records[i].stat().st_size == 0:
                game.close()
                records[i].unlink()
            raise
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
    """Seat-rotated matches between bots on duplicate deals: statistics, Elo, plots.

    The outputs (--json FILE, --plot FILE) are checked before the run: an existing file
    is refused unless --force, an unknown plot type or a directory that takes no file
    too. They are written after the report is printed, so a failing write loses nothing.
    """
    from ..arena import plot, run_arena
    from ..arena.on_ray import ClusterError

    rules = rules_arg(args.rules)
    names = bot_names("--bots", args.bots)
    players = player_count(rules, args.players, max(len(names), rules.min_players), "--bots")
    if len(names) > players:
        raise UsageError(f"--bots: {len(names)} bots do not fit in {players} seats")
    if args.ray is not None and args.workers is not None:  # the cluster's CPUs run the deals
        raise UsageError("--workers: not with --ray, whose cluster runs the deals (leave one out)")
    distinct_files(("--json", args.json), ("--plot", args.plot), ("--bot-stderr", args.bot_stderr))
    json_path = output_file(args.json, "--json", force=args.force) if args.json not in (None, "-") else None
    plot_path = None
    if args.plot:
        plot_path = output_file(args.plot, "--plot", force=args.force, types=_plot_types())
    games = -(-args.games // players) * players
    progress = Progress(games, sys.stderr, "arena")
    try:
        with bot_options(args):
            report = run_arena(
                rules,
                names,
                args.games,
                args.seed,
                players=players,
                workers=args.workers or 1,
                turn_cap=args.turn_cap,
                untimed=args.untimed,
                progress=progress.update,
                ray=args.ray,
            )
    except ClusterError as e:
        raise UsageError(str(e)) from None
    except ValueError as e:  # the arguments are checked above: what run_arena refuses is a bot
        raise UsageError(f"--bots: {e}") from None
    finally:
        progress.close()
    quiet = args.json == "-"  # stdout holds the JSON only
    out.write((json.dumps(report.to_dict()) if quiet else report.table()) + "\n")
    out.flush()
    if json_path is not None:
        write_output(json_path, json.dumps(report.to_dict(), indent=1) + "\n", "--json", force=args.force)
        out.write(f"wrote {json_path}\n")
    if plot_path is not None:
        if plot_path.exists() and not args.force:
            raise UsageError(f"--plot: {plot_path} appeared during the run: it is not replaced (add --force)")
        try:
            plot(report, str(plot_path))
        except (OSError, ValueError, ImportError) as e:
            raise UsageError(f"--plot: cannot draw {plot_path}: {e}") from None
        if not quiet:
            out.write(f"wrote {plot_path}\n")
    return 0


def _plot_types() -> set[str]:
    """The file types matplotlib can draw (``--plot`` needs it: a clear line if it is missing)."""
    if importlib.util.find_spec("matplotlib") is None:
        raise UsageError("--plot needs matplotlib: pip install 'yaniv[plots]'")
    from matplotlib.backend_bases import FigureCanvasBase  # type: ignore[import-not-found, unused-ignore]

    return set(FigureCanvasBase.get_supported_filetypes())
