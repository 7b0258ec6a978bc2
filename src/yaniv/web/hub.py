"""The hub: the rooms of one server process, made new or loaded from the store on first use.

A stored table comes back with its game rebuilt from its record lines
(:func:`yaniv.record.replay`) and resumed, its seats and tokens from its meta, and the
action ids already taken, so a restart loses nothing and a resent action still counts
once. Rooms nobody has had open for a while leave memory (they stay stored); tables
untouched for their retention (:class:`~yaniv.web.config.WebConfig`) leave the store.

The hub also keeps what spans tables: the public lobby (:meth:`Hub.lobby`, quick match
:meth:`Hub.quick`) and how many tables each client address has made lately
(:meth:`Hub.allow_table`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from ..errors import RecordError, YanivError
from ..record import read_record, replay
from .config import WebConfig
from .ops import Metrics
from .processes import LEASE_SECONDS, Elsewhere, Processes
from .room import Room
from .seats import Seat, TableSettings, hash_token
from .store import Store, StoredTable
from .text import clean_name, name_clash

__all__ = ["TABLE_ID", "Elsewhere", "Hub"]

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
        config: WebConfig | None = None,
        clock: Callable[[], float] = time.monotonic,
        metrics: Metrics | None = None,
    ) -> None:
        """Rooms persisted in *store*.

        Bots wait *bot_delay* seconds before acting; the next round is dealt when everyone
        present is ready, or *round_pause* seconds after a round ends (``None``: no limit).
        A room nobody has had open for *unload_after* seconds leaves memory (it stays
        stored and comes back on its next use); ``None`` keeps every room loaded.
        *config*: the limits and timers; *clock*: the time of every room's timers and turn
        clocks (a fake one in tests: after moving it on, :meth:`tick`). *metrics*: where the
        rooms count their actions (default: a registry of the hub's own).
        """
        self.store = store
        self.bot_delay = bot_delay
        self.round_pause = round_pause
        self.unload_after = unload_after
        self.config = config or WebConfig()
        self.now = clock
        self.metrics = metrics or Metrics()
        self.tables: dict[str, Room] = {}
        self.loading: dict[str, asyncio.Future[Room | None]] = {}
        """The tables being loaded from the store now (by id)."""
        self.processes: Processes | None = None
        """With several server processes: this one among them (:meth:`join_cluster`)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._made: dict[str, deque[float]] = {}
        self._lobby: tuple[float, list[dict[str, Any]]] | None = None

    async def join_cluster(self, cluster: Any, ttl: float = LEASE_SECONDS) -> None:
        """Play beside other processes on the same database, linked by *cluster* (a Cluster).

        *ttl*: how long this process's table leases last without renewal.
        """
        self.processes = Processes(self, cluster, ttl=ttl)
        await self.processes.start()

    def start(self) -> None:
        """Start unloading idle rooms and pruning the store (call from the running event loop)."""
        if self._tasks:
            return
        loop = asyncio.get_running_loop()
        if self.unload_after is not None:
            self._tasks.append(loop.create_task(self._sweep_loop(self.unload_after)))
        if self.config.prune_every > 0:
            self._tasks.append(loop.create_task(self._prune_loop(self.config.prune_every)))

    def tick(self) -> None:
        """Wake every room's task to look at its timers again (the clock moved on)."""
        for room in list(self.tables.values()):
            room.kick()

    async def _sweep_loop(self, idle: float) -> None:
        while True:
            await asyncio.sleep(max(0.05, min(60.0, idle / 2)))
            try:
                await self.sweep(idle)
            except Exception:
                log.exception("unloading idle tables failed")

    async def _prune_loop(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.prune()
            except Exception:
                log.exception("pruning old tables failed")

    async def prune(self) -> list[str]:
        """Delete from the store the tables past their retention (never one open now); their ids."""
        config = self.config
        older = {
            status: age
            for status, age in (
                ("lobby", config.lobby_retention),
                ("playing", config.abandoned_retention),
                ("over", config.finished_retention),
            )
            if age > 0
        }
        if not older:
            return []
        keep = {table_id for table_id, room in self.tables.items() if room.sockets}
        gone = await self.store.prune(older, keep)
        for table_id in gone:
            room = self.tables.pop(table_id, None)
            if room is not None:
                await room.close()
        if gone:
            log.info("pruned %d old tables", len(gone))
        return gone

    async def sweep(self, idle: float) -> list[str]:
        """Unload the rooms nobody has had open for *idle* seconds; returns their ids."""
        now = self.now()
        gone = []
        for table_id, room in list(self.tables.items()):
            if room.sockets == 0 and now - room.idle_since >= idle and not room.lock.locked():
                del self.tables[table_id]
                await room.close()
                if self.processes is not None:
                    await self.processes.release(table_id)
                gone.append(table_id)
        return gone

    def allow_table(self, client: str) -> None:
        """Count a table made by the address *client*; ``PermissionError`` if it has made its share."""
        limit, window = self.config.tables_per_client, self.config.tables_window
        if not limit:
            return
        now = self.now()
        made = self._made.setdefault(client, deque())
        while made and made[0] <= now - window:
            made.popleft()
        if len(made) >= limit:
            wait = int(made[0] + window - now) + 1
            raise PermissionError(
                f"this address has made {limit} tables in the last {window / 60:g} minutes; "
                f"try again in {wait} seconds or join a table from the lobby"
            )
        made.append(now)
        if len(self._made) > 10_000:  # forget the addresses that made nothing lately
            self._made = {k: v for k, v in self._made.items() if v and v[-1] > now - window}

    async def create(self, settings: TableSettings, host_name: str) -> tuple[Room, int, str]:
        """A new room with its host on seat 0: returns the room, the seat and the host's token."""
        token = secrets.token_urlsafe(24)
        seats = [Seat() for _ in range(settings.players)]
        seats[0] = Seat(name=clean_name(host_name), token_hash=hash_token(token), host=True)
        for i in range(settings.players - settings.computers, settings.players):
            seats[i].bot = settings.level
        room = Room(self, self._new_id(), settings, seats)
        if self.processes is not None:
            await self.processes.claim(room.id)
        await self.store.create_table(room.id, room.status, room.meta())
        self.tables[room.id] = room
        self._lobby = None
        room.kick()
        return room, 0, token

    async def create_rematch(self, old: Room) -> Room:
        """A room for a rematch of *old*: same rules and seats, same tokens, dealt at once."""
        room = Room(self, self._new_id(), old.settings, [s.copy() for s in old.seats], previous=old.id)
        room.begin()
        if self.processes is not None:
            await self.processes.claim(room.id)
        await self.store.create_table(room.id, room.status, room.meta())
        await room.commit(None, None)
        self.tables[room.id] = room
        return room

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables:
                return table_id

    async def join(self, table_id: str, name: str) -> tuple[str, int, str]:
        """Sit a person on the first empty seat of a table in its lobby: its id, the seat, the token.

        A table another process plays is joined there.
        """
        try:
            room = await self.get(table_id)
        except Elsewhere as e:
            assert self.processes is not None
            seat, token = await self.processes.join(table_id, e.owner, name)
            return table_id, seat, token
        if room is None:
            raise LookupError(f"there is no table {table_id[:40]!r}")
        clean = clean_name(name)
        async with room.lock:
            if room.status != "lobby":
                raise ValueError("the game has started: you can watch it")
            free = [i for i, s in enumerate(room.seats) if s.kind == "empty"]
            if not free:
                raise ValueError("this table is full: every seat is taken (you can watch the game)")
            clash = name_clash(clean, [s.name for s in room.seats])
            if clash:
                raise ValueError(clash)
            token = secrets.token_urlsafe(24)
            seat = free[0]
            host = room.host_seat() is None  # a table whose host left: the first to sit down hosts it
            room.seats[seat] = Seat(name=clean, token_hash=hash_token(token), host=host)
            if host:
                room.host_away_since = self.now()
            room.note_full()
            await room.save()
            room.broadcast_table()
            room.kick()
            self._lobby = None
        return room.id, seat, token

    async def lobby_all(self) -> list[dict[str, Any]]:
        """:meth:`lobby` of every process (with several), newest first: what ``/api/lobby`` lists."""
        local = self.lobby()
        if self.processes is None:
            return local
        others = await self.processes.cluster.lobbies(self.now())
        me = self.processes.me
        out = local + [{k: v for k, v in e.items() if k != "owner"} for e in others if e.get("owner") != me]
        out.sort(key=lambda t: float(t.get("age", 0)))
        return out[:100]

    def lobby(self) -> list[dict[str, Any]]:
        """The public tables waiting for players, newest first (cached for a second).

        A table is listed while it is public, in its lobby, has a free seat, and someone
        is connected to it (or it was made in the last ``lobby_listed`` seconds).
        """
        now = self.now()
        if self._lobby is not None and now - self._lobby[0] < 1.0:
            return self._lobby[1]
        listed = self.config.lobby_listed
        out: list[dict[str, Any]] = []
        for room in self.tables.values():
            if room.status != "lobby" or not room.settings.public or room.free_seats() == 0:
                continue
            if not any(s.clients for s in room.seats) and now - room.created_at > listed:
                continue
            rules = room.settings.rules
            host = room.host_seat()
            out.append(
                {
                    "id": room.id,
                    "rules": str(rules),
                    "description": rules.describe(),
                    "knobs": rules.to_dict(),
                    "players": room.settings.players,
                    "free": room.free_seats(),
                    "seats": [{"name": s.name, "kind": s.kind, "level": s.level} for s in room.seats],
                    "host": room.seats[host].name if host is not None else None,
                    "turn_seconds": room.settings.turn_seconds,
                    "level": room.settings.level,
                    "age": round(now - room.created_at),
                }
            )
        out.sort(key=lambda t: float(t["age"]))
        self._lobby = (now, out[:100])
        return self._lobby[1]

    async def quick(self, settings: TableSettings, name: str, client: str) -> tuple[str, int, str, bool]:
        """Sit *name* at an open public table with *settings*' rules (and seat count), or make one.

        Returns the table id, the seat, the token and whether the table is new.
        """
        wanted = settings.rules.to_dict()
        self._lobby = None
        for entry in await self.lobby_all():
            if entry.get("knobs") != wanted or entry.get("players") != settings.players:
                continue
            try:
                joined, seat, token = await self.join(str(entry["id"]), name)
            except (LookupError, ValueError, RuntimeError):
                continue  # taken meanwhile, a name that clashes there, its server away: the next
            return joined, seat, token, False
        self.allow_table(client)
        made, seat, token = await self.create(dataclasses.replace(settings, public=True), name)
        return made.id, seat, token, True

    async def get(self, table_id: str) -> Room | None:
        """The room by id, loaded from the store if it is not in memory; ``None`` if unknown.

        With several processes, ``Elsewhere`` if another process plays the table.
        """
        return await self._get(table_id, None)

    async def adopt(self, table_id: str, stored: StoredTable | None) -> Room | None:
        """A table whose lease this process has just taken over, from *stored* as read with others.

        As :meth:`get`, without claiming the lease nor reading the table again (a process
        takes the tables of one that died so, many at once); *stored* ``None``: the table
        is not stored (any more), and its lease is given up.
        """
        return await self._get(table_id, (stored,))

    async def _get(self, table_id: str, given: tuple[StoredTable | None] | None) -> Room | None:
        if not TABLE_ID.match(table_id):
            return None
        room = self.tables.get(table_id)
        if room is not None:
            return room
        pending = self.loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self.loading[table_id] = future
        try:
            if given is None:
                if self.processes is not None:
                    await self.processes.claim(table_id)  # Elsewhere: another process plays it
                stored = await self.store.load(table_id)
            else:
                stored = given[0]
            if stored is None and self.processes is not None:
                await self.processes.release(table_id)
            room = None
            if stored is not None:
                try:
                    room = self.rebuild(stored)
                except (RecordError, YanivError, KeyError, ValueError, TypeError):
                    log.exception(
                        "table %s cannot be rebuilt from the store", table_id, extra={"table": table_id}
                    )
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
            del self.loading[table_id]

    async def copy_of(self, table_id: str) -> Room | None:
        """A table as stored, rebuilt to be read (a finished game's record), never played here."""
        stored = await self.store.load(table_id)
        return None if stored is None else self.rebuild(stored)

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
        """Stop unloading and pruning, and every room's task (and hand the tables to the others)."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        for room in list(self.tables.values()):
            await room.close()
        if self.processes is not None:
            await self.processes.close()
