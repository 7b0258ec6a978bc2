"""Several server processes: what passes between them goes through Redis (the ``scale`` extra).

Each process has an id (:attr:`Cluster.me`) and a channel of its own on Redis pub/sub,
``yaniv:p:<id>``. A message is one line of JSON (its head: ``op`` and the fields of that
operation) and, after a newline, an optional body passed as it is (a websocket message
already encoded by the owner of a table, or a client's message for it). The messages
queued for one process at a time travel as one Redis message, joined by NUL characters. What goes
through here is never the log: the database is (:mod:`yaniv.web.store`), and every
move is committed there before any process relays it. A message lost with a Redis
restart is made good from the database: see :mod:`yaniv.web.remote`.

Besides the channels:

* ``yaniv:alive:<id>``, a key each process sets every half second with a two-second
  expiry: a process that dies (kill -9) is known to be gone within two seconds, about
  when its table leases run out (the others then follow its tables to their new owners);
* ``yaniv:lobby:<id>``, each process's public tables waiting for players (the same
  expiry), merged into one lobby by every process (:meth:`Cluster.lobbies`);
* calls: :meth:`Cluster.call` sends ``{"op": "call", "fn": …}`` to a process and waits
  for its ``reply`` (a table's info from its owner, a seat taken at it).

Messages from one process to another arrive in the order they were sent (one
publishing connection per process, one subscription per process).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from ..urls import shown_url

__all__ = ["CallError", "Cluster", "ClusterDown", "process_id"]

log = logging.getLogger("yaniv.web")

ALIVE_SECONDS = 2.0
"""How long a process's ``alive`` key lasts without renewal (it renews it four times as often).

No longer than a table lease (:data:`yaniv.web.processes.LEASE_SECONDS`): the processes
relaying a dead one's tables learn it is gone by the time its leases expire. A live
process seen as gone for a moment (its heartbeat 1.5 s late) loses nothing but its
relayed connections, which reconnect; who plays a table is the database's to say.
"""

_PREFIX = "yaniv"
_MAX_QUEUE = 100_000
"""Messages waiting to be published at most; past it (Redis too slow or gone) they are dropped."""


def process_id() -> str:
    """A new id for this process: host name, pid and a random part (unique across restarts)."""
    host = socket.gethostname().split(".")[0][:40] or "host"
    return f"{host}-{os.getpid()}-{secrets.token_hex(3)}"


class ClusterDown(RuntimeError):
    """Redis does not answer now: nothing can be passed to another process."""


class CallError(RuntimeError):
    """A call to another process failed there (*kind*: ``lookup``, ``value``, ``moved``, ``error``)."""

    def __init__(self, kind: str, message: str) -> None:
        """The failure's *kind* and its message for the user."""
        super().__init__(message)
        self.kind = kind
        self.message = message


Handler = Callable[[dict[str, Any], str], Awaitable[None] | None]
"""What receives a message: its head and its body."""


class Cluster:
    """The link of this process to the others, through the Redis server at *url*."""

    def __init__(self, url: str, *, me: str | None = None) -> None:
        """Not connected yet: :meth:`open` (from the running event loop)."""
        self.url = url
        self.me = me or process_id()
        self.up = False
        """Whether Redis answers now (the subscription is live)."""
        self.on_message: Handler | None = None
        self.on_down: Callable[[], None] | None = None
        """Called once each time Redis stops answering."""
        self.on_up: Callable[[], None] | None = None
        """Called each time the subscription is live again after a loss."""
        self.lobby: Callable[[], list[dict[str, Any]]] = list
        """This process's lobby entries, published with each heartbeat (every half second)."""
        self._redis: Any = None
        self._out: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._calls: dict[str, asyncio.Future[Any]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._up_once = asyncio.Event()
        self._lobbies: tuple[float, list[dict[str, Any]]] | None = None

    def channel(self, process: str) -> str:
        """The pub/sub channel of *process*."""
        return f"{_PREFIX}:p:{process}"

    async def open(self, wait: float = 10.0) -> None:
        """Connect and subscribe; ``ClusterDown`` if Redis does not answer within *wait* seconds."""
        try:
            import redis.asyncio as aioredis
        except ImportError as e:  # pragma: no cover - the scale extra is missing
            need = "several processes need the scale extra: pip install 'yaniv[scale]'"
            raise ClusterDown(f"{need} ({e})") from e
        self._redis = aioredis.from_url(
            self.url, socket_connect_timeout=2.0, socket_timeout=5.0, health_check_interval=2
        )
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._publish()),
            loop.create_task(self._heartbeat()),
        ]
        try:
            await asyncio.wait_for(self._up_once.wait(), wait)
        except TimeoutError:
            await self.close()
            raise ClusterDown(f"Redis at {shown_url(self.url)} does not answer") from None

    async def close(self) -> None:
        """Stop: say this process has gone, and close the connection."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.delete(f"{_PREFIX}:alive:{self.me}", f"{_PREFIX}:lobby:{self.me}")
            with contextlib.suppress(Exception):
                await self._redis.aclose()
        self._redis = None
        self.up = False
        for future in self._calls.values():
            if not future.done():
                future.set_exception(ClusterDown("the server is shutting down"))

    # ----------------------------------------------------------------- sending

    def send(self, process: str, head: dict[str, Any], body: str = "") -> None:
        """Queue a message for *process* (never waits; dropped while Redis is down)."""
        if not self.up or self._out.qsize() >= _MAX_QUEUE:
            return
        head["from"] = self.me
        self._out.put_nowait((self.channel(process), f"{json.dumps(head, separators=(',', ':'))}\n{body}"))

    async def call(self, process: str, fn: str, args: dict[str, Any], timeout: float = 5.0) -> Any:
        """Ask *process* to run *fn* with *args*; its answer, or ``CallError`` / ``ClusterDown``."""
        if not self.up:
            raise ClusterDown("Redis does not answer: the table's server cannot be reached now")
        call_id = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = future
        try:
            self.send(process, {"op": "call", "id": call_id, "fn": fn, "args": args})
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise ClusterDown("the table's server did not answer in time") from None
        finally:
            self._calls.pop(call_id, None)

    def reply(self, head: dict[str, Any], result: Any = None, error: tuple[str, str] | None = None) -> None:
        """Answer the call *head* (``error``: its kind and message)."""
        answer: dict[str, Any] = {"op": "reply", "id": head.get("id")}
        if error is None:
            answer["result"] = result
        else:
            answer["error"] = list(error)
        self.send(str(head.get("from")), answer)

    async def alive(self, processes: set[str]) -> set[str]:
        """Which of *processes* are running (their ``alive`` key is set); ``ClusterDown`` if unknown."""
        if not processes:
            return set()
        if self._redis is None or not self.up:
            raise ClusterDown("Redis does not answer")
        names = sorted(processes)
        try:
            found = await self._redis.mget([f"{_PREFIX}:alive:{p}" for p in names])
        except Exception as e:
            raise ClusterDown(f"Redis does not answer: {e}") from None
        return {p for p, v in zip(names, found, strict=True) if v is not None}

    async def lobbies(self, now: float) -> list[dict[str, Any]]:
        """Every process's lobby entries, each with its ``owner`` (cached for a second)."""
        if self._lobbies is not None and now - self._lobbies[0] < 1.0:
            return self._lobbies[1]
        out: list[dict[str, Any]] = []
        if self._redis is not None and self.up:
            try:
                keys = [k async for k in self._redis.scan_iter(match=f"{_PREFIX}:lobby:*", count=500)]
                values = await self._redis.mget(keys) if keys else []
            except Exception:
                values = []
            for key, raw in zip([_text(k) for k in keys] if values else [], values, strict=False):
                if raw is None:
                    continue
                owner = key.split(":", 2)[2]
                with contextlib.suppress(ValueError, TypeError):
                    for entry in json.loads(raw):
                        if isinstance(entry, dict):
                            out.append({**entry, "owner": owner})
        self._lobbies = (now, out)
        return out

    # ----------------------------------------------------------------- tasks

    async def _publish(self) -> None:
        queue = self._out
        while True:
            batch = [await queue.get()]
            while not queue.empty() and len(batch) < 1000:
                batch.append(queue.get_nowait())
            # one Redis message per process a batch goes to, the messages joined by NUL (which
            # JSON text never holds raw): publishing and reading cost per Redis message, and
            # at a few thousand a second they would cost more than the moves themselves
            joined: dict[str, list[str]] = {}
            for channel, data in batch:
                joined.setdefault(channel, []).append(data)
            try:
                pipe = self._redis.pipeline(transaction=False)
                for channel, parts in joined.items():
                    pipe.publish(channel, "\0".join(parts))
                await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis has gone: the listener notices and says so
                log.warning("publishing %d messages to Redis failed: %s", len(batch), e)

    async def _heartbeat(self) -> None:
        while True:
            try:
                pipe = self._redis.pipeline(transaction=False)
                pipe.set(f"{_PREFIX}:alive:{self.me}", "1", px=int(ALIVE_SECONDS * 1000))
                entries = self.lobby()
                if entries:
                    pipe.set(f"{_PREFIX}:lobby:{self.me}", json.dumps(entries), px=int(ALIVE_SECONDS * 1000))
                else:
                    pipe.delete(f"{_PREFIX}:lobby:{self.me}")
                await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.debug("heartbeat to Redis failed: %s", e)
            await asyncio.sleep(ALIVE_SECONDS / 4)

    async def _listen(self) -> None:
        backoff = 0.2
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel(self.me))
                await self._redis.set(f"{_PREFIX}:alive:{self.me}", "1", px=int(ALIVE_SECONDS * 1000))
                if not self.up:
                    was_down = self._up_once.is_set()
                    if was_down:
                        # the idle connections of the pool were to the Redis that went away
                        # (restarted): the first message published on each would be lost
                        with contextlib.suppress(Exception):
                            await self._redis.connection_pool.disconnect(inuse_connections=False)
                    self.up = True
                    self._up_once.set()
                    backoff = 0.2
                    if was_down:
                        log.info("Redis answers again")
                        if self.on_up is not None:
                            self.on_up()
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None or message.get("type") != "message":
                        continue
                    for data in _text(message["data"]).split("\0"):
                        await self._dispatch(data)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as e:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                if self.up:
                    self.up = False
                    log.warning("Redis does not answer (%s): tables of other processes are unreachable", e)
                    for future in self._calls.values():
                        if not future.done():
                            future.set_exception(ClusterDown("Redis stopped answering"))
                    if self.on_down is not None:
                        self.on_down()
                await asyncio.sleep(backoff)
                backoff = min(2.0, backoff * 2)

    async def _dispatch(self, data: str) -> None:
        head_text, _, body = data.partition("\n")
        try:
            head = json.loads(head_text)
        except ValueError:
            log.warning("a message on Redis that is not ours: %r", data[:80])
            return
        if not isinstance(head, dict):
            return
        if head.get("op") == "reply":
            future = self._calls.get(str(head.get("id")))
            if future is not None and not future.done():
                err = head.get("error")
                if err:
                    future.set_exception(CallError(str(err[0]), str(err[1])))
                else:
                    future.set_result(head.get("result"))
            return
        if self.on_message is not None:
            try:
                result = self.on_message(head, body)
                if result is not None:
                    await result
            except Exception:
                log.exception("handling a message from process %s failed", head.get("from"))


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
