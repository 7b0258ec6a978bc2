"""Bounded JSON reading: the one parser for JSON that comes from outside.

Rule specs, positions, record lines, bot answers and network messages are read with
:func:`loads`, which refuses text too large or nested too deeply *before* the standard
parser could run out of stack (``RecursionError``) or memory, and refuses numbers too
long to be meant (a 5,000-digit integer). Every refusal is a :class:`JSONInputError`
(a ``ValueError``) whose message names *what* was read. The lines of the line protocols
(the bot protocol's input, the plain game's commands) are read with :func:`read_line`,
which never holds more than its limit of an overlong line.

>>> loads('{"a": [1, 2]}', "a test")
{'a': [1, 2]}
>>> loads("[" * 100 + "]" * 100, "a test")
Traceback (most recent call last):
...
yaniv.jsonio.JSONInputError: a test: nested too deeply (more than 32 levels)
"""

from __future__ import annotations

import json
import re
from typing import IO, Any

from .errors import YanivError

__all__ = ["MAX_BYTES", "MAX_DEPTH", "JSONInputError", "loads", "read_line"]

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects accepted (our formats need 4)."""
MAX_BYTES = 1_000_000
"""The longest text accepted (a record line or a message is far shorter)."""
MAX_DIGITS = 30
"""The most digits a number may have (cards, seats, totals need a handful)."""

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


class JSONInputError(YanivError, ValueError):
    """JSON text that is malformed, too large, too deep, or holds an absurd number.

    The message is ``WHAT: REASON``; :attr:`reason` alone is the part after the colon.
    """

    def __init__(self, what: str, reason: str) -> None:
        """An error reading *what* because of *reason*."""
        super().__init__(f"{what}: {reason}")
        self.reason = reason


def loads(text: str | bytes, what: str, *, max_depth: int = MAX_DEPTH, max_bytes: int = MAX_BYTES) -> Any:
    """Parse *text* as JSON; :class:`JSONInputError` naming *what* if it is bad or too big."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise JSONInputError(what, "not UTF-8 text") from None
    if len(text) > max_bytes:
        raise JSONInputError(what, f"too long ({len(text):,} characters; at most {max_bytes:,})")
    if text.count("[") + text.count("{") > max_depth:  # only then can it be too deep
        depth = 0
        for m in _TOKENS.finditer(text):
            token = m.group()
            if token in ("[", "{"):
                depth += 1
                if depth > max_depth:
                    raise JSONInputError(what, f"nested too deeply (more than {max_depth} levels)")
            elif token in ("]", "}"):
                depth -= 1
    if _LONG_NUMBER.search(text) and _LONG_NUMBER.search(_TOKENS.sub('""', text)):  # digits outside strings
        raise JSONInputError(what, f"a number of more than {MAX_DIGITS} digits")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise JSONInputError(what, f"not JSON ({e.msg})") from None
    except (RecursionError, ValueError) as e:  # belt and braces: the checks above should prevent these
        raise JSONInputError(what, f"cannot be read as JSON ({e})") from None


def read_line(stream: IO[str], what: str, max_chars: int = MAX_BYTES) -> str:
    r"""The next line of *stream* (its newline kept), ``""`` at the end of the input.

    A line of more than *max_chars* characters is read to its end in pieces of at most
    *max_chars*, never held whole, and refused: :class:`JSONInputError` naming *what*
    (the stream is then at the start of the next line).

    >>> import io
    >>> s = io.StringIO("ok\n" + "x" * 50 + "\nnext\n")
    >>> read_line(s, "a line", 10)
    'ok\n'
    >>> read_line(s, "a line", 10)
    Traceback (most recent call last):
    ...
    yaniv.jsonio.JSONInputError: a line: too long (more than 10 characters)
    >>> read_line(s, "a line", 10)
    'next\n'
    """
    line = stream.readline(max_chars + 1)
    if len(line) <= max_chars or line.endswith("\n"):
        return line
    while (rest := stream.readline(max_chars)) and not rest.endswith("\n"):
        pass
    raise JSONInputError(what, f"too long (more than {max_chars:,} characters)")
