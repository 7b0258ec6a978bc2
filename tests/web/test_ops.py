"""Operations (issue 18): liveness and readiness, Prometheus metrics, JSON log lines, and what
``yaniv serve`` says at its start (no password; a database of a newer server refused)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from yaniv.cli import main
from yaniv.web import WebConfig, create_app, migrate_database
from yaniv.web.ops import JsonFormatter

from .conftest import FAST, Site, db_url
from .helpers import Player, game_over, play_until
from .server import FAST_ENV, Server, SyncWs
from .test_play import start_table

# ---------------------------------------------------------------- health and readiness


def test_healthz_answers_every_probe(site: Site) -> None:
    for _ in range(50):  # a load balancer probing once a second is never limited
        r = site.client.get("/healthz")
        assert r.status_code == 200
        assert r.json() == {"status": "ok"}
        assert r.headers["cache-control"] == "no-store"


def test_readyz_is_ready_with_an_open_store_and_says_nothing_of_the_database(
    site: Site, tmp_path: Path
) -> None:
    for _ in range(50):
        r = site.client.get("/readyz")
        assert r.status_code == 200, r.text
        assert r.json() == {"status": "ready"}
    assert str(tmp_path) not in r.text and "sqlite" not in r.text


def _health(site: Site) -> Any:
    health = site.client.app.state.health  # type: ignore[attr-defined]
    health.ttl = 0.0  # each probe asks the database afresh
    return health


def test_readyz_is_503_when_the_store_is_closed(site: Site) -> None:
    _health(site)
    assert site.client.get("/readyz").status_code == 200
    site.client.portal.call(site.hub.store.close)  # type: ignore[union-attr]
    r = site.client.get("/readyz")
    assert r.status_code == 503
    assert r.json() == {"status": "unavailable", "reason": "the store is not open"}
    assert site.client.get("/healthz").status_code == 200  # alive all the same


def test_readyz_is_503_when_the_query_fails_without_the_drivers_words(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    _health(site)

    async def failing() -> None:
        raise OSError("connection to postgresql://yaniv:s3cret@db.internal/yaniv refused")

    monkeypatch.setattr(site.hub.store, "ping", failing)
    r = site.client.get("/readyz")
    assert r.status_code == 503
    assert r.json()["reason"] == "the database query failed (OSError)"
    assert "s3cret" not in r.text and "db.internal" not in r.text


def test_readyz_is_503_when_the_database_is_slow(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    health = _health(site)
    health.timeout = 0.05

    async def slow() -> None:
        await asyncio.sleep(5)

    monkeypatch.setattr(site.hub.store, "ping", slow)
    r = site.client.get("/readyz")
    assert r.status_code == 503
    assert r.json()["reason"] == "the database did not answer within 0.05 s"


def test_readyz_is_503_while_shutting_down(db: str) -> None:
    app = create_app(db, bot_delay=0, round_pause=None, config=FAST)
    with TestClient(app) as client:
        assert client.get("/readyz").status_code == 200
        app.state.health.draining = True  # what the server's first signal to stop sets
        r = client.get("/readyz")
        assert r.status_code == 503 and r.json()["reason"] == "the server is shutting down"
        app.state.health.draining = False
    assert app.state.health.draining  # the app's own shutdown sets it too


def test_readyz_shares_one_query_among_probes(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    store = site.hub.store
    calls = []
    real = store.ping

    async def counted() -> None:
        calls.append(1)
        await real()

    monkeypatch.setattr(store, "ping", counted)
    site.client.app.state.health.ttl = 60.0  # type: ignore[attr-defined]
    for _ in range(20):
        assert site.client.get("/readyz").status_code == 200
    assert len(calls) == 1  # a flood of probes costs the database one query per ttl


# ---------------------------------------------------------------- metrics


def _metrics(site: Site) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = site.client.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(r.text):
        assert family.documentation, family.name  # every metric says what it measures
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return samples


def test_metrics_count_a_real_game(site: Site) -> None:
    before = _metrics(site)
    assert before[("yaniv_actions_total", (("by", "person"),))] == 0
    assert before[("yaniv_action_seconds_count", ())] == 0
    assert before[("yaniv_lease_changes_total", ())] == 0
    table, players = start_table(site, 2, 1, rules="standard(score_limit=40)", level="easy")
    play_until(players, game_over(players), timeout=120)
    for p in players:
        p.poll()
    acks = sum(1 for p in players for m in p.messages if m["type"] == "ack" and not m.get("duplicate"))
    after = _metrics(site)
    assert acks > 5
    assert after[("yaniv_actions_total", (("by", "person"),))] == acks
    assert after[("yaniv_action_seconds_count", ())] == acks
    assert 0 < after[("yaniv_action_seconds_sum", ())] < acks * 5
    assert after[("yaniv_action_seconds_bucket", (("le", "+Inf"),))] == acks
    assert after[("yaniv_actions_total", (("by", "computer"),))] > 0  # the computer seat played
    commits = after[("yaniv_store_commits_total", (("result", "ok"),))]
    assert commits >= acks  # every action's lines were committed (some batches may hold several)
    assert after[("yaniv_store_commit_seconds_count", ())] == commits
    assert after[("yaniv_store_commits_total", (("result", "error"),))] == 0
    assert after[("yaniv_lease_changes_total", ())] == 0  # one process: no lease
    assert after[("yaniv_tables", (("status", "over"),))] == 1
    assert after[("yaniv_tables", (("status", "playing"),))] == 0
    assert after[("yaniv_websockets", ())] == 2
    assert site.table(table).game.over


def test_metrics_count_tables_and_sockets_when_asked(site: Site) -> None:
    lobby = site.create(players=3)
    site.connect(lobby["table"], lobby["token"])
    site.connect(lobby["table"])  # a spectator
    samples = _metrics(site)
    assert samples[("yaniv_tables", (("status", "lobby"),))] == 1
    assert samples[("yaniv_websockets", ())] == 2


def test_each_app_has_its_own_metrics(site: Site, tmp_path: Path) -> None:
    other = create_app(db_url(tmp_path / "other.db"), bot_delay=0, round_pause=None, config=FAST)
    with TestClient(other) as client:
        site.create(players=2)
        assert _metrics(site)[("yaniv_tables", (("status", "lobby"),))] == 1
        text = client.get("/metrics").text
        families = {f.name: f for f in text_string_to_metric_families(text)}
        lobby = [s for s in families["yaniv_tables"].samples if s.labels["status"] == "lobby"]
        assert lobby[0].value == 0


def test_a_failed_commit_is_counted_and_its_action_is_not(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    from yaniv.web.store import Store

    _table, players = start_table(site, 2, 0)
    mover = next(p for p in players if p.view and p.view["current"] == p.seat)
    action = mover.choose()
    assert action is not None

    async def broken(self: Store, jobs: list[Any]) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(Store, "_commit", broken)
    mover.act(action)
    assert mover.expect("error")["code"] == "storage"
    samples = _metrics(site)
    assert samples[("yaniv_store_commits_total", (("result", "error"),))] >= 1
    assert samples[("yaniv_actions_total", (("by", "person"),))] == 0
    assert samples[("yaniv_action_seconds_count", ())] == 0


# ---------------------------------------------------------------- logs


def test_a_failure_is_logged_as_one_json_object_with_its_table(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    from yaniv.web.room import Room

    def broken(self: Room, *args: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Room, "on_check", broken)
    table, players = start_table(site, 2, 0)
    lines = io.StringIO()
    handler = logging.StreamHandler(lines)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("yaniv.web")
    logger.addHandler(handler)
    try:
        mover = next(p for p in players if p.view and p.view["current"] == p.seat)
        mover.send({"type": "check", "action": {"type": "discard", "cards": ["AS"]}})
        mover.expect("error", where=lambda m: m["code"] == "server_error")
    finally:
        logger.removeHandler(handler)
    records = [json.loads(line) for line in lines.getvalue().splitlines()]
    failed = [r for r in records if r["event"].endswith("a message failed")]
    assert len(failed) == 1, records
    record = failed[0]
    assert record["level"] == "error" and record["table"] == table and record["logger"] == "yaniv.web"
    assert record["time"].endswith("+00:00") and "RuntimeError: a bug" in record["error"]


LOGGING_PROGRAM = """
import logging, logging.config
from yaniv.web.ops import log_config
logging.config.dictConfig(log_config("json", "info"))
logging.getLogger("yaniv.web").info("table %s: hello", "abcd1234", extra={"table": "abcd1234"})
logging.getLogger("yaniv.web").debug("not at info")
access = logging.getLogger("uvicorn.access")
access.info('%s - "%s %s HTTP/%s" %d', "10.0.0.1:5000", "GET", "/readyz", "1.1", 200)
access.info('%s - "%s %s HTTP/%s" %d', "10.0.0.1:5000", "GET", "/readyz", "1.1", 503)
access.info('%s - "%s %s HTTP/%s" %d', "10.0.0.1:5000", "GET", "/api/lobby", "1.1", 200)
"""


def test_log_config_json_writes_objects_and_leaves_out_good_probes() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", LOGGING_PROGRAM], capture_output=True, text=True, check=True, timeout=60
    )
    own = [json.loads(line) for line in proc.stderr.splitlines()]
    assert [(r["level"], r["event"], r.get("table")) for r in own] == [
        ("info", "table abcd1234: hello", "abcd1234")
    ]
    access = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["path"], r["status"]) for r in access] == [("/readyz", 503), ("/api/lobby", 200)]


def test_log_config_text_keeps_uvicorns_lines_and_leaves_out_good_probes() -> None:
    program = LOGGING_PROGRAM.replace('log_config("json", "info")', 'log_config("text", "info")')
    proc = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=60
    )
    assert proc.stderr.splitlines() == ["INFO:     table abcd1234: hello"]
    assert [line.split('"')[1] for line in proc.stdout.splitlines()] == [
        "GET /readyz HTTP/1.1",
        "GET /api/lobby HTTP/1.1",
    ]


def test_a_real_server_logs_json_and_answers_its_probes(tmp_path: Path) -> None:
    server = Server(tmp_path / "yaniv.db", None, "--log-level", "info", "--log-format", "json", env=FAST_ENV)
    server.start()
    try:
        assert httpx.get(server.url + "/healthz").json() == {"status": "ok"}
        assert httpx.get(server.url + "/readyz").json() == {"status": "ready"}
        made = server.post("/api/tables", {"name": "Ann", "players": 2})
        player = Player(SyncWs(f"{server.ws_url}/ws/{made['table']}"), made["token"])
        player.hello()
        metrics = httpx.get(server.url + "/metrics").text
        player.close()
    finally:
        server.stop()
    families = {f.name: f for f in text_string_to_metric_families(metrics)}
    assert [s.value for s in families["yaniv_websockets"].samples] == [1]
    assert "process_resident_memory_bytes" in families  # the process's own, from the library
    lines = server.log.read_text().splitlines()
    records = [json.loads(line) for line in lines]  # every line, the banner too
    assert records[0]["event"].startswith("Yaniv on http://127.0.0.1:") and records[0]["database"]
    assert all({"time", "level", "logger", "event"} <= set(r) for r in records)
    assert any("Uvicorn running" in r["event"] for r in records)
    paths = [r["path"] for r in records if r["logger"] == "uvicorn.access"]
    assert "/api/tables" in paths and "/healthz" not in paths and "/readyz" not in paths


# ---------------------------------------------------------------- yaniv serve: its start


def _free_port() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return str(probe.getsockname()[1])


def test_serve_prints_the_database_without_its_password(monkeypatch: pytest.MonkeyPatch) -> None:
    import yaniv.web

    got: dict[str, Any] = {}
    monkeypatch.setattr(yaniv.web, "migrate_database", lambda db: got.setdefault("migrated", db))
    monkeypatch.setattr(yaniv.web, "serve", lambda *a, **kw: got.update(served=a) or 0)
    pytest.importorskip("psycopg")
    url = "postgresql+psycopg://yaniv:s3cret@db.example:5432/yaniv"
    out = io.StringIO()
    assert main(["serve", "--port", _free_port(), "--db", url], out) == 0
    assert "s3cret" not in out.getvalue()
    assert "postgresql+psycopg://yaniv:***@db.example:5432/yaniv" in out.getvalue()
    assert got["served"][2] == url  # the server itself gets the real URL


def test_serve_refuses_an_unreachable_database_in_one_line_without_the_password(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("psycopg")
    import yaniv.web

    monkeypatch.setattr(yaniv.web, "serve", lambda *a, **kw: pytest.fail("the server started"))
    url = f"postgresql://yaniv:s3cret@127.0.0.1:{_free_port()}/yaniv"
    with pytest.raises(SystemExit) as e:
        main(["serve", "--port", _free_port(), "--db", url], io.StringIO())
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "s3cret" not in err, err
    assert err.startswith("yaniv serve: error: --db: postgresql://yaniv:***@127.0.0.1:")


def test_serve_refuses_a_database_of_a_newer_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import yaniv.web

    path = tmp_path / "new.db"
    migrate_database(str(path))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    monkeypatch.setattr(yaniv.web, "serve", lambda *a, **kw: pytest.fail("the server started"))
    out = io.StringIO()
    with pytest.raises(SystemExit) as e:
        main(["serve", "--port", _free_port(), "--db", str(path)], out)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "schema version 99, newer than this server's" in err
    assert out.getvalue() == ""  # refused before the banner
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(99,)]  # unchanged


def test_serve_makes_the_default_database_on_its_first_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import yaniv.web

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "fresh"))
    monkeypatch.setattr(yaniv.web, "serve", lambda *a, **kw: 0)
    assert main(["serve", "--port", _free_port()], io.StringIO()) == 0
    with sqlite3.connect(tmp_path / "fresh" / "yaniv" / "yaniv.db") as conn:
        assert conn.execute("SELECT count(*) FROM schema_version").fetchone() == (1,)


def test_log_format_option_and_variable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import yaniv.web
    from yaniv.web.config import WebConfig

    got: dict[str, Any] = {}
    monkeypatch.setattr(yaniv.web, "serve", lambda *a, **kw: got.update(kw) or 0)
    argv = ["serve", "--port", _free_port(), "--db", str(tmp_path / "t.db"), "--log-format", "json"]
    assert main(argv, io.StringIO()) == 0
    assert got["limits"]["log_format"] == "json"
    assert WebConfig().with_limits(got["limits"]).log_format == "json"
    assert WebConfig.from_env({"YANIV_WEB_LOG_FORMAT": "json"}).log_format == "json"
    with pytest.raises(ValueError, match="YANIV_WEB_LOG_FORMAT='xml' is not a valid value"):
        WebConfig.from_env({"YANIV_WEB_LOG_FORMAT": "xml"})


@pytest.mark.parametrize("origin", ["", "https://play.example.org", "play.example.org/", "a b", "a.org:"])
def test_an_allowed_origin_that_is_not_a_host_is_refused(origin: str) -> None:
    # origin_allowed compares the Origin header's host[:port]: a URL was taken and never matched
    with pytest.raises(ValueError, match=r"allowed_origins: .* is not a host"):
        WebConfig().with_limits({"allowed_origins": ("a.example", origin)})
    with pytest.raises(ValueError, match="is not a host"):  # the variable's list: spaces or commas between
        WebConfig.from_env({"YANIV_WEB_ALLOWED_ORIGINS": "a.example, https://play.example.org"})
    for good in ("play.example.org", "Play.Example.org:8443", "[::1]:8000", "127.0.0.1", "*"):
        assert WebConfig().with_limits({"allowed_origins": (good,)}).allowed_origins == (good,)
