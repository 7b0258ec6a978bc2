"""Seats and tokens: who sits where, what the host chose, and how a seat is proven.

A :class:`Seat` is a person (a name and the SHA-256 of a secret token), a computer
player, or still empty; a person who has gone may have a stand-in bot playing for him.
:class:`TableSettings` is what the host chose when making the table (locked once the
game starts). Neither knows of games or sockets beyond the :class:`Connection`
protocol: the room (:mod:`yaniv.web.room`) plays, the hub (:mod:`yaniv.web.hub`) keeps.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..bots import LEVELS
from ..errors import RulesError
from ..rules import Rules
from ..session import DEFAULT_LEVEL
from ..session import OPPONENT_NAMES as BOT_NAMES
from .text import clean_name

__all__ = [
    "BOT_NAMES",
    "DEFAULT_LEVEL",
    "Connection",
    "Seat",
    "TableSettings",
    "clean_name",
    "hash_token",
    "seat_computers",
    "seat_of_token",
]

# DEFAULT_LEVEL (the computer players' difficulty when none is chosen) and BOT_NAMES
# (their names, in seat order) are the terminal game's: one table, one cast, any screen.
# clean_name (a name checked and normalised) lives in .text beside the other text checks.


def hash_token(token: str) -> str:
    """The stored form of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Connection(Protocol):
    """What a room needs of a client connection."""

    seat: int | None
    joined: bool

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict, or JSON text already encoded) for the client."""

    def end(self, code: int, reason: str, message: dict[str, Any] | None = None) -> None:
        """Send *message* (if any) after what is queued, then close with *code* and *reason*."""


@dataclass
class Seat:
    """One seat: a person (``name``, a hashed token), a computer player, or still empty."""

    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    """The difficulty of a computer player on this seat."""
    stand_in: str | None = None
    """The difficulty of a bot playing for an absent person (until the person returns)."""
    host: bool = False
    clients: set[Connection] = field(default_factory=set)

    @property
    def kind(self) -> str:
        """``bot``, ``human`` or ``empty``."""
        return "bot" if self.bot else "human" if self.token_hash else "empty"

    @property
    def level(self) -> str | None:
        """The difficulty of whichever bot plays this seat now, if one does."""
        return self.bot or self.stand_in

    def to_meta(self) -> dict[str, Any]:
        """The stored form."""
        return {
            "name": self.name,
            "token_hash": self.token_hash,
            "bot": self.bot,
            "stand_in": self.stand_in,
            "host": self.host,
        }

    @classmethod
    def from_meta(cls, d: dict[str, Any]) -> Seat:
        """Read the stored form."""
        return cls(d.get("name"), d.get("token_hash"), d.get("bot"), d.get("stand_in"), bool(d.get("host")))

    def copy(self) -> Seat:
        """The same seat without its connections (a rematch keeps names, bots and tokens)."""
        return Seat(self.name, self.token_hash, self.bot, self.stand_in, self.host)


def seat_of_token(seats: Sequence[Seat], token: str) -> int | None:
    """The seat a token belongs to, if any (every seat compared, in constant time)."""
    digest = hash_token(token)
    found = None
    for i, s in enumerate(seats):
        if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
            found = i
    return found


def seat_computers(seats: Sequence[Seat], level: str) -> None:
    """Fill the seats for a game's start: computer players on the empty ones, names for them.

    Every empty seat gets a computer player of *level*; every computer player without a
    name one of :data:`BOT_NAMES` that no person at the table has.
    """
    used = {s.name for s in seats if s.name}
    names = iter(n for n in BOT_NAMES if n not in used)
    for i, s in enumerate(seats):
        if s.kind == "empty":
            s.bot = level
        if s.bot and not s.name:
            s.name = next(names, f"Bot {i}")


@dataclass(frozen=True)
class TableSettings:
    """What the host chose: the rules, the seats, computer players, the turn clock, the lobby listing."""

    rules: Rules
    players: int
    computers: int = 0
    level: str = DEFAULT_LEVEL
    turn_seconds: float = 0.0
    """Seconds per decision of a person before the stand-in plays it (0: no clock)."""
    stand_in: str = DEFAULT_LEVEL
    """The level of the bot that plays for a person whose clock ran out or who has gone."""
    public: bool = False
    """Listed in the lobby (``GET /api/lobby``) while it waits for players."""

    @classmethod
    def make(
        cls,
        rules: str | dict[str, Any],
        overrides: dict[str, Any] | None,
        players: int,
        computers: int,
        level: str,
        *,
        turn_seconds: float = 0.0,
        stand_in: str | None = None,
        public: bool = False,
        max_turn_seconds: float = 3600.0,
    ) -> TableSettings:
        """Checked settings; ``ValueError`` (or :class:`RulesError`) names what is wrong.

        *stand_in* defaults to *level*.
        """
        base = Rules.from_spec(rules)
        if overrides is not None:
            if not isinstance(overrides, dict):
                raise RulesError("overrides must be an object of knob: value")
            base = Rules.from_spec({**base.to_dict(), **overrides})
        problem = base.players_problem(players)
        if problem:
            raise RulesError(problem)
        if not isinstance(computers, int) or isinstance(computers, bool) or not 0 <= computers < players:
            raise RulesError(f"computer players must be 0 to {players - 1} (one seat is yours)")
        if level not in LEVELS:
            raise RulesError(f"unknown level {str(level)[:40]!r}; levels are: {', '.join(LEVELS)}")
        stand_in = level if stand_in is None else stand_in
        if stand_in not in LEVELS:
            raise RulesError(
                f"unknown stand-in level {str(stand_in)[:40]!r}; levels are: {', '.join(LEVELS)}"
            )
        number = isinstance(turn_seconds, (int, float)) and not isinstance(turn_seconds, bool)
        if not number or not (turn_seconds == 0 or 5 <= turn_seconds <= max_turn_seconds):
            raise RulesError(
                f"turn_seconds must be 0 (no clock) or 5 to {max_turn_seconds:g} seconds, "
                f"got {turn_seconds!r}"
            )
        if not isinstance(public, bool):
            raise RulesError("public must be true or false")
        return cls(base, players, computers, level, float(turn_seconds), stand_in, public)

    def to_meta(self) -> dict[str, Any]:
        """The stored form."""
        return {
            "rules": self.rules.to_dict(),
            "players": self.players,
            "computers": self.computers,
            "level": self.level,
            "turn_seconds": self.turn_seconds,
            "stand_in": self.stand_in,
            "public": self.public,
        }

    @classmethod
    def from_meta(cls, d: dict[str, Any]) -> TableSettings:
        """Read the stored form (tables stored before the clock existed have none)."""
        level = str(d["level"])
        return cls(
            Rules.from_dict(d["rules"]),
            int(d["players"]),
            int(d["computers"]),
            level,
            float(d.get("turn_seconds", 0.0)),
            str(d.get("stand_in", level)),
            bool(d.get("public", False)),
        )
