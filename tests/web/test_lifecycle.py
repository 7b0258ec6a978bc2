"""A table's life on the server: the next round comes after a pause, a failed write does
not count and leaves the table as stored, idle tables leave memory and come back."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from yaniv.web import create_app

from .conftest import FAST, Site, db_url
from .helpers import play_until


@pytest.fixture
def quick_site(tmp_path: Path) -> Iterator[Site]:
    app = create_app(db_url(tmp_path / "q.db"), bot_delay=0, round_pause=0.3, unload_after=0.3, config=FAST)
    with ExitStack() as stack:
        s = Site(stack.enter_context(TestClient(app)), stack)
        yield s
        for p in s.players:
            p.close()


def test_next_round_after_the_pause_without_ready(quick_site: Site) -> None:
    made = quick_site.create(players=3, computers=2, level="beginner", rules="standard(yaniv_threshold=30)")
    ann = quick_site.connect(made["table"], made["token"])
    ann.send({"type": "start"})
    ann.wait_view(lambda v: v is not None)
    # Ann plays but never says ready: the next deal comes anyway
    ann.readied_round = 10**6
    play_until([ann], lambda: ann.view is not None and ann.view["round"] >= 2, timeout=30)


def test_a_failed_write_does_not_count(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    made = site.create(players=2)
    ben = site.join(made["table"], "Ben")
    ann, bob = site.connect(made["table"], made["token"]), site.connect(made["table"], ben["token"])
    ann.send({"type": "start"})
    ann.wait_view(lambda v: v is not None)
    bob.wait_view(lambda v: v is not None)
    me = ann if ann.view is not None and ann.view["current"] == 0 else bob
    table = site.table(made["table"])
    version = table.version
    store = site.hub.store
    real = store.append

    async def broken(table_id: str, rows: list[Any]) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(store, "append", broken)
    discard = next(a for a in me.view["legal"] if a["type"] == "discard")
    me.act(discard, action_id="lost")
    err = me.expect("error")
    assert err["code"] == "storage" and "disk full" in err["message"] and err["id"] == "lost"
    assert table.version == version  # rebuilt from the store: the move did not happen
    monkeypatch.setattr(store, "append", real)
    assert any(m["type"] == "welcome" for m in me.messages[-3:])  # everyone got the stored state again
    me.act(discard, action_id="again")
    assert me.expect("ack")["version"] == version + 1


def test_idle_tables_leave_memory_and_come_back(quick_site: Site) -> None:
    made = quick_site.create(players=2, computers=1, level="beginner")
    ann = quick_site.connect(made["table"], made["token"])
    ann.send({"type": "start"})
    play_until([ann], lambda: ann.version > 8, timeout=30)
    version, hand = ann.version, ann.view["hand"] if ann.view else None
    assert made["table"] in quick_site.hub.tables
    ann.close()
    quick_site.players.remove(ann)
    end = time.monotonic() + 10
    while made["table"] in quick_site.hub.tables:
        assert time.monotonic() < end, "the idle table stayed in memory"
        time.sleep(0.05)
    again = quick_site.connect(made["table"], made["token"])
    assert again.version >= version and again.seat == 0
    if again.version == version:
        assert again.view is not None and again.view["hand"] == hand
    play_until([again], lambda: again.version > version + 4, timeout=30)
