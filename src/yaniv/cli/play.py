"""``yaniv play`` (the terminal app, or the plain game) and ``yaniv serve`` (the browser)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TextIO

from ..errors import RecordError, RulesError
from ..session import DEFAULT_LEVEL, Session, bot_spec, games_dir, new_record_path
from .common import UsageError, bot_names, cycled, on_terminal, player_count, rules_arg, textual_available
from .plain import PlainGame

__all__ = ["cmd_play", "cmd_serve"]


def _opponents(args: argparse.Namespace, players: int) -> list[str]:
    """One bot spec per opponent, cycled: from --level (difficulties) or --bots (bot specs)."""
    if args.level is None and args.bots is not None:
        return cycled(bot_names("--bots", args.bots), players - 1)
    levels = [s.strip() for s in (args.level or DEFAULT_LEVEL).split(",") if s.strip()]
    if not levels:
        raise UsageError("--level: name at least one difficulty")
    try:
        return [bot_spec(level) for level in cycled(levels, players - 1)]
    except ValueError as e:
        raise UsageError(f"--level: {e}") from None


def _new_session(args: argparse.Namespace, records: Path) -> Session:
    rules = rules_arg(args.rules or "standard")
    players = player_count(rules, args.players, min(max(rules.min_players, 3), rules.max_players))
    opponents = _opponents(args, players)
    seed = args.seed if args.seed is not None else int(time.time())
    record: Path | None = Path(args.record) if args.record else None
    if record is None:
        try:
            record = new_record_path(records, seed)
        except OSError:
            record = None  # no place for records: the game is played unrecorded
    try:
        return Session.start(rules, opponents, name=args.name or "You", seed=seed, record=record)
    except RecordError as e:
        raise UsageError(f"--record: {e}") from None
    except RulesError as e:
        raise UsageError(str(e)) from None
    except ValueError as e:  # a bot that cannot start (an external program)
        raise UsageError(f"--{'level' if args.level is not None else 'bots'}: {e}") from None


def _refuse_existing(record: str) -> None:
    """A new game never writes over an existing record, even a finished one."""
    path = Path(record)
    if path.exists():
        raise UsageError(
            f"--record: {path} exists: a record is never overwritten; "
            "give a new file, or add --resume to go on with its game"
        )


def _resume(args: argparse.Namespace, records: Path) -> Session:
    try:
        return Session.resume(Path(args.record)) if args.record else Session.resume_last(records)
    except RecordError as e:
        raise UsageError(f"--resume: {e}") from None


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    """Play against the computer: the terminal app on a terminal, else line-based."""
    if args.delay < 0:
        raise UsageError(f"--delay must be 0 or more seconds, got {args.delay}")
    records = games_dir()
    use_tui = not args.plain and on_terminal(out) and textual_available()
    chosen = any(v is not None for v in (args.rules, args.players, args.level, args.bots, args.seed))
    if args.record and not args.resume:
        _refuse_existing(args.record)
    session: Session | None
    if args.resume:
        session = _resume(args, records)
    elif use_tui and not chosen:
        session = None  # the start screen asks
    else:
        session = _new_session(args, records)
    if use_tui:
        from ..tui import run_game

        try:
            first = Path(args.record) if args.record and session is None else None
            code: int = run_game(session, records=records, delay=args.delay, name=args.name, record=first)
        finally:
            if session is not None:
                session.close()
        return code
    assert session is not None
    try:
        since = None
        if args.resume:
            out.write(
                f"Resuming {session.path}: round {session.game.round_no}, totals {session.game.totals}\n"
            )
            since = session.table.round_start()  # this round's moves so far, not the whole game
        return PlainGame(session.table, session.seat, out, sys.stdin, since=since).run()
    finally:
        session.close()


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the web server (needs the web extra)."""
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0..65535, got {args.port}")
    if args.bot_delay < 0:
        raise UsageError(f"--bot-delay must be 0 or more seconds, got {args.bot_delay}")
    if args.round_pause is not None and args.round_pause < 0:
        raise UsageError(f"--round-pause must be 0 or more seconds, got {args.round_pause}")
    try:
        from ..web import default_db_url, serve
    except ImportError as e:
        raise UsageError(f"the web server needs its extra: pip install 'yaniv[web]' ({e})") from None
    db = args.db or default_db_url()
    if "://" not in db:  # a plain file name
        db = f"sqlite+aiosqlite:///{Path(db).resolve()}"
    out.write(f"Yaniv on http://{args.host}:{args.port}/ (tables in {db})\n")
    out.flush()
    serve(
        args.host,
        args.port,
        db,
        bot_delay=args.bot_delay,
        round_pause=args.round_pause,
        log_level=args.log_level,
    )
    return 0
