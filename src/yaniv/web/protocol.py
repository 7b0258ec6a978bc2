"""The websocket protocol: reading client messages strictly, and the error codes.

Every message is one JSON object tagged by ``type`` (docs/protocol.md). A client
message is checked here before a table sees it: it must be text, at most
:data:`MAX_MESSAGE` bytes, a JSON object with a known ``type`` and exactly the fields
that type allows, each of the right kind, and every string in it well-formed Unicode
(a lone surrogate such as ``"\ud800"`` is refused here, before it could reach the
database). Anything else raises :class:`ProtocolError` with a code and a message for
the client; the connection and the table go on.

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
from .text import check_strings

__all__ = ["CLIENT_TYPES", "MAX_MESSAGE", "ProtocolError", "error", "parse_message"]

MAX_MESSAGE = 64 * 1024
"""The largest client message read, in bytes of UTF-8 text."""

_STR, _INT, _ACTION, _NUM, _BOOL, _JSON = "text", "integer", "action", "number", "boolean", "json"

CLIENT_TYPES: dict[str, dict[str, tuple[str, bool]]] = {
    "hello": {"token": (_STR, False), "since": (_INT, False)},
    "action": {"id": (_STR, True), "version": (_INT, True), "action": (_ACTION, True)},
    "start": {},
    "ready": {},
    "replace": {"seat": (_INT, True), "level": (_STR, False)},
    "rematch": {"ready": (_BOOL, False)},
    "sync": {"since": (_INT, False)},
    "check": {"action": (_ACTION, True)},
    "hint": {},
    "ping": {"id": (_STR, False)},
    "leave": {},
    "kick": {"seat": (_INT, True)},
    "add_bot": {"seat": (_INT, True), "level": (_STR, False)},
    "remove_bot": {"seat": (_INT, True)},
    "settings": {
        "rules": (_JSON, False),
        "overrides": (_JSON, False),
        "players": (_INT, False),
        "level": (_STR, False),
        "turn_seconds": (_NUM, False),
        "stand_in": (_STR, False),
        "public": (_BOOL, False),
    },
}
"""Client message types: field -> (kind, required)."""

MAX_TEXT = {"id": 80, "token": 200, "level": 40, "stand_in": 40}
"""The longest value of each text field, in characters."""


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
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise ProtocolError("bad_json", "the message holds a number too long to read") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type' field")
    try:
        check_strings(data, "the message", limit=MAX_MESSAGE)
    except ValueError as e:
        raise ProtocolError("bad_text", str(e)) from None
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
        longest = MAX_TEXT.get(key, 200)
        if want == _STR and (not isinstance(value, str) or not 1 <= len(value) <= longest):
            raise ProtocolError(
                "bad_field", f"field {key!r} must be text of 1 to {longest} characters", msg_id
            )
        if want == _INT and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31):
            raise ProtocolError("bad_field", f"field {key!r} must be a whole number, 0 or more", msg_id)
        if want == _NUM and (
            not isinstance(value, (int, float)) or isinstance(value, bool) or not value >= 0
        ):
            raise ProtocolError("bad_field", f"field {key!r} must be a number, 0 or more", msg_id)
        if want == _BOOL and not isinstance(value, bool):
            raise ProtocolError("bad_field", f"field {key!r} must be true or false", msg_id)
        if want == _ACTION:
            if not isinstance(value, (dict, str)):
                raise ProtocolError(
                    "bad_action", "field 'action' must be an action object or its text notation", msg_id
                )
            try:
                data["parsed"] = Action.coerce(value)
            except (InvalidNotationError, ValueError, TypeError, KeyError) as e:
                raise ProtocolError("bad_action", f"not an action: {e}", msg_id) from None
    return data
