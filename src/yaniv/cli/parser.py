"""The argument parser of every ``yaniv`` subcommand (``--help`` of each)."""

from __future__ import annotations

import argparse
from typing import NoReturn

from ..bots import BOTS
from ..table import DEFAULT_TURN_CAP
from .bot import cmd_bot
from .common import MAX_BOT_TIME_LIMIT_MS, MAX_GAMES, seconds, whole
from .db import cmd_db
from .info import cmd_odds, cmd_rules
from .matches import cmd_arena, cmd_simulate
from .play import cmd_play, cmd_serve
from .records import cmd_check, cmd_replay

__all__ = ["LIMITS", "build_parser"]

LIMITS = """\
exit codes: 0 done, 1 a record that does not check (or an internal error: set
YANIV_TRACEBACK=1 to see it), 2 bad input (one line names it), 130 interrupted (Ctrl-C).

limits (all in docs/formats.md §6.2): rule specs and record lines are JSON of at most
1,000,000 characters, 32 levels deep, numbers of at most 30 digits; a record file at
most 64 MiB; --games at most 1,000,000. An existing --record, --json or --plot file is
never replaced (arena: unless --force). External bots (cmd:PROGRAM): the line size,
nesting and time limits of their answers are in docs/bot-protocol.md; --bot-time-limit
MS sets the time limit (1 to 600,000 ms), --bot-stderr FILE collects their stderr."""

_SEED = whole(-(10**18), 10**18)
_ANY = whole(-(10**18), 10**18)  # a count or a seat: the command judges it (and names the range)


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line (``yaniv simulate: error: argument --games: …``)."""

    def error(self, message: str) -> NoReturn:
        """Print the one-line error and exit with code 2 (argparse prints the usage first)."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _bot_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--bot-time-limit",
        type=whole(1, MAX_BOT_TIME_LIMIT_MS),
        metavar="MS",
        help="milliseconds an external bot (cmd:PROGRAM) may think per decision (default 1000)",
    )
    p.add_argument(
        "--bot-stderr",
        metavar="FILE",
        help="append the external bots' stderr to FILE (default: discarded)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = _Parser(
        prog="yaniv",
        description="Yaniv: the card game, every variant.",
        epilog=LIMITS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("rules", help="list presets or explain a rule set")
    p.add_argument("spec", nargs="?", help="a preset name or game string, e.g. 'finnish(score_limit=100)'")
    p.add_argument("--json", action="store_true", help="print the knob dict")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("simulate", help="play games between built-in bots and summarise")
    p.add_argument("--rules", default="standard", help="preset, game string or JSON (default standard)")
    p.add_argument("--players", type=_ANY, help="players per game (default 3 or the preset's minimum)")
    p.add_argument(
        "--games",
        type=whole(1, MAX_GAMES),
        default=100,
        help=f"number of games (default 100, at most {MAX_GAMES:,})",
    )
    p.add_argument("--seed", type=_SEED, default=1, help="seed of the first game (default 1)")
    p.add_argument("--bots", default="greedy,random", help=f"bots by seat, cycled ({', '.join(BOTS)})")
    p.add_argument(
        "--record",
        metavar="DIR",
        help="write each game's record into DIR as game-SEED.jsonl (refused if one exists: never replaced)",
    )
    p.add_argument(
        "--turn-cap",
        type=whole(1, 10**6),
        default=DEFAULT_TURN_CAP,
        help="turns before a round counts as stalled",
    )
    p.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    _bot_options(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser(
        "play",
        help="play against the computer",
        description="Play against the computer: a full-screen card table on a terminal (with textual "
        "installed), else line by line. Without --rules, --players, --level, --bots or --seed the "
        "table asks for them first.",
    )
    p.add_argument("--plain", action="store_true", help="line-based play on stdin/stdout")
    p.add_argument("--rules", help="preset, game string or JSON (default standard)")
    p.add_argument("--players", type=_ANY, help="players including you (default 3)")
    p.add_argument(
        "--level",
        help="opponents' difficulty: beginner, easy, medium, hard, expert (comma-separated: one per "
        "opponent, cycled; default medium)",
    )
    p.add_argument("--bots", help=f"opponents by bot ({', '.join(BOTS)}, NAME:LEVEL), cycled")
    p.add_argument("--seed", type=_SEED, help="seed (default: the clock)")
    p.add_argument("--name", help="your name (default You)")
    p.add_argument(
        "--delay",
        type=seconds(60),
        default=0.8,
        help="seconds between the computer's moves, 0 to 60 (default 0.8)",
    )
    p.add_argument(
        "--record",
        metavar="FILE",
        help="record file (default: a new file in $XDG_DATA_HOME/yaniv/games, ~/.local/share/yaniv/games)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the last unfinished game (or the one in --record FILE), set up as it was recorded: "
        "not with --rules, --players, --level, --bots, --seed or --name",
    )
    _bot_options(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("replay", help="show a recorded game (step through it on a terminal)")
    p.add_argument("file", help="a JSON Lines game record")
    p.add_argument("--seat", type=_ANY, help="show only what this seat saw")
    view = p.add_mutually_exclusive_group()
    view.add_argument(
        "--tui", action="store_true", help="the step-through viewer (needs textual and a terminal)"
    )
    view.add_argument(
        "--text", action="store_true", help="print the game turn by turn (the default off a terminal)"
    )
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("check", help="verify a game record (exit 1 naming the first wrong line)")
    p.add_argument("file", help="a JSON Lines game record")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("serve", help="play in the browser: the web server (needs yaniv[web])")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--port",
        type=whole(0, 65535),
        default=8000,
        help="port (default 8000; 0: a free one, shown at the start)",
    )
    p.add_argument(
        "--db",
        metavar="URL",
        help="SQLAlchemy async URL or SQLite file (default $XDG_DATA_HOME/yaniv/yaniv.db, "
        "~/.local/share/yaniv/yaniv.db)",
    )
    p.add_argument(
        "--redis",
        metavar="URL",
        help="run as one of several server processes on the same database, linked through this "
        "Redis (redis://host:6379/0; default $YANIV_REDIS_URL, else one process alone; docs/deploy.md)",
    )
    p.add_argument(
        "--bot-delay",
        type=seconds(60),
        default=0.8,
        help="seconds a computer player waits before acting, 0 to 60 (0.8)",
    )
    p.add_argument(
        "--round-pause",
        type=seconds(3600),
        default=30.0,
        help="seconds after a round's end before the next deal if not everyone is ready, 0 to 3600 (30)",
    )
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.add_argument(
        "--log-format",
        choices=["text", "json"],
        help="log lines as text or as one JSON object a line (time, level, event, table); "
        "also YANIV_WEB_LOG_FORMAT (text)",
    )
    limits = p.add_argument_group(
        "limits and timers",
        "each also read from YANIV_WEB_<NAME> (an option given here wins); 0 turns a limit off",
    )
    limits.add_argument(
        "--turn-seconds",
        type=seconds(3600),
        metavar="S",
        help="the turn clock of a public table made without one, 0 or 5 to 3600 (45)",
    )
    limits.add_argument(
        "--private-turn-seconds",
        type=seconds(3600),
        metavar="S",
        help="the same for a private table (0: no clock)",
    )
    limits.add_argument(
        "--host-grace",
        type=seconds(3600),
        metavar="S",
        help="seconds the host may be away before the next person hosts (15)",
    )
    limits.add_argument(
        "--full-start",
        type=seconds(3600),
        metavar="S",
        help="seconds after a lobby fills before its game starts itself (20)",
    )
    limits.add_argument(
        "--message-rate",
        type=seconds(10_000, "messages a second"),
        metavar="N",
        help="websocket messages a second per connection (20)",
    )
    limits.add_argument(
        "--tables-per-client",
        type=whole(0, 1_000_000),
        metavar="N",
        help="tables one address may make an hour (30)",
    )
    limits.add_argument(
        "--sockets-per-client",
        type=whole(0, 1_000_000),
        metavar="N",
        help="websockets open at once from one address (100)",
    )
    limits.add_argument(
        "--spectators-per-table",
        type=whole(0, 1_000_000),
        metavar="N",
        help="spectators one table takes (500)",
    )
    limits.add_argument(
        "--body-limit", type=whole(0, 1 << 30), metavar="BYTES", help="REST bodies above this get 413 (65536)"
    )
    limits.add_argument(
        "--request-timeout", type=seconds(3600), metavar="S", help="seconds a request may take to arrive (15)"
    )
    limits.add_argument(
        "--allowed-origin",
        action="append",
        metavar="HOST",
        help="a host whose pages may open websockets besides the served one (repeat; * for any)",
    )
    limits.add_argument(
        "--durable",
        action="store_const",
        const=True,
        help="SQLite synchronous=FULL: commits survive a power cut",
    )
    limits.add_argument(
        "--retention-days",
        type=seconds(36_500, "days"),
        metavar="D",
        help="days a finished game is kept after its last move (30)",
    )
    limits.add_argument(
        "--abandoned-days",
        type=seconds(36_500, "days"),
        metavar="D",
        help="days an untouched game in play is kept (7)",
    )
    limits.add_argument(
        "--lobby-hours",
        type=seconds(876_000, "hours"),
        metavar="H",
        help="hours an untouched lobby is kept (24)",
    )
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("db", help="the web server's database: migrate its schema, copy it elsewhere")
    inner = p.add_subparsers(dest="db_command", required=True, metavar="{migrate,copy}")
    m = inner.add_parser("migrate", help="bring a database to this server's schema version (made if empty)")
    m.add_argument("--db", metavar="URL", help="SQLAlchemy URL or SQLite file (default: the server's own)")
    m.add_argument("--json", action="store_true", help="the versions found and left, as JSON")
    c = inner.add_parser(
        "copy",
        help="copy every table and record into an empty database (SQLite to PostgreSQL)",
        description="Copy every table and record into an empty database, e.g. "
        "yaniv db copy ~/.local/share/yaniv/yaniv.db postgresql://yaniv@db/yaniv. "
        "Nothing is overwritten: the target must hold no table.",
    )
    c.add_argument("source", help="the database to copy from (URL or SQLite file; it must exist)")
    c.add_argument("target", help="the empty database to copy into (URL or SQLite file)")
    c.add_argument("--json", action="store_true", help="the counts copied, as JSON")
    p.set_defaults(func=cmd_db)

    p = sub.add_parser("arena", help="seat-rotated matches between bots: win rates, Elo, timings")
    p.add_argument("--rules", default="standard", help="preset, game string or JSON (default standard)")
    p.add_argument("--players", type=_ANY, help="players per game (default: the number of bots)")
    p.add_argument(
        "--games",
        type=whole(1, MAX_GAMES),
        default=100,
        help=f"games in total, rounded up to whole rotation sets (default 100, at most {MAX_GAMES:,})",
    )
    p.add_argument("--seed", type=_SEED, default=1, help="seed of the first deal (default 1)")
    p.add_argument(
        "--bots",
        default="expert,heuristic",
        help="line-up by seat, NAME or NAME:LEVEL (expert:strong); the last fills the remaining seats "
        f"({', '.join(BOTS)})",
    )
    p.add_argument(
        "--workers", type=whole(1, 64), help="worker processes, 1 to 64 (default 1; not with --ray)"
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run the deals on a Ray cluster instead of --workers (needs yaniv[ray]): no ADDRESS "
        "starts a private local one, 'auto' joins this machine's, ray://HOST:PORT a remote one",
    )
    p.add_argument("--json", metavar="FILE", help="also write the report as JSON to FILE ('-': stdout only)")
    p.add_argument(
        "--plot",
        metavar="FILE.png",
        help="draw win rates and score curves (needs matplotlib; .png, .svg, .pdf, ...)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="replace existing --json and --plot files (checked before the run; else refused)",
    )
    p.add_argument(
        "--turn-cap",
        type=whole(1, 10**6),
        default=DEFAULT_TURN_CAP,
        help="turns before a round counts as stalled",
    )
    p.add_argument(
        "--untimed", action="store_true", help="lift the expert's time limits (reproducible, slower)"
    )
    _bot_options(p)
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser(
        "bot",
        help="serve a built-in bot as a bot-protocol program on stdin/stdout (docs/bot-protocol.md)",
    )
    p.add_argument("spec", help=f"the bot, NAME or NAME:LEVEL ({', '.join(BOTS)}; expert:strong)")
    p.add_argument("--seed", type=_SEED, default=0, help="seed of the bot's random choices (default 0)")
    p.add_argument(
        "--untimed", action="store_true", help="lift the expert's time limit (reproducible, slower)"
    )
    p.set_defaults(func=cmd_bot)

    p = sub.add_parser("odds", help="the chance that a Yaniv call succeeds (the bots' opponent model)")
    p.add_argument("--value", type=_ANY, required=True, help="the caller's hand value")
    p.add_argument("--cards", required=True, help="cards held by each opponent, e.g. 3,5")
    p.add_argument("--seen-values", help="value of the cards seen taken by each opponent, e.g. 0,4")
    p.add_argument("--seen-counts", help="number of cards seen taken by each opponent, e.g. 0,1")
    p.add_argument("--turn", type=_ANY, default=0, help="turns completed in the round (default 0)")
    p.add_argument("--players", type=_ANY, help="players in the round (default: opponents + 1)")
    p.add_argument("--rules", default="standard", help="preset, game string or JSON (default standard)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON line")
    p.set_defaults(func=cmd_odds)
    return parser
