"""``yaniv bot NAME[:LEVEL]``: a built-in bot as a bot-protocol program on stdin/stdout.

The engine's side (``cmd:`` bots, :mod:`yaniv.bots.external`) starts it like any other
program speaking ``docs/bot-protocol.md``, so ``yaniv arena --bots 'expert,cmd:yaniv bot
expert'`` seats our expert through the protocol, and another checkout's ``yaniv bot``
can play this one's bots.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from ..bots.program import serve
from .common import UsageError

__all__ = ["cmd_bot"]


def cmd_bot(args: argparse.Namespace, out: TextIO) -> int:
    """Serve the bot until ``bye`` or the end of stdin; problems go to stderr, one line each."""
    try:
        return serve(args.spec, sys.stdin, out, sys.stderr, seed=args.seed, untimed=args.untimed)
    except ValueError as e:
        raise UsageError(str(e)) from None
