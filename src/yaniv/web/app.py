"""The FastAPI application: REST for making and joining tables, a websocket per seat.

Routes (the OpenAPI schema is at ``/openapi.json``, the docs at ``/docs``):

=========================  ==============================================================
``GET /``, ``GET /t/{id}``  the browser app (``static/index.html``; ``/t/{id}`` is an invite link)
``GET /api/presets``       the rule presets with their knobs and plain-words description
``POST /api/tables``       make a table; the host's seat and token come back
``GET /api/tables/{id}``   a table's public info (seats, rules, status)
``POST /api/tables/{id}/join``  sit down at a table in its lobby; a seat and token come back
``WS /ws/{id}``            play or watch (docs/protocol.md)
=========================  ==============================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from ..bots import LEVELS
from ..errors import RulesError
from ..rules import PRESETS
from .hub import Hub
from .protocol import ProtocolError, error, parse_message
from .room import Room
from .seats import DEFAULT_LEVEL, TableSettings
from .store import Store

__all__ = ["MAX_QUEUE", "Client", "create_app", "default_db_url"]

log = logging.getLogger("yaniv.web")
STATIC = Path(__file__).parent / "static"
MAX_QUEUE = 2000
"""Messages waiting for one slow connection before the server drops it (it can reconnect)."""


def default_db_url(environ: dict[str, str] | None = None) -> str:
    """The SQLite file in the user's data dir: ``$XDG_DATA_HOME/yaniv/yaniv.db`` (``~/.local/share``)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return f"sqlite+aiosqlite:///{root / 'yaniv' / 'yaniv.db'}"


class CreateTable(BaseModel):
    """A new table: the rule set, seats, computer players, and the host's name."""

    name: str = Field(description="the host's name (1-24 characters)", examples=["Ann"])
    rules: str | dict[str, Any] = Field(
        default="standard",
        description="a preset, a game string or a rules object (docs/formats.md §2)",
        examples=["standard", "finnish(score_limit=100)"],
    )
    overrides: dict[str, Any] | None = Field(default=None, description="knob: value changes to the rules")
    players: int = Field(default=3, description="seats at the table, 2-8 within the rules' limits")
    computers: int = Field(default=0, description="how many seats computer players take (the last ones)")
    level: str = Field(default=DEFAULT_LEVEL, description=f"computer players' level: {', '.join(LEVELS)}")


class JoinTable(BaseModel):
    """A person sitting down."""

    name: str = Field(description="the player's name (1-24 characters)", examples=["Ben"])


class SeatTicket(BaseModel):
    """A seat and its secret token (keep it: it lets you back in)."""

    table: str
    seat: int
    token: str
    invite: str = Field(description="the path of the invite link to share")


class Client:
    """One websocket connection, with a send queue drained by its own task.

    A slow client never holds up a table: past :data:`MAX_QUEUE` waiting messages it is
    dropped (and may reconnect).
    """

    def __init__(self, websocket: WebSocket) -> None:
        """Wrap an accepted websocket."""
        self.ws = websocket
        self.seat: int | None = None
        self.joined = False
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message; a client that stops reading is dropped (it may reconnect)."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message if isinstance(message, str) else json.dumps(message))

    async def _write(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    with contextlib.suppress(Exception):
                        await self.ws.close(code=1008, reason="too slow")
                    return
                await self.ws.send_text(text)
        except Exception:
            self.closed = True

    async def close(self) -> None:
        """Stop writing: the connection has gone."""
        self.closed = True
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.writer


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.8,
    round_pause: float | None = 30.0,
    unload_after: float | None = 600.0,
) -> FastAPI:
    """The web app on the database at *db_url* (default: :func:`default_db_url`).

    *bot_delay*: seconds a computer player waits before acting (0 in tests);
    *round_pause*: seconds after a round's end before the next deal even if not everyone
    present has pressed "next round" (``None``: wait for everyone); *unload_after*:
    seconds after its last websocket closes that a table leaves memory (it stays stored).
    """
    url = db_url or default_db_url()
    if url.startswith("sqlite+aiosqlite:///") and ":memory:" not in url:
        Path(url.removeprefix("sqlite+aiosqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    store = Store(url)
    hub = Hub(store, bot_delay=bot_delay, round_pause=round_pause, unload_after=unload_after)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await store.open()
        hub.start()
        try:
            yield
        finally:
            await hub.close()
            await store.close()

    app = FastAPI(
        title="Yaniv",
        summary="Play Yaniv in the browser, with friends and against the computer",
        version="1",
        lifespan=lifespan,
    )
    app.state.hub = hub

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/t/{table_id}", include_in_schema=False)
    async def invite(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/presets", summary="The rule presets")
    async def presets() -> list[dict[str, Any]]:
        """Each preset's name, knobs, seat limits and description in plain words."""
        return [
            {
                "name": name,
                "knobs": rules.to_dict(),
                "min_players": rules.min_players,
                "max_players": rules.max_players,
                "description": rules.describe(),
            }
            for name, rules in PRESETS.items()
        ]

    @app.post("/api/tables", summary="Make a table", status_code=201)
    async def create_table(body: CreateTable) -> SeatTicket:
        """Make a table with the host on seat 0; computer players take the last seats."""
        try:
            settings = TableSettings.make(
                body.rules, body.overrides, body.players, body.computers, body.level
            )
            table, seat, token = await hub.create(settings, body.name)
        except (RulesError, ValueError) as e:
            raise HTTPException(422, str(e)) from None
        return SeatTicket(table=table.id, seat=seat, token=token, invite=f"/t/{table.id}")

    @app.get("/api/tables/{table_id}", summary="A table's public info")
    async def get_table(table_id: str) -> dict[str, Any]:
        """Seats, rules, status (no cards, no tokens)."""
        table = await hub.get(table_id)
        if table is None:
            raise HTTPException(404, f"there is no table {table_id[:40]!r}")
        return table.info()

    @app.post("/api/tables/{table_id}/join", summary="Sit down at a table")
    async def join_table(table_id: str, body: JoinTable) -> SeatTicket:
        """Take the first empty seat of a table that has not started."""
        try:
            table, seat, token = await hub.join(table_id, body.name)
        except LookupError as e:
            raise HTTPException(404, str(e)) from None
        except ValueError as e:
            raise HTTPException(409, str(e)) from None
        return SeatTicket(table=table.id, seat=seat, token=token, invite=f"/t/{table.id}")

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        try:
            table = await hub.get(table_id)
        except Exception:
            log.exception("loading table %s", table_id[:40])
            table = None
        if table is None:
            await websocket.send_text(
                json.dumps(error("unknown_table", f"there is no table {table_id[:40]!r}"))
            )
            await websocket.close(code=4404)
            return
        client = Client(websocket)
        table.sockets += 1  # no await since hub.get: the table cannot be unloaded in between
        try:
            await serve_client(table, client)
        finally:
            table.sockets -= 1
            table.idle_since = time.monotonic()
            table.detach(client)
            await client.close()

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


async def serve_client(table: Room, client: Client) -> None:
    """Read a client's messages until it goes; every bad one gets an error, nothing more."""
    ws = client.ws
    while True:
        try:
            frame = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        try:
            msg = parse_message(frame.get("text"))
            await table.handle(client, msg)
        except ProtocolError as e:
            client.send(error(e.code, e.message, e.msg_id))
        except Exception:
            log.exception("table %s: a message failed", table.id)
            client.send(error("server_error", "the server could not handle that message; nothing changed"))
