"""The server's limits and timers in one value: what a client may cost, how long things wait.

Every bound the server keeps on the work one client can cause (docs/protocol.md §5) and
every timer of a table lives in :class:`WebConfig`. :func:`~yaniv.web.create_app` takes
one; ``yaniv serve`` reads it from the environment (:meth:`WebConfig.from_env`), one
variable per field, ``YANIV_WEB_`` and the field's name in capitals:

>>> WebConfig.from_env({"YANIV_WEB_TURN_SECONDS_PUBLIC": "30", "YANIV_WEB_ALLOWED_ORIGINS": "a.org b.org"})
... # doctest: +ELLIPSIS
WebConfig(turn_seconds_public=30.0, ..., allowed_origins=('a.org', 'b.org'), ...)
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

__all__ = ["ENV_PREFIX", "LOG_FORMATS", "LogFormat", "WebConfig"]

LogFormat = Literal["text", "json"]
"""How the server writes its log lines: uvicorn's plain text, or one JSON object a line."""

LOG_FORMATS: tuple[str, ...] = get_args(LogFormat)
"""The values of :data:`LogFormat`."""

_CHOICES: dict[str, tuple[str, ...]] = {"log_format": LOG_FORMATS}
"""The text fields and the values each may take."""

_HOST = re.compile(r"\*|(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
"""An allowed origin as :func:`yaniv.web.app.origin_allowed` compares it: ``*``, ``host`` or ``host:port``."""

ENV_PREFIX = "YANIV_WEB_"
"""The prefix of the environment variables :meth:`WebConfig.from_env` reads."""


@dataclass(frozen=True)
class WebConfig:
    """The limits and timers of one server (seconds, bytes, counts; 0 turns a limit off)."""

    # ---- tables
    turn_seconds_public: float = 45.0
    """The turn clock of a public table made without ``turn_seconds``."""
    turn_seconds_private: float = 0.0
    """The turn clock of a private table made without ``turn_seconds`` (0: no clock)."""
    max_turn_seconds: float = 3600.0
    """The longest turn clock a host may choose."""
    host_grace: float = 15.0
    """Seconds the host may be away (a reload, a tunnel) before the next person present is host."""
    full_start: float = 20.0
    """Seconds after a lobby's last seat is taken before the game starts itself (0: never)."""
    lobby_listed: float = 120.0
    """A public lobby nobody is connected to stays listed this long after it was made."""

    # ---- per connection
    hello_timeout: float = 15.0
    """Seconds a new websocket has to say hello before it is closed."""
    message_rate: float = 20.0
    """Messages per second a connection may send on average ..."""
    message_burst: float = 60.0
    """... and at once; beyond that an ``rate_limited`` error, then the connection closes."""
    sync_rate: float = 1.0
    """``hello`` and ``sync`` messages (each answered by a whole ``welcome``) per second ..."""
    sync_burst: float = 6.0
    """... and at once."""
    send_queue_bytes: int = 1024 * 1024
    """Bytes waiting for one connection before it is dropped as too slow a reader."""
    send_queue_messages: int = 2000
    """Messages waiting for one connection before it is dropped as too slow a reader."""

    # ---- per client address
    sockets_per_client: int = 100
    """Websockets open at once from one address (0: no limit)."""
    tables_per_client: int = 30
    """Tables one address may make per ``tables_window`` seconds (0: no limit)."""
    tables_window: float = 3600.0
    """The window of ``tables_per_client``."""
    spectators_per_table: int = 500
    """Spectators one table takes (0: no limit)."""

    # ---- HTTP
    body_limit: int = 64 * 1024
    """REST request bodies above this many bytes get 413 before they are read."""
    request_timeout: float = 15.0
    """Seconds a request may take to arrive, headers and body (slowloris), before 408 and a close."""
    keep_alive: float = 5.0
    """Seconds an idle keep-alive connection stays open (uvicorn's ``timeout_keep_alive``)."""
    max_header_bytes: int = 16 * 1024
    """The largest request head (uvicorn's ``h11_max_incomplete_event_size``)."""
    allowed_origins: tuple[str, ...] = ()
    """Hosts (``host`` or ``host:port``) whose pages may open websockets besides the served host
    itself; ``*`` allows any (behind a proxy that rewrites the Host header)."""

    # ---- the database
    durable: bool = False
    """SQLite ``synchronous=FULL``: a commit survives a power cut (the default NORMAL survives
    a crash of the server or a kill -9, not of the machine)."""
    lobby_retention: float = 86_400.0
    """A lobby untouched this long is deleted (0: kept for ever)."""
    abandoned_retention: float = 7 * 86_400.0
    """A game in play untouched this long is deleted (0: kept for ever)."""
    finished_retention: float = 30 * 86_400.0
    """A finished game is deleted this long after its last move (0: kept for ever)."""
    prune_every: float = 600.0
    """Seconds between two clean-ups of the database."""

    # ---- operations
    ready_timeout: float = 2.0
    """Seconds the database has to answer ``/readyz``'s trivial query before the server says not ready."""
    log_format: LogFormat = "text"
    """``text`` (uvicorn's lines) or ``json`` (one object a line: time, level, event, table)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> WebConfig:
        """The defaults with every ``YANIV_WEB_<FIELD>`` variable applied; ``ValueError`` if one is bad."""
        env = os.environ if environ is None else environ
        known = {ENV_PREFIX + f.name.upper() for f in fields(cls)}
        unknown = sorted(name for name in env if name.startswith(ENV_PREFIX) and name not in known)
        if unknown:  # a misspelt setting is an error, never silently ignored
            raise ValueError(
                f"{unknown[0][:80]} is not a server setting; they are: "
                + ", ".join(f.name.upper() for f in fields(cls))
                + f" (each after {ENV_PREFIX})"
            )
        changes: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is None:
                continue
            default = f.default
            try:
                if isinstance(default, bool):
                    if raw.lower() not in ("1", "0", "true", "false", "yes", "no"):
                        raise ValueError(raw)
                    changes[f.name] = raw.lower() in ("1", "true", "yes")
                elif isinstance(default, int):
                    changes[f.name] = int(raw)
                elif isinstance(default, float):
                    changes[f.name] = float(raw)
                elif isinstance(default, str):
                    changes[f.name] = raw.strip().lower()
                    if changes[f.name] not in _CHOICES.get(f.name, (changes[f.name],)):
                        raise ValueError(raw)
                else:
                    changes[f.name] = tuple(raw.replace(",", " ").split())
            except ValueError:
                raise ValueError(f"{ENV_PREFIX}{f.name.upper()}={raw!r} is not a valid value") from None
        return dataclasses.replace(cls(), **changes).checked()

    def with_limits(self, limits: Mapping[str, object]) -> WebConfig:
        """The config with the fields named in *limits* changed, and checked.

        ``ValueError`` for an unknown name, a value of the wrong kind or a negative number.
        """
        names = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for name, value in limits.items():
            f = names.get(name)
            if f is None:
                raise ValueError(f"unknown server setting {name!r}; settings are: {', '.join(names)}")
            default = f.default
            if isinstance(default, bool):
                ok = isinstance(value, bool)
            elif isinstance(default, int):
                ok = isinstance(value, int) and not isinstance(value, bool)
            elif isinstance(default, float):
                ok = isinstance(value, (int, float)) and not isinstance(value, bool)
                value = float(value) if ok else value  # type: ignore[arg-type]
            elif isinstance(default, str):
                ok = isinstance(value, str)
            else:
                ok = isinstance(value, tuple) and all(isinstance(v, str) for v in value)
            if not ok:
                raise ValueError(f"{name} must be like {default!r}, got {value!r}")
            changes[name] = value
        return dataclasses.replace(self, **changes).checked()

    def checked(self) -> WebConfig:
        """The config itself if every value is one it may take; else ``ValueError``.

        Every number is 0 or more, every choice known, every allowed origin a host (``*``,
        ``host`` or ``host:port``), and each default turn clock one a host could choose (0,
        or 5 to ``max_turn_seconds``).
        """
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise ValueError(f"{name} must be one of {', '.join(choices)}, got {str(value)[:40]!r}")
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and not value >= 0:
                raise ValueError(f"{f.name} must be 0 or more, got {value!r}")
        for origin in self.allowed_origins:  # a URL (https://a.org) never matched: it is refused
            if not _HOST.fullmatch(origin):
                raise ValueError(
                    f"allowed_origins: {origin[:80]!r} is not a host: give play.example.org or "
                    "play.example.org:8443 (no https://, no path), or * for any"
                )
        for name in ("turn_seconds_public", "turn_seconds_private"):  # as a host's choice is checked
            value = getattr(self, name)
            if not (value == 0 or 5 <= value <= self.max_turn_seconds):
                raise ValueError(
                    f"{name} must be 0 (no clock) or 5 to {self.max_turn_seconds:g} seconds, got {value:g}"
                )
        return self
