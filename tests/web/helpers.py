"""Scripted clients for the web tests: a reader thread per websocket, a simple policy, and
the no-peeking check of every message against the full game."""

from __future__ import annotations

import contextlib
import json
import queue
import re
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from yaniv.cards import CARDS, cards_of_mask
from yaniv.game import Game
from yaniv.record import read_record, replay

CARD = re.compile(r"^(?:A|[2-9]|10|J|Q|K)[SHDC]$|^JK$")
VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10, "JK": 0}


def card_value(code: str) -> int:
    if code == "JK":
        return 0
    rank = code[:-1]
    return VALUES.get(rank) or int(rank)


class Player:
    """One websocket client: messages are read by a thread into a queue."""

    def __init__(self, ws: Any, token: str | None = None, name: str = "?") -> None:
        self.ws = ws
        self.token = token
        self.name = name
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.messages: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.view: dict[str, Any] | None = None
        self.version = 0
        self.table: dict[str, Any] | None = None
        self.acted_at = -1
        self.readied_round = -1
        self.errors: list[dict[str, Any]] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                text = self.ws.receive_text()
            except Exception:
                return
            self.inbox.put(json.loads(text))

    def send(self, msg: dict[str, Any] | str) -> None:
        self.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    def hello(self, since: int | None = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "hello"}
        if self.token:
            msg["token"] = self.token
        if since is not None:
            msg["since"] = since
        self.send(msg)
        return self.expect("welcome")

    def _note(self, m: dict[str, Any]) -> None:
        self.messages.append(m)
        if m["type"] in ("welcome", "update"):
            self.view = m["view"]
            self.version = m["version"]
        if m["type"] == "welcome":
            self.seat = m["seat"]
        if m["type"] in ("welcome", "table"):
            self.table = m["table"]
        if m["type"] == "error":
            self.errors.append(m)

    def next(self, timeout: float = 10.0) -> dict[str, Any]:
        m = self.inbox.get(timeout=timeout)
        self._note(m)
        return m

    def poll(self) -> list[dict[str, Any]]:
        out = []
        while True:
            try:
                m = self.inbox.get_nowait()
            except queue.Empty:
                return out
            self._note(m)
            out.append(m)

    def expect(
        self, kind: str, timeout: float = 10.0, where: Callable[[dict[str, Any]], bool] | None = None
    ) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            m = self.next(max(0.01, end - time.monotonic()))
            if m["type"] == kind and (where is None or where(m)):
                return m

    def wait_view(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while not (self.view is not None and pred(self.view)):
            self.next(max(0.01, end - time.monotonic()))
        return self.view

    def act(self, action: dict[str, Any], action_id: str | None = None, version: int | None = None) -> str:
        action_id = action_id or uuid.uuid4().hex
        self.send(
            {
                "type": "action",
                "id": action_id,
                "version": self.version if version is None else version,
                "action": action,
            }
        )
        return action_id

    # a simple policy: call when allowed, else throw the most points, then draw
    def choose(self) -> dict[str, Any] | None:
        v = self.view
        if v is None or v["phase"] == "round_over" or v["current"] != self.seat:
            return None
        legal = [a for a in v["legal"] if a["type"] != "slap"]
        for a in legal:
            if a["type"] == "yaniv":
                return a
        discards = [a for a in legal if a["type"] == "discard"]
        if discards:
            return max(discards, key=lambda a: (sum(card_value(c) for c in a["cards"]), len(a["cards"])))
        for kind in ("draw", "take", "swap", "asef"):
            for a in legal:
                if a["type"] == kind:
                    return a
        return legal[0] if legal else None

    def step(self) -> bool:
        """Act if it is this seat's turn (once per version) or say ready at a round's end."""
        v = self.view
        if v is None or self.seat is None:
            return False
        if v["phase"] == "round_over" and not v["game_over"] and self.readied_round != v["round"]:
            self.readied_round = v["round"]
            self.send({"type": "ready"})
            return True
        if self.acted_at == self.version:
            return False
        action = self.choose()
        if action is None:
            return False
        self.acted_at = self.version
        self.act(action)
        return True

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


def play_until(players: list[Player], done: Callable[[], bool], timeout: float = 60.0) -> None:
    """Let the scripted players play until *done* (they act on what they have seen)."""
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() > end:
            raise AssertionError(
                f"timed out; views: {[p.view and (p.view['phase'], p.view['current']) for p in players]}"
            )
        progressed = False
        for p in players:
            progressed |= bool(p.poll())
            progressed |= p.step()
        if not progressed:
            time.sleep(0.002)


def game_over(players: list[Player]) -> Callable[[], bool]:
    return lambda: all(p.view is not None and p.view["game_over"] for p in players)


# ---------------------------------------------------------------- no peeking


def strings(obj: Any) -> list[str]:
    out: list[str] = []
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.append(x)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return out


class Truth:
    """The full game at every version, rebuilt from the full record."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self.events = events
        self.cache: dict[int, Game] = {}

    def at(self, version: int) -> Game:
        if version not in self.cache:
            lines = [json.dumps(e) for e in self.events[:version]]
            self.cache[version] = replay(read_record(lines))
        return self.cache[version]


def check_no_peeking(messages: list[dict[str, Any]], seat: int | None, truth: Truth) -> int:
    """Every message a seat got holds no card hidden from it at that moment; returns how many were checked."""
    checked = 0
    for m in messages:
        assert "seed" not in strings(m), m
        if m["type"] not in ("welcome", "update") or m.get("view") is None:
            for s in strings(m):
                assert not CARD.match(s), f"card {s} in a {m['type']} message"
            continue
        game = truth.at(m["version"])
        state = game.round
        view = m["view"]
        assert view["seat"] == seat
        mine = [str(c) for c in state.hand(seat)] if seat is not None else []
        assert view["hand"] == mine, (m["version"], view["hand"], mine)
        if seat is not None:
            assert view["hand_value"] == state.hand_value(seat)
        assert view["hand_counts"] == [h.bit_count() for h in state.hands]
        if state.is_over:
            checked += 1
            continue  # the showdown shows every hand
        hidden: set[str] = {str(CARDS[c]) for c in state.stock}
        for p in range(state.n):
            if p != seat:
                hidden |= {str(CARDS[c]) for c in cards_of_mask(state.hands[p] & ~state.seen[p])}
        visible = (
            set(mine) | {c for g in view["discard_pile"] for c in g} | {c for s in view["seen"] for c in s}
        )
        hidden -= visible  # two jokers share a name
        parts: list[Any] = [view]
        if m["type"] == "update":
            parts.append(m["events"])
        for s in strings(parts):
            assert not (CARD.match(s) and s in hidden), (
                f"seat {seat} saw hidden {s} at version {m['version']}: {m}"
            )
        for e in m["events"]:
            if e["type"] == "deal":
                assert e["stock"] is None
                assert all(h is None for p, h in enumerate(e["hands"]) if p != seat)
            if e["type"] == "draw" and e["seat"] != seat:
                assert "card" not in e
            if e["type"] == "reshuffle":
                assert "stock" not in e
        checked += 1
    return checked
