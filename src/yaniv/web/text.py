r"""Text from clients: well-formed Unicode of bounded length, and players' names that cannot impersonate.

Every string a client sends (REST bodies, websocket messages, action ids) passes
:func:`check_text` or :func:`check_strings`: JSON may carry a lone surrogate
(``"\ud800"``), which Python reads as a ``str`` but no database or UTF-8 encoder takes,
so such text is refused where it enters, never where it would be stored.

A name goes through :func:`clean_name`: NFKC (full-width letters and ligatures fold to
the plain ones), spaces collapsed, 1–24 characters, nothing invisible (format and
control characters, fillers that draw as blanks), no brackets (the page tags seats as
"(computer)", "(host)"), no pile of combining marks. :func:`name_clash` then refuses a
name that reads like another seat's: the same up to case, or the same *skeleton*
(:func:`skeleton`: accents dropped, look-alike letters of other scripts and digits
mapped to one Latin letter).

>>> clean_name("  Ｂｅｎ   Ｇｕｒ ")
'Ben Gur'
>>> skeleton("Аnn") == skeleton("ann") == skeleton("Ånn")  # a Cyrillic А, an Å
True
>>> name_clash("Bob", ["B0b"])
'Bob looks too much like B0b, who sits at this table'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

__all__ = ["MAX_NAME", "check_strings", "check_text", "clean_name", "name_clash", "skeleton", "well_formed"]

MAX_NAME = 24
"""The longest name, in characters (after normalisation)."""

# characters that draw as nothing or as a blank although Unicode counts them as letters
# or symbols (Hangul and half-width fillers, the blank braille pattern, the Mongolian
# vowel separator, Khmer inherent vowels, the combining grapheme joiner)
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5\u034f\u2028\u2029")

# look-alikes folded to one Latin letter (a small table of the confusables that matter in
# names: Cyrillic and Greek letters that draw like Latin ones, digits and signs like letters)
_CONFUSABLE = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d",
        "һ": "h", "ԛ": "q", "ԝ": "w", "ү": "y", "ӏ": "l", "ɡ": "g", "ı": "i", "ȷ": "j",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
        "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w", "μ": "u", "σ": "o", "ς": "c",
        "0": "o", "1": "l", "3": "e", "5": "s", "8": "b", "|": "l", "!": "i", "$": "s", "@": "a",
        "ł": "l", "đ": "d", "ø": "o", "ß": "ss", "æ": "ae", "œ": "oe",
    }
)  # fmt: skip
_DIGRAPHS = (("rn", "m"), ("vv", "w"))
_UPPER = str.maketrans({"I": "l", "Ι": "l", "І": "l", "Ӏ": "l"})  # a capital I draws like a small l


def well_formed(text: str) -> bool:
    """Whether *text* is well-formed Unicode (no lone surrogate: it encodes as UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_text(text: object, what: str, limit: int) -> str:
    """*text* if it is a well-formed string of 1 to *limit* characters; ``ValueError`` naming *what*."""
    if not isinstance(text, str):
        raise ValueError(f"{what} must be text")
    if not well_formed(text):
        raise ValueError(f"{what} is not well-formed Unicode (a lone surrogate)")
    if not 1 <= len(text) <= limit:
        raise ValueError(f"{what} must be text of 1 to {limit} characters")
    return text


def check_strings(value: Any, what: str, limit: int = 1000, depth: int = 20) -> None:
    """Every string inside *value* (a JSON value: keys too) well-formed and at most *limit* long.

    ``ValueError`` naming *what* for the first that is not, or for nesting deeper than *depth*.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if level > depth:
            raise ValueError(f"{what} is nested too deeply")
        if isinstance(item, str):
            if not well_formed(item):
                raise ValueError(f"{what} holds text that is not well-formed Unicode (a lone surrogate)")
            if len(item) > limit:
                raise ValueError(f"{what} holds text longer than {limit} characters")
        elif isinstance(item, dict):
            for k, v in item.items():
                stack.append((k, level + 1))
                stack.append((v, level + 1))
        elif isinstance(item, (list, tuple)):
            stack.extend((v, level + 1) for v in item)


def _invisible(ch: str) -> bool:
    category = unicodedata.category(ch)
    # C*: control, format (zero-width joiners, bidi overrides), private use, unassigned, surrogates
    return category[0] == "C" or category in ("Zl", "Zp") or ch in _INVISIBLE or 0xFE00 <= ord(ch) <= 0xFE0F


def clean_name(name: object) -> str:
    """A player's name normalised and checked (see the module docstring); ``ValueError`` if refused."""
    if not isinstance(name, str):
        raise ValueError("a name is text")
    if not well_formed(name):
        raise ValueError("a name must be well-formed Unicode")
    if len(name) > 200:
        raise ValueError(f"a name has 1 to {MAX_NAME} characters")
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    for ch in text:
        if unicodedata.category(ch) in ("Cc",):
            raise ValueError("a name may not hold control characters")
        if _invisible(ch):
            raise ValueError(f"a name may not hold invisible characters (U+{ord(ch):04X})")
        if unicodedata.category(ch) in ("Ps", "Pe"):
            raise ValueError(
                "a name may not hold brackets: they would read like the table's tags, '(computer)'"
            )
    marks = 0
    for ch in text:
        marks = marks + 1 if unicodedata.combining(ch) else 0
        if marks > 2:
            raise ValueError("a name may not pile up accents")
    if not 1 <= len(text) <= MAX_NAME:
        raise ValueError(f"a name has 1 to {MAX_NAME} characters")
    if not any(unicodedata.category(ch)[0] in "LNS" for ch in text):
        raise ValueError("a name needs at least one letter, digit or symbol")
    return text


def skeleton(name: str) -> str:
    """What *name* looks like: lower case, no accents, no spaces or dots, look-alikes folded."""
    decomposed = unicodedata.normalize("NFKD", name.translate(_UPPER).casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    text = bare.translate(_CONFUSABLE)
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] in "LN")
    for pair, single in _DIGRAPHS:
        text = text.replace(pair, single)
    return text


def name_clash(name: str, others: Iterable[str | None]) -> str | None:
    """Why *name* may not sit beside *others* (the same, or a look-alike), or ``None``."""
    mine = skeleton(name)
    for other in others:
        if not other:
            continue
        if other.casefold() == name.casefold():
            return f"someone at this table is already called {other}"
        if skeleton(other) == mine:
            return f"{name} looks too much like {other}, who sits at this table"
    return None
