"""What every command shares: the usage error, and the one reading of each kind of argument.

A rule set, a number of players, a list of bots and a list of numbers are read here
and nowhere else in the command line, so every command says the same about the same
mistake (one line naming the flag, exit code 2).
"""

from __future__ import annotations

import importlib.util
import sys
import time
from typing import TextIO

from ..errors import YanivError
from ..rules import Rules
from ..session import make_opponent

__all__ = [
    "Progress",
    "UsageError",
    "bot_names",
    "cycled",
    "int_list",
    "on_terminal",
    "player_count",
    "rules_arg",
    "textual_available",
]


class UsageError(Exception):
    """A bad command-line argument: printed as one line, exit code 2."""


def rules_arg(spec: str, flag: str = "--rules") -> Rules:
    """The rule set of a preset name, a game string or a JSON knob dict."""
    try:
        return Rules.from_spec(spec)
    except (YanivError, ValueError) as e:
        raise UsageError(f"{flag}: {e}") from None


def player_count(rules: Rules, players: int | None, default: int) -> int:
    """*players* (or *default* when not given), if a game of that many can be played.

    The rules are the judge (:meth:`Rules.players_problem`: the players' range, a deck
    too small to deal), and their message is shown.
    """
    n = players if players is not None else default
    problem = rules.players_problem(n)
    if problem:
        raise UsageError(f"--players: {problem}")
    return n


def bot_names(flag: str, text: str) -> list[str]:
    """The comma-separated bot specs of *flag*, each checked by :func:`yaniv.bots.make_bot`.

    An external program (``cmd:…``) is not started here: it starts, or fails to, when
    the game seats it.
    """
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:
        raise UsageError(f"{flag}: name at least one bot")
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


def int_list(text: str, flag: str) -> list[int]:
    """Comma-separated whole numbers."""
    try:
        return [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise UsageError(f"{flag}: expected comma-separated whole numbers, got {text!r}") from None


def textual_available() -> bool:
    """Whether the terminal app can run (textual is installed)."""
    return importlib.util.find_spec("textual") is not None


def on_terminal(out: TextIO) -> bool:
    """Whether *out* is this process's own terminal (with a terminal to read keys from)."""
    return out is sys.stdout and sys.stdin.isatty() and sys.stdout.isatty()


class Progress:
    """A one-line progress bar on a terminal; silent elsewhere."""

    def __init__(self, total: int, stream: TextIO, label: str) -> None:
        """Track *total* steps."""
        self.total, self.stream, self.label = total, stream, label
        self.enabled = stream.isatty()
        self.start = time.perf_counter()

    def update(self, done: int) -> None:
        """Redraw at *done* steps."""
        if not self.enabled:
            return
        width = 30
        filled = width * done // max(self.total, 1)
        rate = done / max(time.perf_counter() - self.start, 1e-9)
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} ({rate:.0f}/s)"
        )
        self.stream.flush()

    def close(self) -> None:
        """End the line."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
