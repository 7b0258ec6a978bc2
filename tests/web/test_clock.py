"""Turn clocks and stand-ins, host hand-off and a lobby that starts itself, on a fake clock
in-process: a table never waits for ever for someone who is not there."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Site
from .helpers import Player


def seated(site: Site, n: int = 2, **body: Any) -> tuple[str, list[Player]]:
    made = site.create(players=n, **body)
    table = made["table"]
    tokens = [made["token"]] + [site.join(table, f"P{i}")["token"] for i in range(1, n)]
    players = [site.connect(table, tok, f"P{i}") for i, tok in enumerate(tokens)]
    return table, players


def started(site: Site, n: int = 2, **body: Any) -> tuple[str, list[Player]]:
    table, players = seated(site, n, **body)
    players[0].send({"type": "start"})
    for p in players:
        p.wait_view(lambda v: v is not None)
    return table, players


def current(players: list[Player]) -> Player:
    v = players[0].view
    assert v is not None
    return next(p for p in players if p.seat == v["current"])


def leave_socket(site: Site, p: Player) -> None:
    p.close()
    site.players.remove(p)


def test_the_deadline_is_sent_with_the_view(clocked: Site) -> None:
    _table, players = started(clocked, turn_seconds=30)
    me = current(players)
    welcome = me.messages[0] if me.messages[0]["type"] == "welcome" else None
    assert welcome is not None and welcome["deadlines"] == []  # the lobby has no clock
    update = next(m for m in reversed(me.messages) if m["type"] == "update")
    assert update["deadlines"] == [{"seat": me.seat, "decision": "turn", "seconds": 30.0}]
    assert me.table is not None and me.table["turn_seconds"] == 30.0
    clocked.tick(10)
    me.send({"type": "sync"})
    again = me.expect("welcome")
    assert again["deadlines"] == [{"seat": me.seat, "decision": "turn", "seconds": 20.0}]


@pytest.mark.parametrize("stand_in", ["easy", "hard"])  # hard is a search: it thinks off the event loop
def test_an_absent_player_is_stood_in_for_at_the_deadline_and_comes_back(
    clocked: Site, stand_in: str
) -> None:
    table, players = started(clocked, turn_seconds=30, stand_in=stand_in, level="beginner")
    away = current(players)
    here = next(p for p in players if p is not away)
    leave_socket(clocked, away)
    here.expect("table", where=lambda m: not m["table"]["seats"][away.seat]["connected"])
    clocked.tick(29)
    here.send({"type": "ping", "id": "still"})
    assert here.expect("pong")["id"] == "still"
    assert not [m for m in here.poll() if m["type"] == "update"]  # not yet
    clocked.tick(2)
    update = here.expect("update", where=lambda m: any(e["type"] == "timeout" for e in m["events"]))
    timeout = next(e for e in update["events"] if e["type"] == "timeout")
    assert timeout == {"type": "timeout", "seat": away.seat, "decision": "turn", "stand_in": stand_in}
    after = update["events"][update["events"].index(timeout) + 1 :]
    assert after and after[0]["seat"] == away.seat  # the stand-in's move follows at once
    info = here.expect("table", where=lambda m: m["table"]["seats"][away.seat]["stand_in"])
    assert info["table"]["seats"][away.seat]["level"] == stand_in
    # the stand-in keeps the seat while the person is away: the game goes on to the person here
    here.wait_view(lambda v: v["current"] == here.seat or v["phase"] == "round_over")
    room = clocked.table(table)
    assert room.table.is_bot(away.seat)
    back = clocked.connect(table, away.token)
    assert back.seat == away.seat
    assert not room.seats[away.seat].stand_in and not room.table.is_bot(away.seat)
    here.expect("table", where=lambda m: not m["table"]["seats"][away.seat]["stand_in"])
    stored = clocked.client.portal.call(clocked.hub.store.load, table)  # type: ignore[union-attr]
    assert any('"type":"timeout"' in row.line for row in stored.lines)  # in the record, as formats §5 says


def test_a_slow_player_who_is_here_keeps_the_seat(clocked: Site) -> None:
    table, players = started(clocked, turn_seconds=20)
    slow = current(players)
    other = next(p for p in players if p is not slow)
    clocked.tick(21)
    update = slow.expect("update", where=lambda m: any(e["type"] == "timeout" for e in m["events"]))
    assert next(e for e in update["events"] if e["type"] == "timeout")["seat"] == slow.seat
    other.expect("update", where=lambda m: any(e["type"] == "timeout" for e in m["events"]))
    room = clocked.table(table)
    assert not room.seats[slow.seat].stand_in and not room.table.is_bot(slow.seat)
    # the stand-in played the turn (a bot's turn is discard and draw in one); the seat is still
    # the slow player's: his next decision is his, on a fresh clock
    assert update["deadlines"] and all(d["seconds"] == 20.0 for d in update["deadlines"])
    v = other.wait_view(lambda v: v["current"] == other.seat and other.version == room.version)
    if v["phase"] == "round_over":
        return
    other.act(next(a for a in v["legal"] if a["type"] == "discard"))
    v = other.wait_view(lambda v: v["phase"] == "after_discard")
    other.act(next(a for a in v["legal"] if a["type"] == "draw"))
    mine = slow.wait_view(lambda v: v["current"] == slow.seat and slow.version == room.version)
    slow.act(next(a for a in mine["legal"] if a["type"] == "discard"))
    assert slow.expect("ack")


def test_no_clock_no_timeout(clocked: Site) -> None:
    _table, players = started(clocked, turn_seconds=0)
    me = current(players)
    clocked.tick(10_000)
    me.send({"type": "sync"})
    welcome = me.expect("welcome")
    assert welcome["deadlines"] == [] and not any(e["type"] == "timeout" for e in welcome["events"])


def test_public_tables_get_a_clock_by_default_and_private_ones_none(clocked: Site) -> None:
    public = clocked.create(players=2, public=True)
    private = clocked.create(players=2)
    get = clocked.client.get
    assert get(f"/api/tables/{public['table']}").json()["turn_seconds"] == 45.0
    assert get(f"/api/tables/{private['table']}").json()["turn_seconds"] == 0.0
    for bad in (-1, 2, 10**9, "soon", True):
        r = clocked.client.post("/api/tables", json={"name": "A", "turn_seconds": bad})
        assert r.status_code == 422, (bad, r.text)
    r = clocked.client.post("/api/tables", json={"name": "A", "stand_in": "godlike"})
    assert r.status_code == 422 and "stand-in" in r.text


def test_the_host_role_passes_on_when_the_host_stays_away(clocked: Site) -> None:
    table, (ann, ben, cy) = seated(clocked, 3)
    ann.close()
    clocked.players.remove(ann)
    ben.expect("table", where=lambda m: not m["table"]["seats"][0]["connected"])
    clocked.tick(10)  # a reload is not leaving
    ben.send({"type": "start"})
    assert ben.expect("error")["code"] == "not_host"
    clocked.tick(6)
    info = ben.expect("table", where=lambda m: m["table"]["host"] == 1)["table"]
    assert [s["host"] for s in info["seats"]] == [False, True, False]
    ben.send({"type": "start"})
    ben.wait_view(lambda v: v is not None)
    cy.wait_view(lambda v: v is not None)
    # the old host comes back as a player, not as the host
    again = clocked.connect(table, ann.token)
    assert again.table is not None and again.table["host"] == 1


def test_a_host_who_returns_in_time_stays_host(clocked: Site) -> None:
    made = clocked.create(players=3)  # a free seat: the lobby does not start itself
    table = made["table"]
    ann = clocked.connect(table, made["token"])
    clocked.connect(table, clocked.join(table, "Ben")["token"])
    ann.close()
    clocked.players.remove(ann)
    clocked.tick(5)
    back = clocked.connect(table, ann.token)
    clocked.tick(60)
    back.send({"type": "start"})
    back.wait_view(lambda v: v is not None)
    assert clocked.table(table).seats[0].host


def test_a_full_lobby_starts_itself(clocked: Site) -> None:
    made = clocked.create(players=3, computers=1)
    table = made["table"]
    ann = clocked.connect(table, made["token"])
    assert ann.table is not None and ann.table["starts_in"] is None and not ann.table["full"]
    ben = clocked.connect(table, clocked.join(table, "Ben")["token"])
    info = ann.expect("table", where=lambda m: m["table"]["full"])["table"]
    assert info["starts_in"] == 20.0 and info["free"] == 0
    clocked.tick(19)
    ann.send({"type": "ping"})
    ann.expect("pong")
    assert clocked.table(table).status == "lobby"
    clocked.tick(2)
    for p in (ann, ben):
        p.wait_view(lambda v: v is not None)
    assert clocked.table(table).status == "playing"


def test_the_slap_window_of_a_person_closes_at_the_deadline(clocked: Site) -> None:
    """Nobody slaps for a person: at the deadline the window closes unslapped."""
    table, players = started(clocked, turn_seconds=10, rules="standard(quick_discard=same_rank)")
    room = clocked.table(table)
    driver = room.table
    by_seat = {p.seat: p for p in players}
    for _ in range(400):
        pending = driver.pending()
        if any(d.kind.value == "slap" for d in pending):
            break
        if pending[0].seat is None:
            pytest.skip("the round ended before a slap window")
        me = by_seat[pending[0].seat]
        v = me.wait_view(lambda v, me=me: me.version == room.version)
        legal = [a for a in v["legal"] if a["type"] not in ("yaniv", "slap")]
        me.act(legal[0])
        me.expect("ack")
    else:
        pytest.skip("no slap window came up")
    slapper = next(d.seat for d in pending if d.kind.value == "slap")
    clocked.tick(11)
    players[0].send({"type": "sync"})
    players[0].expect("welcome")
    events = driver.game.events
    timeouts = [e for e in events if e["type"] == "timeout"]
    assert timeouts and all(e["decision"] != "slap" for e in timeouts)
    assert not any(e["type"] == "slap" and e["seat"] == slapper for e in events[-3:])
