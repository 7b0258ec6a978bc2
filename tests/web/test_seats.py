"""Seats: leaving, the host's kick, computer players and rules until the start, a full table,
the personal resume link."""

from __future__ import annotations

from .conftest import Site
from .helpers import Player


def lobby_of(site: Site, players: int = 4, **body: object) -> tuple[str, Player, Player]:
    made = site.create(players=players, **body)
    table = made["table"]
    ann = site.connect(table, made["token"], "Ann")
    ben = site.connect(table, site.join(table, "Ben")["token"], "Ben")
    ann.expect("table", where=lambda m: m["table"]["seats"][1]["connected"])
    return table, ann, ben


def kinds(p: Player) -> list[str]:
    assert p.table is not None
    return [s["kind"] for s in p.table["seats"]]


def test_leaving_a_lobby_frees_the_seat(site: Site) -> None:
    table, ann, ben = lobby_of(site)
    ben.send({"type": "leave"})
    assert ben.expect("bye") == {"type": "bye", "reason": "left"}
    ann.expect("table", where=lambda m: m["table"]["seats"][1]["kind"] == "empty")
    p = site.connect(table, ben.token, hello=False)  # the old token no longer seats anyone
    p.send({"type": "hello", "token": ben.token})
    assert p.expect("error")["code"] == "bad_token"
    assert site.join(table, "Ben")["seat"] == 1  # the seat is free again


def test_the_host_leaving_hands_the_role_on_at_once(site: Site) -> None:
    _table, ann, ben = lobby_of(site)
    ann.send({"type": "leave"})
    ann.expect("bye")
    info = ben.expect("table", where=lambda m: m["table"]["host"] == 1)["table"]
    assert info["seats"][0]["kind"] == "empty"
    ben.send({"type": "start"})
    ben.wait_view(lambda v: v is not None)


def test_leaving_a_game_hands_the_seat_to_a_computer(site: Site) -> None:
    table, ann, ben = lobby_of(site, players=2, level="beginner")
    ann.send({"type": "start"})
    ann.wait_view(lambda v: v is not None)
    ben.wait_view(lambda v: v is not None)
    ben.send({"type": "leave"})
    ben.expect("bye")
    info = ann.expect("table", where=lambda m: m["table"]["seats"][1]["kind"] == "bot")["table"]
    assert info["seats"][1]["name"] == "Ben" and info["seats"][1]["level"] == "beginner"
    room = site.table(table)
    assert room.table.is_bot(1)
    # Ann plays on against the computer that took Ben's seat
    for _ in range(3):
        v = ann.wait_view(lambda v: v["current"] == 0 or v["phase"] == "round_over")
        if v["phase"] == "round_over":
            break
        ann.act(next(a for a in v["legal"] if a["type"] == "discard"))
        ann.wait_view(lambda v: v["phase"] == "after_discard" or v["current"] != 0)
        if ann.view and ann.view["phase"] == "after_discard" and ann.view["current"] == 0:
            ann.act({"type": "draw"})
            ann.wait_view(lambda v: v["current"] != 0 or v["phase"] == "round_over")


def test_the_host_kicks_a_person_from_the_lobby(site: Site) -> None:
    table, ann, ben = lobby_of(site)
    ben.send({"type": "kick", "seat": 0})
    assert ben.expect("error")["code"] == "not_host"
    ann.send({"type": "kick", "seat": 0})
    assert ann.expect("error")["code"] == "not_allowed"
    ann.send({"type": "kick", "seat": 2})
    assert ann.expect("error")["code"] == "not_allowed"  # nobody sits there
    ann.send({"type": "kick", "seat": 1})
    assert ben.expect("bye") == {"type": "bye", "reason": "kicked"}
    ann.expect("table", where=lambda m: m["table"]["seats"][1]["kind"] == "empty")
    assert site.table(table).seat_of_token(ben.token) is None
    ann.send({"type": "start"})
    ann.wait_view(lambda v: v is not None)
    ann.send({"type": "kick", "seat": 1})
    assert ann.expect("error")["code"] == "started"


def test_the_host_adds_and_removes_computer_players(site: Site) -> None:
    table, ann, ben = lobby_of(site)
    ann.send({"type": "add_bot", "seat": 2, "level": "hard"})
    ann.expect("table", where=lambda m: m["table"]["seats"][2]["kind"] == "bot")
    assert ann.table is not None and ann.table["seats"][2]["level"] == "hard" and ann.table["computers"] == 1
    ann.send({"type": "add_bot", "seat": 1})
    assert ann.expect("error")["code"] == "not_allowed"  # Ben sits there
    ann.send({"type": "add_bot", "seat": 9})
    assert ann.expect("error")["code"] == "bad_field"
    ben.send({"type": "add_bot", "seat": 3})
    assert ben.expect("error")["code"] == "not_host"
    ann.send({"type": "add_bot", "seat": 3, "level": "nope"})
    assert ann.expect("error")["code"] == "bad_field"
    ann.send({"type": "add_bot", "seat": 3})
    ann.expect("table", where=lambda m: m["table"]["seats"][3]["kind"] == "bot")
    ann.send({"type": "remove_bot", "seat": 2})
    ann.expect("table", where=lambda m: m["table"]["seats"][2]["kind"] == "empty")
    ann.send({"type": "remove_bot", "seat": 1})
    assert ann.expect("error")["code"] == "not_allowed"
    assert kinds(ann) == ["human", "human", "empty", "bot"]
    stored = site.client.get(f"/api/tables/{table}").json()
    assert [s["kind"] for s in stored["seats"]] == ["human", "human", "empty", "bot"]


def test_the_host_changes_the_rules_until_the_start(site: Site) -> None:
    table, ann, ben = lobby_of(site)
    ann.send({"type": "settings", "rules": "finnish", "turn_seconds": 30, "public": True})
    info = ann.expect("table", where=lambda m: m["table"]["rules"] == "finnish")["table"]
    assert info["turn_seconds"] == 30 and info["public"] is True
    ann.send({"type": "settings", "overrides": {"yaniv_threshold": 3}})
    info = ann.expect("table", where=lambda m: m["table"]["knobs"]["yaniv_threshold"] == 3)["table"]
    assert info["rules"].startswith("finnish")
    ann.send({"type": "settings", "players": 3})
    ann.expect("table", where=lambda m: len(m["table"]["seats"]) == 3)
    cy = site.join(table, "Cy")
    assert cy["seat"] == 2
    ann.send({"type": "settings", "players": 2})
    err = ann.expect("error")
    assert err["code"] == "not_allowed" and "beyond seat 1" in err["message"]  # Cy sits on seat 2
    ann.send({"type": "kick", "seat": 2})
    ann.expect("table", where=lambda m: m["table"]["seats"][2]["kind"] == "empty")
    for players in (0, 1, 9):  # what the rules refuse is said so, before who sits where
        ann.send({"type": "settings", "players": players})
        err = ann.expect("error")
        assert err["code"] == "bad_settings" and f"players, not {players}" in err["message"], err
    ann.send({"type": "settings", "overrides": []})
    err = ann.expect("error")
    assert err["code"] == "bad_settings" and "overrides must be an object" in err["message"]
    ann.send({"type": "settings", "rules": "nonsense"})
    err = ann.expect("error")
    assert err["code"] == "bad_settings" and "unknown preset" in err["message"]
    ben.send({"type": "settings", "players": 2})
    assert ben.expect("error")["code"] == "not_host"
    ann.send({"type": "settings", "players": 2})
    ann.expect("table", where=lambda m: len(m["table"]["seats"]) == 2)
    ann.send({"type": "start"})
    v = ann.wait_view(lambda v: v is not None)
    assert v["players"] == 2
    assert site.table(table).game.rules.yaniv_threshold == 3
    ann.send({"type": "settings", "players": 3})
    assert ann.expect("error")["code"] == "started"


def test_a_full_table_says_so(site: Site) -> None:
    made = site.create(players=2)
    assert site.client.get(f"/api/tables/{made['table']}").json()["free"] == 1
    site.join(made["table"], "Ben")
    info = site.client.get(f"/api/tables/{made['table']}").json()
    assert info["full"] is True and info["free"] == 0
    r = site.client.post(f"/api/tables/{made['table']}/join", json={"name": "Cy"})
    assert r.status_code == 409 and "full" in r.json()["detail"]


def test_the_resume_link_seats_a_second_device(site: Site) -> None:
    made = site.create(players=2)
    assert made["resume"] == f"/t/{made['table']}#seat={made['token']}"
    joined = site.join(made["table"], "Ben")
    assert joined["resume"].endswith(joined["token"]) and joined["token"] != made["token"]
    # the link is shown to its owner only: the table info and the others' messages never hold it
    first = site.connect(made["table"], made["token"])
    second = site.connect(made["table"], made["token"])  # the same seat from a second device
    assert first.seat == second.seat == 0
    ben = site.connect(made["table"], joined["token"])
    for p in (first, second, ben):
        p.poll()
    everything = repr(site.client.get(f"/api/tables/{made['table']}").json()) + repr(ben.messages)
    assert made["token"] not in everything


def test_names_are_checked_at_the_door(site: Site) -> None:
    made = site.create(players=4, name="Ｂｏｂ")  # full-width letters fold
    assert site.client.get(f"/api/tables/{made['table']}").json()["seats"][0]["name"] == "Bob"
    join = site.client.post
    for name, word, status in [
        ("bob", "already called", 409),  # a well-formed name this table cannot take: a conflict
        ("B0b", "looks too much like", 409),
        ("Вob", "looks too much like", 409),  # a Cyrillic В
        ("Ann (computer)", "brackets", 422),  # a malformed name: bad input wherever it is sent
        ("Ann\u200b", "invisible", 422),
        ("\u202eAnn", "invisible", 422),
        ("\u3164", "invisible", 422),
        ("a\u0301\u0301\u0301\u0301", "accents", 422),
    ]:
        r = join(f"/api/tables/{made['table']}/join", json={"name": name})
        assert r.status_code == status, (name, r.text)
        assert word in r.json()["detail"], (name, r.json())
