"""The ``yaniv`` command line: rules, simulate, play, replay, check, serve, arena, odds.

Every subcommand has ``--help``; machine-readable output with ``--json``. Whatever the
arguments, files or bots, a command either works or prints one line naming what is
wrong (the option, the file and line, the knob, the bot) and exits 2 (1 for a record
that does not check, 130 when interrupted): never a traceback. The limits on what is
read are listed by ``yaniv --help``.

The package: :mod:`.parser` (the arguments of every command), :mod:`.common` (the one
reading of rules, player counts, bot lists, numbers and output files), :mod:`.plain`
(the line-based game on the table driver), and the commands by group: :mod:`.info`
(rules, odds), :mod:`.matches` (simulate, arena), :mod:`.play` (play, serve),
:mod:`.records` (replay, check).
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from .. import build_name
from ..errors import YanivError
from ..rules import brief_repr
from .common import UsageError
from .parser import build_parser

__all__ = ["main"]

TRACEBACK_ENV = "YANIV_TRACEBACK"
"""Set (to anything) to see the traceback of an internal error instead of its one line."""

_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})
"""Errors of the place written to (a full disk, ``> /dev/full``), not of the program: exit 2."""


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code (argparse's errors exit 2 themselves)."""
    # Started with a standard stream closed (``yaniv rules >&-``), Python gives None:
    # stdin then reads as empty, stderr's lines are dropped, and no stdout is an error.
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (for the whole process)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (the same)
    if out is None and sys.stdout is None:
        _say("yaniv: error: standard output is closed: nothing could be printed")
        return 2
    parser = build_parser()
    parser.add_argument("--version", action="version", version=build_name(), help="print version and build")
    args = parser.parse_args(argv)
    stream = out if out is not None else sys.stdout
    name = f"yaniv {args.command}"
    try:
        code: int = args.func(args, stream)
        stream.flush()  # a full disk is told here, not at the interpreter's exit
    except UsageError as e:
        parser.exit(2, f"{name}: error: {e}\n")
    except YanivError as e:  # the library's own error for bad input, not turned into a flag's
        parser.exit(2, f"{name}: error: {e}\n")
    except KeyboardInterrupt:
        _say(f"{name}: interrupted")
        return 130
    except BrokenPipeError:  # the reader went away (yaniv replay ... | head): nothing more to say
        _silence_stdout()
        return 0
    except OSError as e:
        if e.errno not in _WRITE_ERRORS:
            return _internal_error(name, e)
        _silence_stdout()  # what is still buffered would fail again at the exit
        where = f" {e.filename}" if e.filename else ""
        _say(f"{name}: error: cannot write{where}: {e.strerror or e}")
        return 2
    except Exception as e:  # a defect: still one line, and how to see the rest
        return _internal_error(name, e)
    return code


def _internal_error(name: str, e: Exception) -> int:
    """A defect: one line (the traceback with YANIV_TRACEBACK set), exit code 1."""
    if os.environ.get(TRACEBACK_ENV):
        raise e
    _say(
        f"{name}: internal error (a bug: please report it): {type(e).__name__}: "
        f"{brief_repr(str(e))[1:-1]} (set {TRACEBACK_ENV}=1 for the traceback)"
    )
    return 1


def _say(line: str) -> None:
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # no stderr to tell (closed, None): the exit code says it
        pass


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush finds no broken pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
