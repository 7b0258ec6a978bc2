"""The web server on PostgreSQL (issue 18): the same store code as SQLite, through psycopg.

A private server is started for the module (tests/web/postgres.py), or the one
``YANIV_TEST_POSTGRES_URL`` names; without either the module is skipped with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from yaniv.record import check
from yaniv.web import create_app

from .conftest import FAST, Site
from .helpers import Truth, check_no_peeking, game_over, play_until
from .postgres import private_postgres
from .test_play import start_table


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with private_postgres() as url:
        yield url


def _app(url: str) -> Any:
    return create_app(url, bot_delay=0, round_pause=None, config=FAST)


@pytest.fixture
def pg_site(pg_url: str) -> Iterator[Site]:
    app = _app(pg_url)
    with ExitStack() as stack:
        s = Site(stack.enter_context(TestClient(app)), stack)
        yield s
        for p in s.players:
            p.close()


def test_a_whole_game_on_postgresql_is_stored_line_for_line(pg_site: Site) -> None:
    table, players = start_table(pg_site, 2, 1, rules="standard(score_limit=50)", level="easy")
    play_until(players, game_over(players), timeout=120)
    game = pg_site.table(table).game
    truth = Truth(game.events)
    for p in players:
        p.poll()
        assert all(e["code"] == "stale" for e in p.errors), p.errors
        check_no_peeking(p.messages, p.seat, truth)
    stored = pg_site.client.portal.call(pg_site.hub.store.load, table)  # type: ignore[union-attr]
    lines = [row.line for row in stored.lines]
    assert [json.loads(x) for x in lines] == game.events
    assert check(lines).winners == game.winners
    assert pg_site.hub.store.url.startswith("postgresql+psycopg://")


def test_a_restarted_server_on_the_same_database_serves_the_table(pg_url: str) -> None:
    with ExitStack() as stack:
        first = Site(stack.enter_context(TestClient(_app(pg_url))), stack)
        table, (ann, bob) = start_table(first, 2, 0, rules="standard")
        play_until([ann, bob], lambda: ann.version > 6, timeout=30)
        version, hand = ann.version, ann.view["hand"] if ann.view else None
        ann.close()
        bob.close()
    with ExitStack() as stack:
        again = Site(stack.enter_context(TestClient(_app(pg_url))), stack)
        assert again.client.get(f"/api/tables/{table}").status_code == 200
        back = again.connect(table, ann.token, "P0")
        assert back.seat == 0 and back.version >= version  # a move may have landed after ann's last view
        if back.version == version:
            assert back.view is not None and back.view["hand"] == hand
        stored = again.client.portal.call(again.hub.store.load, table)  # type: ignore[union-attr]
        assert len(stored.lines) == back.version  # every stored line is in the game: nothing lost
        back.close()
