"""The ``yaniv`` command line: rules, simulate, play, replay, check, serve, arena, odds.

Every subcommand has ``--help``; machine-readable output with ``--json``. Bad
arguments give a one-line error naming what is wrong and exit 2.

The package: :mod:`.parser` (the arguments of every command), :mod:`.common` (the one
reading of rules, player counts and bot lists), :mod:`.plain` (the line-based game on
the table driver), and the commands by group: :mod:`.info` (rules, odds),
:mod:`.matches` (simulate, arena), :mod:`.play` (play, serve), :mod:`.records`
(replay, check).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from .common import UsageError
from .parser import build_parser

__all__ = ["main"]


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    stream = out if out is not None else sys.stdout
    try:
        code: int = args.func(args, stream)
    except UsageError as e:
        parser.exit(2, f"yaniv {args.command}: error: {e}\n")
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return code
