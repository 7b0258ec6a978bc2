"""The bots of a room: one per computer seat and per stand-in, thinking off the event loop.

A room seats a bot made here (:func:`make_player`) at the table driver for every seat a
computer plays (:func:`players_for`). When the driver waits for a bot, the room asks
:func:`think`: the driver's :meth:`~yaniv.table.Table.thinker` takes its snapshot on
the event loop, and a slow bot (the expert's search takes tens of milliseconds, its
strong level more) decides in a worker thread so that no other table waits. The answer
comes back as a :class:`Thought`; :func:`play` hands it to the driver under the room's
lock. A bot that failed, passed its turn or answered illegally gets the driver's
fallback (its first legal discard or draw), as the driver does for every front end.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..bots import LEVELS, Bot, make_bot
from ..table import Decision, Move, MoveBy, Player, Table
from .protocol import ProtocolError
from .seats import Seat

__all__ = ["Thought", "check_level", "make_player", "play", "players_for", "think", "thinks_long"]

log = logging.getLogger("yaniv.web")


def check_level(level: str | None, default: str) -> str:
    """A level asked for in a message (*default* if none); :class:`ProtocolError` if unknown."""
    level = default if level is None else level
    if level not in LEVELS:
        raise ProtocolError("bad_field", f"unknown level {level[:40]!r}; levels are: {', '.join(LEVELS)}")
    return level


def make_player(level: str) -> Bot:
    """A fresh bot of difficulty *level* (a stand-in starts with no memory of the seat)."""
    return make_bot(level)


def thinks_long(bot: Any) -> bool:
    """Whether *bot* decides slowly enough (a search, a program) to think off the event loop."""
    return bool(getattr(bot, "thinks_long", False))


def players_for(seats: Sequence[Seat]) -> list[Bot | None]:
    """The driver's players for *seats*: a bot wherever one plays now, ``None`` for people."""
    return [None if s.level is None else make_player(s.level) for s in seats]


@dataclass(frozen=True)
class Thought:
    """A bot's answer to one decision: the action (``None``: a passed slap) or its failure."""

    decision: Decision
    action: Action | None = None
    error: Exception | None = None


async def think(table: Table, decision: Decision, player: Player | None = None) -> Thought:
    """Let the bot of *decision*'s seat (or *player*, a stand-in) decide on a snapshot taken now.

    The table may go on meanwhile (a person plays, a slap): :func:`play` checks that the
    decision is still pending.
    """
    seat = decision.seat
    assert seat is not None
    bot = table.players[seat] if player is None else player
    decide = table.thinker(decision, player)
    try:
        if thinks_long(bot):  # a search: off the event loop
            action = await asyncio.to_thread(decide)
        else:
            action = decide()
    except Exception as e:  # a bot's bug must not stop the table: play() falls back
        return Thought(decision, error=e)
    return Thought(decision, action)


def play(table: Table, thought: Thought, by: MoveBy = "player") -> Move:
    """Submit *thought* at *table*; a failed, passing or illegal answer gets the table's fallback.

    *by*: ``"stand_in"`` for the clock's stand-in. :class:`~yaniv.errors.IllegalActionError`
    if the decision is no longer pending.
    """
    faults = len(table.faults)
    move = table.answer(thought.decision, thought.action, error=thought.error, by=by)
    for fault in table.faults[faults:]:
        log.warning("%s; played %s instead", fault, move.action, exc_info=thought.error)
    return move
