"""The table room: one web table, from its lobby through a game on the table driver.

A :class:`Room` is server-authoritative (DESIGN.md §8). Once it starts it plays one game
on a :class:`yaniv.table.Table` (the driver: pending decisions, checked submits, bots
asked, redacted events, the turn clock), seating a bot for every computer seat and every
absent person handed to a stand-in, and ``None`` for the people, who submit through
their websockets. The room keeps no game loop of its own; what it adds is the web's:

* every change of the game (an accepted action, a deal, a timeout) is written to the
  store *before* any client hears of it, then each connection gets the new events
  redacted for its seat and its seat's view — never another seat's hidden card;
* action ids make a resent action idempotent, and a version check refuses an action
  chosen on a state that has moved on (the version is the number of record lines);
* the next round is dealt when every person present is ready, or after the hub's
  ``round_pause`` (the driver runs with ``auto_deal`` off);
* bots act from a task of the room after the hub's ``bot_delay``, through the same
  checked path as people (:mod:`yaniv.web.robots`); the same task wakes at the
  earliest deadline of the room's timers (:meth:`Room.plan`): a person's turn clock
  (:meth:`Table.expire`: the stand-in plays, everyone sees the ``timeout`` event, and
  a person who has gone keeps the stand-in on the seat until he comes back), the host's
  grace (a host away that long hands the role to the next person present), the start
  of a full lobby.

The lobby's seat controls (kick, computer players, the rules, leaving) are in
:mod:`yaniv.web.lobby`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..errors import IllegalActionError
from ..game import Game
from ..record import read_record
from ..table import Decision, DecisionKind, Move, Table, TurnClock
from .assist import hint, history, score_sheet, why_not
from .protocol import ProtocolError
from .robots import make_player, play, players_for, think, thinks_long
from .seats import Connection, Seat, TableSettings, seat_computers, seat_of_token
from .store import LineRow

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Job", "Room"]

log = logging.getLogger("yaniv.web")


def _json(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def _json_list(items: list[dict[str, Any]]) -> str:
    return json.dumps(items, separators=(",", ":"))


@dataclass(frozen=True)
class Job:
    """What the room's task does next: ``bot`` (a decision), ``deal``, ``expire``, ``host``, ``start``."""

    kind: str
    decision: Decision | None = None
    seat: int | None = None


class Room:
    """One web table: lobby, then a game; see the module docstring."""

    def __init__(
        self,
        hub: Hub,
        table_id: str,
        settings: TableSettings,
        seats: list[Seat],
        status: str = "lobby",
        game: Game | None = None,
        *,
        rematch: str | None = None,
        previous: str | None = None,
    ) -> None:
        """A room in memory; use :meth:`Hub.create` or :meth:`Hub.get`."""
        self.hub = hub
        self.id = table_id
        self.settings = settings
        self.seats = seats
        self.status = status
        self.table: Table | None = None
        """The driver of the game (``None`` in the lobby)."""
        self.rematch = rematch
        self.previous = previous
        self.spectators: set[Connection] = set()
        self.sockets = 0
        """Open websockets on this table (said hello or not): it stays in memory while any is."""
        self.idle_since = hub.now()
        self.created_at = hub.now()
        self.action_ids: dict[tuple[int, str], int] = {}
        self.ready: set[int] = set()
        self.rematch_ready: set[int] = set()
        """The seats whose person has said yes to a rematch (after the game)."""
        self._hints: dict[tuple[int, int], dict[str, Any]] = {}
        """Hints given, by (seat, version): asking twice costs one search."""
        self._history: dict[str, Any] | None = None
        self.round_ended_at: float | None = None
        self.host_away_since: float | None = hub.now()
        """Since when the host has had no connection (``None``: the host is here)."""
        self.full_since: float | None = None
        """Since when every seat of the lobby has been taken (the game starts itself after a while)."""
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.closed = False
        self._spectator_welcome: tuple[int, str] | None = None
        self._telling: asyncio.TimerHandle | None = None
        self._runner: asyncio.Task[None] | None = None
        if game is not None:
            self._seat_game(game)
            if self._round_over():
                self.round_ended_at = hub.now()
        self.persisted = self.version
        self.note_full()

    def _seat_game(self, game: Game) -> None:
        """Play *game* on a driver with a bot on every seat a computer plays now, and the clock."""
        clock = None
        if self.settings.turn_seconds > 0:
            level = self.settings.stand_in
            clock = TurnClock(self.settings.turn_seconds, make_player(level), level, now=self.hub.now)
        self.table = Table(game, players_for(self.seats), turn_cap=None, auto_deal=False, clock=clock)

    # ----------------------------------------------------------------- state

    @property
    def game(self) -> Game | None:
        """The game being played (``None`` before it starts)."""
        return self.table.game if self.table is not None else None

    @property
    def version(self) -> int:
        """The state version: the number of record lines so far (0 before the game starts)."""
        return self.table.version if self.table is not None else 0

    def meta(self) -> dict[str, Any]:
        """The stored form of the table (settings, seats, status, links)."""
        return {
            "settings": self.settings.to_meta(),
            "seats": [s.to_meta() for s in self.seats],
            "status": self.status,
            "rematch": self.rematch,
            "previous": self.previous,
        }

    async def save(self) -> None:
        """Store the meta (seats, settings, status)."""
        await self.hub.store.save_meta(self.id, self.status, self.meta())

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays *seat* now (a computer player or a stand-in)."""
        return self.seats[seat].level is not None

    def seat_of_token(self, token: str) -> int | None:
        """The seat a token belongs to, if any (compared in constant time)."""
        return seat_of_token(self.seats, token)

    def host_seat(self) -> int | None:
        """The host's seat, if the table has a host."""
        return next((i for i, s in enumerate(self.seats) if s.host), None)

    def free_seats(self) -> int:
        """Seats nobody has taken yet (lobby only; a started game has none)."""
        return sum(1 for s in self.seats if s.kind == "empty")

    def people_here(self) -> set[int]:
        """The seats of people connected now and playing their seat themselves."""
        return {i for i, s in enumerate(self.seats) if s.kind == "human" and s.stand_in is None and s.clients}

    def _round_over(self) -> bool:
        """Whether a round has ended and the next deal waits."""
        waiting = self.table.waiting_for() if self.table is not None else None
        return waiting is not None and waiting.kind == DecisionKind.NEXT_ROUND

    def starts_in(self) -> float | None:
        """Seconds until a full lobby starts itself, if it will."""
        wait = self.hub.config.full_start
        if self.status != "lobby" or self.full_since is None or wait <= 0 or not self.people_here():
            return None
        return max(0.0, round(self.full_since + wait - self.hub.now(), 1))

    def info(self) -> dict[str, Any]:
        """The public description of the table (no tokens, no cards, no seed)."""
        rules = self.settings.rules
        game = self.game
        return {
            "id": self.id,
            "status": self.status,
            "rules": str(rules),
            "knobs": rules.to_dict(),
            "description": rules.describe(),
            "players": self.settings.players,
            "computers": self.settings.computers,
            "level": self.settings.level,
            "turn_seconds": self.settings.turn_seconds,
            "stand_in_level": self.settings.stand_in,
            "public": self.settings.public,
            "free": self.free_seats() if self.status == "lobby" else 0,
            "full": self.status != "lobby" or self.free_seats() == 0,
            "host": self.host_seat(),
            "starts_in": self.starts_in(),
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "kind": s.kind,
                    "level": s.level,
                    "stand_in": s.stand_in is not None,
                    "connected": bool(s.clients),
                    "host": s.host,
                }
                for i, s in enumerate(self.seats)
            ],
            "spectators": len(self.spectators),
            "version": self.version,
            "round": game.round_no if game is not None else 0,
            "ready": sorted(self.ready),
            "rematch_ready": sorted(self.rematch_ready),
            "rematch": self.rematch,
            "previous": self.previous,
        }

    def connections(self) -> list[Connection]:
        """Every connection that said hello: spectators and seated players."""
        out: list[Connection] = list(self.spectators)
        for s in self.seats:
            out.extend(s.clients)
        return out

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """The seat's view of the current round (``None`` before the game starts)."""
        table = self.table
        if table is None:
            return None
        game = table.game
        view = table.view(seat).to_dict()
        del view["rules"]  # in the table info once
        view["round"] = game.round_no
        view["game_over"] = game.over
        view["winners"] = list(game.winners)
        view["sheet"] = score_sheet(game)
        return view

    def deadlines(self) -> list[dict[str, Any]]:
        """The turn clocks running now: seat, decision and seconds left (a countdown to show)."""
        table = self.table
        if table is None or table.clock is None:
            return []
        now = table.clock.now()
        return [
            {"seat": d.seat, "decision": d.kind.value, "seconds": round(max(0.0, d.deadline - now), 2)}
            for d in table.pending()
            if d.deadline is not None
        ]

    def events_since(self, seat: int | None, since: int | None) -> list[dict[str, Any]]:
        """The record lines from *since* on (default: the current round's deal), redacted for *seat*."""
        table = self.table
        if table is None:
            return []
        if since is None or not 1 <= since <= table.version:
            since = table.round_start()
        return table.events_since(seat, since)

    def welcome(self, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """Everything a (re)connecting client needs: the table, its view and the events it missed."""
        return {
            "type": "welcome",
            "seat": seat,
            "version": self.version,
            "table": self.info(),
            "view": self.view(seat),
            "events": self.events_since(seat, since),
            "deadlines": self.deadlines(),
        }

    def welcome_text(self, seat: int | None, since: int | None = None) -> str:
        """:meth:`welcome` as JSON text; a spectator's view and events are encoded once per version.

        A crowd of spectators arriving at once (a link shared widely) then costs one encoding
        of the round so far, not one per spectator.
        """
        if seat is not None or since is not None:
            return _json(self.welcome(seat, since))
        cached = self._spectator_welcome
        if cached is None or cached[0] != self.version:
            body = _json({"view": self.view(None), "events": self.events_since(None, None)})
            cached = self._spectator_welcome = (self.version, body[1:-1])
        head = _json({"type": "welcome", "seat": None, "version": self.version, "table": self.info()})
        return f'{head[:-1]},{cached[1]},"deadlines":{_json_list(self.deadlines())}}}'

    def broadcast_table(self) -> None:
        """Send the table info to every connection (the seats changed: everyone sees them)."""
        text = _json({"type": "table", "table": self.info()})
        for c in self.connections():
            c.send(text)

    def tell_seated(self) -> None:
        """Send the table info to the seated connections only, soon: a spectator came or went.

        Spectators hear the count with the next change of the seats, so one more spectator
        costs a message to each of at most eight seats, not to the whole audience; and a
        crowd coming at once is told in one message per seat (at most one each half second).
        """
        if self._telling is None and not self.closed:
            self._telling = asyncio.get_running_loop().call_later(0.5, self._tell_seated_now)

    def _tell_seated_now(self) -> None:
        self._telling = None
        if self.closed:
            return
        text = _json({"type": "table", "table": self.info()})
        for s in self.seats:
            for c in list(s.clients):
                c.send(text)

    def _announce(self, start: int) -> None:
        """Send every connection the events from *start* on and its view, redacted for its seat."""
        table = self.table
        assert table is not None
        version = table.version
        deadlines = self.deadlines()
        # the seats first: a large audience must not delay the players' own updates
        for seat in [*range(len(self.seats)), None]:
            clients = self.spectators if seat is None else self.seats[seat].clients
            if not clients:
                continue
            text = _json(
                {
                    "type": "update",
                    "version": version,
                    "events": table.events_since(seat, start),
                    "view": self.view(seat),
                    "deadlines": deadlines,
                }
            )
            for c in list(clients):
                c.send(text)

    # ----------------------------------------------------------------- connections

    async def attach(self, client: Connection, token: str | None, since: int | None) -> None:
        """A client says hello: with a seat token it plays that seat, without it watches."""
        if client.joined:
            raise ProtocolError("already_joined", "this connection has already said hello")
        seat = None
        if token is not None:
            seat = self.seat_of_token(token)
            if seat is None:
                raise ProtocolError("bad_token", "that seat token does not belong to this table")
        limit = self.hub.config.spectators_per_table
        if seat is None and limit and len(self.spectators) >= limit:
            client.end(
                1008,
                "no room to watch",
                {
                    "type": "error",
                    "code": "full",
                    "message": f"this table already has {limit} spectators, as many as it takes",
                },
            )
            return
        async with self.lock:
            client.joined = True
            client.seat = seat
            if seat is None:
                self.spectators.add(client)
                client.send(self.welcome_text(seat, since))
                self.tell_seated()
                return
            s = self.seats[seat]
            s.clients.add(client)
            if s.host:
                self.host_away_since = None
            if s.stand_in is not None:
                s.stand_in = None  # the person is back
                if self.table is not None:
                    self.table.seat(seat, None)
                await self.save()
            client.send(self.welcome_text(seat, since))
            self.broadcast_table()
            self.kick()

    def detach(self, client: Connection) -> None:
        """A client has gone."""
        if client in self.spectators:
            self.spectators.discard(client)
            if not self.closed:
                self.tell_seated()
            return
        for i, s in enumerate(self.seats):
            if client in s.clients:
                s.clients.discard(client)
                if not s.clients:
                    self.ready.discard(i)
                    self.rematch_ready.discard(i)
                    if s.host:
                        self.host_away_since = self.hub.now()
        if client.joined and not self.closed:
            self.broadcast_table()
            self.kick()

    # ----------------------------------------------------------------- messages

    async def handle(self, client: Connection, msg: dict[str, Any]) -> None:
        """Act on one checked client message (:func:`~yaniv.web.protocol.parse_message`)."""
        from . import lobby  # the lobby's controls act on the room (a module of their own)

        kind = msg["type"]
        if kind == "ping":
            client.send({"type": "pong", **({"id": msg["id"]} if "id" in msg else {})})
            return
        if kind == "hello":
            await self.attach(client, msg.get("token"), msg.get("since"))
            return
        if not client.joined:
            raise ProtocolError("not_joined", "say hello first (with your seat token, or none to watch)")
        if kind == "sync":
            client.send(self.welcome_text(client.seat, msg.get("since")))
            return
        seat = client.seat
        if seat is None:
            raise ProtocolError("not_seated", "spectators watch: only seated players may do that")
        if kind == "action":
            await self.on_action(seat, msg["id"], msg["version"], msg["parsed"], client)
        elif kind == "start":
            await self.start(seat)
        elif kind == "ready":
            await self.on_ready(seat)
        elif kind == "replace":
            await self.replace(seat, msg["seat"], msg.get("level"))
        elif kind == "rematch":
            await self.on_rematch(seat, client, msg.get("ready", True))
        elif kind == "check":
            self.on_check(seat, msg["parsed"], client)
        elif kind == "hint":
            await self.on_hint(seat, client)
        elif kind == "leave":
            await lobby.leave(self, seat)
        elif kind == "kick":
            await lobby.kick(self, seat, msg["seat"])
        elif kind == "add_bot":
            await lobby.add_bot(self, seat, msg["seat"], msg.get("level"))
        elif kind == "remove_bot":
            await lobby.remove_bot(self, seat, msg["seat"])
        elif kind == "settings":
            await lobby.change_settings(self, seat, {k: v for k, v in msg.items() if k != "type"})

    async def on_action(
        self, seat: int, action_id: str, version: int, action: Action, client: Connection
    ) -> None:
        """A seat's game action: idempotent by id, refused when stale or illegal."""
        started = time.perf_counter()  # yaniv_action_seconds: from here to the updates queued
        async with self.lock:
            done = self.action_ids.get((seat, action_id))
            if done is not None:
                client.send({"type": "ack", "id": action_id, "version": done, "duplicate": True})
                return
            table = self.table
            if table is None:
                raise ProtocolError("not_started", "the game has not started yet", action_id)
            if version != table.version:
                raise ProtocolError(
                    "stale",
                    f"the game has moved on (your version {version}, now {table.version}); "
                    "look again and choose anew",
                    action_id,
                )
            if table.is_bot(seat):
                raise ProtocolError("not_allowed", "a computer player plays your seat now", action_id)
            try:
                self._submit(table, seat, action)
            except IllegalActionError as e:
                raise ProtocolError("illegal", str(e), action_id) from None
            await self.commit(seat, action_id, client)
            metrics = self.hub.metrics
            metrics.action_seconds.observe(time.perf_counter() - started)
            metrics.by_person.inc()
            self._after_change()

    @staticmethod
    def _submit(table: Table, seat: int, action: Action) -> None:
        """A person's action through the driver: the cards picked in any order (``loose``)."""
        table.submit(seat, action, loose=True)

    async def start(self, seat: int) -> None:
        """The host starts the game: empty seats get computer players; the rules are locked."""
        async with self.lock:
            if not self.seats[seat].host:
                raise ProtocolError("not_host", "only the host starts the game")
            if self.status != "lobby":
                raise ProtocolError("started", "the game has already started")
            await self._start()

    async def _start(self) -> None:
        """Deal, store and tell (under the lock)."""
        self.begin()
        await self.save()
        await self.commit(None, None)
        self.broadcast_table()
        self._after_change()

    def begin(self) -> None:
        """Deal the game (not yet stored): computer players on the empty seats, a fresh seed."""
        seat_computers(self.seats, self.settings.level)
        game = Game(
            self.settings.rules,
            players=self.settings.players,
            seed=secrets.randbits(62),
            names=[s.name or "?" for s in self.seats],
        )
        self._seat_game(game)
        self.status = "playing"
        self.full_since = None
        self.persisted = 0

    def note_full(self) -> None:
        """Start (or stop) the full lobby's countdown after a change of its seats."""
        full = self.status == "lobby" and self.free_seats() == 0
        self.full_since = self.hub.now() if full else None

    async def on_ready(self, seat: int) -> None:
        """A seat has seen the round's end and is ready for the next deal."""
        async with self.lock:
            if not self._round_over():
                raise ProtocolError("not_allowed", "there is no round end to wait at now")
            self.ready.add(seat)
            self.broadcast_table()
            self.kick()

    async def replace(self, by: int, seat: int, level: str | None) -> None:
        """The host hands an absent person's seat to a bot (until the person returns)."""
        from .robots import check_level

        level = check_level(level, self.settings.stand_in)
        async with self.lock:
            if not self.seats[by].host:
                raise ProtocolError("not_host", "only the host may hand a seat to a bot")
            if not 0 <= seat < len(self.seats):
                raise ProtocolError(
                    "bad_field", f"there is no seat {seat}: seats are 0..{len(self.seats) - 1}"
                )
            target = self.seats[seat]
            if target.kind != "human":
                raise ProtocolError("not_allowed", "that seat has no person to replace")
            if target.clients:
                raise ProtocolError(
                    "not_allowed", f"{target.name} is here: only an absent seat goes to a bot"
                )
            if target.stand_in is not None:
                raise ProtocolError("not_allowed", "a bot already plays that seat")
            self.stand_in(seat, level)
            await self.save()
            self.broadcast_table()
            self.kick()

    def stand_in(self, seat: int, level: str) -> None:
        """Let a bot of *level* play an absent person's seat until the person comes back (not stored)."""
        self.seats[seat].stand_in = level
        if self.table is not None:
            self.table.seat(seat, make_player(level))

    async def on_rematch(self, seat: int, client: Connection, ready: bool = True) -> None:
        """After the game: *seat* says yes (or no longer) to a rematch.

        When every person present has said yes, a new table with the same rules and seats
        (and the same seat tokens) is dealt and everyone, spectators too, is told its id;
        the spectators stay spectators there. Once made, asking again just names it.
        """
        async with self.lock:
            if self.game is None or not self.game.over:
                raise ProtocolError("not_allowed", "a rematch follows a finished game")
            if self.rematch is not None:
                client.send({"type": "rematch", "table": self.rematch})
                return
            if ready:
                self.rematch_ready.add(seat)
            else:
                self.rematch_ready.discard(seat)
            here = self.people_here() | {seat} if ready else self.people_here()
            if not ready or not here <= self.rematch_ready:
                self.broadcast_table()
                return
            room = await self.hub.create_rematch(self)
            self.rematch = room.id
            await self.save()
            text = _json({"type": "rematch", "table": room.id})
            for c in self.connections():
                c.send(text)
            self.broadcast_table()

    def on_check(self, seat: int, action: Action, client: Connection) -> None:
        """Would *action* be legal for *seat* now? The engine's reason if not (nothing changes)."""
        table = self.table
        if table is None:
            raise ProtocolError("not_started", "the game has not started yet")
        reason = why_not(table, seat, action)
        client.send(
            {
                "type": "check",
                "version": table.version,
                "action": action.to_json(),
                "ok": reason is None,
                "reason": reason,
            }
        )

    async def on_hint(self, seat: int, client: Connection) -> None:
        """The terminal game's hint for *seat* (the expert's move, the odds of a Yaniv call).

        Only for a decision of the seat's own; the search runs off the event loop, and a
        position asked again is answered from memory.
        """
        table = self.table
        if table is None:
            raise ProtocolError("not_started", "the game has not started yet")
        if table.decision_of(seat) is None or table.game.round.is_over:
            raise ProtocolError("not_allowed", "hints are for your turn")
        version = table.version
        key = (seat, version)
        answer = self._hints.get(key)
        if answer is None:
            view = table.view(seat)
            answer = await asyncio.to_thread(hint, view, f"{self.id}-{version}-{seat}")
            self._hints = {k: v for k, v in self._hints.items() if k[1] >= version - 20}
            self._hints[key] = answer
        client.send({"type": "hint", "version": version, **answer})

    def history(self) -> dict[str, Any]:
        """The finished game step by step (:func:`~yaniv.web.assist.history`), made once."""
        if self._history is None:
            game = self.game
            assert game is not None and game.over
            self._history = history(read_record(json.dumps(e) for e in game.events))
        return self._history

    # ----------------------------------------------------------------- changes

    async def commit(self, seat: int | None, action_id: str | None, client: Connection | None = None) -> None:
        """Persist the new record lines, then acknowledge and announce them.

        The action's ack goes to *client* first, then every connection gets its update; if
        storing fails, the room is rebuilt from the store instead and nothing is announced.
        """
        game = self.game
        assert game is not None
        events = game.events
        start = self.persisted
        rows = [
            LineRow(
                start + i,
                json.dumps(e, separators=(",", ":")),
                seat if i == 0 else None,
                action_id if i == 0 else None,
            )
            for i, e in enumerate(events[start:])
        ]
        try:
            await self.hub.store.append(self.id, rows)
            if game.over and self.status != "over":
                self.status = "over"
                await self.save()
        except Exception as err:
            log.exception(
                "table %s: storing failed; rebuilding it from the store", self.id, extra={"table": self.id}
            )
            await self._rebuild()
            raise ProtocolError(
                "storage", f"the move could not be saved, so it did not count: {err}", action_id
            ) from None
        self.persisted = len(events)
        if action_id is not None and seat is not None:
            self.action_ids[(seat, action_id)] = len(events)
            if client is not None:
                client.send({"type": "ack", "id": action_id, "version": len(events)})
        self._announce(start)

    async def _rebuild(self) -> None:
        """Go back to the stored state (a write failed: what was not stored did not happen)."""
        stored = await self.hub.store.load(self.id)
        if stored is None:
            return
        fresh = self.hub.rebuild(stored)
        if fresh.game is None:
            self.table = None
        else:
            self._seat_game(fresh.game)
        self.status = fresh.status
        self.persisted = fresh.persisted
        self.action_ids = fresh.action_ids
        self._spectator_welcome = None  # its version may be made again, by another move
        for c in self.connections():
            c.send(self.welcome(c.seat))

    def _after_change(self) -> None:
        if self._round_over():
            if self.round_ended_at is None:
                self.round_ended_at = self.hub.now()
        else:
            self.round_ended_at = None
        self.kick()

    # ----------------------------------------------------------------- the room's task

    def kick(self) -> None:
        """Wake the room's task (starting it if needed): something changed, a timer may be due."""
        if self.closed:
            return
        self.wake.set()
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run())

    def heir(self) -> int | None:
        """The next person present after the host's seat (who becomes host if the host stays away)."""
        host = self.host_seat()
        here = self.people_here()
        n = len(self.seats)
        start = host if host is not None else -1
        return next((p for k in range(1, n + 1) if (p := (start + k) % n) in here and p != host), None)

    def plan(self) -> tuple[Job | None, float | None]:
        """What the room's task does now, or in how many seconds to look again (``None``: on a change)."""
        if self.closed:
            return None, None
        now = self.hub.now()
        config = self.hub.config
        waits: list[float] = []
        if self.host_away_since is not None and self.status != "over":
            heir = self.heir()
            if heir is not None:
                due = self.host_away_since + config.host_grace - now
                if due <= 0:
                    return Job("host", seat=heir), None
                waits.append(due)
        if self.status == "lobby":
            starts = self.starts_in()
            if starts is not None:
                if starts <= 0:
                    return Job("start"), None
                waits.append(starts)
            return None, min(waits, default=None)
        table = self.table
        if table is None:
            return None, min(waits, default=None)
        pending = table.pending()
        if not pending:
            return None, min(waits, default=None)
        first = pending[0]
        if first.kind == DecisionKind.NEXT_ROUND:
            here = self.people_here()
            if here and here <= self.ready:
                return Job("deal", first), None
            pause = self.hub.round_pause
            if here and pause is not None and self.round_ended_at is not None:
                due = self.round_ended_at + pause - now
                if due <= 0:
                    return Job("deal", first), None
                waits.append(due)
            return None, min(waits, default=None)
        if table.clock is not None:
            deadlines = [d.deadline for d in pending if d.deadline is not None]
            if deadlines:
                due = min(deadlines) - table.clock.now()
                if due <= 0:
                    return Job("expire"), None
                waits.append(due)
        # the first pending decision a bot makes: a person's slap window does not hold up
        # the bot whose turn it is (people have no "pass" message; the current player may
        # play at once, which closes the window, S20), while a bot's slap comes first
        bot = next((d for d in pending if d.seat is not None and table.is_bot(d.seat)), None)
        if bot is not None:
            return Job("bot", bot), None
        return None, min(waits, default=None)

    async def _run(self) -> None:
        while not self.closed:
            self.wake.clear()
            job, wait = self.plan()
            if job is None:
                if wait is None:
                    await self.wake.wait()
                else:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.wake.wait(), max(0.005, wait))
                continue
            try:
                await self._do(job)
            except ProtocolError as e:
                log.warning("table %s: %s refused: %s", self.id, job, e.message, extra={"table": self.id})
                await asyncio.sleep(0.05)
            except Exception:
                log.exception("table %s: %s failed", self.id, job, extra={"table": self.id})
                await asyncio.sleep(0.5)

    async def _do(self, job: Job) -> None:
        if job.kind == "host":
            async with self.lock:
                if self.plan()[0] == job and job.seat is not None:
                    from .lobby import pass_host

                    pass_host(self, job.seat)
                    await self.save()
                    self.broadcast_table()
            return
        if job.kind == "start":
            async with self.lock:
                if self.plan()[0] == job:
                    await self._start()
            return
        if job.kind == "expire":
            async with self.lock:
                await self._expire()
            return
        decision = job.decision
        assert decision is not None
        if job.kind == "deal":
            async with self.lock:
                if self.table is None or self.plan()[0] != job:
                    return
                self.table.next_round()
                self.ready.clear()
                await self.commit(None, None)
                self.broadcast_table()
                self._after_change()
            return
        delay = self.hub.bot_delay
        if delay > 0:
            await asyncio.sleep(delay)
        table = self.table
        if table is None or self.plan()[0] != job:
            return
        thought = await think(table, decision)
        async with self.lock:
            if self.table is not table or self.plan()[0] != job:
                return  # the game moved on while the bot thought
            move = play(table, thought)
            if move.action is None:
                return  # a slap passed: nothing to store or tell
            await self.commit(move.seat, None)
            self.hub.metrics.by_computer.inc()
            self._after_change()

    async def _expire(self) -> None:
        """The turn clock ran out (under the lock): the stand-in plays what is due, and it is told.

        A person's slap window that runs out is closed unslapped (the stand-in never slaps
        for anyone). A seat whose person has gone keeps the stand-in until he comes back.
        """
        table = self.table
        clock = table.clock if table is not None else None
        if table is None or clock is None:
            return
        now = clock.now()
        for d in table.pending():
            if (
                d.kind == DecisionKind.SLAP
                and d.deadline is not None
                and d.deadline <= now
                and d.seat is not None
            ):
                table.submit(d.seat, None)
        if thinks_long(clock.stand_in):
            moves = await self._expire_thinking(table, clock)
        else:
            moves = table.expire()
        if not moves and table.version == self.persisted:
            return
        gone = sorted({m.seat for m in moves if not self.seats[m.seat].clients and not table.is_bot(m.seat)})
        for seat in gone:
            self.stand_in(seat, self.settings.stand_in)
        await self.commit(None, None)
        if moves:
            self.hub.metrics.by_clock.inc(len(moves))
        if gone:
            await self.save()
            self.broadcast_table()
        self._after_change()

    async def _expire_thinking(self, table: Table, clock: TurnClock) -> list[Move]:
        """:meth:`Table.expire` for a stand-in that thinks long: its search runs off the event loop."""
        decision = table.time_out()
        if decision is None:
            return []
        thought = await think(table, decision, clock.stand_in)
        try:
            return [play(table, thought, by="stand_in")]
        except IllegalActionError:
            return []

    async def close(self) -> None:
        """Stop the room's task (the table stays stored)."""
        self.closed = True
        self.wake.set()
        if self._telling is not None:
            self._telling.cancel()
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
