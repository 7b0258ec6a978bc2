"""``yaniv play`` (the terminal app, or the plain game) and ``yaniv serve`` (the browser)."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import TextIO

from ..errors import RecordError, RulesError
from ..session import DEFAULT_LEVEL, Session, bot_spec, games_dir, new_record_path, unfinished_games
from ..urls import shown_url
from .common import (
    UsageError,
    bot_names,
    bot_options,
    cycled,
    distinct_files,
    on_terminal,
    player_count,
    rules_arg,
    server_db,
    textual_available,
)
from .matches import external_lines, external_report
from .plain import PlainGame

__all__ = ["cmd_play", "cmd_serve"]


_SET_UP = ("rules", "players", "level", "bots", "seed", "name")
"""The flags of ``yaniv play`` that set up a new game (``--resume`` refuses them)."""


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
    if args.name is not None and not (args.name.strip() and len(args.name) <= 40 and args.name.isprintable()):
        raise UsageError("--name: give a name of 1 to 40 printable characters")
    if args.resume:  # the record fixes the game: a set-up flag beside --resume would be ignored
        fixed = [f"--{k}" for k in _SET_UP if getattr(args, k) is not None]
        if fixed:
            raise UsageError(
                f"{fixed[0]}: not with --resume: the recorded game goes on as it was set up "
                f"(its rules, players, seed, names and opponents); leave out {', '.join(fixed)}"
            )
    distinct_files(("--record", args.record), ("--bot-stderr", args.bot_stderr))  # bots' lines in a record
    if args.resume and args.record is None and args.bot_stderr is not None:
        # --resume alone goes on with one of the games folder's unfinished records: none may
        # be the file the bots' stderr is appended to.
        games = (("--resume", path) for path in unfinished_games(games_dir()))
        distinct_files(("--bot-stderr", args.bot_stderr), *games)
    with bot_options(args):  # external opponents get --bot-time-limit and --bot-stderr
        return _play(args, out)


def _play(args: argparse.Namespace, out: TextIO) -> int:
    records = games_dir()
    use_tui = not args.plain and on_terminal(out) and textual_available()
    chosen = any(v is not None for v in (args.rules, args.players, args.level, args.bots, args.seed))
    if args.record and not args.resume:
        _refuse_existing(args.record)
    session: Session | None
    if args.resume:
        session = _resume(args, records)
        if session.notice:  # on stderr: the terminal app would paint over it on stdout
            sys.stderr.write(f"yaniv play: note: {session.notice}\n")
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
        code = PlainGame(session.table, session.seat, out, sys.stdin, since=since).run()
        for line in external_lines(external_report(session.bots)):  # what an external program got wrong
            out.write(line + "\n")
        return code
    finally:
        session.close()


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the web server (needs the web extra).

    The address and the database are checked first, so that a typing mistake is one line
    (exit 2) instead of a server that logs an error and stops: the database is brought to
    this server's schema as the server would (``yaniv db migrate``), so that one it cannot
    reach, or one made by a newer server (left unchanged), is refused here. The URL shown
    never holds its password.
    """
    try:
        from ..web import WebConfig, default_db_url, file_url, migrate_database, serve
    except ImportError as e:
        raise UsageError(f"the web server needs its extra: pip install 'yaniv[web]' ({e})") from None
    limits = _serve_limits(args)
    try:  # the YANIV_WEB_* variables, before anything is shown or made
        WebConfig.from_env().with_limits(limits)
    except ValueError as e:
        raise UsageError(str(e)) from None
    _check_address(args.host, args.port)
    # the default's folder made on the first start; a file name read as the yaniv db commands read it
    db = file_url(server_db(args.db, default_db_url))
    _check_db(db, given=args.db is not None)
    try:
        migrate_database(db)
    except ValueError as e:  # unreachable, or made by a newer server: the message hides the password
        raise UsageError(f"{'--db' if args.db is not None else 'the default database'}: {e}") from None
    redis_url = args.redis if args.redis is not None else os.environ.get("YANIV_REDIS_URL") or None
    if redis_url is not None:
        _check_redis(redis_url, "--redis" if args.redis is not None else "YANIV_REDIS_URL")
    # --port 0 lets the OS pick a free port, known only once a socket is bound: bind it here, so
    # that the banner shows the port a browser can open, and hand that very socket to the server
    listener = _bind(args.host, 0) if args.port == 0 else None
    try:
        port: int = listener.getsockname()[1] if listener is not None else args.port
        out.write(_banner(args, port, db, redis_url) + "\n")
        out.flush()
        return serve(
            args.host,
            args.port,
            db,
            bot_delay=args.bot_delay,
            round_pause=args.round_pause,
            log_level=args.log_level,
            limits=limits,
            redis_url=redis_url,
            sock=listener,
        )
    except ValueError as e:  # a bad YANIV_WEB_* variable
        raise UsageError(str(e)) from None
    finally:
        if listener is not None:  # the server closes it as it stops; this covers a start that failed
            listener.close()


def _banner(args: argparse.Namespace, port: int, db: str, redis_url: str | None) -> str:
    """The line ``yaniv serve`` prints first: the address a browser opens, the database (no password)."""
    host = f"[{args.host}]" if ":" in args.host else args.host  # an IPv6 address is bracketed in a URL
    address, shown = f"http://{host}:{port}/", shown_url(db)
    if (args.log_format or os.environ.get("YANIV_WEB_LOG_FORMAT", "")).strip().lower() == "json":
        # every line is then an object, the first one too (a log collector reads stdout as well)
        banner = {
            "time": dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"),
            "level": "info",
            "logger": "yaniv.cli",
            "event": f"Yaniv on {address}",
            "database": shown,
        }
        return json.dumps(banner, ensure_ascii=True)
    linked = f", linked through {shown_url(redis_url)}" if redis_url else ""
    return f"Yaniv on {address} (tables in {shown}{linked})"


def _check_redis(url: str, flag: str) -> None:
    """A Redis URL that answers a PING within two seconds, or one line naming what is wrong."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise UsageError(f"{flag}: {url[:80]!r} is not a Redis URL (redis://host:6379/0)")
    try:
        import redis
    except ImportError as e:
        need = "several processes need the scale extra: pip install 'yaniv[scale]'"
        raise UsageError(f"{flag}: {need} ({e})") from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2.0, socket_timeout=2.0)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, ValueError, OSError) as e:
        raise UsageError(f"{flag}: Redis at {shown_url(url)} does not answer: {str(e)[:200]}") from None


_SERVE_LIMITS: dict[str, tuple[str, float]] = {
    # option (argparse dest) -> (the server's setting, its unit in seconds or 1)
    "turn_seconds": ("turn_seconds_public", 1),
    "private_turn_seconds": ("turn_seconds_private", 1),
    "host_grace": ("host_grace", 1),
    "full_start": ("full_start", 1),
    "message_rate": ("message_rate", 1),
    "tables_per_client": ("tables_per_client", 1),
    "sockets_per_client": ("sockets_per_client", 1),
    "spectators_per_table": ("spectators_per_table", 1),
    "body_limit": ("body_limit", 1),
    "request_timeout": ("request_timeout", 1),
    "retention_days": ("finished_retention", 86_400),
    "abandoned_days": ("abandoned_retention", 86_400),
    "lobby_hours": ("lobby_retention", 3_600),
}


def _serve_limits(args: argparse.Namespace) -> dict[str, object]:
    """The server settings given as options (``yaniv serve --turn-seconds 30``), by name.

    The names are those of ``yaniv.web.WebConfig``; the settings no option names stay as the
    environment (``YANIV_WEB_*``) or the defaults say.
    """
    limits: dict[str, object] = {}
    for option, (name, unit) in _SERVE_LIMITS.items():
        value = getattr(args, option, None)
        if value is not None:
            limits[name] = type(value)(value * unit)
    for option in ("turn_seconds", "private_turn_seconds"):
        value = getattr(args, option, None)
        if value is not None and 0 < value < 5:
            flag = "--" + option.replace("_", "-")
            raise UsageError(f"{flag}: a turn clock is 0 (none) or 5 to 3600 seconds, got {value:g}")
    if getattr(args, "allowed_origin", None):
        limits["allowed_origins"] = tuple(args.allowed_origin)
    if getattr(args, "durable", None):
        limits["durable"] = True
    if getattr(args, "log_format", None):
        limits["log_format"] = args.log_format
    return limits


def _check_address(host: str, port: int) -> None:
    """*host* resolves and *port* is free on it (bound and let go at once)."""
    _bind(host, port).close()


def _bind(host: str, port: int) -> socket.socket:
    """A socket bound to *host*:*port* as the server binds one (port 0: a free port the OS picks).

    ``UsageError`` naming ``--host`` for a host that does not resolve, ``--port`` for an
    address that cannot be bound (in use, not this machine's, a port below 1024).
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        why = getattr(e, "strerror", None) or e
        raise UsageError(f"--host: cannot listen on {host[:80]!r}: {why}") from None
    family, kind, proto, _name, address = infos[0]
    try:
        sock = socket.socket(family, kind, proto)
    except OSError as e:  # an address family this machine does not have (IPv6 turned off)
        raise UsageError(f"--host: cannot listen on {host[:80]!r}: {e.strerror or e}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
        if family == socket.AF_INET6:  # as asyncio's server does: "::" is IPv6 only, not both
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
    except OSError as e:
        sock.close()
        raise UsageError(f"--port: cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock


def _check_db(url: str, *, given: bool) -> None:
    """The database URL names a driver that is installed, and a SQLite file's directory exists."""
    flag = "--db" if given else "the default database"
    try:
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError, NoSuchModuleError

        parsed = make_url(url)
        parsed.get_dialect()
    except (ArgumentError, NoSuchModuleError, ValueError) as e:
        shown = shown_url(url)
        raise UsageError(f"{flag}: {shown!r} is not a database URL this server can use ({e})") from None
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(parsed.database).parent
        if given and not folder.is_dir():
            raise UsageError(f"{flag}: the directory {folder} does not exist")
