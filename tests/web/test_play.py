"""Complete games over websockets in-process: people (scripted clients), bots, spectators;
no seat ever receives a card hidden from it."""

from __future__ import annotations

import json

import pytest

from yaniv.record import check

from .conftest import Site
from .helpers import Player, Truth, check_no_peeking, game_over, play_until


def start_table(site: Site, people: int, computers: int, **body: object) -> tuple[str, list[Player]]:
    made = site.create(players=people + computers, computers=computers, **body)
    table = made["table"]
    tokens = [made["token"]] + [site.join(table, f"P{i}")["token"] for i in range(1, people)]
    players = [site.connect(table, tok, f"P{i}") for i, tok in enumerate(tokens)]
    players[0].send({"type": "start"})
    for p in players:
        p.wait_view(lambda v: v is not None)
    return table, players


@pytest.mark.parametrize(
    ("rules", "people", "computers", "level"),
    [
        ("standard(score_limit=60)", 2, 2, "easy"),
        ("standard(quick_discard=same_rank,score_limit=40)", 2, 1, "beginner"),
        ("slovenian-yanef(score_limit=40)", 3, 0, "easy"),
        ("german-wiki(score_limit=40)", 1, 2, "hard"),
    ],
)
def test_complete_game_nobody_peeks(site: Site, rules: str, people: int, computers: int, level: str) -> None:
    table, players = start_table(site, people, computers, rules=rules, level=level)
    watcher = site.connect(table)
    assert watcher.seat is None
    play_until(players, game_over(players), timeout=120)
    watcher.wait_view(lambda v: v["game_over"])
    game = site.table(table).game
    assert game.over
    truth = Truth(game.events)
    checked = 0
    for p in [*players, watcher]:
        p.poll()
        # a bot's slap can overtake a person's move (S20): that move is refused as stale
        assert all(e["code"] == "stale" for e in p.errors), p.errors
        checked += check_no_peeking(p.messages, p.seat, truth)
        assert p.view is not None and p.view["winners"] == list(game.winners)
    assert checked > 20
    # the stored record is the full game and replays
    stored = site.client.portal.call(site.hub.store.load, table)  # type: ignore[union-attr]
    lines = [row.line for row in stored.lines]
    assert [json.loads(x) for x in lines] == game.events
    assert check(lines).winners == game.winners
    assert site.client.get(f"/api/tables/{table}").json()["status"] == "over"


def test_rematch_same_seats_same_tokens(site: Site) -> None:
    table, players = start_table(site, 2, 1, rules="standard(score_limit=20)", level="beginner")
    play_until(players, game_over(players), timeout=60)
    watcher = site.connect(table)
    # consent: one yes is not enough while another person is there; a no takes it back
    players[1].send({"type": "rematch"})
    players[0].expect("table", where=lambda m: m["table"]["rematch_ready"] == [1])
    players[1].send({"type": "rematch", "ready": False})
    players[0].expect("table", where=lambda m: m["table"]["rematch_ready"] == [])
    players[1].send({"type": "rematch"})
    players[0].expect("table", where=lambda m: m["table"]["rematch_ready"] == [1])
    assert site.table(table).rematch is None
    players[0].send({"type": "rematch"})
    new = [p.expect("rematch")["table"] for p in players]
    assert watcher.expect("rematch")["table"] == new[0]  # a spectator is told, and watches there
    assert new[0] == new[1] != table
    again = [site.connect(new[0], p.token) for p in players]
    assert [p.seat for p in again] == [0, 1]
    assert again[0].view is not None and again[0].view["round"] == 1
    info = site.client.get(f"/api/tables/{new[0]}").json()
    assert info["status"] == "playing" and info["previous"] == table
    spectator = site.connect(new[0])  # without a token: a spectator stays a spectator
    assert spectator.seat is None
    play_until(again, game_over(again), timeout=60)


def test_spectator_sees_no_hand_and_cannot_act(site: Site) -> None:
    table, _players = start_table(site, 2, 0)
    watcher = site.connect(table)
    assert watcher.view is not None and watcher.view["hand"] == [] and watcher.view["legal"] == []
    watcher.act({"type": "draw"})
    assert watcher.expect("error")["code"] == "not_seated"


def test_lobby_join_and_start(site: Site) -> None:
    made = site.create(players=4, computers=1, rules="finnish", level="medium")
    table = made["table"]
    info = site.client.get(f"/api/tables/{table}").json()
    assert info["status"] == "lobby" and [s["kind"] for s in info["seats"]] == [
        "human",
        "empty",
        "empty",
        "bot",
    ]
    ben = site.join(table, "Ben")
    assert ben["seat"] == 1
    r = site.client.post(f"/api/tables/{table}/join", json={"name": "ben"})
    assert r.status_code == 409 and "already called" in r.json()["detail"]
    host = site.connect(table, made["token"])
    guest = site.connect(table, ben["token"])
    guest.send({"type": "start"})
    assert guest.expect("error")["code"] == "not_host"
    host.send({"type": "start"})
    host.wait_view(lambda v: v is not None)
    info = site.client.get(f"/api/tables/{table}").json()
    assert info["status"] == "playing"
    assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot", "bot"]  # the empty seat got a bot
    assert info["rules"] == "finnish"
    r = site.client.post(f"/api/tables/{table}/join", json={"name": "Cy"})
    assert r.status_code == 409
    host.send({"type": "start"})
    assert host.expect("error")["code"] == "started"


def test_reconnect_gets_view_and_missed_events(site: Site) -> None:
    table, players = start_table(site, 2, 1, rules="standard", level="easy")
    ann, ben = players
    # play a few turns, then Ben leaves
    play_until(players, lambda: ann.version > 12, timeout=30)
    seen = ben.version
    ben.close()
    site.players.remove(ben)
    # Ann plays on while Ben is away (the game waits on Ben's turn)
    play_until(
        [ann],
        lambda: site.table(table).game.round.current == 1 or ann.view["phase"] == "round_over",
        timeout=30,
    )
    back = site.connect(table, ben.token, hello=False)
    welcome = back.hello(since=seen)
    assert welcome["seat"] == 1
    game = site.table(table).game
    v = welcome["version"]
    assert seen < v <= len(game.events)
    assert [e["type"] for e in welcome["events"]] == [e["type"] for e in game.events[seen:v]]
    assert welcome["view"]["hand"] == [str(c) for c in Truth(game.events).at(v).round.hand(1)]


def test_host_hands_absent_seat_to_bot_and_person_returns(site: Site) -> None:
    table, players = start_table(site, 2, 0, rules="standard(score_limit=30)")
    ann, ben = players
    ben.close()
    site.players.remove(ben)
    ann.expect("table", where=lambda m: not m["table"]["seats"][1]["connected"])
    ben_ws = None
    ann.send({"type": "replace", "seat": 0})
    assert ann.expect("error")["code"] == "not_allowed"  # Ann is here
    ann.send({"type": "replace", "seat": 1, "level": "beginner"})
    ann.expect("table", where=lambda m: m["table"]["seats"][1]["stand_in"])
    driver = site.table(table).table
    assert driver.players[1] is not None and driver.players[0] is None  # the stand-in sits at the driver
    # the bot plays Ben's turns: Ann can play the whole game alone
    play_until([ann], lambda: ann.view["turns"] >= 4 or ann.view["phase"] == "round_over", timeout=30)
    ben_ws = site.connect(table, ben.token)
    assert ben_ws.seat == 1
    assert not site.table(table).seats[1].stand_in
    assert site.table(table).table.players[1] is None  # Ben plays his seat again
    ann.expect("table", where=lambda m: not m["table"]["seats"][1]["stand_in"])
    play_until([ann, ben_ws], game_over([ann, ben_ws]), timeout=60)


def test_bots_only_continue_while_a_person_watches(site: Site) -> None:
    table, players = start_table(site, 1, 3, rules="standard(score_limit=30)", level="beginner")
    play_until(players, game_over(players), timeout=60)
    assert site.table(table).game.over
