"""The table room: one web table, from its lobby through a game on the table driver.

A :class:`Room` is server-authoritative (DESIGN.md §8). Once the host starts it, it
plays one game on a :class:`yaniv.table.Table` (the driver: pending decisions, checked
submits, bots asked, redacted events), seating a bot for every computer seat and every
absent person handed to a stand-in, and ``None`` for the people, who submit through
their websockets. The room keeps no game loop of its own; what it adds is the web's:

* every change of the game (an accepted action, a deal) is written to the store
  *before* any client hears of it, then each connection gets the new events redacted
  for its seat and its seat's view — never another seat's hidden card;
* action ids make a resent action idempotent, and a version check refuses an action
  chosen on a state that has moved on (the version is the number of record lines);
* the next round is dealt when every person present is ready, or after the hub's
  ``round_pause`` (the driver runs with ``auto_deal`` off);
* bots act from a task of the room after the hub's ``bot_delay``, through the same
  checked path as people (:mod:`yaniv.web.robots`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..errors import IllegalActionError
from ..game import Game
from ..table import Decision, DecisionKind, Table
from .protocol import ProtocolError
from .robots import check_level, make_player, play, players_for, think
from .seats import Connection, Seat, TableSettings, seat_computers, seat_of_token
from .store import LineRow

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Room"]

log = logging.getLogger("yaniv.web")


def _json(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


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
        self.idle_since = time.monotonic()
        self.action_ids: dict[tuple[int, str], int] = {}
        self.ready: set[int] = set()
        self.round_ended_at: float | None = None
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.closed = False
        self._runner: asyncio.Task[None] | None = None
        if game is not None:
            self._seat_game(game)
            if self._round_over():
                self.round_ended_at = time.monotonic()
        self.persisted = self.version

    def _seat_game(self, game: Game) -> None:
        """Play *game* on a driver with a bot on every seat a computer plays now."""
        self.table = Table(game, players_for(self.seats), turn_cap=None, auto_deal=False)

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

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays *seat* now (a computer player or a stand-in)."""
        return self.seats[seat].level is not None

    def seat_of_token(self, token: str) -> int | None:
        """The seat a token belongs to, if any (compared in constant time)."""
        return seat_of_token(self.seats, token)

    def _round_over(self) -> bool:
        """Whether a round has ended and the next deal waits."""
        waiting = self.table.waiting_for() if self.table is not None else None
        return waiting is not None and waiting.kind == DecisionKind.NEXT_ROUND

    def info(self) -> dict[str, Any]:
        """The public description of the table (no tokens, no cards)."""
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
            "rematch": self.rematch,
            "previous": self.previous,
        }

    def _connections(self) -> list[Connection]:
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
        return view

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
        }

    def broadcast_table(self) -> None:
        """Send the table info to every connection."""
        text = _json({"type": "table", "table": self.info()})
        for c in self._connections():
            c.send(text)

    def _announce(self, start: int) -> None:
        """Send every connection the events from *start* on and its view, redacted for its seat."""
        table = self.table
        assert table is not None
        version = table.version
        for seat in [None, *range(len(self.seats))]:
            clients = self.spectators if seat is None else self.seats[seat].clients
            if not clients:
                continue
            text = _json(
                {
                    "type": "update",
                    "version": version,
                    "events": table.events_since(seat, start),
                    "view": self.view(seat),
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
        async with self.lock:
            client.joined = True
            client.seat = seat
            if seat is None:
                self.spectators.add(client)
            else:
                s = self.seats[seat]
                s.clients.add(client)
                if s.stand_in is not None:
                    s.stand_in = None  # the person is back
                    if self.table is not None:
                        self.table.seat(seat, None)
                    await self.hub.store.save_meta(self.id, self.status, self.meta())
            client.send(self.welcome(seat, since))
            self.broadcast_table()
            self.kick()

    def detach(self, client: Connection) -> None:
        """A client has gone."""
        self.spectators.discard(client)
        for i, s in enumerate(self.seats):
            if client in s.clients:
                s.clients.discard(client)
                self.ready.discard(i)
        if client.joined and not self.closed:
            self.broadcast_table()
            self.kick()

    # ----------------------------------------------------------------- messages

    async def handle(self, client: Connection, msg: dict[str, Any]) -> None:
        """Act on one checked client message (:func:`~yaniv.web.protocol.parse_message`)."""
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
            client.send(self.welcome(client.seat, msg.get("since")))
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
            await self.on_rematch(seat, client)

    async def on_action(
        self, seat: int, action_id: str, version: int, action: Action, client: Connection
    ) -> None:
        """A seat's game action: idempotent by id, refused when stale or illegal."""
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
            try:
                self._submit(table, seat, action)
            except IllegalActionError as e:
                raise ProtocolError("illegal", str(e), action_id) from None
            await self.commit(seat, action_id, client)
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
            self.begin()
            await self.hub.store.save_meta(self.id, self.status, self.meta())
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
        self.persisted = 0

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
        level = check_level(level, self.settings.level)
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
            target.stand_in = level
            if self.table is not None:
                self.table.seat(seat, make_player(level))
            await self.hub.store.save_meta(self.id, self.status, self.meta())
            self.broadcast_table()
            self.kick()

    async def on_rematch(self, seat: int, client: Connection) -> None:
        """After the game: a new table with the same rules and seats (and the same seat tokens)."""
        async with self.lock:
            if self.game is None or not self.game.over:
                raise ProtocolError("not_allowed", "a rematch follows a finished game")
            if self.rematch is None:
                room = await self.hub.create_rematch(self)
                self.rematch = room.id
                await self.hub.store.save_meta(self.id, self.status, self.meta())
                text = _json({"type": "rematch", "table": room.id})
                for c in self._connections():
                    c.send(text)
                self.broadcast_table()
            else:
                client.send({"type": "rematch", "table": self.rematch})

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
                await self.hub.store.save_meta(self.id, self.status, self.meta())
        except Exception as err:
            log.exception("table %s: storing failed; rebuilding it from the store", self.id)
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
        for c in self._connections():
            c.send(self.welcome(c.seat))

    def _after_change(self) -> None:
        if self._round_over():
            if self.round_ended_at is None:
                self.round_ended_at = time.monotonic()
        else:
            self.round_ended_at = None
        self.kick()

    # ----------------------------------------------------------------- bots

    def kick(self) -> None:
        """Wake the room's bot task (starting it if needed)."""
        if self.closed or self.table is None:
            return
        self.wake.set()
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run())

    def _people_here(self) -> set[int]:
        return {i for i, s in enumerate(self.seats) if s.kind == "human" and s.stand_in is None and s.clients}

    def _next_job(self) -> tuple[Decision | None, float | None]:
        """The decision for the bot task now, or when to look again (seconds; None: on a change)."""
        table = self.table
        if table is None or self.closed:
            return None, None
        pending = table.pending()
        if not pending:
            return None, None
        first = pending[0]
        if first.kind == DecisionKind.NEXT_ROUND:
            here = self._people_here()
            if not here:
                return None, None
            if here <= self.ready:
                return first, None
            pause = self.hub.round_pause
            if pause is None or self.round_ended_at is None:
                return None, None
            due = self.round_ended_at + pause - time.monotonic()
            return (first, None) if due <= 0 else (None, due)
        # the first pending decision a bot makes: a person's slap window does not hold up
        # the bot whose turn it is (people have no "pass" message; the current player may
        # play at once, which closes the window, S20), while a bot's slap comes first
        return next((d for d in pending if d.seat is not None and table.is_bot(d.seat)), None), None

    async def _run(self) -> None:
        while not self.closed:
            self.wake.clear()
            job, wait = self._next_job()
            if job is None:
                if wait is None:
                    await self.wake.wait()
                else:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.wake.wait(), wait)
                continue
            try:
                await self._do(job)
            except ProtocolError as e:
                log.warning("table %s: bot step %s refused: %s", self.id, job, e.message)
                await asyncio.sleep(0.05)
            except Exception:
                log.exception("table %s: bot step %s failed", self.id, job)
                await asyncio.sleep(0.5)

    async def _do(self, decision: Decision) -> None:
        if decision.kind == DecisionKind.NEXT_ROUND:
            async with self.lock:
                if self.table is None or self._next_job()[0] != decision:
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
        if table is None or self._next_job()[0] != decision:
            return
        thought = await think(table, decision)
        async with self.lock:
            if self.table is not table or self._next_job()[0] != decision:
                return  # the game moved on while the bot thought
            move = play(table, thought)
            if move.action is None:
                return  # a slap passed: nothing to store or tell
            await self.commit(move.seat, None)
            self._after_change()

    async def close(self) -> None:
        """Stop the bot task (the table stays stored)."""
        self.closed = True
        self.wake.set()
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
