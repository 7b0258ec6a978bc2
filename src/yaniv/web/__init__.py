"""Play Yaniv in the browser: a FastAPI server with websockets, a SQL store and an ES-module UI.

``yaniv serve`` runs it (:func:`serve`); :func:`~yaniv.web.app.create_app` builds the
ASGI app for tests or another server. The protocol is in docs/protocol.md. Needs the
``web`` extra (``pip install 'yaniv[web]'``); the core never imports this package.

The limits and timers (:class:`~yaniv.web.config.WebConfig`) come from the environment
(``YANIV_WEB_*``) when :func:`serve` is not given a config. Health, readiness, metrics and
the JSON log lines are in :mod:`yaniv.web.ops` (docs/deploy.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from socket import socket
from types import FrameType

from .app import create_app, default_db_url
from .config import WebConfig
from .database import copy_database, migrate_database
from .store import file_url

__all__ = [
    "WS_MAX_SIZE",
    "WebConfig",
    "copy_database",
    "create_app",
    "default_db_url",
    "file_url",
    "migrate_database",
    "serve",
]

WS_MAX_SIZE = 1024 * 1024
"""Websocket frames above this many bytes are refused by uvicorn itself (close code 1009);
the app answers messages between 64 KiB and this with an error."""


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    *,
    bot_delay: float = 0.8,
    round_pause: float | None = 30.0,
    log_level: str = "info",
    config: WebConfig | None = None,
    limits: Mapping[str, object] | None = None,
    redis_url: str | None = None,
    sock: socket | None = None,
) -> int:
    """Run the server until interrupted (uvicorn, one process); the exit code (130 after Ctrl-C).

    *config* defaults to :meth:`WebConfig.from_env`; *limits* changes some of its fields
    (by name: ``{"turn_seconds_public": 30}``, what ``yaniv serve``'s options set), checked
    (``ValueError`` for an unknown name or a bad value). Requests have its
    ``request_timeout`` to arrive (slowloris: :func:`~yaniv.web.guard.guarded_h11`),
    idle keep-alive connections its ``keep_alive``, request heads its ``max_header_bytes``;
    the log lines are in its ``log_format``. From the first signal to stop (Ctrl-C,
    SIGTERM) ``/readyz`` answers 503, so that a load balancer stops sending new clients
    while the open connections finish. *redis_url*: one of several processes on the same
    (PostgreSQL) database, linked through that Redis (:mod:`yaniv.web.processes`). *sock*: a
    socket already bound, listened on instead of binding *host* and *port* (``yaniv serve
    --port 0`` binds one so as to print the port the OS chose before the server starts).
    """
    import contextlib
    import gc
    import signal
    import sys

    import uvicorn

    from .guard import guarded_h11
    from .ops import log_config

    config = (config or WebConfig.from_env()).with_limits(limits or {})
    # the database driver runs in its own thread: hand the interpreter lock over quickly
    sys.setswitchinterval(0.0005)
    app = create_app(db_url, bot_delay=bot_delay, round_pause=round_pause, config=config, redis_url=redis_url)
    # what is loaded now (the code, the rules, the bots' tables) lives as long as the process:
    # keep it out of the collector's full passes, which a crowd of new connections would
    # otherwise make stop every table for a few hundred milliseconds (bench/web_attack.py)
    gc.collect()
    gc.freeze()
    health = app.state.health

    class Server(uvicorn.Server):
        """uvicorn's server, saying "not ready" from the first signal to stop."""

        stopped_by: int | None = None

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            health.draining = True
            self.stopped_by = sig
            super().handle_exit(sig, frame)

    settings = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        log_config=log_config(config.log_format, log_level),
        http=guarded_h11(config.request_timeout),
        timeout_keep_alive=max(1, round(config.keep_alive)),
        h11_max_incomplete_event_size=config.max_header_bytes,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,  # the messages are small: compressing them costs more CPU than it saves
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
    )
    server = Server(settings)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=None if sock is None else [sock])
    if not server.started:  # as uvicorn.run: the port, the app's start-up failed
        sys.exit(3)
    # Ctrl-C is 130, as for every other command (uvicorn ends a SIGTERM as that signal, after
    # the same clean shutdown)
    return 130 if server.stopped_by == signal.SIGINT else 0
