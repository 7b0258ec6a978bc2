"""``yaniv replay`` (show a recorded game) and ``yaniv check`` (verify a record by replaying it)."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any, TextIO

from ..errors import RecordError
from ..events import redact
from ..narrate import event_text
from ..record import check, read_record
from .common import UsageError, on_terminal, textual_available

__all__ = ["cmd_check", "cmd_replay"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters: a record's text never moves the cursor or recolours the terminal."""


def _named(path: str) -> str:
    """*path* as given, unless blank: an empty name is no file (``Path("")`` is the current folder)."""
    if not path.strip():
        raise UsageError(f"name a record file, not {path!r}")
    return path


def _read(path: str) -> list[dict[str, Any]]:
    _named(path)
    try:
        return read_record(path)
    except RecordError as e:
        raise UsageError(str(e)) from None


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    """Show a recorded game: the step-through viewer on a terminal, else turn by turn as text."""
    if args.tui and not on_terminal(out):  # the viewer would wait for keys that never come
        raise UsageError("--tui needs a terminal (stdin and stdout); off one, use --text")
    if args.tui and not textual_available():
        raise UsageError("--tui needs textual: pip install 'yaniv[tui]'")
    events = _read(args.file)
    header = events[0]  # checked field by field by read_record
    players = header["players"]
    if args.seat is not None and not 0 <= args.seat < players:
        raise UsageError(f"--seat: there is no seat {args.seat}: seats are 0..{players - 1}")
    if header.get("redacted") and args.seat is not None and args.seat != header.get("seat"):
        raise UsageError(
            f"--seat: this record holds only what seat {header.get('seat')} saw, not seat {args.seat}'s view"
        )
    use_tui = args.tui or (not args.text and on_terminal(out) and textual_available())
    if use_tui:
        from ..tui import run_replay

        try:
            return run_replay(events, seat=args.seat)
        except RecordError as err:
            if args.tui:
                raise UsageError(str(err)) from None
    names = header.get("names")
    rules, seed = header.get("rules_string", "?"), header.get("seed")
    out.write(_CONTROL.sub("?", f"Game of {rules}, {players} players, seed {seed}") + "\n")
    for e in events[1:]:
        try:
            text = event_text(redact(e, args.seat) if args.seat is not None else e, names)
        except (KeyError, IndexError, TypeError, ValueError):  # a line of the wrong shape
            raise UsageError(f"line {e['_line']}: a {e['type']} event that cannot be shown") from None
        if text:
            out.write(_CONTROL.sub("?", text) + "\n")
    return 0


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    """Verify a record by replaying it (exit 1 if it does not check, 2 if there is no file to read)."""
    path = Path(_named(args.file))
    if not path.exists():
        raise UsageError(f"there is no file {args.file!r}")
    if path.is_dir():
        raise UsageError(f"{args.file!r} is a folder, not a record file")
    try:
        game = check(args.file)
    except RecordError as e:
        if args.json:
            out.write(json.dumps({"ok": False, "error": str(e)}) + "\n")
        else:
            out.write(f"{args.file}: {e}\n")
        return 1
    info = {
        "ok": True,
        "events": len(game.events),
        "rounds": game.round_no,
        "finished": game.over,
        "winners": list(game.winners),
        "totals": game.totals,
    }
    if args.json:
        out.write(json.dumps(info) + "\n")
    else:
        state = f"winners {info['winners']}" if game.over else "unfinished"
        out.write(f"{args.file}: ok ({info['events']} events, {info['rounds']} rounds, {state})\n")
    return 0
