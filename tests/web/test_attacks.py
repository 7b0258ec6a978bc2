"""A real ``yaniv serve`` under the attacks of the issue, on loopback and bounded: a slowloris
request, a 30 MB body, a slow reader, a sync flood; and ``--db sqlite:///FILE``."""

from __future__ import annotations

import json
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .server import Server, SyncWs

LIMITS = {
    "YANIV_WEB_REQUEST_TIMEOUT": "1",
    "YANIV_WEB_SEND_QUEUE_BYTES": "30000",
    "YANIV_WEB_SYNC_RATE": "0",  # the slow reader asks for welcomes without limit: only its queue stops it
    "YANIV_WEB_MESSAGE_RATE": "0",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("attack") / "a.db", env=LIMITS).start()
    yield srv
    srv.stop()


def raw(server: Server) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    return s


def read_all(s: socket.socket, limit: float = 10) -> bytes:
    s.settimeout(limit)
    out = b""
    try:
        while chunk := s.recv(65536):
            out += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return out


def test_slowloris_gets_408_and_a_close(server: Server) -> None:
    s = raw(server)
    s.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    t0 = time.monotonic()
    for _ in range(3):
        time.sleep(0.4)
        try:
            s.sendall(b"X-Slow: 1\r\n")  # a header now and then: the deadline still runs
        except OSError:
            break
    answer = read_all(s, 5)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
    assert time.monotonic() - t0 < 4
    # a connection that sends nothing at all is closed too
    quiet = raw(server)
    t0 = time.monotonic()
    read_all(quiet, 5)
    assert time.monotonic() - t0 < 4
    # a body that trickles
    s = raw(server)
    s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
    s.sendall(b"Content-Length: 40\r\n\r\n{")
    t0 = time.monotonic()
    read_all(s, 5)
    assert time.monotonic() - t0 < 4
    # and the server serves everyone else meanwhile
    assert httpx.get(server.url + "/api/presets", timeout=5).status_code == 200


def test_a_websocket_outlives_the_request_deadline(server: Server) -> None:
    """The deadline is for the upgrade request only: it must never write into the websocket."""
    made = server.post("/api/tables", {"name": "Ann", "players": 2})
    ws = SyncWs(f"{server.ws_url}/ws/{made['table']}")
    ws.send_text(json.dumps({"type": "hello", "token": made["token"]}))
    assert json.loads(ws.receive_text())["type"] == "welcome"
    time.sleep(2.5)  # past the 1-second request deadline
    ws.send_text('{"type": "ping", "id": "late"}')
    while (m := json.loads(ws.receive_text()))["type"] == "table":
        pass
    assert m == {"type": "pong", "id": "late"}
    ws.close()


def test_a_30_mb_body_gets_413_unread(server: Server) -> None:
    s = raw(server)
    t0 = time.monotonic()
    s.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 31457280\r\n\r\n" + b"{" * 65536
    )
    answer = read_all(s, 5)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    assert time.monotonic() - t0 < 2
    # chunked: cut off once past the limit
    s = raw(server)
    s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
    sent = 0
    try:
        for _ in range(3000):  # up to 30 MB
            s.sendall(b"2800\r\n" + b"x" * 0x2800 + b"\r\n")
            sent += 0x2800
    except OSError:
        pass
    answer = read_all(s, 5)
    assert b"413" in answer.split(b"\r\n")[0], answer[:80]
    assert sent < 10 * 1024 * 1024


def test_a_slow_reader_is_dropped(server: Server) -> None:
    made = server.post("/api/tables", {"name": "Ann", "players": 2})
    table = made["table"]
    # a spectator that never reads, on a tiny receive window
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", server.port))
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    s.sendall(
        f"GET /ws/{table} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    time.sleep(0.3)

    def frame(text: str) -> bytes:  # a masked client text frame
        data = text.encode()
        mask = b"\x01\x02\x03\x04"
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        return bytes([0x81, 0x80 | len(data)]) + mask + body

    s.sendall(frame('{"type":"hello"}'))
    for _ in range(3000):  # each asks for a whole welcome it never reads
        try:
            s.sendall(frame('{"type":"sync"}'))
        except OSError:
            break
    end = time.monotonic() + 15
    while time.monotonic() < end:
        info = httpx.get(f"{server.url}/api/tables/{table}", timeout=5).json()
        if info["spectators"] == 0:
            break
        time.sleep(0.2)
    assert info["spectators"] == 0, "the slow reader was kept"
    s.close()


def test_a_sync_flood_is_cut_off_and_other_tables_play_on(tmp_path: Path) -> None:
    srv = Server(tmp_path / "flood.db").start()  # the default limits
    try:
        made = srv.post("/api/tables", {"name": "Ann", "players": 2})
        floods = [SyncWs(f"{srv.ws_url}/ws/{made['table']}") for _ in range(4)]
        for ws in floods:
            ws.send_text(json.dumps({"type": "hello", "token": made["token"]}))
            for _ in range(2100):
                try:
                    ws.send_text('{"type":"sync","since":1}')
                except Exception:
                    break
        other = srv.post("/api/tables", {"name": "Ben", "players": 2})
        watcher = SyncWs(f"{srv.ws_url}/ws/{other['table']}")
        t0 = time.monotonic()
        watcher.send_text('{"type":"ping","id":"p"}')
        assert json.loads(watcher.receive_text())["type"] == "pong"
        assert time.monotonic() - t0 < 1.0
        for ws in floods:  # each was told, then closed
            got = []
            try:
                while True:
                    got.append(json.loads(ws.receive_text()))
            except Exception:
                pass
            assert sum(m["type"] == "welcome" for m in got) <= 6
            assert got[-1]["code"] == "rate_limited"
    finally:
        srv.stop()


def test_serve_takes_a_plain_sqlalchemy_url(tmp_path: Path) -> None:
    db = tmp_path / "plain.db"
    srv = Server(db, db_arg=f"sqlite:///{db}").start()
    try:
        made = srv.post("/api/tables", {"name": "Ann", "players": 2})
    finally:
        srv.stop()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT id FROM tables").fetchall() == [(made["table"],)]
