"""A table played by another process: its websockets relayed there, and back (several processes).

One process at a time plays a table: the owner of its lease (:meth:`Store.acquire`).
A player may connect to any process, so a websocket often lands on another one. That
process (the *relay*) keeps the connection, its limits and its rate buckets, and
passes every message it reads to the owner (:class:`Route`); the owner treats it as
one more connection of the room (:class:`RemoteClient`): the room's code is the same
for both, and sees every person of the table, wherever connected. What the room sends
that connection goes back through Redis, already redacted for its seat, and the relay
writes it to the websocket unchanged.

The database is the log; Redis only carries messages. Each relayed message carries
the table's version (its number of record lines), so the relay knows what each
connection has seen. When the owner dies (kill -9), its leases expire within two
seconds and its ``alive`` key about then; a process takes the table over the moment
its lease expires, rebuilds it from the database and carries on (bots, clocks), and
each relay moves its connections there with ``hello`` and ``since`` (the last version
they saw): they get every event they missed, from the log. When the relay is the one that takes the table
over, its connections join the room in this process. When Redis itself goes away, each
relayed connection is closed (code 1012) and reconnects: the answer to its ``hello``
with ``since`` comes from the log, so nothing is missed either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cluster import Cluster
from .protocol import ProtocolError, error, parse_message
from .seats import Connection

if TYPE_CHECKING:
    from .room import Room

__all__ = ["INBOX", "RemoteClient", "Route", "serve_remote"]

log = logging.getLogger("yaniv.web")

INBOX = 200
"""A relayed connection's messages waiting at the owner at most (the relay rate-limits them)."""


class RemoteClient:
    """A connection held by another process, as the owner's room sees it (a ``Connection``)."""

    def __init__(self, cluster: Cluster, relay: str, conn: str, room: Room | None) -> None:
        """The connection *conn* of the process *relay* on *room* (set once it is loaded)."""
        self.cluster = cluster
        self.relay = relay
        self.conn = conn
        self.room = room
        self.seat: int | None = None
        self.joined = False
        self.closed = False
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue(INBOX)
        self.task: asyncio.Task[None] | None = None

    def send(self, message: dict[str, Any] | str) -> None:
        """Pass a message to the relay, with the version the room is at."""
        if self.closed:
            return
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        room = self.room
        head = {"op": "send", "c": self.conn, "t": room.id, "v": room.version} if room is not None else {}
        if head:
            self.cluster.send(self.relay, head, text)

    def end(self, code: int, reason: str, message: dict[str, Any] | None = None) -> None:
        """Pass *message*, then ask the relay to close the websocket with *code*."""
        if self.closed:
            return
        if message is not None:
            self.send(message)
        table = self.room.id if self.room is not None else None
        head = {"op": "end", "c": self.conn, "t": table, "code": code, "reason": reason}
        self.cluster.send(self.relay, head)
        self.stop()

    def deliver(self, text: str) -> None:
        """A message from the client (in order); a relay that floods past :data:`INBOX` is cut off."""
        if self.closed:
            return
        try:
            self.inbox.put_nowait(text)
        except asyncio.QueueFull:
            self.end(1008, "too many messages")

    def stop(self) -> None:
        """No more messages either way; the serving task leaves the room."""
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.inbox.put_nowait(None)


async def serve_remote(room: Room, client: RemoteClient) -> None:
    """The owner's side of a relayed connection: its messages in order, as :func:`serve_client` does."""
    try:
        while True:
            text = await client.inbox.get()
            if text is None or (client.closed and client.inbox.empty()):
                return
            try:
                await room.handle(client, parse_message(text))
            except ProtocolError as e:
                client.send(error(e.code, e.message, e.msg_id))
            except Exception:
                log.exception("table %s: a relayed message failed", room.id, extra={"table": room.id})
                failed = "the server could not handle that message; nothing changed"
                client.send(error("server_error", failed))
    finally:
        client.closed = True
        room.sockets -= 1
        room.idle_since = room.hub.now()
        room.detach(client)


@dataclass
class _Relayed:
    """One websocket of this process on a table another process plays."""

    client: Connection
    hello: dict[str, Any] | None = None
    """The client's ``hello`` (its seat token), to say again when the table moves."""
    version: int | None = None
    """The table's version in the last message passed to the client."""


class Route:
    """A table another process plays, as this process's websockets see it: messages passed on.

    It stands where a :class:`~yaniv.web.room.Room` would for :func:`serve_client`
    (``handle``, ``detach``, ``sockets``); once this process takes the table over
    (:meth:`go_local`), it hands everything to the room here.
    """

    def __init__(self, cluster: Cluster, table_id: str, owner: str, now: float) -> None:
        """The table *table_id*, played by the process *owner*."""
        self.cluster = cluster
        self.id = table_id
        self.owner = owner
        self.sockets = 0
        self.idle_since = now
        self.local: Room | None = None
        self.relayed: dict[str, _Relayed] = {}
        self._ids: dict[int, str] = {}

    def connect(self, client: Connection) -> None:
        """A websocket of this process opens on the table: the owner hears of it."""
        if self.local is not None:
            self.local.sockets += 1
            return
        conn = secrets.token_hex(6)
        self.relayed[conn] = _Relayed(client)
        self._ids[id(client)] = conn
        self.cluster.send(self.owner, {"op": "open", "c": conn, "t": self.id})

    async def handle(self, client: Connection, msg: dict[str, Any]) -> None:
        """Pass a checked client message on to the owner (or to the room, once it is here)."""
        if self.local is not None:
            await self.local.handle(client, msg)
            return
        conn = self._ids.get(id(client))
        if conn is None:
            return
        entry = self.relayed[conn]
        raw = {k: v for k, v in msg.items() if k != "parsed"}
        if msg["type"] == "hello" and not client.joined:
            entry.hello = raw  # kept to say again when the table moves (a refused one is replaced)
        if not self.cluster.up:
            raise ProtocolError("unavailable", "the table's server cannot be reached now; reconnect soon")
        head = {"op": "msg", "c": conn, "t": self.id}
        self.cluster.send(self.owner, head, json.dumps(raw, separators=(",", ":")))

    def detach(self, client: Connection) -> None:
        """A websocket of this process has gone."""
        if self.local is not None:
            self.local.sockets -= 1
            self.local.idle_since = self.local.hub.now()
            self.local.detach(client)
            return
        conn = self._ids.pop(id(client), None)
        if conn is not None:
            self.relayed.pop(conn, None)
            self.cluster.send(self.owner, {"op": "close", "c": conn})

    def passed(self, conn: str, version: int | None, text: str) -> None:
        """The owner's message for one relayed connection: write it to the websocket."""
        entry = self.relayed.get(conn)
        if entry is None:
            return
        if isinstance(version, int):
            entry.version = version
        if text.startswith('{"type":"welcome"'):  # the owner took the hello (this process's hello timer)
            entry.client.joined = True
        entry.client.send(text)

    def ended(self, conn: str, code: int, reason: str) -> None:
        """The owner closes a relayed connection."""
        entry = self.relayed.get(conn)
        if entry is not None:
            entry.client.end(code, reason)

    def retarget(self, owner: str) -> None:
        """The table has moved to *owner*: open every connection there again, caught up."""
        self.owner = owner
        for conn, entry in self.relayed.items():
            self.cluster.send(owner, {"op": "open", "c": conn, "t": self.id})
            hello = self._hello_again(entry)
            if hello is not None:
                self.cluster.send(owner, {"op": "msg", "c": conn}, json.dumps(hello, separators=(",", ":")))

    async def go_local(self, room: Room) -> None:
        """The table is now played here: the connections join *room* in this process, caught up."""
        self.local = room
        relayed, self.relayed, self._ids = self.relayed, {}, {}
        for entry in relayed.values():
            client = entry.client
            room.sockets += 1
            hello = self._hello_again(entry)
            client.joined = False
            if hello is None:
                continue
            try:
                await room.handle(client, parse_message(json.dumps(hello)))
            except ProtocolError as e:
                client.send(error(e.code, e.message))

    def close_all(self, code: int, reason: str) -> None:
        """Close every relayed connection (they reconnect, and catch up from the log)."""
        for entry in list(self.relayed.values()):
            entry.client.end(code, reason, error("moved", reason))

    @staticmethod
    def _hello_again(entry: _Relayed) -> dict[str, Any] | None:
        if entry.hello is None:
            return None
        hello = dict(entry.hello)
        if entry.version is not None:
            hello["since"] = entry.version
        return hello
