"""What every command shares: the usage error, and the one reading of each kind of argument.

A rule set, a number of players, a list of bots and a list of numbers are read here
and nowhere else in the command line, so every command says the same about the same
mistake (one line naming the flag, exit code 2).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import math
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import TextIO

from ..bots import external_bot_options
from ..errors import YanivError
from ..rules import Rules, brief_repr
from ..session import make_opponent

__all__ = [
    "MAX_BOT_TIME_LIMIT_MS",
    "MAX_GAMES",
    "Progress",
    "UsageError",
    "bot_names",
    "bot_options",
    "cycled",
    "db_arg",
    "distinct_files",
    "int_list",
    "on_terminal",
    "output_file",
    "player_count",
    "rules_arg",
    "seconds",
    "server_db",
    "textual_available",
    "whole",
    "write_output",
]

MAX_GAMES = 1_000_000
"""The most games one ``simulate`` or ``arena`` run plays (hours of play already)."""
MAX_BOT_TIME_LIMIT_MS = 600_000
"""The longest ``--bot-time-limit`` (ten minutes a decision)."""


class UsageError(Exception):
    """A bad command-line argument: printed as one line, exit code 2."""


def whole(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number from *lo* to *hi* (a short message otherwise).

    Bounded before :func:`int` reads it, so that a 5,000-digit argument is refused in
    one short line rather than echoed whole.
    """

    def parse(text: str) -> int:
        t = text.strip()
        if not re.fullmatch(r"[+-]?\d{1,19}", t):
            raise argparse.ArgumentTypeError(f"expected a whole number, got {brief_repr(text)}")
        value = int(t)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be {lo:,} to {hi:,}, got {value:,}")
        return value

    return parse


def seconds(hi: float, unit: str = "seconds") -> Callable[[str], float]:
    """An argparse type: a finite number of seconds from 0 to *hi* (``inf`` and ``nan`` are refused).

    *unit* names what is counted in the message, for a flag of days, hours or a rate.
    """

    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or not 0 <= value <= hi:
            raise argparse.ArgumentTypeError(
                f"must be a number of {unit} from 0 to {hi:g}, got {brief_repr(text)}"
            )
        return value

    return parse


def output_file(path: str, flag: str, *, force: bool = False, types: Collection[str] | None = None) -> Path:
    """*path* checked, before a long run, as a file the run can write at its end.

    Its directory must exist and take a new file; an existing file is refused unless
    *force* (it is then replaced at the end); *types*: the file name extensions
    allowed. Nothing is left behind by the check.
    """
    p = Path(path)
    if types is not None and p.suffix.lower().lstrip(".") not in types:
        raise UsageError(
            f"{flag}: {path}: unknown file type {p.suffix or '(no extension)'}; use one of "
            + ", ".join(f".{t}" for t in sorted(types))
        )
    if p.is_dir():
        raise UsageError(f"{flag}: {path} is a directory")
    if p.exists() and not force:
        raise UsageError(f"{flag}: {path} exists: a file is never replaced unless you add --force")
    try:  # a probe in the same directory: writable, on a file system that takes files
        fd, probe = tempfile.mkstemp(dir=p.parent if str(p.parent) else ".", prefix=".yaniv-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise UsageError(f"{flag}: cannot write {path}: {e.strerror or e}") from None
    return p


def distinct_files(*given: tuple[str, str | Path | None]) -> None:
    """Refuse two flags of one run that name the same file, before anything is written.

    *given*: ``(flag, path)`` pairs; a path of None or ``-`` (stdout) is no file. Paths
    are compared as the files they name (``./``, ``..`` and links resolved), so that one
    output never writes over, or into, another.
    """
    seen: list[tuple[str, str]] = []
    for flag, path in given:
        if path is None or str(path) == "-":
            continue
        real = os.path.realpath(path)
        for other, other_real in seen:
            if real == other_real or _same_existing_file(real, other_real):
                raise UsageError(f"{flag}: {path} is also the {other} file: give each its own file")
        seen.append((flag, real))


def _same_existing_file(a: str, b: str) -> bool:
    """Whether *a* and *b* are one existing file (hard links too)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # either is missing (or a name the system refuses)
        return False


def write_output(path: Path, text: str, flag: str, *, force: bool = False) -> None:
    """Write *text* to *path*: a new file, or (with *force*) one that replaces the old at once."""
    try:
        if not force:
            with open(path, "x", encoding="utf-8") as f:
                f.write(text)
            return
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".yaniv-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except FileExistsError:
        raise UsageError(
            f"{flag}: {path} appeared during the run: it is not replaced (add --force)"
        ) from None
    except OSError as e:
        raise UsageError(f"{flag}: cannot write {path}: {e.strerror or e}") from None


@contextlib.contextmanager
def bot_options(args: argparse.Namespace) -> Iterator[None]:
    """The external bots' options of ``--bot-time-limit`` and ``--bot-stderr``, for the run inside.

    The stderr file is checked (appended to, created if missing) before anything runs.
    """
    stderr = getattr(args, "bot_stderr", None)
    if stderr is not None:
        path = Path(stderr)
        if path.is_dir():
            raise UsageError(f"--bot-stderr: {stderr} is a directory")
        try:
            with open(path, "ab"):
                pass  # the bots append to it: an existing file keeps what it holds
        except OSError as e:
            raise UsageError(f"--bot-stderr: cannot write {stderr}: {e.strerror or e}") from None
    with external_bot_options(time_limit_ms=getattr(args, "bot_time_limit", None), stderr=stderr):
        yield


def db_arg(value: str | None) -> str | None:
    """``--db`` as given (None: not given, the default database); a blank one is refused."""
    if value is not None and not value.strip():
        raise UsageError("--db: name a database: a SQLAlchemy URL or a SQLite file")
    return value


def server_db(value: str | None, default_url: Callable[[], str]) -> str:
    """``--db`` of ``yaniv serve`` and ``yaniv db migrate`` as given, else the default, folder made.

    The default (*default_url*: ``yaniv.web.default_db_url``) is a SQLite file in the data
    dir, whose folder a fresh machine lacks: the first command to use it makes the folder. A
    ``--db`` whose folder is missing is left for the command to refuse, as both do (a typing
    mistake leaves no new folders behind).
    """
    given = db_arg(value)
    if given is not None:
        return given
    url = default_url()
    sqlite = "sqlite+aiosqlite:///"
    if url.startswith(sqlite):
        folder = Path(url.removeprefix(sqlite)).parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageError(f"the default database: cannot make {folder}: {e.strerror or e}") from None
    return url


def rules_arg(spec: str, flag: str = "--rules") -> Rules:
    """The rule set of a preset name, a game string or a JSON knob dict."""
    try:
        return Rules.from_spec(spec)
    except (YanivError, ValueError) as e:
        raise UsageError(f"{flag}: {e}") from None


def player_count(rules: Rules, players: int | None, default: int, default_from: str = "--players") -> int:
    """*players* (or *default* when not given), if a game of that many can be played.

    The rules are the judge (:meth:`Rules.players_problem`: the players' range, a deck
    too small to deal), and their message is shown, after the flag that set the count:
    ``--players``, or *default_from* when the default was counted from another flag
    (``arena --bots``: a seat per bot; ``odds --cards``: the opponents and the caller).
    """
    n = players if players is not None else default
    problem = rules.players_problem(n)
    if problem:
        raise UsageError(f"{'--players' if players is not None else default_from}: {problem}")
    return n


def bot_names(flag: str, text: str) -> list[str]:
    """The comma-separated bot specs of *flag*, each checked by :func:`yaniv.bots.make_bot`.

    An external program (``cmd:…``) is not started here: it starts, or fails to, when
    the game seats it.
    """
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:
        raise UsageError(f"{flag}: name at least one bot")
    if len(names) > 8:  # a line-up never has more seats than the largest table
        raise UsageError(f"{flag}: at most 8 bots, got {len(names)}")
    for spec in dict.fromkeys(names):
        if spec.startswith("cmd:"):
            continue
        try:
            make_opponent(spec)
        except ValueError as e:
            raise UsageError(f"{flag}: {e}") from None
    return names


def cycled(names: list[str], count: int) -> list[str]:
    """*count* entries of *names*, repeated from the start as often as needed."""
    return [names[i % len(names)] for i in range(count)]


def int_list(text: str, flag: str, most: int = 16) -> list[int]:
    """Comma-separated whole numbers (at most *most* of them, none past 9 digits)."""
    parts = [s.strip() for s in text.split(",") if s.strip()]
    if len(parts) > most or not all(re.fullmatch(r"[+-]?\d{1,9}", s) for s in parts):
        raise UsageError(
            f"{flag}: expected up to {most} comma-separated whole numbers, got {brief_repr(text)}"
        )
    return [int(s) for s in parts]


def textual_available() -> bool:
    """Whether the terminal app can run (textual is installed)."""
    return importlib.util.find_spec("textual") is not None


def on_terminal(out: TextIO) -> bool:
    """Whether *out* is this process's own terminal (with a terminal to read keys from)."""
    return out is sys.stdout and sys.stdin.isatty() and sys.stdout.isatty()


class Progress:
    """A one-line progress bar on a terminal; elsewhere silent, or a plain line every *every* seconds.

    The plain lines are for long runs in the background (a benchmark writing its log to a
    file), where a redrawn bar would be noise and silence hides how far the run has come.
    """

    def __init__(self, total: int, stream: TextIO, label: str, every: float | None = None) -> None:
        """Track *total* steps; off a terminal, report every *every* seconds if given."""
        self.total, self.stream, self.label = total, stream, label
        self.enabled = stream.isatty()
        self.every = None if self.enabled else every
        self.start = self.last = time.perf_counter()

    def update(self, done: int) -> None:
        """Redraw at *done* steps (or, off a terminal, write a line when one is due)."""
        now = time.perf_counter()
        rate = done / max(now - self.start, 1e-9)
        if self.every is not None and (now - self.last >= self.every or done >= self.total):
            self.last = now
            self.stream.write(
                f"{self.label}: {done}/{self.total} after {now - self.start:.0f} s ({rate:.2f}/s)\n"
            )
            self.stream.flush()
        if not self.enabled:
            return
        width = 30
        filled = width * done // max(self.total, 1)
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} ({rate:.0f}/s)"
        )
        self.stream.flush()

    def close(self) -> None:
        """End the line."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
