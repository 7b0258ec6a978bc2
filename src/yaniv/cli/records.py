"""``yaniv replay`` (show a recorded game) and ``yaniv check`` (verify a record by replaying it)."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from ..errors import RecordError
from ..events import redact
from ..narrate import event_text
from ..record import check, read_record, replay_steps
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
    # a full record is replayed alongside, so that nothing the game could not have done is
    # shown: the first line that does not follow ends the replay (a seat's redacted record
    # lacks the hidden cards, and is shown as recorded)
    steps = None if header.get("redacted") else replay_steps(events)
    _follow(steps)  # the header
    for e in events[1:]:
        _follow(steps)
        try:
            text = event_text(redact(e, args.seat) if args.seat is not None else e, names)
        except (KeyError, IndexError, TypeError, ValueError):  # a line of the wrong shape
            raise UsageError(f"line {e['_line']}: a {e['type']} event that cannot be shown") from None
        if text:
            out.write(_CONTROL.sub("?", text) + "\n")
    if steps is not None:
        _follow(steps, end=True)
    return 0


def _follow(steps: Iterator[object] | None, end: bool = False) -> None:
    """Replay one more line of *steps*, or at the *end* check that none is missing.

    A line that does not follow is the replay's error; the lines before it were shown.
    """
    if steps is None:
        return
    try:
        if end:
            next(steps, None)
        else:
            next(steps)
    except RecordError as err:
        shown = "shown to its end" if end else "shown up to the line before"
        raise UsageError(f"{err} (the record does not check: {shown})") from None


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
