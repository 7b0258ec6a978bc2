"""Play Yaniv in the browser: a FastAPI server with websockets, a SQL store and an ES-module UI.

``yaniv serve`` runs it (:func:`serve`); :func:`~yaniv.web.app.create_app` builds the
ASGI app for tests or another server. The protocol is in docs/protocol.md. Needs the
``web`` extra (``pip install 'yaniv[web]'``); the core never imports this package.
"""

from __future__ import annotations

from .app import create_app, default_db_url

__all__ = ["WS_MAX_SIZE", "create_app", "default_db_url", "serve"]

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
) -> None:
    """Run the server until interrupted (uvicorn, one process)."""
    import sys

    import uvicorn

    # the database driver runs in its own thread: hand the interpreter lock over quickly
    sys.setswitchinterval(0.0005)
    app = create_app(db_url, bot_delay=bot_delay, round_pause=round_pause)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,  # the messages are small: compressing them costs more CPU than it saves
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
    )
