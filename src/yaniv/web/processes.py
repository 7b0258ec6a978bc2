"""Several server processes on one database and one Redis: who plays which table, and failover.

``yaniv serve --db postgresql+psycopg://… --redis redis://…`` on as many processes and
machines as wanted, behind any load balancer (no sticky sessions): every process
knows every table, since they all live in the database, and one process at a time
plays each, the owner of its lease (:meth:`Store.acquire`). The process a table is
made on owns it first; a table nobody plays is taken by the first process asked for
it. A websocket that lands on another process is relayed to the owner
(:mod:`yaniv.web.remote`); a table's info and a seat at it are asked of the owner
(:meth:`Cluster.call`); the lobby is every process's lobby (:meth:`Hub.lobby_all`).

Every half second each process (:meth:`Processes.watch`), and at once when the first lease
of another process is due to expire:

* takes over the tables whose lease has expired (their owner died, or stopped): their
  leases in one statement, their records in one read, 32 tables at a time, rebuilt one
  after the other, those with connections waiting here first; its connections relayed
  to a table it takes join the room here. Several processes share a dead one's tables
  this way (each takes a batch at a time). The watch wakes when the first lease of
  another process is due (:meth:`Store.next_expiry`): a live owner keeps pushing it
  away, a dead one's tables are taken the moment their leases run out;
* looks whether the owners of the tables it relays are alive; when one has died, follows
  its table to whoever took it over;
* drops the relayed connections of processes that have died.

Besides, a thread of its own renews this process's leases eight times a lease (a lease
lasts :data:`LEASE_SECONDS`; :class:`~yaniv.web.store.LeaseRenewer`), and the process lets
go at once of a table whose lease another process has taken (this one was paused too long).

The database lease alone says who plays a table: a process whose ``alive`` key has gone
from Redis is only *probably* dead (its link to Redis may be cut, or the process paused),
and it may still be writing, so its tables are taken once their leases expire, never
before. A failover takes a lease's time, plus the rebuilds.

A process that stops on a signal marks its leases expired (not deleted), so that the
others take its tables over at once and the games go on there (a rolling restart).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .cluster import CallError, Cluster, ClusterDown
from .remote import RemoteClient, Route, serve_remote
from .store import LeaseRenewer, StoredTable

if TYPE_CHECKING:
    from .hub import Hub
    from .room import Room

__all__ = ["LEASE_SECONDS", "Elsewhere", "Processes"]

log = logging.getLogger("yaniv.web")

LEASE_SECONDS = 2.0
"""How long a table's lease lasts unrenewed: what a dead owner's tables wait before a taker.

Its owner renews it eight times a lease, from a thread with its own event loop and
database connection, so it lapses only if the renewals stop for 1.75 s: a busy event
loop (hundreds of websockets, the rebuilds of a failover) does not delay them. A renewal
that comes more than half a lease after the last is logged as a warning.
"""

_BATCH = 32
"""Tables taken over per statement: a dead process's tables are rebuilt a batch at a time,
so that several processes share them and the first ones play again at once."""

_PAST_EXPIRY = 0.02
"""Seconds the watch wakes after a lease's expiry (it is taken once strictly past it)."""


class Elsewhere(Exception):
    """The table is played by another process, *owner*."""

    def __init__(self, owner: str) -> None:
        """The process that owns the table."""
        super().__init__(f"the table is played by the process {owner}")
        self.owner = owner


class Processes:
    """One process among the others: its leases, its relays, and the tables it takes over."""

    def __init__(self, hub: Hub, cluster: Cluster, *, ttl: float = LEASE_SECONDS, every: float = 0.5) -> None:
        """For *hub*, linked to the others by *cluster*; leases last *ttl* seconds.

        The watch runs every *every* seconds, and when a lease of another process expires.
        """
        self.hub = hub
        self.cluster = cluster
        self.me = cluster.me
        self.ttl = ttl
        self.every = every
        self.routes: dict[str, Route] = {}
        self.remote: dict[tuple[str, str], RemoteClient] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._jobs: set[asyncio.Task[Any]] = set()
        self.renewer = LeaseRenewer(hub.store, self.me, ttl, ttl / 8, self._renewed)
        """What renews this process's leases (a thread of its own)."""
        self._due: float | None = None
        """When the first lease of another process expires (seconds since the epoch), if any."""
        self._last_renewal: float | None = None
        """When the last renewal of this process's leases began."""
        self._claimed: dict[str, float] = {}
        """When this process took the lease of each table lately (a renewal that began
        before may not have seen it: that is no sign of losing the table)."""

    # ----------------------------------------------------------------- life

    async def start(self) -> None:
        """Connect to Redis (``ClusterDown`` if it does not answer) and start watching."""
        cluster = self.cluster
        cluster.on_message = self._on_message
        cluster.on_down = self._on_down
        cluster.lobby = self.hub.lobby
        await cluster.open()
        loop = asyncio.get_running_loop()
        self.renewer.start()
        self._tasks = [
            loop.create_task(_every(self._until_watch, self.watch, "watching the other processes"))
        ]

    async def close(self) -> None:
        """Stop watching, mark this process's leases expired (the others take over), disconnect."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        jobs = list(self._jobs)
        for job in jobs:
            job.cancel()
        if jobs:
            # let them end (their transactions too) before writing: a job cancelled but not
            # awaited could keep SQLite's write lock while expire_leases waits for it
            await asyncio.wait(jobs, timeout=2.0)
        await self.renewer.stop()  # before expiring: a renewal after it would undo it
        with contextlib.suppress(Exception):
            # bounded: a stopping process must stop; its leases run out by themselves anyway
            await asyncio.wait_for(self.hub.store.expire_leases(self.me), 5.0)
        await self.cluster.close()

    # ----------------------------------------------------------------- leases

    async def claim(self, table_id: str) -> None:
        """Own *table_id* (take its lease if free or expired); ``Elsewhere`` if another process does."""
        lease, changed = await self.hub.store.acquire(table_id, self.me, self.ttl)
        if lease.owner != self.me:
            raise Elsewhere(lease.owner)
        self._claimed[table_id] = time.time()
        if changed and lease.epoch > 1:  # taken over (a table's first lease is no change of hands)
            self.hub.metrics.lease_changes.inc()

    async def release(self, table_id: str) -> None:
        """Give up *table_id* (unloaded, or unknown after all)."""
        await self.hub.store.release(self.me, table_id)

    def route(self, table_id: str, owner: str) -> Route:
        """The relay of this process's websockets to *owner*'s table."""
        route = self.routes.get(table_id)
        if route is None or route.local is not None or route.owner != owner:
            if route is not None and route.local is None and route.relayed:
                route.retarget(owner)
                return route
            route = Route(self.cluster, table_id, owner, self.hub.now())
            self.routes[table_id] = route
        return route

    # ----------------------------------------------------------------- calls

    async def info(self, table_id: str, owner: str) -> dict[str, Any]:
        """A table's public info from its owner (``ClusterDown`` if unreachable)."""
        result = await self.cluster.call(owner, "info", {"table": table_id})
        if not isinstance(result, dict):
            raise ClusterDown("the table's server gave no info")
        return result

    async def join(self, table_id: str, owner: str, name: str) -> tuple[int, str]:
        """Take a seat at *owner*'s table: the seat and its token (``LookupError``, ``ValueError``)."""
        try:
            result = await self.cluster.call(owner, "join", {"table": table_id, "name": name})
        except CallError as e:
            if e.kind == "lookup":
                raise LookupError(e.message) from None
            if e.kind == "value":
                raise ValueError(e.message) from None
            raise ClusterDown(e.message) from None
        return int(result["seat"]), str(result["token"])

    async def _answer(self, head: dict[str, Any]) -> None:
        fn, args = head.get("fn"), head.get("args") or {}
        table_id = str(args.get("table", ""))
        try:
            if fn == "info":
                room = await self.hub.get(table_id)
                if room is None:
                    raise LookupError(f"there is no table {table_id[:40]!r}")
                self.cluster.reply(head, room.info())
            elif fn == "join":
                joined, seat, token = await self.hub.join(table_id, str(args.get("name", "")))
                self.cluster.reply(head, {"table": joined, "seat": seat, "token": token})
            else:
                self.cluster.reply(head, error=("error", f"unknown call {str(fn)[:40]!r}"))
        except Elsewhere as e:
            self.cluster.reply(head, error=("moved", f"the table has moved to {e.owner}"))
        except LookupError as e:
            self.cluster.reply(head, error=("lookup", str(e)))
        except ValueError as e:
            self.cluster.reply(head, error=("value", str(e)))
        except Exception as e:
            log.exception("answering %s for %s failed", fn, head.get("from"))
            self.cluster.reply(head, error=("error", f"the table's server failed: {type(e).__name__}"))

    # ----------------------------------------------------------------- messages

    def _on_message(self, head: dict[str, Any], body: str) -> None:
        op, sender, conn = head.get("op"), str(head.get("from")), str(head.get("c"))
        if op == "send":
            route = self._route_of(head.get("t"), conn)
            if route is not None:
                route.passed(conn, head.get("v"), body)
        elif op == "end":
            route = self._route_of(head.get("t"), conn)
            if route is not None:
                route.ended(conn, int(head.get("code") or 1000), str(head.get("reason") or ""))
        elif op == "open":
            old = self.remote.pop((sender, conn), None)
            if old is not None:
                old.stop()
            client = RemoteClient(self.cluster, sender, conn, None)
            self.remote[(sender, conn)] = client
            self._spawn(self._open(client, str(head.get("t"))))
        elif op == "msg":
            known = self.remote.get((sender, conn))
            if known is not None:
                known.deliver(body)
            else:  # a connection this process no longer knows: the relay closes it, it reconnects
                moved = {"op": "end", "c": conn, "t": head.get("t"), "code": 1012, "reason": "moved"}
                self.cluster.send(sender, moved)
        elif op == "close":
            gone = self.remote.pop((sender, conn), None)
            if gone is not None:
                gone.stop()
        elif op == "call":
            self._spawn(self._answer(head))

    def _route_of(self, table_id: object, conn: str) -> Route | None:
        route = self.routes.get(str(table_id))
        if route is not None and conn in route.relayed:
            return route
        return next((r for r in self.routes.values() if conn in r.relayed), None)  # not said: look

    async def _open(self, client: RemoteClient, table_id: str) -> None:
        try:
            room = await self.hub.get(table_id)
        except Elsewhere:
            room = None
        if client.closed:
            return
        if room is None:
            client.closed = True
            self.remote.pop((client.relay, client.conn), None)
            moved = {"op": "end", "c": client.conn, "t": table_id, "code": 1012, "reason": "moved"}
            self.cluster.send(client.relay, moved)
            return
        client.room = room
        room.sockets += 1
        try:
            await serve_remote(room, client)
        finally:
            self.remote.pop((client.relay, client.conn), None)

    def _spawn(self, job: Any) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    def _on_down(self) -> None:
        """Redis has gone: close the relayed websockets (they reconnect) and forget the relays."""
        for route in self.routes.values():
            route.close_all(1012, "the table's server cannot be reached: reconnect")
        for client in list(self.remote.values()):
            client.stop()
        self.remote.clear()

    # ----------------------------------------------------------------- watching

    def _until_watch(self) -> float:
        """Seconds to the next round: *every*, or less when a lease of another process expires sooner."""
        wait = self.every
        if self._due is not None:
            wait = min(wait, self._due + _PAST_EXPIRY - time.time())
        return max(wait, 0.01)

    async def watch(self) -> None:
        """One round of the watch (see the module docstring); tests call it directly."""
        await self._adopt()
        for table_id, route in list(self.routes.items()):
            room = self.hub.tables.get(table_id)
            if room is not None and route.local is None:  # loaded here meanwhile (a websocket asked)
                await route.go_local(room)
        if self.cluster.up:
            with contextlib.suppress(ClusterDown):
                await self._follow()
            with contextlib.suppress(ClusterDown):
                await self._forget_relays()

    def _renewed(self, began: float, mine: set[str]) -> None:
        """A renewal that began at *began* found *mine* still this process's: let go of the others."""
        hub = self.hub
        last, self._last_renewal = self._last_renewal, began
        if last is not None and began - last > self.ttl / 2:
            # half a lease without a renewal: a little more and the others take this
            # process's tables (the machine is short of CPU, or the database slow)
            log.warning(
                "renewing the table leases came %.2f s after the last (a lease lasts %.1f s)",
                began - last,
                self.ttl,
            )
        for table_id, room in list(hub.tables.items()):
            if table_id in mine or table_id in hub.loading or self._claimed.get(table_id, 0.0) >= began:
                continue
            log.warning("table %s: another process has taken it over", table_id, extra={"table": table_id})
            hub.metrics.lease_changes.inc()
            del hub.tables[table_id]
            self._spawn(self._let_go(room))
        # a lease taken before the renewal began was renewed (or found lost) by it
        self._claimed = {t: when for t, when in self._claimed.items() if when >= began}

    async def _let_go(self, room: Room) -> None:
        for client in room.connections():
            client.end(1012, "this table moved to another server: reconnect")
        await room.close()

    async def _adopt(self) -> None:
        """Take over the tables whose lease has expired, and note when the next one will."""
        hub, store = self.hub, self.hub.store
        self._due = None  # until this round has looked (a round that fails waits a whole interval)
        # the next expiry as of now, before taking the expired ones: a lease expiring while
        # this round rebuilds tables makes the next round come at once
        due = await store.next_expiry(self.me)
        limit = 1000
        expired = await store.orphans(limit)
        ids = [t for t in expired if t not in hub.tables and t not in hub.loading]
        # the tables with connections waiting here first, in batches of their own (not held
        # up by reading tables nobody watches); each process in its own order, so that
        # several taking a dead one's tables over at once mostly take different ones
        waiting = [t for t in ids if t in self.routes]
        others = [t for t in ids if t not in self.routes]
        random.shuffle(waiting)
        random.shuffle(others)
        batches = [group[k : k + _BATCH] for group in (waiting, others) for k in range(0, len(group), _BATCH)]
        for batch in batches:
            taken = await store.take(batch, self.me, self.ttl)
            if not taken:
                continue  # renewed by their owner, or taken by another process, in between
            hub.metrics.lease_changes.inc(len(taken))
            now = time.time()
            self._claimed.update(dict.fromkeys(taken, now))
            stored = await store.load_many(sorted(taken))
            for table_id in [t for t in batch if t in taken]:
                await self._play_here(table_id, stored.get(table_id))
        self._due = time.time() if len(expired) >= limit else due

    async def _play_here(self, table_id: str, stored: StoredTable | None) -> None:
        """A table whose lease this process has just taken over: rebuilt, its relays joined to it."""
        try:
            room = await self.hub.adopt(table_id, stored)
            route = self.routes.get(table_id)
            if room is not None and route is not None and route.local is None:
                log.info("table %s: taken over from %s", table_id, route.owner, extra={"table": table_id})
                await route.go_local(room)
            elif room is not None:
                log.info("table %s: taken over (its process stopped)", table_id, extra={"table": table_id})
        except Exception:
            log.exception("taking table %s over failed", table_id, extra={"table": table_id})
        await asyncio.sleep(0)  # the tables already back (and the rest) go on between two rebuilds

    async def _follow(self) -> None:
        for table_id, route in list(self.routes.items()):
            if (route.local is not None or not route.relayed) and route.sockets <= 0:
                del self.routes[table_id]
        owners = {r.owner for r in self.routes.values() if r.local is None}
        if not owners:
            return
        alive = await self.cluster.alive(owners)
        orphaned = [t for t, r in self.routes.items() if r.local is None and r.owner not in alive]
        if not orphaned:
            return
        leases = await self.hub.store.leases(orphaned)
        for table_id in orphaned:
            now_at = self.routes.get(table_id)  # (the routes may have changed in an await)
            if now_at is None or now_at.local is not None:
                continue
            lease = leases.get(table_id)
            if lease is None or lease.owner == self.me:  # free now, or ours: play it here
                await self._take_route(table_id, now_at)
            elif lease.owner != now_at.owner:  # another process took it over: follow it there
                now_at.retarget(lease.owner)
            # else the dead owner's lease still runs (it may be alive after all, only cut
            # off from Redis, or paused): _adopt takes the table the moment it expires

    async def _take_route(self, table_id: str, route: Route) -> None:
        try:
            room = await self.hub.get(table_id)  # claims the lease (or renews it, ours already)
        except Elsewhere as e:
            if e.owner != route.owner:
                route.retarget(e.owner)
            return
        if room is not None:
            log.info("table %s: taken over from %s", table_id, route.owner, extra={"table": table_id})
            await route.go_local(room)

    async def _forget_relays(self) -> None:
        relays = {client.relay for client in self.remote.values()}
        if not relays:
            return
        alive = await self.cluster.alive(relays)
        for key, client in list(self.remote.items()):
            if client.relay not in alive:
                self.remote.pop(key, None)
                client.end(1012, "moved")  # if the relay was only slow to say it lives, it reconnects


async def _every(interval: Callable[[], float], job: Callable[[], Awaitable[None]], what: str) -> None:
    """Run *job* now and for ever, *interval()* seconds after each run (a failure: "*what* failed")."""
    while True:
        try:
            await job()
        except Exception:  # not CancelledError (a BaseException): stopping stops the loop
            log.exception("%s failed", what)
        await asyncio.sleep(interval())
