"""The exceptions of the yaniv package.

Every error a caller can provoke with bad input is a ``ValueError`` subclass with a
message that names what is wrong, so a front end can show it to a person as it is.
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "InvalidNotationError",
    "PositionError",
    "RecordError",
    "RulesError",
    "YanivError",
]


class YanivError(Exception):
    """Base class of every error raised by the yaniv package."""


class RulesError(YanivError, ValueError):
    """A rule set is malformed: unknown knob, wrong type or value, impossible combination."""


class InvalidNotationError(YanivError, ValueError):
    """A card, card list or action could not be read from its text or JSON form."""


class IllegalActionError(YanivError, ValueError):
    """An action is not allowed now; the state is unchanged. The message says why."""


class PositionError(YanivError, ValueError):
    """A position (JSON) is malformed or impossible; the message names the field."""


class RecordError(YanivError, ValueError):
    """A game record is malformed or does not replay; the message names the line."""
