"""The FastAPI application: REST for making, finding and joining tables, a websocket per seat.

Routes (the OpenAPI schema is at ``/openapi.json``, the docs at ``/docs``):

=============================  ==============================================================
``GET /``, ``GET /t/{id}``     the browser app (``static/index.html``; ``/t/{id}`` is an invite link)
``GET /lobby``                 the browser app's list of open public tables
``GET /api/presets``           the rule presets with their knobs and plain-words description
``GET /api/lobby``             the public tables waiting for players
``POST /api/tables``           make a table; the host's seat and token come back
``POST /api/quick``            quick match: a seat at an open public table with these rules (or a new one)
``GET /api/tables/{id}``       a table's public info (seats, rules, status)
``POST /api/tables/{id}/join``  sit down at a table in its lobby; a seat and token come back
``GET /api/tables/{id}/record``  a finished game's record (JSON Lines, for ``yaniv replay``/``check``)
``GET /api/tables/{id}/history``  a finished game step by step (the page's replay)
``GET /t/{id}/history``          the browser app's replay of a finished game
``WS /ws/{id}``                play or watch (docs/protocol.md)
``GET /healthz``               liveness: the process answers (200)
``GET /readyz``                readiness: the database answers and the server is not shutting down (else 503)
``GET /metrics``               Prometheus metrics (:mod:`yaniv.web.ops`)
=============================  ==============================================================

Every response carries the page's Content-Security-Policy; request bodies over the
limit get 413 unread (:mod:`yaniv.web.guard`); websockets from another site's page
are refused (the ``Origin`` check); each client address has a bounded number of
websockets and of new tables (:class:`~yaniv.web.config.WebConfig`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..bots import LEVELS
from ..errors import RulesError
from ..rules import PRESETS
from .client import Client
from .cluster import CallError, Cluster, ClusterDown
from .config import WebConfig
from .guard import BodyLimit, SecurityHeaders
from .hub import Elsewhere, Hub
from .ops import Health, MeteredStore, Metrics
from .protocol import ProtocolError, error, parse_message
from .remote import Route
from .room import Room
from .seats import DEFAULT_LEVEL, TableSettings
from .store import async_url, file_url
from .text import check_strings, clean_name

__all__ = ["Client", "create_app", "default_db_url", "origin_allowed"]

log = logging.getLogger("yaniv.web")
STATIC = Path(__file__).parent / "static"


def default_db_url(environ: dict[str, str] | None = None) -> str:
    """The SQLite file in the user's data dir: ``$XDG_DATA_HOME/yaniv/yaniv.db`` (``~/.local/share``)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return f"sqlite+aiosqlite:///{root / 'yaniv' / 'yaniv.db'}"


def _db_url(url: str) -> str:
    """*url* for the async store: a file name becomes a SQLite URL, plain URLs get their async driver."""
    url = async_url(file_url(url))
    if url.startswith("sqlite+aiosqlite:///") and ":memory:" not in url:
        Path(url.removeprefix("sqlite+aiosqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    return url


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a websocket opened by a page of *origin* may talk to the server at *host*.

    No ``Origin`` (a program, not a browser) is allowed; a browser's must name the served
    host itself or one of *allowed* (``*``: any).

    >>> origin_allowed("http://example.org:8000", "example.org:8000", ())
    True
    >>> origin_allowed("https://evil.example", "example.org:8000", ())
    False
    """
    if origin is None or "*" in allowed:
        return True
    netloc = urlsplit(origin).netloc.lower()
    return bool(netloc) and (netloc == (host or "").lower() or netloc in {a.lower() for a in allowed})


class _Checked(BaseModel):
    """A request body whose every string is well-formed Unicode of bounded length, and no unknown field.

    Every field takes only its own JSON kind: ``"players": true`` or ``"players": "2"`` is a
    422 naming the field, never read as 1 or 2 (a whole number for a count, ``true``/``false``
    for a flag; a number of seconds may be written ``30`` or ``30.5``).
    """

    # a misspelt field is an error, never silently ignored; strict: no coercion between kinds
    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _well_formed(cls, data: Any) -> Any:
        check_strings(data, "the request", limit=2000)
        return data


class CreateTable(_Checked):
    """A new table: the rule set, seats, computer players, the clock, and the host's name."""

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
    turn_seconds: float | None = Field(
        default=None,
        description="seconds per decision before a stand-in bot plays it; 0: no clock "
        "(default: 45 on a public table, none on a private one)",
    )
    stand_in: str | None = Field(default=None, description="the stand-in bot's level (default: level)")
    public: bool = Field(default=False, description="list the table in the lobby while it waits for players")


class QuickMatch(_Checked):
    """A seat at any open public table with these rules (and seat count), or a new public table."""

    name: str = Field(description="the player's name (1-24 characters)", examples=["Ben"])
    rules: str | dict[str, Any] = Field(default="standard", description="a preset, a game string or rules")
    overrides: dict[str, Any] | None = Field(default=None, description="knob: value changes to the rules")
    players: int = Field(default=4, description="seats at the table")
    level: str = Field(default=DEFAULT_LEVEL, description="computer level if the table is new")
    turn_seconds: float | None = Field(default=None, description="the clock if the table is new")


class JoinTable(_Checked):
    """A person sitting down."""

    name: str = Field(description="the player's name (1-24 characters)", examples=["Ben"])


class SeatTicket(BaseModel):
    """A seat and its secret token (keep it: it lets you back in)."""

    table: str
    seat: int
    token: str
    invite: str = Field(description="the path of the invite link to share")
    resume: str = Field(
        description="your personal link back to this seat (from any device: keep it to yourself)"
    )
    created: bool | None = Field(default=None, description="quick match: whether the table is new")


def _ticket(table_id: str, seat: int, token: str, created: bool | None = None) -> SeatTicket:
    # the token rides in the fragment: browsers never send it to a server nor in a Referer
    return SeatTicket(
        table=table_id,
        seat=seat,
        token=token,
        invite=f"/t/{table_id}",
        resume=f"/t/{table_id}#seat={token}",
        created=created,
    )


class _AsciiJSON(JSONResponse):
    """JSON with every non-ASCII character escaped: a lone surrogate in an error cannot break it."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    """422 naming what is wrong, without echoing the input (which may be large, or not even Unicode)."""
    assert isinstance(exc, RequestValidationError)
    errors = [{k: v for k, v in e.items() if k in ("type", "loc", "msg")} for e in exc.errors()]
    return _AsciiJSON({"detail": jsonable_encoder(errors)}, status_code=422)


def _name(name: str) -> str:
    """*name* as :func:`~yaniv.web.text.clean_name` leaves it; HTTP 422 with its message if refused.

    Checked before anything is looked up or counted: a malformed name is the request's fault
    (422) on every call, and 409 is kept for a table that cannot seat a well-formed one (full,
    started, the name or a look-alike taken). The message stays a string the page translates.
    """
    try:
        return clean_name(name)
    except ValueError as e:
        raise HTTPException(422, str(e)) from None


def _address(scope_client: Any) -> str:
    return str(scope_client.host) if scope_client is not None else "?"


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.8,
    round_pause: float | None = 30.0,
    unload_after: float | None = 600.0,
    config: WebConfig | None = None,
    clock: Callable[[], float] = time.monotonic,
    redis_url: str | None = None,
) -> FastAPI:
    """The web app on the database at *db_url* (default: :func:`default_db_url`).

    *db_url* is a SQLAlchemy URL (``sqlite:///file.db``; plain URLs get their async
    driver) or a file name. *bot_delay*: seconds a computer player waits before acting
    (0 in tests); *round_pause*: seconds after a round's end before the next deal even
    if not everyone present has pressed "next round" (``None``: wait for everyone);
    *unload_after*: seconds after its last websocket closes that a table leaves memory
    (it stays stored). *config*: the limits and timers (default :class:`WebConfig`);
    *clock*: the time of the tables' timers and turn clocks (a fake one in tests).
    *redis_url*: run as one of several processes on the same database, linked through
    the Redis server there (:mod:`yaniv.web.processes`; the database must be one that
    several processes share, PostgreSQL).
    """
    config = (config or WebConfig()).checked()
    metrics = Metrics()
    store = MeteredStore(_db_url(db_url or default_db_url()), metrics, durable=config.durable)
    hub = Hub(
        store,
        bot_delay=bot_delay,
        round_pause=round_pause,
        unload_after=unload_after,
        config=config,
        clock=clock,
        metrics=metrics,
    )
    sockets: dict[str, int] = {}
    health = Health(store, config.ready_timeout)
    metrics.watch(lambda: [room.status for room in hub.tables.values()], lambda: sum(sockets.values()))

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await store.open()
        if redis_url is not None:
            try:
                await hub.join_cluster(Cluster(redis_url))
            except BaseException:
                await store.close()
                raise
        hub.start()
        try:
            yield
        finally:
            health.draining = True
            await hub.close()
            await store.close()

    app = FastAPI(
        title="Yaniv",
        summary="Play Yaniv in the browser, with friends and against the computer",
        version="1",
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.config = config
    app.state.health = health
    app.state.metrics = metrics
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_middleware(BodyLimit, limit=config.body_limit)
    app.add_middleware(SecurityHeaders)

    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return page()

    @app.get("/lobby", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page()

    @app.get("/t/{table_id}", include_in_schema=False)
    async def invite(table_id: str) -> FileResponse:
        return page()

    @app.get("/t/{table_id}/history", include_in_schema=False)
    async def history_page(table_id: str) -> FileResponse:
        return page()

    # ---- operations: neither probe is rate-limited, neither says anything about the database but
    # whether it answers (no URL, no driver message)

    @app.get("/healthz", summary="Liveness", tags=["operations"])
    async def healthz() -> JSONResponse:
        """200 while the process answers at all (its event loop runs); nothing is checked."""
        return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})

    @app.get(
        "/readyz",
        summary="Readiness",
        tags=["operations"],
        responses={503: {"description": 'not ready: `{"status": "unavailable", "reason": …}`'}},
    )
    async def readyz() -> JSONResponse:
        """200 when the store is open and the database answers a trivial query in time; else 503.

        503 too from the moment the server begins to shut down.
        """
        problem = await health.problem()
        headers = {"Cache-Control": "no-store"}
        if problem is not None:
            return JSONResponse({"status": "unavailable", "reason": problem}, 503, headers=headers)
        return JSONResponse({"status": "ready"}, headers=headers)

    @app.get(
        "/metrics",
        summary="Prometheus metrics",
        tags=["operations"],
        response_class=Response,
        responses={200: {"content": {"text/plain": {}}}},
    )
    async def prometheus() -> Response:
        """Tables, websockets, actions, latency and store commits in Prometheus' text format."""
        return Response(
            metrics.render(), media_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"}
        )

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

    @app.get("/api/lobby", summary="Public tables waiting for players")
    async def lobby() -> list[dict[str, Any]]:
        """The public tables in their lobby with a free seat: id, rules in words, seats free, clock."""
        return await hub.lobby_all()

    def settings_of(body: CreateTable | QuickMatch, computers: int, public: bool) -> TableSettings:
        turn = body.turn_seconds
        if turn is None:
            turn = config.turn_seconds_public if public else config.turn_seconds_private
        return TableSettings.make(
            body.rules,
            body.overrides,
            body.players,
            computers,
            body.level,
            turn_seconds=turn,
            stand_in=getattr(body, "stand_in", None),
            public=public,
            max_turn_seconds=config.max_turn_seconds,
        )

    @app.post("/api/tables", summary="Make a table", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> SeatTicket:
        """Make a table with the host on seat 0; computer players take the last seats."""
        name = _name(body.name)  # before the table is counted against this address
        try:
            settings = settings_of(body, body.computers, body.public)
            hub.allow_table(_address(request.client))
            table, seat, token = await hub.create(settings, name)
        except PermissionError as e:
            raise HTTPException(429, str(e)) from None
        except (RulesError, ValueError) as e:
            raise HTTPException(422, str(e)) from None
        return _ticket(table.id, seat, token)

    @app.post("/api/quick", summary="Quick match")
    async def quick(body: QuickMatch, request: Request) -> SeatTicket:
        """A seat at an open public table with these rules and seats; a new public table if none."""
        name = _name(body.name)  # before every open table is tried with it
        try:
            settings = settings_of(body, 0, True)
            table_id, seat, token, created = await hub.quick(settings, name, _address(request.client))
        except PermissionError as e:
            raise HTTPException(429, str(e)) from None
        except (RulesError, ValueError) as e:
            raise HTTPException(422, str(e)) from None
        except ClusterDown as e:
            raise HTTPException(503, str(e)) from None
        return _ticket(table_id, seat, token, created)

    @app.get("/api/tables/{table_id}", summary="A table's public info")
    async def get_table(table_id: str) -> dict[str, Any]:
        """Seats, rules, status (no cards, no tokens)."""
        try:
            table = await hub.get(table_id)
            if table is None:
                raise HTTPException(404, f"there is no table {table_id[:40]!r}")
            return table.info()
        except Elsewhere as e:  # another process plays it: its info from there
            assert hub.processes is not None
            try:
                return await hub.processes.info(table_id, e.owner)
            except CallError as err:
                raise HTTPException(404 if err.kind == "lookup" else 503, err.message) from None
            except ClusterDown as err:
                raise HTTPException(503, str(err)) from None

    async def finished(table_id: str) -> Room:
        try:
            table = await hub.get(table_id)
        except Elsewhere:  # played by another process: read the record from the database
            table = await hub.copy_of(table_id)
        if table is None:
            raise HTTPException(404, f"there is no table {table_id[:40]!r}")
        game = table.game
        if table.status != "over" or game is None or not game.over:
            # the record's header holds the seed, which fixes every deal still to come
            raise HTTPException(409, "the record and the history are there once the game is over")
        return table

    @app.get(
        "/api/tables/{table_id}/record",
        summary="A finished game's record (JSON Lines)",
        response_class=Response,
        responses={200: {"content": {"application/x-ndjson": {}}}},
    )
    async def record(table_id: str) -> Response:
        """The full record of a finished game, one JSON object a line (formats.md §6).

        What ``yaniv replay`` shows and ``yaniv check`` verifies. 409 while the game is on.
        """
        table = await finished(table_id)
        assert table.game is not None
        body = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in table.game.events)
        return Response(
            body,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="yaniv-{table.id}.jsonl"'},
        )

    @app.get("/api/tables/{table_id}/history", summary="A finished game, step by step")
    async def game_history(table_id: str) -> dict[str, Any]:
        """Every step of a finished game, every hand open: what the page's replay steps through.

        409 while the game is on.
        """
        table = await finished(table_id)
        return await asyncio.to_thread(table.history)

    @app.post("/api/tables/{table_id}/join", summary="Sit down at a table")
    async def join_table(table_id: str, body: JoinTable) -> SeatTicket:
        """Take the first empty seat of a table that has not started."""
        name = _name(body.name)  # 422: a ValueError of the hub below is the table's state (409)
        try:
            table, seat, token = await hub.join(table_id, name)
        except LookupError as e:
            raise HTTPException(404, str(e)) from None
        except ValueError as e:
            raise HTTPException(409, str(e)) from None
        except ClusterDown as e:
            raise HTTPException(503, str(e)) from None
        return _ticket(table, seat, token)

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        if not origin_allowed(
            websocket.headers.get("origin"), websocket.headers.get("host"), config.allowed_origins
        ):
            await websocket.close(code=4403, reason="a page of another site may not open this table")
            return
        address = _address(websocket.client)
        if config.sockets_per_client and sockets.get(address, 0) >= config.sockets_per_client:
            await websocket.close(code=4429, reason="too many connections from this address")
            return
        sockets[address] = sockets.get(address, 0) + 1
        try:
            await websocket.accept()
            await _play(websocket, table_id, address)
        finally:
            left = sockets[address] - 1
            if left:
                sockets[address] = left
            else:
                del sockets[address]

    async def _play(websocket: WebSocket, table_id: str, address: str) -> None:
        table: Room | Route | None
        try:
            table = await hub.get(table_id)
        except Elsewhere as e:  # another process plays it: relay this websocket there
            assert hub.processes is not None
            if not hub.processes.cluster.up:
                message = "the table's server cannot be reached now; try again in a few seconds"
                await websocket.send_text(json.dumps(error("unavailable", message)))
                await websocket.close(code=1013)
                return
            table = hub.processes.route(table_id, e.owner)
        except Exception:
            log.exception("loading table %s", table_id[:40], extra={"table": table_id[:40]})
            table = None
        if table is None:
            await websocket.send_text(
                json.dumps(error("unknown_table", f"there is no table {table_id[:40]!r}"))
            )
            await websocket.close(code=4404)
            return
        client = Client(websocket, config, address)
        table.sockets += 1  # no await since hub.get: the table cannot be unloaded in between
        if isinstance(table, Route):
            table.connect(client)
        timer = asyncio.get_running_loop().call_later(config.hello_timeout or 1e9, _no_hello, client)
        try:
            await serve_client(table, client)
        finally:
            if client.dropped:
                log.warning(
                    "table %s: dropped a connection from %s: %s",
                    table.id,
                    address,
                    client.dropped,
                    extra={"table": table.id},
                )
            timer.cancel()
            table.sockets -= 1
            table.idle_since = hub.now()
            table.detach(client)
            await client.close()

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _no_hello(client: Client) -> None:
    if not client.joined:
        client.end(1008, "no hello", error("no_hello", "say hello within a few seconds of connecting"))


async def serve_client(table: Room | Route, client: Client) -> None:
    """Read a client's messages until it goes; every bad one gets an error, too many a close."""
    config = client.config
    while not client.closed:
        try:
            frame = await client.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame is None or frame["type"] == "websocket.disconnect":
            return
        if not client.messages.take():
            _rate_limited(client, config)
            return
        try:
            msg = parse_message(frame.get("text"))
            if msg["type"] in ("hello", "sync") and not client.syncs.take():
                _rate_limited(client, config)
                return
            await table.handle(client, msg)
        except ProtocolError as e:
            client.send(error(e.code, e.message, e.msg_id))
        except Exception:
            log.exception("table %s: a message failed", table.id, extra={"table": table.id})
            client.send(error("server_error", "the server could not handle that message; nothing changed"))


def _rate_limited(client: Client, config: WebConfig) -> None:
    log.info("closing a connection from %s: too many messages", client.address)
    client.end(
        1008,
        "too many messages",
        error(
            "rate_limited",
            f"too many messages: at most {config.message_rate:g} a second ({config.sync_rate:g} for "
            "hello and sync); this connection closes now — reconnect and slow down",
        ),
    )
