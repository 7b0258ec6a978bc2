"""HTTP guards: request time limits (slowloris), body limits before reading, and the page's headers.

* :func:`guarded_h11` — uvicorn's h11 protocol with a deadline per request: from the
  first byte of a request (or the connection's opening) to the end of its body, at most
  *seconds*; a client that trickles a request (slowloris) gets 408 and the connection
  closes. uvicorn itself only times out idle keep-alive connections, and only after a
  first response. A websocket is free of the deadline once upgraded.
* :class:`BodyLimit` — a request body over the limit gets 413 before it is read: at
  once from its ``Content-Length``, or as soon as a chunked body passes the limit
  (chunked bodies are read, at most the limit, before the app sees them).
* :class:`SecurityHeaders` — a ``Content-Security-Policy`` (scripts, styles and
  connections from the page's own origin only, no framing) and its companions on every
  response.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["CSP", "BodyLimit", "SecurityHeaders", "guarded_h11"]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The page's Content-Security-Policy: its own origin only, nothing inline, never in a frame."""

# the interactive API docs load their script from a CDN: only the framing rule there
_DOCS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
_EXTRA = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


def guarded_h11(seconds: float) -> type[asyncio.Protocol]:
    """The h11 protocol of uvicorn with a *seconds* deadline per request (see the module docstring)."""

    class GuardedH11Protocol(H11Protocol):
        """H11Protocol that closes a connection whose request takes longer than the deadline to arrive."""

        request_seconds = seconds
        _guard: asyncio.TimerHandle | None = None
        _upgraded = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()  # a connection that never sends a byte is held no longer than a slow one

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._upgraded or self.transport.is_closing():
                self._disarm()
            elif self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
                self._arm()  # a request has begun (or trickles): its deadline runs from its first byte
            else:
                self._disarm()  # the request has arrived: the app's answer has no deadline here

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._upgraded = True  # the transport is the websocket's now: never write to it again
            self._disarm()
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._guard is None and self.request_seconds > 0 and not self._upgraded:
                self._guard = self.loop.call_later(self.request_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._guard is not None:
                self._guard.cancel()
                self._guard = None

        def _too_slow(self) -> None:
            self._guard = None
            if self._upgraded or self.transport.is_closing():
                return
            if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE) and (
                self.cycle is None or not self.cycle.response_started
            ):
                self.transport.write(
                    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                    b"connection: close\r\ncontent-length: 35\r\n\r\nthe request took too long to arrive"
                )
            self.transport.close()

    return GuardedH11Protocol


class BodyLimit:
    """ASGI middleware: request bodies over *limit* bytes get 413 before they are read."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        """Wrap *app* (a *limit* of 0: no limit)."""
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer 413 for a body too big, else pass the request on."""
        if scope["type"] != "http" or not self.limit:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        if length is not None:
            if not length.isdigit() or int(length) > self.limit:
                await _too_large(send, self.limit)
                return
            await self.app(scope, receive, send)
            return
        if b"chunked" not in headers.get(b"transfer-encoding", b"").lower():
            await self.app(scope, receive, send)
            return
        # a chunked body: read it here, at most the limit, then hand it on whole
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > self.limit:
                await _too_large(send, self.limit)
                return
            if not message.get("more_body", False):
                break
        done = False

        async def replay() -> Message:
            nonlocal done
            if not done:
                done = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _too_large(send: Send, limit: int) -> None:
    detail = f'{{"detail":"the request body may hold at most {limit} bytes"}}'.encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(detail)).encode()),
                (b"connection", b"close"),  # uvicorn closes instead of reading (and dropping) the rest
            ],
        }
    )
    await send({"type": "http.response.body", "body": detail})


class SecurityHeaders:
    """ASGI middleware: the Content-Security-Policy (:data:`CSP`) and its companions on every response."""

    def __init__(self, app: ASGIApp) -> None:
        """Wrap *app*."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Add the headers to the response's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = b"frame-ancestors 'none'" if scope["path"] in _DOCS else CSP.encode()

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers: list[Any] = list(message.get("headers", []))
                headers.append((b"content-security-policy", policy))
                headers.extend(_EXTRA)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
