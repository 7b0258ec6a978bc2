"""Several server processes on one database and one Redis: who plays which table, and failover.

``yaniv serve --db postgresql+psycopg://… --redis redis://…`` on as many processes and
machines as wanted, behind any load balancer (no sticky sessions): every process
knows every table, since they all live in the database, and one process at a time
plays each, the owner of its lease (:meth:`Store.acquire`). The process a table is
made on owns it first; a table nobody plays is taken by the first process asked for
it. A websocket that lands on another process is relayed to the owner
(:mod:`yaniv.web.remote`); a table's info and a seat at it are asked of the owner
(:meth:`Cluster.call`); the lobby is every process's lobby (:meth:`Hub.lobby_all`).

Every half second each process (:meth:`Processes._watch`):

* renews its leases (a task of its own, twice a second; a lease lasts
  :attr:`Processes.ttl` seconds) and lets go at once of a table whose lease another
  process has taken (it was paused too long);
* looks whether the owners of the tables it relays are alive; when one has died, takes
  the table over once its lease has expired (or follows it to whoever did);
* drops the relayed connections of processes that have died;
* takes over the tables whose lease expired with nobody relaying them (an owner that
  died with bots playing or clocks running): they go on within the lease's time.

A process that stops on a signal marks its leases expired (not deleted), so that the
others take its tables over at once and the games go on there (a rolling restart).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from .cluster import CallError, Cluster, ClusterDown
from .remote import RemoteClient, Route, serve_remote

if TYPE_CHECKING:
    from .hub import Hub
    from .room import Room

__all__ = ["Elsewhere", "Processes"]

log = logging.getLogger("yaniv.web")


class Elsewhere(Exception):
    """The table is played by another process, *owner*."""

    def __init__(self, owner: str) -> None:
        """The process that owns the table."""
        super().__init__(f"the table is played by the process {owner}")
        self.owner = owner


class Processes:
    """One process among the others: its leases, its relays, and the tables it takes over."""

    def __init__(self, hub: Hub, cluster: Cluster, *, ttl: float = 3.0, every: float = 0.5) -> None:
        """For *hub*, linked to the others by *cluster*; leases last *ttl* seconds."""
        self.hub = hub
        self.cluster = cluster
        self.me = cluster.me
        self.ttl = ttl
        self.every = every
        self.routes: dict[str, Route] = {}
        self.remote: dict[tuple[str, str], RemoteClient] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._jobs: set[asyncio.Task[Any]] = set()

    # ----------------------------------------------------------------- life

    async def start(self) -> None:
        """Connect to Redis (``ClusterDown`` if it does not answer) and start watching."""
        cluster = self.cluster
        cluster.on_message = self._on_message
        cluster.on_down = self._on_down
        cluster.lobby = self.hub.lobby
        await cluster.open()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._renew_loop()), loop.create_task(self._watch_loop())]

    async def close(self) -> None:
        """Stop watching, mark this process's leases expired (the others take over), disconnect."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for job in list(self._jobs):
            job.cancel()
        with contextlib.suppress(Exception):
            await self.hub.store.expire_leases(self.me)
        await self.cluster.close()

    # ----------------------------------------------------------------- leases

    async def claim(self, table_id: str) -> None:
        """Own *table_id* (take its lease if free or expired); ``Elsewhere`` if another process does."""
        lease, changed = await self.hub.store.acquire(table_id, self.me, self.ttl)
        if lease.owner != self.me:
            raise Elsewhere(lease.owner)
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

    async def _watch_loop(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.watch()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("watching the other processes failed")

    async def _renew_loop(self) -> None:
        # a task of its own, twice a second: a slow round of the watch (a busy database)
        # must not let this process's leases lapse while it is alive and playing
        while True:
            await asyncio.sleep(min(0.5, self.ttl / 6))
            try:
                await self._renew()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("renewing the table leases failed")

    async def watch(self) -> None:
        """One round of the watch (see the module docstring); tests call it directly."""
        if self.cluster.up:
            with contextlib.suppress(ClusterDown):
                await self._follow()
            with contextlib.suppress(ClusterDown):
                await self._forget_relays()
        await self._adopt()

    async def _renew(self) -> None:
        hub = self.hub
        mine = await hub.store.renew(self.me, self.ttl)
        for table_id, room in list(hub.tables.items()):
            if table_id in mine or table_id in hub.loading:
                continue
            log.warning("table %s: another process has taken it over", table_id, extra={"table": table_id})
            hub.metrics.lease_changes.inc()
            del hub.tables[table_id]
            await self._let_go(room)

    async def _let_go(self, room: Room) -> None:
        for client in room.connections():
            client.end(1012, "this table moved to another server: reconnect")
        await room.close()

    async def _follow(self) -> None:
        for table_id, route in list(self.routes.items()):
            if (route.local is not None or not route.relayed) and route.sockets <= 0:
                del self.routes[table_id]
        owners = {r.owner for r in self.routes.values() if r.local is None}
        if not owners:
            return
        alive = await self.cluster.alive(owners)
        orphaned = [(t, r) for t, r in self.routes.items() if r.local is None and r.owner not in alive]
        await _at_most(16, [self._take_over(table_id, route) for table_id, route in orphaned])

    async def _take_over(self, table_id: str, route: Route) -> None:
        """The owner of *route*'s table has died: take it here once its lease expires (or follow it)."""
        lease, changed = await self.hub.store.acquire(table_id, self.me, self.ttl)
        if lease.owner == self.me:
            if changed:
                self.hub.metrics.lease_changes.inc()
            room = await self.hub.get(table_id)  # the lease is ours now: get() renews it
            if room is not None:
                log.info("table %s: taken over from %s", table_id, route.owner, extra={"table": table_id})
                await route.go_local(room)
        elif lease.owner != route.owner:
            route.retarget(lease.owner)

    async def _forget_relays(self) -> None:
        relays = {client.relay for client in self.remote.values()}
        if not relays:
            return
        alive = await self.cluster.alive(relays)
        for key, client in list(self.remote.items()):
            if client.relay not in alive:
                self.remote.pop(key, None)
                client.end(1012, "moved")  # if the relay was only slow to say it lives, it reconnects

    async def _adopt(self) -> None:
        known = self.hub.tables.keys() | self.routes.keys()
        ids = [t for t in await self.hub.store.orphans(500) if t not in known]
        await _at_most(16, [self._adopt_one(table_id) for table_id in ids])

    async def _adopt_one(self, table_id: str) -> None:
        try:
            room = await self.hub.get(table_id)
        except Elsewhere:
            return
        if room is not None:
            log.info("table %s: taken over (its process stopped)", table_id, extra={"table": table_id})


async def _at_most(n: int, jobs: list[Coroutine[Any, Any, None]]) -> None:
    """Run *jobs* with at most *n* at a time (the tables of a dead process, rebuilt at once)."""
    gate = asyncio.Semaphore(n)

    async def one(job: Coroutine[Any, Any, None]) -> None:
        async with gate:
            try:
                await job
            except Exception:
                log.exception("taking a table over failed")

    await asyncio.gather(*(one(job) for job in jobs))
