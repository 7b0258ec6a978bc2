"""One websocket connection: a bounded send queue drained by its own task, and its rate limits.

Nothing one client does may cost the server without bound (docs/protocol.md §5):

* **sending** — messages wait in a queue bounded in messages *and* bytes
  (:attr:`WebConfig.send_queue_bytes`); a client that reads too slowly to keep it under
  the bound is dropped at once (it may reconnect and ``hello`` with ``since``), never
  buffered without limit, and never holds up a table: :meth:`Client.send` does not wait;
* **receiving** — two token buckets (:class:`Bucket`): every message draws on one, and a
  ``hello`` or ``sync`` (answered with a whole ``welcome``) on a second, smaller one as
  well. A client over either gets a ``rate_limited`` error and the connection closes.

>>> bucket = Bucket(rate=1.0, burst=2.0, now=lambda: 0.0)
>>> [bucket.take() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket

from .config import WebConfig

__all__ = ["Bucket", "Client"]


class Bucket:
    """A token bucket: *burst* tokens at most, *rate* more per second; :meth:`take` spends one."""

    def __init__(self, rate: float, burst: float, now: Callable[[], float] = time.monotonic) -> None:
        """A full bucket (a *rate* of 0: no limit)."""
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.now = now
        self.stamp = now()

    def take(self) -> bool:
        """Spend a token if there is one; ``False`` if the bucket is empty."""
        if self.rate <= 0:
            return True
        now = self.now()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Client:
    """One websocket connection (see the module docstring); the room sees it as a ``Connection``."""

    def __init__(self, websocket: WebSocket, config: WebConfig, address: str = "?") -> None:
        """Wrap an accepted websocket (call from the event loop)."""
        self.ws = websocket
        self.config = config
        self.address = address
        self.seat: int | None = None
        self.joined = False
        self.closed = False
        """No more messages are queued (dropped, ended, or gone)."""
        self.dropped: str | None = None
        """Why the server dropped the connection, if it did."""
        self.sent_messages = 0
        self._queue: deque[str] = deque()
        self._bytes = 0
        self._ready = asyncio.Event()
        self._ending: tuple[int, str] | None = None
        self._reader: asyncio.Task[Any] | None = None
        self._reading = False
        self.messages = Bucket(config.message_rate, config.message_burst)
        self.syncs = Bucket(config.sync_rate, config.sync_burst)
        self.writer = asyncio.get_running_loop().create_task(self._write())

    @property
    def queued_bytes(self) -> int:
        """Bytes of messages waiting to be written."""
        return self._bytes

    # ----------------------------------------------------------------- sending

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message; a client whose queue overflows is dropped (see the module docstring)."""
        if self.closed:
            return
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        size = len(text)  # characters: a lower bound of the bytes, and exact for the ASCII JSON sent
        limit_bytes, limit_messages = self.config.send_queue_bytes, self.config.send_queue_messages
        if (limit_bytes and self._bytes + size > limit_bytes and self._queue) or (
            limit_messages and len(self._queue) >= limit_messages
        ):
            self.drop("too slow: the messages for this connection piled up unread")
            return
        self._queue.append(text)
        self._bytes += size
        self._ready.set()

    def end(self, code: int, reason: str, message: dict[str, Any] | None = None) -> None:
        """Send *message* after what is queued, then close with *code* (within a few seconds)."""
        if self.closed:
            return
        if message is not None:
            self.send(message)
        if self.closed:  # the last message overflowed the queue
            return
        self.closed = True
        self._ending = (code, reason)
        self._ready.set()
        self._stop_reading()

    def drop(self, why: str) -> None:
        """Stop at once: nothing more is written, the connection is closed (no goodbye)."""
        if self.dropped is None:
            self.dropped = why
        self.closed = True
        self._queue.clear()
        self._bytes = 0
        self.writer.cancel()
        self._stop_reading()

    async def _write(self) -> None:
        try:
            while True:
                while not self._queue:
                    if self._ending is not None:
                        code, reason = self._ending
                        with contextlib.suppress(Exception):
                            await self.ws.close(code=code, reason=reason)
                        return
                    self._ready.clear()
                    await self._ready.wait()
                text = self._queue.popleft()
                self._bytes -= len(text)
                await self.ws.send_text(text)
                self.sent_messages += 1
        except asyncio.CancelledError:
            raise
        except Exception:
            self.closed = True
            self._stop_reading()

    # ----------------------------------------------------------------- receiving

    async def receive(self) -> dict[str, Any] | None:
        """The next frame (``None`` when the connection has gone or is being closed)."""
        if self.closed:
            return None
        self._reader = asyncio.current_task()
        self._reading = True
        try:
            frame = dict(await self.ws.receive())
        except asyncio.CancelledError:
            task = self._reader
            if self.closed and task is not None and task.cancelling():  # drop() or end(), not a shutdown
                task.uncancel()
                return None
            raise
        finally:
            self._reading = False
        return frame

    def _stop_reading(self) -> None:
        # the reader is cancelled only while it waits for a frame, never in the middle of
        # handling one (a commit under a room's lock must not be cut in two)
        if self._reading and self._reader is not None:
            self._reader.cancel()

    async def close(self) -> None:
        """The connection has gone or ends: let a goodbye out (a few seconds at most), then stop."""
        self.closed = True
        if self._ending is not None and not self.writer.done():
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self.writer), 3.0)
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.writer
