from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from yaniv.web import WebConfig, create_app

from .helpers import Player


class Site:
    """An in-process server (Starlette's TestClient) and the players connected to it."""

    def __init__(self, client: TestClient, stack: ExitStack) -> None:
        self.client = client
        self.stack = stack
        self.players: list[Player] = []

    @property
    def hub(self) -> Any:
        return self.client.app.state.hub  # type: ignore[attr-defined]

    def create(self, **body: Any) -> dict[str, Any]:
        body.setdefault("name", "Ann")
        r = self.client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        return r.json()

    def join(self, table: str, name: str) -> dict[str, Any]:
        r = self.client.post(f"/api/tables/{table}/join", json={"name": name})
        assert r.status_code == 200, r.text
        return r.json()

    def connect(self, table: str, token: str | None = None, name: str = "?", hello: bool = True) -> Player:
        ws = self.stack.enter_context(self.client.websocket_connect(f"/ws/{table}"))
        p = Player(ws, token, name)
        self.players.append(p)
        if hello:
            p.hello()
        return p

    def table(self, table_id: str) -> Any:
        return self.hub.tables[table_id]

    def tick(self, seconds: float) -> None:
        """Move the fake clock on and let every room look at its timers."""
        clock = self.clock
        assert clock is not None, "this site runs on the real clock"
        clock.now += seconds
        self.client.portal.call(self.hub.tick)  # type: ignore[union-attr]

    clock: FakeClock | None = None


class FakeClock:
    """A clock that moves only when told (the hub's and the turn clocks' time)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def db_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


FAST = WebConfig(message_rate=0, sync_rate=0, tables_per_client=0)
"""Scripted clients play at machine speed: no rate limits (the limit tests set their own)."""


@pytest.fixture
def db(tmp_path: Path) -> str:
    return db_url(tmp_path / "yaniv.db")


@pytest.fixture
def clocked(db: str) -> Iterator[Site]:
    """A site whose rooms' timers and turn clocks run on a :class:`FakeClock`."""
    clock = FakeClock()
    app = create_app(db, bot_delay=0, round_pause=None, config=FAST, clock=clock)
    with ExitStack() as stack:
        s = Site(stack.enter_context(TestClient(app)), stack)
        s.clock = clock
        yield s
        for p in s.players:
            p.close()


@pytest.fixture
def site(db: str) -> Iterator[Site]:
    app = create_app(db, bot_delay=0, round_pause=None, config=FAST)
    with ExitStack() as stack:
        client = stack.enter_context(TestClient(app))
        s = Site(client, stack)
        yield s
        for p in s.players:
            p.close()
