"""The seat controls of a room: leaving, the host's kick, computer players and rules before the start.

Each control takes the room's lock, checks who may do it and when (the host, in the
lobby: ``not_host``, ``started``), changes the seats or settings, stores the meta and
tells everyone the new table info. Leaving is open to every seated player at any
time: in the lobby the seat becomes free again; during a game a computer player of the
table's stand-in level takes it for good (the token stops working), so the others play
on; the host role passes on at once (:func:`pass_host`).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from .protocol import ProtocolError
from .robots import check_level, make_player
from .seats import Seat, TableSettings

if TYPE_CHECKING:
    from .room import Room

__all__ = ["add_bot", "change_settings", "kick", "leave", "pass_host", "remove_bot"]


def pass_host(room: Room, seat: int | None) -> None:
    """Make *seat* the host (``None``: nobody); not stored (the caller saves the room)."""
    for i, s in enumerate(room.seats):
        s.host = i == seat
    room.host_away_since = None if seat is None or room.seats[seat].clients else room.hub.now()


def _next_host(room: Room, after: int) -> int | None:
    """Who hosts after *after* leaves: the next person present, else the next person seated."""
    room_host = room.heir()
    if room_host is not None and room_host != after:
        return room_host
    n = len(room.seats)
    return next(
        (p for k in range(1, n) if room.seats[(p := (after + k) % n)].kind == "human" and p != after), None
    )


def _host_in_lobby(room: Room, by: int, what: str) -> None:
    if not room.seats[by].host:
        raise ProtocolError("not_host", f"only the host may {what}")
    if room.status != "lobby":
        raise ProtocolError("started", f"the game has started: nobody may {what} now")


def _seat(room: Room, seat: int) -> Seat:
    if not 0 <= seat < len(room.seats):
        raise ProtocolError("bad_field", f"there is no seat {seat}: seats are 0..{len(room.seats) - 1}")
    return room.seats[seat]


def _count_computers(room: Room) -> None:
    computers = sum(1 for s in room.seats if s.kind == "bot")
    room.settings = dataclasses.replace(room.settings, computers=computers)


async def _changed(room: Room) -> None:
    room.note_full()
    await room.save()
    room.broadcast_table()
    room.kick()


async def leave(room: Room, seat: int) -> None:
    """*seat*'s person leaves the table (see the module docstring); the connections get ``bye``."""
    async with room.lock:
        s = room.seats[seat]
        clients = list(s.clients)
        was_host = s.host
        if room.status == "lobby":
            room.seats[seat] = Seat()
        elif room.status == "playing":
            level = room.settings.stand_in
            s.bot, s.stand_in, s.token_hash, s.host = level, None, None, False
            s.clients = set()
            if room.table is not None:
                room.table.seat(seat, make_player(level))
        else:  # the game is over: nothing to give up but the connection
            s.clients = set()
            for c in clients:
                c.end(1000, "left", {"type": "bye", "reason": "left"})
            room.broadcast_table()
            return
        room.ready.discard(seat)
        if was_host:
            pass_host(room, _next_host(room, seat))
        for c in clients:
            c.end(1000, "left", {"type": "bye", "reason": "left"})
        _count_computers(room)
        await _changed(room)


async def kick(room: Room, by: int, seat: int) -> None:
    """The host sends a person away from a lobby seat; the seat is free again."""
    async with room.lock:
        _host_in_lobby(room, by, "send someone away")
        target = _seat(room, seat)
        if seat == by:
            raise ProtocolError("not_allowed", "the host leaves with 'leave', not by kicking himself")
        if target.kind != "human":
            raise ProtocolError(
                "not_allowed", "there is no person on that seat (remove_bot frees a computer's)"
            )
        for c in list(target.clients):
            c.end(4001, "sent away by the host", {"type": "bye", "reason": "kicked"})
        room.seats[seat] = Seat()
        await _changed(room)


async def add_bot(room: Room, by: int, seat: int, level: str | None) -> None:
    """The host puts a computer player (of *level*, default the table's) on a free lobby seat."""
    level = check_level(level, room.settings.level)
    async with room.lock:
        _host_in_lobby(room, by, "add computer players")
        if _seat(room, seat).kind != "empty":
            raise ProtocolError("not_allowed", f"seat {seat} is taken")
        room.seats[seat] = Seat(bot=level)
        _count_computers(room)
        await _changed(room)


async def remove_bot(room: Room, by: int, seat: int) -> None:
    """The host takes a computer player off a lobby seat; the seat is free again."""
    async with room.lock:
        _host_in_lobby(room, by, "remove computer players")
        if _seat(room, seat).kind != "bot":
            raise ProtocolError("not_allowed", f"no computer player sits on seat {seat}")
        room.seats[seat] = Seat()
        _count_computers(room)
        await _changed(room)


async def change_settings(room: Room, by: int, changes: dict[str, Any]) -> None:
    """The host changes the rules, seats, level, clock or listing of a lobby (checked as on creation).

    Fewer seats drop free or computer seats from the end; a person on a seat that would go
    must leave (or be sent away) first. A new level applies to every computer seat.
    """
    async with room.lock:
        _host_in_lobby(room, by, "change the rules")
        old = room.settings
        players = changes.get("players", old.players)
        keep = min(players, len(room.seats))
        computers = sum(1 for s in room.seats[:keep] if s.kind == "bot")
        try:
            settings = TableSettings.make(
                changes.get("rules", old.rules.to_dict()),
                changes.get("overrides"),
                players,
                computers,
                changes.get("level", old.level),
                turn_seconds=changes.get("turn_seconds", old.turn_seconds),
                stand_in=changes.get("stand_in", old.stand_in),
                public=changes.get("public", old.public),
                max_turn_seconds=room.hub.config.max_turn_seconds,
            )
        except (RulesError, ValueError) as e:
            raise ProtocolError("bad_settings", str(e)) from None
        if any(s.kind == "human" for s in room.seats[players:]):  # checked after the rules' seat limits
            raise ProtocolError(
                "not_allowed", f"a person sits beyond seat {players - 1}: send them away first"
            )
        room.seats = room.seats[:keep] + [Seat() for _ in range(players - keep)]
        if settings.level != old.level:
            for s in room.seats:
                if s.kind == "bot":
                    s.bot = settings.level
        room.settings = settings
        await _changed(room)
