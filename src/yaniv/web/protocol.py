"""The websocket protocol: reading client messages strictly, and the error codes.

Every message is one JSON object tagged by ``type`` (docs/protocol.md). A client
message is checked here before a table sees it: it must be text, at most
:data:`MAX_MESSAGE` bytes, a JSON object with a known ``type`` and exactly the fields
that type allows, each of the right kind. Anything else raises :class:`ProtocolError`
with a code and a message for the client; the connection and the table go on.

>>> parse_message('{"type": "ping"}')
{'type': 'ping'}
>>> try:
...     parse_message('{"type": "pong"}')
... except ProtocolError as e:
...     print(e.code, "-", e.message[:27])
unknown_type - unknown message type 'pong'
"""

from __future__ import annotations

import json
from typing import Any

from ..actions import Action
from ..errors import InvalidNotationError

__all__ = ["CLIENT_TYPES", "MAX_MESSAGE", "ProtocolError", "error", "parse_message"]

MAX_MESSAGE = 64 * 1024
"""The largest client message read, in bytes of UTF-8 text."""

_STR, _INT, _ACTION = "text", "integer", "action"

CLIENT_TYPES: dict[str, dict[str, tuple[str, bool]]] = {
    "hello": {"token": (_STR, False), "since": (_INT, False)},
    "action": {"id": (_STR, True), "version": (_INT, True), "action": (_ACTION, True)},
    "start": {},
    "ready": {},
    "replace": {"seat": (_INT, True), "level": (_STR, False)},
    "rematch": {},
    "sync": {"since": (_INT, False)},
    "ping": {"id": (_STR, False)},
}
"""Client message types: field -> (kind, required)."""


class ProtocolError(ValueError):
    """A message the server cannot take: ``code`` for programs, the text for people."""

    def __init__(self, code: str, message: str, msg_id: str | None = None) -> None:
        """An error with a machine-readable *code* and a message naming the problem."""
        super().__init__(message)
        self.code = code
        self.message = message
        self.msg_id = msg_id


def error(code: str, message: str, msg_id: str | None = None, **extra: Any) -> dict[str, Any]:
    """An ``error`` message for a client."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if msg_id is not None:
        out["id"] = msg_id
    out.update(extra)
    return out


def parse_message(text: str | bytes | None) -> dict[str, Any]:
    """A checked client message from a websocket frame; :class:`ProtocolError` if bad.

    ``action`` messages get their ``action`` field as an :class:`~yaniv.actions.Action`
    under ``"parsed"`` (the JSON form or the text notation are both accepted).
    """
    if text is None or isinstance(text, bytes):
        raise ProtocolError("binary", "send messages as text frames holding JSON")
    if len(text) > MAX_MESSAGE or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise ProtocolError("too_big", f"a message may hold at most {MAX_MESSAGE} bytes")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise ProtocolError("bad_json", f"the message is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type' field")
    kind = data.get("type")
    msg_id = data.get("id") if isinstance(data.get("id"), str) else None
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a 'type' field (text)", msg_id)
    fields = CLIENT_TYPES.get(kind)
    if fields is None:
        raise ProtocolError(
            "unknown_type",
            f"unknown message type {kind[:40]!r}; types are: {', '.join(CLIENT_TYPES)}",
            msg_id,
        )
    for key in data:
        if key != "type" and key not in fields:
            allowed = ", ".join(fields) or "none"
            raise ProtocolError(
                "bad_field", f"unknown field {key[:40]!r} in a {kind} message (fields: {allowed})", msg_id
            )
    for key, (want, required) in fields.items():
        if key not in data or data[key] is None:
            if required:
                raise ProtocolError("bad_field", f"a {kind} message needs the field {key!r}", msg_id)
            data.pop(key, None)
            continue
        value = data[key]
        if want == _STR and (not isinstance(value, str) or not 1 <= len(value) <= 200):
            raise ProtocolError("bad_field", f"field {key!r} must be text of 1 to 200 characters", msg_id)
        if want == _INT and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31):
            raise ProtocolError("bad_field", f"field {key!r} must be a whole number, 0 or more", msg_id)
        if want == _ACTION:
            if not isinstance(value, (dict, str)):
                raise ProtocolError(
                    "bad_action", "field 'action' must be an action object or its text notation", msg_id
                )
            try:
                data["parsed"] = Action.coerce(value)
            except (InvalidNotationError, ValueError, TypeError, KeyError) as e:
                raise ProtocolError("bad_action", f"not an action: {e}", msg_id) from None
    if kind == "action" and len(data["id"]) > 80:
        raise ProtocolError("bad_field", "field 'id' must be at most 80 characters", msg_id)
    return data
