"""Bounded work per client, in-process: rate limits with a clear error then a close, a bounded
send queue, table-info fan-out proportional to the change, 413 before reading, the page's
headers, the Origin check, per-address limits, well-formed text everywhere, the clean-up of
old tables, the database URL and durability, and no seed anywhere a player can look."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from yaniv.web import WebConfig, create_app
from yaniv.web.client import Client
from yaniv.web.store import async_url

from .conftest import FAST, Site, db_url
from .helpers import Player, game_over, play_until


def make_site(tmp_path: Path, **config: Any) -> Iterator[Site]:
    app = create_app(db_url(tmp_path / "l.db"), bot_delay=0, round_pause=None, config=WebConfig(**config))
    with ExitStack() as stack:
        s = Site(stack.enter_context(TestClient(app)), stack)
        yield s
        for p in s.players:
            p.close()


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[Site]:
    """The default limits (a real server's)."""
    yield from make_site(tmp_path)


def drain_until_closed(p: Player, timeout: float = 10) -> list[dict[str, Any]]:
    """Every message until the server closes the connection."""
    end = time.monotonic() + timeout
    out = []
    while time.monotonic() < end:
        try:
            out.append(p.inbox.get(timeout=0.2))
        except Exception:
            if not p.reader.is_alive():
                return out
    raise AssertionError("the connection stayed open")


# ----------------------------------------------------------------- rate limits


def test_a_sync_flood_gets_an_error_then_a_close(strict: Site) -> None:
    made = strict.create(players=2)
    p = strict.connect(made["table"], made["token"])
    for _ in range(50):
        p.send({"type": "sync", "since": 1})
    got = drain_until_closed(p)
    welcomes = [m for m in got if m["type"] == "welcome"]
    errors = [m for m in got if m["type"] == "error"]
    assert len(welcomes) <= 6  # the burst (hello took one), then no more whole welcomes
    assert errors and errors[-1]["code"] == "rate_limited" and "slow down" in errors[-1]["message"]
    # the table is fine, and a new connection is welcome
    again = strict.connect(made["table"], made["token"])
    assert again.seat == 0


def test_a_message_flood_gets_an_error_then_a_close(strict: Site) -> None:
    made = strict.create(players=2)
    p = strict.connect(made["table"])
    for i in range(200):
        p.send({"type": "ping", "id": str(i)})
    got = drain_until_closed(p)
    pongs = [m for m in got if m["type"] == "pong"]
    assert 40 <= len(pongs) <= 100 and got[-1]["code"] == "rate_limited"


def test_people_playing_stay_well_under_the_limits(strict: Site) -> None:
    made = strict.create(players=2, computers=1, level="beginner", rules="standard(score_limit=40)")
    ann = strict.connect(made["table"], made["token"])
    ann.send({"type": "start"})
    ann.wait_view(lambda v: v is not None)

    def paced() -> bool:
        time.sleep(0.06)  # a quick person: 16 moves a second
        return game_over([ann])()

    play_until([ann], paced, timeout=120)
    assert not [e for e in ann.errors if e["code"] == "rate_limited"]


def test_no_hello_closes(tmp_path: Path) -> None:
    for site in make_site(tmp_path, hello_timeout=0.2):
        made = site.create(players=2)
        p = site.connect(made["table"], hello=False)
        got = drain_until_closed(p)
        assert got[-1]["code"] == "no_hello"


# ----------------------------------------------------------------- the send queue


class StuckSocket:
    """A websocket whose peer never reads: the first send blocks for ever."""

    def __init__(self) -> None:
        self.sent = 0
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.sent += 1
        await asyncio.Event().wait()

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()
        return {}

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = (code, reason)


def test_a_slow_reader_is_dropped_not_buffered() -> None:
    async def run() -> tuple[Client, int, Any]:
        config = WebConfig(send_queue_bytes=50_000, send_queue_messages=10_000)
        client = Client(StuckSocket(), config)  # type: ignore[arg-type]
        reading = asyncio.create_task(client.receive())
        await asyncio.sleep(0)
        most = 0
        for _ in range(1000):
            client.send("x" * 1000)
            most = max(most, client.queued_bytes)
            await asyncio.sleep(0)
        frame = await asyncio.wait_for(reading, 1)
        await client.close()
        return client, most, frame

    client, most, frame = asyncio.run(run())
    assert client.dropped and "too slow" in client.dropped
    assert most <= 50_000 and client.queued_bytes == 0
    assert frame is None  # the reader stopped too: the connection's handler returns


def test_the_queue_counts_messages_too() -> None:
    async def run() -> Client:
        client = Client(StuckSocket(), WebConfig(send_queue_messages=5))  # type: ignore[arg-type]
        for _ in range(10):
            client.send({"type": "pong"})
        await client.close()
        return client

    assert asyncio.run(run()).dropped


# ----------------------------------------------------------------- fan-out


def test_a_spectator_joining_costs_messages_to_the_seats_not_to_the_audience(site: Site) -> None:
    made = site.create(players=2)
    table = made["table"]
    ann = site.connect(table, made["token"])
    watchers = [site.connect(table) for _ in range(40)]
    time.sleep(0.8)  # the seats are told the new count within half a second
    for w in watchers:
        w.poll()
    ann.poll()
    per_watcher = [len(w.messages) for w in watchers]
    assert max(per_watcher) <= 2, per_watcher  # its welcome (and a seat change at most)
    tables_to_ann = [m for m in ann.messages if m["type"] == "table"]
    assert 1 <= len(tables_to_ann) <= 10  # a crowd arriving is told in a few messages, not one per head
    assert tables_to_ann[-1]["table"]["spectators"] == 40
    # the spectators' welcome is the same as the one built for a seat of nobody
    assert watchers[-1].messages[0]["view"] == site.table(table).view(None)


def test_spectators_per_table_are_capped(tmp_path: Path) -> None:
    for site in make_site(tmp_path, spectators_per_table=3):
        made = site.create(players=2)
        for _ in range(3):
            site.connect(made["table"])
        extra = site.connect(made["table"], hello=False)
        extra.send({"type": "hello"})
        got = drain_until_closed(extra)
        assert got[-1]["code"] == "full"


# ----------------------------------------------------------------- HTTP


def test_a_body_over_the_limit_gets_413_before_it_is_read(site: Site) -> None:
    big = json.dumps({"name": "A", "rules": {"x": "y" * 100_000}})
    r = site.client.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "at most" in r.json()["detail"]
    assert r.headers["connection"] == "close"
    # a chunked body is cut off as soon as it passes the limit
    sent = []

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            sent.append(1)
            yield b"x" * 10_000

    r = site.client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    small = site.client.post("/api/tables", json={"name": "A"})
    assert small.status_code == 201


def test_the_page_has_a_content_security_policy(site: Site) -> None:
    for path in ("/", "/t/abcdef", "/lobby", "/static/app.js", "/api/presets"):
        r = site.client.get(path)
        assert r.status_code == 200, path
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
    assert site.client.get("/docs").headers["content-security-policy"] == "frame-ancestors 'none'"


def test_websockets_from_another_sites_page_are_refused(tmp_path: Path) -> None:
    for site in make_site(tmp_path, allowed_origins=("play.example.org",)):
        made = site.create(players=2)
        path = f"/ws/{made['table']}"
        with (
            pytest.raises(WebSocketDisconnect) as e,
            site.client.websocket_connect(path, headers={"origin": "https://evil.example"}),
        ):
            pass
        assert e.value.code == 4403
        for origin in ("http://testserver", "https://play.example.org"):
            with site.client.websocket_connect(path, headers={"origin": origin}) as ws:
                ws.send_text('{"type": "ping"}')
                assert json.loads(ws.receive_text())["type"] == "pong"


def test_websockets_per_address_are_capped(tmp_path: Path) -> None:
    for site in make_site(tmp_path, sockets_per_client=3):
        made = site.create(players=2)
        for _ in range(3):
            site.connect(made["table"])
        with pytest.raises(WebSocketDisconnect) as e, site.client.websocket_connect(f"/ws/{made['table']}"):
            pass
        assert e.value.code == 4429


def test_tables_per_address_are_capped(tmp_path: Path) -> None:
    for site in make_site(tmp_path, tables_per_client=2):
        for _ in range(3):  # a refused name made no table: it was counted all the same
            assert site.client.post("/api/tables", json={"name": " "}).status_code == 422
        site.create()
        site.create()
        r = site.client.post("/api/tables", json={"name": "A"})
        assert r.status_code == 429 and "try again" in r.json()["detail"]


# ----------------------------------------------------------------- text


def test_a_lone_surrogate_anywhere_is_refused_and_breaks_nothing(site: Site) -> None:
    made = site.create(players=2)
    table = made["table"]
    ben = site.join(table, "Ben")
    ann, bob = site.connect(table, made["token"]), site.connect(table, ben["token"])
    ann.send({"type": "start"})
    ann.wait_view(lambda v: v is not None)
    bob.wait_view(lambda v: v is not None)
    me = ann if ann.view and ann.view["current"] == 0 else bob
    discard = next(a for a in me.view["legal"] if a["type"] == "discard")  # type: ignore[index]
    raw = json.dumps({"type": "action", "id": "ID", "version": me.version, "action": discard})
    for bad in ("\\ud800", "a\\udfff", "\\udbff\\udbff"):
        me.send(raw.replace("ID", bad))
        err = me.expect("error")
        assert err["code"] == "bad_text" and "surrogate" in err["message"]
    me.send('{"type": "hello", "token": "\\ud800"}')
    assert me.expect("error")["code"] == "bad_text"
    me.act(discard, action_id="fine-id-\u00e9\U0001f642")  # well-formed text of any script is fine
    assert me.expect("ack")
    stored = site.client.portal.call(site.hub.store.load, table)  # type: ignore[union-attr]
    assert stored.lines[-1].action_id is None or "fine-id" in (stored.lines[-1].action_id or "")
    # REST bodies: 422, never a 500
    for body in (
        '{"name": "\\ud800"}',
        '{"name": "A", "rules": "\\ud800"}',
        '{"name": "A", "overrides": {"\\udc00": 1}}',
    ):
        r = site.client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 422, (body, r.text)
    r = site.client.post(
        f"/api/tables/{table}/join",
        content='{"name": "x\\ud800"}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 422


# ----------------------------------------------------------------- the store


def test_old_tables_are_pruned_and_open_ones_kept(tmp_path: Path) -> None:
    for site in make_site(tmp_path, lobby_retention=3600, finished_retention=86_400, prune_every=0):
        old_lobby = site.create(players=2)["table"]
        fresh_lobby = site.create(players=2)["table"]
        open_lobby = site.create(players=2)
        site.connect(open_lobby["table"], open_lobby["token"])
        store = site.hub.store
        long_ago = time.time() - 7200
        for table_id in (old_lobby, open_lobby["table"]):
            site.client.portal.call(store.touch, table_id, long_ago)  # type: ignore[union-attr]
        gone = site.client.portal.call(site.hub.prune)  # type: ignore[union-attr]
        assert gone == [old_lobby]
        assert site.client.get(f"/api/tables/{old_lobby}").status_code == 404
        for kept in (fresh_lobby, open_lobby["table"]):
            assert site.client.get(f"/api/tables/{kept}").status_code == 200


def test_plain_database_urls_get_the_async_driver(tmp_path: Path) -> None:
    assert async_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert async_url("sqlite+pysqlite:////abs/x.db") == "sqlite+aiosqlite:////abs/x.db"
    assert async_url("sqlite+aiosqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert async_url("postgres://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert async_url("postgresql+asyncpg://h/db") == "postgresql+asyncpg://h/db"
    with pytest.raises(ValueError, match="not a database URL"):
        async_url("nonsense")
    for url in (f"sqlite:///{tmp_path / 'plain.db'}", str(tmp_path / "file.db")):
        with TestClient(create_app(url, config=FAST)) as client:
            assert client.post("/api/tables", json={"name": "A"}).status_code == 201


def test_full_durability_is_an_option(tmp_path: Path) -> None:
    async def synchronous(site: Site) -> int:
        engine = site.hub.store.engine
        async with engine.connect() as conn:
            return int((await conn.exec_driver_sql("PRAGMA synchronous")).scalar())

    for site in make_site(tmp_path, durable=True):
        assert site.client.portal.call(synchronous, site) == 2  # type: ignore[union-attr]
    for site in make_site(tmp_path / "n"):
        assert site.client.portal.call(synchronous, site) == 1  # NORMAL  # type: ignore[union-attr]


def test_the_seed_is_nowhere_a_player_can_look(site: Site) -> None:
    made = site.create(
        players=2, computers=1, level="beginner", rules="standard(score_limit=30)", public=True
    )
    table = made["table"]
    ann = site.connect(table, made["token"])
    watcher = site.connect(table)
    ann.send({"type": "start"})
    play_until([ann], game_over([ann]), timeout=60)
    watcher.poll()
    seed = site.table(table).game.seed
    seen = json.dumps([ann.messages, watcher.messages])
    seen += site.client.get(f"/api/tables/{table}").text + site.client.get("/api/lobby").text
    assert str(seed) not in seen and '"seed"' not in seen
