"""Two real ``yaniv serve`` processes on one PostgreSQL and one Redis (issue 18).

A table made on one process is known to both; seats connected to different processes
see the same game; an action id sent through both counts once; a burst of tables
spread over both ends with every record passing ``yaniv check``; a kill -9 of a table's
owner mid-game, and a Redis restart mid-game, lose no acknowledged move and the game
finishes through the other process (after the kill, within about a lease's time).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from yaniv.record import check
from yaniv.web.processes import LEASE_SECONDS

from .helpers import Player, play_until
from .postgres import private_postgres
from .redis_server import PrivateRedis, private_redis
from .server import FAST_ENV, Server, SyncWs

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    with private_postgres() as url:
        yield url


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with private_redis() as server:
        yield server if isinstance(server, str) else server.url


def start(tmp: Path, pg: str, redis: str, name: str) -> Server:
    return Server(tmp / f"{name}.db", None, "--redis", redis, env=FAST_ENV, db_arg=pg).start()


@contextlib.contextmanager
def two(tmp: Path, pg: str, redis: str) -> Iterator[tuple[Server, Server]]:
    a = start(tmp, pg, redis, "a")
    try:
        b = start(tmp, pg, redis, "b")
        try:
            yield a, b
        finally:
            b.stop()
    finally:
        a.stop()


class Seat(Player):
    """A scripted player that, like the page, acts again on a ``welcome`` (its move may be lost)."""

    def __init__(self, url: str, token: str | None, name: str = "?") -> None:
        super().__init__(SyncWs(url), token, name)
        self.url = url
        self.updates: list[tuple[int, list[dict[str, Any]]]] = []
        self.closed_by_server = False

    def _note(self, m: dict[str, Any]) -> None:
        super()._note(m)
        if m["type"] == "welcome":
            self.acted_at = -1
            self.readied_round = -1  # a table rebuilt elsewhere has forgotten who was ready: say it again
        if m["type"] == "update":
            self.updates.append((m["version"], m["events"]))

    def _read(self) -> None:
        super()._read()
        self.closed_by_server = True

    def reconnect(self, url: str | None = None) -> None:
        """A new websocket (to *url*, or the same server) and ``hello`` with ``since``."""
        self.close()
        self.url = url or self.url
        self.ws = SyncWs(self.url)
        self.closed_by_server = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.hello(since=self.version)


def seat(server: Server, table: str, token: str | None) -> Seat:
    p = Seat(f"{server.ws_url}/ws/{table}", token)
    if token is not None:
        p.hello()
    else:
        p.hello()
    return p


def record_lines(pg: str, table: str) -> list[str]:
    import psycopg

    with psycopg.connect(pg.replace("postgresql+psycopg", "postgresql")) as conn:
        rows = conn.execute("SELECT line FROM lines WHERE table_id=%s ORDER BY seq", (table,)).fetchall()
    return [r[0] for r in rows]


def events_of(p: Seat, upto: int) -> list[str]:
    """The events a connection was told, in order, up to version *upto* (as JSON text)."""
    out: list[str] = []
    for _version, events in p.updates:
        out.extend(json.dumps(e, sort_keys=True) for e in events)
    return out[:upto]


def make_table(server: Server, **extra: Any) -> dict[str, Any]:
    body = {"name": "Ann", "rules": "standard(score_limit=60)", "players": 2, **extra}
    return server.post("/api/tables", body)


def test_a_table_made_on_one_process_is_played_through_both(tmp_path: Path, pg: str, redis_url: str) -> None:
    with two(tmp_path, pg, redis_url) as (a, b):
        made = make_table(a)
        table = made["table"]
        assert httpx.get(f"{b.url}/api/tables/{table}").json()["seats"][0]["name"] == "Ann"
        ben = b.post(f"/api/tables/{table}/join", {"name": "Ben"})  # joined through the other process
        assert ben["seat"] == 1
        ann_a, ann_b = seat(a, table, made["token"]), seat(b, table, made["token"])
        ben_b = seat(b, table, ben["token"])
        watch_a, watch_b = seat(a, table, None), seat(b, table, None)
        info = httpx.get(f"{b.url}/api/tables/{table}").json()
        assert [s["connected"] for s in info["seats"]] == [True, True]  # the owner sees both processes
        ann_a.send({"type": "start"})
        players = [ann_a, ben_b]
        play_until(players, lambda: all(p.view and p.view["game_over"] for p in players), timeout=120)
        for p in (ann_b, watch_a, watch_b):
            p.wait_view(lambda v: v["game_over"], timeout=20)
        lines = record_lines(pg, table)
        game = check(lines)
        assert game.over
        end = len(lines)
        # the same seat on both processes, and a spectator on each, saw the same events
        assert events_of(ann_a, end) == events_of(ann_b, end)
        assert events_of(watch_a, end) == events_of(watch_b, end)
        assert len(events_of(watch_a, end)) >= end - 2  # the updates after the first deal
        for p in (ann_a, ann_b, ben_b, watch_a, watch_b):
            assert not [e for e in p.errors if e["code"] not in ("stale",)], p.errors
            p.close()
        # a finished game's record from either process
        assert httpx.get(f"{b.url}/api/tables/{table}/record").text.count("\n") == end
        lobby = b.post("/api/tables", {"name": "Cy", "players": 3, "public": True})
        listed = {t["id"] for t in httpx.get(f"{a.url}/api/lobby").json()}
        deadline = time.monotonic() + 5
        while lobby["table"] not in listed and time.monotonic() < deadline:
            time.sleep(0.3)  # made on b: in the lobby of a within a second or two
            listed = {t["id"] for t in httpx.get(f"{a.url}/api/lobby").json()}
        assert lobby["table"] in listed


def test_one_action_id_sent_to_both_processes_counts_once(tmp_path: Path, pg: str, redis_url: str) -> None:
    with two(tmp_path, pg, redis_url) as (a, b):
        made = make_table(a, computers=1, level="easy")
        table = made["table"]
        ann_a = seat(a, table, made["token"])
        ann_a.send({"type": "start"})
        ann_a.wait_view(lambda v: v["current"] == 0 and v["phase"] != "round_over", timeout=30)
        ann_b = Seat(f"{b.ws_url}/ws/{table}", "not-the-token")
        ann_b.send({"type": "hello", "token": "not-the-token"})  # refused by the owner, through b
        assert ann_b.expect("error")["code"] == "bad_token"
        ann_b.token = made["token"]
        ann_b.hello()  # and the right one is taken after it, as on one process
        action = ann_a.choose()
        assert action is not None
        action_id = uuid.uuid4().hex
        version = ann_a.version
        ann_b.act(action, action_id, version)
        ann_a.act(action, action_id, version)
        acks = [p.expect("ack", 10, lambda m: m["id"] == action_id) for p in (ann_a, ann_b)]
        assert sorted(bool(m.get("duplicate")) for m in acks) == [False, True]
        assert acks[0]["version"] == acks[1]["version"]
        time.sleep(0.5)
        import psycopg

        with psycopg.connect(pg) as conn:
            count = conn.execute(
                "SELECT count(*) FROM lines WHERE table_id=%s AND action_id=%s", (table, action_id)
            ).fetchone()
        assert count is not None and count[0] == 1
        for p in (ann_a, ann_b):
            p.close()


def test_a_burst_of_tables_over_both_processes_ends_with_every_record_checked(
    tmp_path: Path, pg: str, redis_url: str
) -> None:
    with two(tmp_path, pg, redis_url) as servers:
        tables, players = [], []
        for k in range(8):
            maker, other = servers[k % 2], servers[1 - k % 2]
            made = make_table(maker, players=3, computers=1, level="easy")
            table = made["table"]
            joined = other.post(f"/api/tables/{table}/join", {"name": "Ben"})
            ann = seat(other, table, made["token"])  # the host on the process that does not own it
            ben = seat(maker, table, joined["token"])
            ann.send({"type": "start"})
            tables.append(table)
            players += [ann, ben]
        play_until(players, lambda: all(p.view and p.view["game_over"] for p in players), timeout=240)
        for p in players:
            p.close()
    for table in tables:
        assert check(record_lines(pg, table)).over


def _kill_owner_mid_game(tmp: Path, pg: str, redis: str) -> None:
    a = start(tmp, pg, redis, "a")
    b = start(tmp, pg, redis, "b")
    try:
        made = make_table(a, players=3, computers=1, level="easy")  # a owns it
        table = made["table"]
        ben = b.post(f"/api/tables/{table}/join", {"name": "Ben"})
        ann = seat(a, table, made["token"])  # on the owner: its socket dies with it
        ben_b = seat(b, table, ben["token"])  # relayed by b: moves with the table
        ann.send({"type": "start"})
        players = [ann, ben_b]
        play_until(players, lambda: ann.version > 25 and ben_b.version > 25, timeout=60)
        for p in players:
            p.poll()
        seen = {p.seat: p.version for p in players}
        killed = time.monotonic()
        a.kill()
        ann.reconnect(f"{b.ws_url}/ws/{table}")  # the page reconnects; the balancer sends it to b
        # its welcome comes once b has taken the table: the moment a's lease expired (within
        # LEASE_SECONDS of the kill; about 2 s here), not a watch round nor an alive key's
        # expiry later (the margin is for a loaded machine)
        back = time.monotonic() - killed
        assert back < LEASE_SECONDS + 1.5, back
        assert ann.version >= seen[ann.seat]  # nothing acknowledged was lost
        # b took the table over and ben's connection followed it there without a reconnect
        play_until(players, lambda: ben_b.version > seen[ben_b.seat] + 2, timeout=20)
        assert not ben_b.closed_by_server
        assert time.monotonic() - killed < 15
        play_until(players, lambda: all(p.view and p.view["game_over"] for p in players), timeout=120)
        lines = record_lines(pg, table)
        assert check(lines).over
        metrics = httpx.get(f"{b.url}/metrics").text.splitlines()
        taken = [float(x.split()[1]) for x in metrics if x.startswith("yaniv_lease_changes_total ")]
        assert taken and taken[0] >= 1  # b counted the takeover
        for p in players:
            p.close()
    finally:
        b.stop()
        a.stop()


def test_kill_9_of_a_tables_owner_mid_game_the_other_process_finishes_it(
    tmp_path: Path, pg: str, redis_url: str
) -> None:
    _kill_owner_mid_game(tmp_path, pg, redis_url)


def back_in(p: Seat) -> None:
    """Reconnect as the page does: again until a welcome comes (the table's server may be away)."""
    for _ in range(50):
        try:
            p.reconnect()
            return
        except Exception:
            time.sleep(0.2)
    raise AssertionError("could not reconnect")


def test_a_redis_restart_mid_game_the_tables_catch_up_from_the_database(tmp_path: Path, pg: str) -> None:
    with private_redis(own=True) as server:
        assert isinstance(server, PrivateRedis)
        with two(tmp_path, pg, server.url) as (a, b):
            made = make_table(a, players=3, computers=1, level="easy")
            table = made["table"]
            ben = b.post(f"/api/tables/{table}/join", {"name": "Ben"})
            ann = seat(a, table, made["token"])
            ben_b = seat(b, table, ben["token"])  # relayed through Redis
            ann.send({"type": "start"})
            players = [ann, ben_b]
            play_until(players, lambda: ben_b.version > 20, timeout=60)
            server.stop()
            time.sleep(1.0)
            server.start()
            # the relayed connection was closed: it reconnects (the page does) and catches up
            deadline = time.monotonic() + 20
            while not ben_b.closed_by_server and time.monotonic() < deadline:
                ann.poll()
                ann.step()
                time.sleep(0.05)
            assert ben_b.closed_by_server
            before = ben_b.version
            back_in(ben_b)
            assert ben_b.version >= before
            end = time.monotonic() + 120
            while not all(p.view and p.view["game_over"] for p in players):
                assert time.monotonic() < end, [p.view and p.view["phase"] for p in players]
                if ben_b.closed_by_server:  # the page reconnects whenever its socket closes
                    back_in(ben_b)
                for p in players:
                    p.poll()
                    p.step()
                time.sleep(0.002)
            assert check(record_lines(pg, table)).over
            for p in players:
                p.close()


def test_after_kill_9_with_nobody_connected_the_clock_plays_on(
    tmp_path: Path, pg: str, redis_url: str
) -> None:
    """The owner dies while everyone is away: another process adopts the table and its turn
    clock runs out there (the stand-ins play the round out, nobody reconnecting); the
    players then come back through that process and finish the game."""
    a = start(tmp_path, pg, redis_url, "a")
    b = start(tmp_path, pg, redis_url, "b")
    try:
        made = make_table(a, turn_seconds=5)
        table = made["table"]
        ben = a.post(f"/api/tables/{table}/join", {"name": "Ben"})
        players = [seat(a, table, made["token"]), seat(a, table, ben["token"])]
        players[0].send({"type": "start"})
        play_until(players, lambda: players[0].version > 8, timeout=60)
        for p in players:
            p.poll()
        before = len(record_lines(pg, table))
        a.kill()
        for p in players:
            p.close()
        deadline = time.monotonic() + 60
        types: list[str] = []
        while time.monotonic() < deadline and "round_end" not in types:
            time.sleep(0.5)
            types = [json.loads(x)["type"] for x in record_lines(pg, table)[before:]]
        assert "timeout" in types  # the clock ran out on the process that took the table over
        assert "round_end" in types  # and the stand-ins played the round to its end
        for p in players:
            p.reconnect(f"{b.ws_url}/ws/{table}")
        play_until(players, lambda: all(p.view and p.view["game_over"] for p in players), timeout=120)
        assert check(record_lines(pg, table)).over
        for p in players:
            p.close()
    finally:
        b.stop()
        a.stop()
