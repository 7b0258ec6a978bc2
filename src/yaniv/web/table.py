"""Tables: one game, its seats and seat tokens, spectators, bots, persistence.

A :class:`Table` is server-authoritative (DESIGN.md §8). It owns one
:class:`~yaniv.game.Game` once the host starts it; every change of the game (an
accepted action, a deal) is written to the store *before* any client hears of it,
and each connection is then sent the new events redacted for its seat
(:func:`yaniv.events.redact`) and its seat's view — never another seat's hidden card.
Computer players (and bots standing in for absent people) act from a task of the
table, through the same checked path as people.

The :class:`Hub` holds the tables of one server process: it makes new ones and loads
stored ones on first use, rebuilding their games from the record lines
(:func:`yaniv.record.replay`), so a restart loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..actions import Action
from ..bots import LEVELS, Bot, make_bot
from ..bots.base import bot_rngs
from ..bots.search import ExpertBot
from ..errors import IllegalActionError, RecordError, RulesError, YanivError
from ..events import redact
from ..game import Game
from ..match import decide
from ..record import read_record, replay
from ..rules import Rules
from .protocol import ProtocolError
from .store import LineRow, Store

__all__ = [
    "BOT_NAMES",
    "DEFAULT_LEVEL",
    "Connection",
    "Hub",
    "Seat",
    "Table",
    "TableSettings",
    "clean_name",
    "hash_token",
]

log = logging.getLogger("yaniv.web")

DEFAULT_LEVEL = "medium"
"""The computer players' difficulty when none is chosen."""
BOT_NAMES = ("Avi", "Noa", "Eli", "Tamar", "Yoni", "Dana", "Omer", "Gali")
"""Names given to computer players, in seat order."""
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{4,32}$")
MAX_QUEUE = 2000
"""Messages waiting for one slow connection before the server drops it (it can reconnect)."""


def hash_token(token: str) -> str:
    """The stored form of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def clean_name(name: object) -> str:
    """A player's name as typed, checked: 1–24 printable characters; ``ValueError`` if not."""
    if not isinstance(name, str):
        raise ValueError("a name is text")
    text = " ".join(unicodedata.normalize("NFC", name).split())
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise ValueError("a name may not hold control characters")
    if not 1 <= len(text) <= 24:
        raise ValueError("a name has 1 to 24 characters")
    return text


class Connection(Protocol):
    """What a table needs of a client connection."""

    seat: int | None
    joined: bool

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict, or JSON text already encoded) for the client."""


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


@dataclass(frozen=True)
class TableSettings:
    """What the host chose: the rule set, the number of seats, computer players and their level."""

    rules: Rules
    players: int
    computers: int = 0
    level: str = DEFAULT_LEVEL

    @classmethod
    def make(
        cls,
        rules: str | dict[str, Any],
        overrides: dict[str, Any] | None,
        players: int,
        computers: int,
        level: str,
    ) -> TableSettings:
        """Checked settings; ``ValueError`` (or :class:`RulesError`) names what is wrong."""
        base = Rules.from_spec(rules)
        if overrides:
            if not isinstance(overrides, dict):
                raise RulesError("overrides must be an object of knob: value")
            base = Rules.from_spec({**base.to_dict(), **overrides})
        if not isinstance(players, int) or isinstance(players, bool):
            raise RulesError("players must be a whole number")
        if not base.min_players <= players <= base.max_players:
            raise RulesError(
                f"these rules allow {base.min_players} to {base.max_players} players, not {players}"
            )
        problem = base.deal_problem(players)
        if problem:
            raise RulesError(problem)
        if not isinstance(computers, int) or isinstance(computers, bool) or not 0 <= computers < players:
            raise RulesError(f"computer players must be 0 to {players - 1} (one seat is yours)")
        if level not in LEVELS:
            raise RulesError(f"unknown level {level!r}; levels are: {', '.join(LEVELS)}")
        return cls(base, players, computers, level)

    def to_meta(self) -> dict[str, Any]:
        """The stored form."""
        return {
            "rules": self.rules.to_dict(),
            "players": self.players,
            "computers": self.computers,
            "level": self.level,
        }

    @classmethod
    def from_meta(cls, d: dict[str, Any]) -> TableSettings:
        """Read the stored form."""
        return cls(Rules.from_dict(d["rules"]), int(d["players"]), int(d["computers"]), str(d["level"]))


def _check_level(level: str | None, default: str) -> str:
    level = default if level is None else level
    if level not in LEVELS:
        raise ProtocolError("bad_field", f"unknown level {level[:40]!r}; levels are: {', '.join(LEVELS)}")
    return level


def _json(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


class Table:
    """One table: lobby, then a game; see the module docstring."""

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
        """A table in memory; use :meth:`Hub.create` or :meth:`Hub.get`."""
        self.hub = hub
        self.id = table_id
        self.settings = settings
        self.seats = seats
        self.status = status
        self.game = game
        self.rematch = rematch
        self.previous = previous
        self.spectators: set[Connection] = set()
        self.sockets = 0
        """Open websockets on this table (said hello or not): it stays in memory while any is."""
        self.idle_since = time.monotonic()
        self.persisted = len(game.events) if game is not None else 0
        self.action_ids: dict[tuple[int, str], int] = {}
        self.ready: set[int] = set()
        self.round_ended_at: float | None = None
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.closed = False
        self._slap_passed = -1
        self._bots: dict[int, tuple[str, Bot]] = {}
        self._rngs = bot_rngs(game.seed if game else None, settings.players)
        self._runner: asyncio.Task[None] | None = None
        if game is not None and game.round.is_over:
            self.round_ended_at = time.monotonic()

    # ----------------------------------------------------------------- state

    @property
    def version(self) -> int:
        """The state version: the number of record lines so far (0 before the game starts)."""
        return len(self.game.events) if self.game is not None else 0

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
        digest = hash_token(token)
        found = None
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = i
        return found

    def info(self) -> dict[str, Any]:
        """The public description of the table (no tokens, no cards)."""
        rules = self.settings.rules
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
            "round": self.game.round_no if self.game else 0,
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
        if self.game is None:
            return None
        view = self.game.round.view(seat).to_dict()
        del view["rules"]  # in the table info once
        view["round"] = self.game.round_no
        view["game_over"] = self.game.over
        view["winners"] = list(self.game.winners)
        return view

    def events_since(self, seat: int | None, since: int | None) -> list[dict[str, Any]]:
        """The record lines from *since* on (default: the current round's deal), redacted for *seat*."""
        if self.game is None:
            return []
        events = self.game.events
        if since is None or not 1 <= since <= len(events):
            since = self._round_start()
        return [redact(e, seat) for e in events[since:]]

    def _round_start(self) -> int:
        assert self.game is not None
        events = self.game.events
        for i in range(len(events) - 1, 0, -1):
            if events[i]["type"] == "deal":
                return i
        return 1

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
        assert self.game is not None
        events = self.game.events[max(start, 1) :]
        version = self.version
        by_seat: dict[int | None, str] = {}
        for seat in [None, *range(len(self.seats))]:
            clients = self.spectators if seat is None else self.seats[seat].clients
            if not clients:
                continue
            text = _json(
                {
                    "type": "update",
                    "version": version,
                    "events": [redact(e, seat) for e in events],
                    "view": self.view(seat),
                }
            )
            by_seat[seat] = text
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
                    self._bots.pop(seat, None)
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
            game = self.game
            if game is None:
                raise ProtocolError("not_started", "the game has not started yet", action_id)
            if version != self.version:
                raise ProtocolError(
                    "stale",
                    f"the game has moved on (your version {version}, now {self.version}); "
                    "look again and choose anew",
                    action_id,
                )
            if game.over:
                raise ProtocolError("illegal", "the game is over", action_id)
            try:
                game.apply(seat, action)
            except IllegalActionError as e:
                raise ProtocolError("illegal", str(e), action_id) from None
            await self._commit(seat, action_id, client)
            self._after_change()

    async def start(self, seat: int) -> None:
        """The host starts the game: empty seats get computer players; the rules are locked."""
        async with self.lock:
            if not self.seats[seat].host:
                raise ProtocolError("not_host", "only the host starts the game")
            if self.status != "lobby":
                raise ProtocolError("started", "the game has already started")
            self._begin()
            await self.hub.store.save_meta(self.id, self.status, self.meta())
            await self._commit(None, None)
            self.broadcast_table()
            self._after_change()

    def _begin(self) -> None:
        used = {s.name for s in self.seats if s.name}
        names = iter(n for n in BOT_NAMES if n not in used)
        for s in self.seats:
            if s.kind == "empty":
                s.bot = self.settings.level
            if s.bot and not s.name:
                s.name = next(names, f"Bot {self.seats.index(s)}")
        seed = secrets.randbits(62)
        self.game = Game(
            self.settings.rules,
            players=self.settings.players,
            seed=seed,
            names=[s.name or "?" for s in self.seats],
        )
        self._rngs = bot_rngs(seed, self.settings.players)
        self.status = "playing"
        self.persisted = 0

    async def on_ready(self, seat: int) -> None:
        """A seat has seen the round's end and is ready for the next deal."""
        async with self.lock:
            game = self.game
            if game is None or not game.round.is_over or game.over:
                raise ProtocolError("not_allowed", "there is no round end to wait at now")
            self.ready.add(seat)
            self.broadcast_table()
            self.kick()

    async def replace(self, by: int, seat: int, level: str | None) -> None:
        """The host hands an absent person's seat to a bot (until the person returns)."""
        level = _check_level(level, self.settings.level)
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
            await self.hub.store.save_meta(self.id, self.status, self.meta())
            self.broadcast_table()
            self.kick()

    async def on_rematch(self, seat: int, client: Connection) -> None:
        """After the game: a new table with the same rules and seats (and the same seat tokens)."""
        async with self.lock:
            if self.game is None or not self.game.over:
                raise ProtocolError("not_allowed", "a rematch follows a finished game")
            if self.rematch is None:
                table = await self.hub.create_rematch(self)
                self.rematch = table.id
                await self.hub.store.save_meta(self.id, self.status, self.meta())
                text = _json({"type": "rematch", "table": table.id})
                for c in self._connections():
                    c.send(text)
                self.broadcast_table()
            else:
                client.send({"type": "rematch", "table": self.rematch})

    # ----------------------------------------------------------------- changes

    async def _commit(
        self, seat: int | None, action_id: str | None, client: Connection | None = None
    ) -> None:
        """Persist the new record lines, then acknowledge and announce them.

        The action's ack goes to *client* first, then every connection gets its update; if
        storing fails, the table is rebuilt from the store instead and nothing is announced.
        """
        assert self.game is not None
        events = self.game.events
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
            if self.game.over and self.status != "over":
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
        stored = await self.hub.store.load(self.id)
        if stored is None:
            return
        fresh = self.hub.rebuild(stored)
        self.game, self.status = fresh.game, fresh.status
        self.persisted = fresh.persisted
        self.action_ids = fresh.action_ids
        for c in self._connections():
            c.send(self.welcome(c.seat))

    def _after_change(self) -> None:
        game = self.game
        if game is not None and game.round.is_over:
            if self.round_ended_at is None:
                self.round_ended_at = time.monotonic()
        else:
            self.round_ended_at = None
        self.kick()

    # ----------------------------------------------------------------- bots

    def kick(self) -> None:
        """Wake the table's bot task (starting it if needed)."""
        if self.closed or self.game is None:
            return
        self.wake.set()
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run())

    def _people_here(self) -> set[int]:
        return {i for i, s in enumerate(self.seats) if s.kind == "human" and s.stand_in is None and s.clients}

    def _next_job(self) -> tuple[tuple[str, int] | None, float | None]:
        """The bot work due now (kind, seat), or when to look again (seconds, None: on a change)."""
        game = self.game
        if game is None or game.over or self.closed:
            return None, None
        state = game.round
        if state.is_over:
            here = self._people_here()
            if not here:
                return None, None
            if here <= self.ready:
                return ("deal", -1), None
            pause = self.hub.round_pause
            if pause is None or self.round_ended_at is None:
                return None, None
            due = self.round_ended_at + pause - time.monotonic()
            return (("deal", -1), None) if due <= 0 else (None, due)
        slapper = state.slapper
        if (
            slapper is not None
            and self.is_bot(slapper)
            and self._slap_passed != self.version
            and state.slap_card(slapper) is not None
        ):
            return ("slap", slapper), None
        if self.is_bot(state.current):
            return ("act", state.current), None
        return None, None

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

    async def _do(self, job: tuple[str, int]) -> None:
        kind, seat = job
        if kind == "deal":
            async with self.lock:
                if self._next_job()[0] != job:
                    return
                assert self.game is not None
                self.game.next_round()
                self.ready.clear()
                await self._commit(None, None)
                self.broadcast_table()
                self._after_change()
            return
        delay = self.hub.bot_delay
        if delay > 0:
            await asyncio.sleep(delay)
        version = self.version
        if self._next_job()[0] != job:
            return
        action = await self._decide(seat)
        async with self.lock:
            if self.version != version or self._next_job()[0] != job:
                return  # the game moved on while the bot thought
            assert self.game is not None
            if action is None:
                if kind == "act":
                    action = self._fallback(seat)
                else:
                    self._slap_passed = version
                    return
            try:
                self.game.apply(seat, action)
            except IllegalActionError as e:
                log.warning("table %s: bot on seat %d played %s: %s", self.id, seat, action, e)
                if kind == "slap":
                    self._slap_passed = version
                    return
                self.game.apply(seat, self._fallback(seat))
            await self._commit(seat, None)
            self._after_change()

    def _bot(self, seat: int) -> Bot:
        level = self.seats[seat].level or self.settings.level
        have = self._bots.get(seat)
        if have is None or have[0] != level:
            have = (level, make_bot(level))
            self._bots[seat] = have
        return have[1]

    async def _decide(self, seat: int) -> Action | None:
        assert self.game is not None
        bot = self._bot(seat)
        state = self.game.round.copy()
        rng = self._rngs[seat]
        try:
            if isinstance(bot, ExpertBot):  # search takes tens of milliseconds: off the event loop
                return await asyncio.to_thread(decide, bot, state, seat, rng)
            return decide(bot, state, seat, rng)
        except Exception:
            log.exception("table %s: the bot on seat %d failed", self.id, seat)
            return None

    def _fallback(self, seat: int) -> Action:
        assert self.game is not None
        legal = self.game.round.legal_actions(seat)
        for a in legal:
            if a.type in ("draw", "discard"):
                return a
        return legal[0]

    async def close(self) -> None:
        """Stop the bot task (the table stays stored)."""
        self.closed = True
        self.wake.set()
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner


class Hub:
    """The tables of one server process, made new or loaded from the store on first use."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.8,
        round_pause: float | None = None,
        unload_after: float | None = 600.0,
    ) -> None:
        """Tables persisted in *store*.

        Bots wait *bot_delay* seconds before acting; the next round is dealt when everyone
        present is ready, or *round_pause* seconds after a round ends (``None``: no limit).
        A table nobody has had open for *unload_after* seconds leaves memory (it stays
        stored and comes back on its next use); ``None`` keeps every table loaded.
        """
        self.store = store
        self.bot_delay = bot_delay
        self.round_pause = round_pause
        self.unload_after = unload_after
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start unloading idle tables (call from the running event loop)."""
        if self.unload_after is not None and self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop(self.unload_after))

    async def _sweep_loop(self, idle: float) -> None:
        while True:
            await asyncio.sleep(max(0.05, min(60.0, idle / 2)))
            try:
                await self.sweep(idle)
            except Exception:
                log.exception("unloading idle tables failed")

    async def sweep(self, idle: float) -> list[str]:
        """Unload the tables nobody has had open for *idle* seconds; returns their ids."""
        now = time.monotonic()
        gone = []
        for table_id, table in list(self.tables.items()):
            if table.sockets == 0 and now - table.idle_since >= idle and not table.lock.locked():
                del self.tables[table_id]
                await table.close()
                gone.append(table_id)
        return gone

    async def create(self, settings: TableSettings, host_name: str) -> tuple[Table, int, str]:
        """A new table with its host on seat 0: returns the table, the seat and the host's token."""
        token = secrets.token_urlsafe(24)
        seats = [Seat() for _ in range(settings.players)]
        seats[0] = Seat(name=clean_name(host_name), token_hash=hash_token(token), host=True)
        for i in range(settings.players - settings.computers, settings.players):
            seats[i].bot = settings.level
        table = Table(self, self._new_id(), settings, seats)
        await self.store.create_table(table.id, table.status, table.meta())
        self.tables[table.id] = table
        return table, 0, token

    async def create_rematch(self, old: Table) -> Table:
        """A table for a rematch of *old*: same rules and seats, same tokens, dealt at once."""
        seats = [
            Seat(name=s.name, token_hash=s.token_hash, bot=s.bot, stand_in=s.stand_in, host=s.host)
            for s in old.seats
        ]
        table = Table(self, self._new_id(), old.settings, seats, previous=old.id)
        table._begin()
        await self.store.create_table(table.id, table.status, table.meta())
        await table._commit(None, None)
        self.tables[table.id] = table
        return table

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables:
                return table_id

    async def join(self, table_id: str, name: str) -> tuple[Table, int, str]:
        """Sit a person on the first empty seat of a table in its lobby."""
        table = await self.get(table_id)
        if table is None:
            raise LookupError(f"there is no table {table_id!r}")
        clean = clean_name(name)
        async with table.lock:
            if table.status != "lobby":
                raise ValueError("the game has started: you can watch it")
            free = [i for i, s in enumerate(table.seats) if s.kind == "empty"]
            if not free:
                raise ValueError("every seat is taken: you can watch the game")
            if any(s.name and s.name.casefold() == clean.casefold() for s in table.seats):
                raise ValueError(f"someone at this table is already called {clean}")
            token = secrets.token_urlsafe(24)
            seat = free[0]
            table.seats[seat] = Seat(name=clean, token_hash=hash_token(token))
            await self.store.save_meta(table.id, table.status, table.meta())
            table.broadcast_table()
        return table, seat, token

    async def get(self, table_id: str) -> Table | None:
        """The table by id, loaded from the store if it is not in memory; ``None`` if unknown."""
        if not TABLE_ID.match(table_id):
            return None
        table = self.tables.get(table_id)
        if table is not None:
            return table
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            stored = await self.store.load(table_id)
            table = None
            if stored is not None:
                try:
                    table = self.rebuild(stored)
                except (RecordError, YanivError, KeyError, ValueError, TypeError):
                    log.exception("table %s cannot be rebuilt from the store", table_id)
                    table = None
            if table is not None:
                self.tables[table_id] = table
                table.kick()
            future.set_result(table)
            return table
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._loading[table_id]

    def rebuild(self, stored: Any) -> Table:
        """A table from its stored meta and record lines (the game by record replay)."""
        meta = stored.meta
        settings = TableSettings.from_meta(meta["settings"])
        seats = [Seat.from_meta(s) for s in meta["seats"]]
        game = None
        lines = stored.lines
        if lines:
            game = replay(read_record([row.line for row in lines]))
            game.events[0] = json.loads(lines[0].line)  # the stored header (replay stamps a new start time)
            if not game.over:
                game.resume()  # new deals and reshuffles from a fresh, seeded generator
        table = Table(
            self,
            stored.id,
            settings,
            seats,
            meta.get("status", "lobby"),
            game,
            rematch=meta.get("rematch"),
            previous=meta.get("previous"),
        )
        # idempotency survives a restart: each stored action id with the version it made
        types = [json.loads(row.line).get("type") for row in lines]
        marks = [  # where each change of the game starts: an action (a seat's) or a deal
            i for i, row in enumerate(lines) if row.seat is not None or types[i] in ("header", "deal")
        ]
        for k, i in enumerate(marks):
            row = lines[i]
            if row.action_id is not None and row.seat is not None:
                end = marks[k + 1] if k + 1 < len(marks) else len(lines)
                table.action_ids[(row.seat, row.action_id)] = end
        return table

    async def close(self) -> None:
        """Stop unloading and every table's bots."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        for table in list(self.tables.values()):
            await table.close()
