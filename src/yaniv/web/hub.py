"""The hub: the rooms of one server process, made new or loaded from the store on first use.

A stored table comes back with its game rebuilt from its record lines
(:func:`yaniv.record.replay`) and resumed, its seats and tokens from its meta, and the
action ids already taken, so a restart loses nothing and a resent action still counts
once. Rooms nobody has had open for a while leave memory (they stay stored).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from typing import Any

from ..errors import RecordError, YanivError
from ..record import read_record, replay
from .room import Room
from .seats import Seat, TableSettings, clean_name, hash_token
from .store import Store

__all__ = ["TABLE_ID", "Hub"]

log = logging.getLogger("yaniv.web")

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{4,32}$")
"""What a table id looks like (anything else is unknown without asking the store)."""


class Hub:
    """The rooms of one server process, made new or loaded from the store on first use."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.8,
        round_pause: float | None = None,
        unload_after: float | None = 600.0,
    ) -> None:
        """Rooms persisted in *store*.

        Bots wait *bot_delay* seconds before acting; the next round is dealt when everyone
        present is ready, or *round_pause* seconds after a round ends (``None``: no limit).
        A room nobody has had open for *unload_after* seconds leaves memory (it stays
        stored and comes back on its next use); ``None`` keeps every room loaded.
        """
        self.store = store
        self.bot_delay = bot_delay
        self.round_pause = round_pause
        self.unload_after = unload_after
        self.tables: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start unloading idle rooms (call from the running event loop)."""
        if self.unload_after is not None and self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop(self.unload_after))

    async def _sweep_loop(self, idle: float) -> None:
        while True:
            await asyncio.sleep(max(0.05, min(60.0, idle / 2)))
            try:
                await self.sweep(idle)
            except Exception:
                log.exception("unloading idle tables failed")

    async def sweep(self, idle: float) -> list[str]:
        """Unload the rooms nobody has had open for *idle* seconds; returns their ids."""
        now = time.monotonic()
        gone = []
        for table_id, room in list(self.tables.items()):
            if room.sockets == 0 and now - room.idle_since >= idle and not room.lock.locked():
                del self.tables[table_id]
                await room.close()
                gone.append(table_id)
        return gone

    async def create(self, settings: TableSettings, host_name: str) -> tuple[Room, int, str]:
        """A new room with its host on seat 0: returns the room, the seat and the host's token."""
        token = secrets.token_urlsafe(24)
        seats = [Seat() for _ in range(settings.players)]
        seats[0] = Seat(name=clean_name(host_name), token_hash=hash_token(token), host=True)
        for i in range(settings.players - settings.computers, settings.players):
            seats[i].bot = settings.level
        room = Room(self, self._new_id(), settings, seats)
        await self.store.create_table(room.id, room.status, room.meta())
        self.tables[room.id] = room
        return room, 0, token

    async def create_rematch(self, old: Room) -> Room:
        """A room for a rematch of *old*: same rules and seats, same tokens, dealt at once."""
        room = Room(self, self._new_id(), old.settings, [s.copy() for s in old.seats], previous=old.id)
        room.begin()
        await self.store.create_table(room.id, room.status, room.meta())
        await room.commit(None, None)
        self.tables[room.id] = room
        return room

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables:
                return table_id

    async def join(self, table_id: str, name: str) -> tuple[Room, int, str]:
        """Sit a person on the first empty seat of a room in its lobby."""
        room = await self.get(table_id)
        if room is None:
            raise LookupError(f"there is no table {table_id!r}")
        clean = clean_name(name)
        async with room.lock:
            if room.status != "lobby":
                raise ValueError("the game has started: you can watch it")
            free = [i for i, s in enumerate(room.seats) if s.kind == "empty"]
            if not free:
                raise ValueError("every seat is taken: you can watch the game")
            if any(s.name and s.name.casefold() == clean.casefold() for s in room.seats):
                raise ValueError(f"someone at this table is already called {clean}")
            token = secrets.token_urlsafe(24)
            seat = free[0]
            room.seats[seat] = Seat(name=clean, token_hash=hash_token(token))
            await self.store.save_meta(room.id, room.status, room.meta())
            room.broadcast_table()
        return room, seat, token

    async def get(self, table_id: str) -> Room | None:
        """The room by id, loaded from the store if it is not in memory; ``None`` if unknown."""
        if not TABLE_ID.match(table_id):
            return None
        room = self.tables.get(table_id)
        if room is not None:
            return room
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            stored = await self.store.load(table_id)
            room = None
            if stored is not None:
                try:
                    room = self.rebuild(stored)
                except (RecordError, YanivError, KeyError, ValueError, TypeError):
                    log.exception("table %s cannot be rebuilt from the store", table_id)
                    room = None
            if room is not None:
                self.tables[table_id] = room
                room.kick()
            future.set_result(room)
            return room
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._loading[table_id]

    def rebuild(self, stored: Any) -> Room:
        """A room from its stored meta and record lines (the game by record replay, resumed)."""
        meta = stored.meta
        settings = TableSettings.from_meta(meta["settings"])
        seats = [Seat.from_meta(s) for s in meta["seats"]]
        game = None
        lines = stored.lines
        if lines:
            game = replay(read_record([row.line for row in lines]))
            game.events[0] = json.loads(lines[0].line)  # the stored header (replay stamps a new start time)
            if not game.over:
                game.resume()  # new deals and reshuffles from a fresh, seeded generator
        room = Room(
            self,
            stored.id,
            settings,
            seats,
            meta.get("status", "lobby"),
            game,
            rematch=meta.get("rematch"),
            previous=meta.get("previous"),
        )
        # idempotency survives a restart: each stored action id with the version it made
        types = [json.loads(row.line).get("type") for row in lines]
        marks = [  # where each change of the game starts: an action (a seat's) or a deal
            i for i, row in enumerate(lines) if row.seat is not None or types[i] in ("header", "deal")
        ]
        for k, i in enumerate(marks):
            row = lines[i]
            if row.action_id is not None and row.seat is not None:
                end = marks[k + 1] if k + 1 < len(marks) else len(lines)
                room.action_ids[(row.seat, row.action_id)] = end
        return room

    async def close(self) -> None:
        """Stop unloading and every room's bots."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        for room in list(self.tables.values()):
            await room.close()
