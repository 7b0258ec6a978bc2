"""A real ``yaniv serve`` killed mid-game and started again: every table comes back from
the database, seats keep their tokens, and the game plays on to its end."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from yaniv.record import check

from .helpers import Player, game_over, play_until
from .server import FAST_ENV, Server, SyncWs


def connect(server: Server, table: str, token: str) -> Player:
    p = Player(SyncWs(f"{server.ws_url}/ws/{table}"), token)
    p.hello()
    return p


def test_kill_and_restart_loses_nothing(tmp_path: Path) -> None:
    server = Server(tmp_path / "yaniv.db", env=FAST_ENV).start()
    try:
        made = server.post(
            "/api/tables",
            {
                "name": "Ann",
                "rules": "standard(score_limit=80)",
                "players": 3,
                "computers": 1,
                "level": "easy",
            },
        )
        table = made["table"]
        ben = server.post(f"/api/tables/{table}/join", {"name": "Ben"})
        lobby = server.post("/api/tables", {"name": "Solo", "players": 2})  # a table still in its lobby
        players = [connect(server, table, made["token"]), connect(server, table, ben["token"])]
        players[0].send({"type": "start"})
        play_until(players, lambda: players[0].version > 40, timeout=60)
        for p in players:
            p.poll()
        seen = {p.seat: (p.version, p.view["hand"] if p.view else None) for p in players}
        server.kill()
        for p in players:
            p.close()

        server.start()
        assert httpx.get(f"{server.url}/api/tables/{lobby['table']}").json()["status"] == "lobby"
        info = httpx.get(f"{server.url}/api/tables/{table}").json()
        assert info["status"] == "playing"
        again = [connect(server, table, made["token"]), connect(server, table, ben["token"])]
        for p in again:
            version, hand = seen[p.seat]
            assert p.version >= version  # nothing acknowledged was lost
            if p.version == version:
                assert p.view is not None and p.view["hand"] == hand
        play_until(again, game_over(again), timeout=120)
        for p in again:
            p.close()
    finally:
        server.stop()
    # the database holds the whole game, and it replays
    import sqlite3

    with sqlite3.connect(tmp_path / "yaniv.db") as db:
        lines = [r[0] for r in db.execute("SELECT line FROM lines WHERE table_id=? ORDER BY seq", (table,))]
    game = check(lines)
    assert game.over
    assert json.loads(lines[-1])["type"] == "game_end"
