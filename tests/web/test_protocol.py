"""Idempotent resends, stale versions, illegal moves and bad input of every kind: a clear
error to that client only, nothing changes, the server and the table go on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from yaniv.cards import parse_card
from yaniv.melds import classify
from yaniv.web import create_app
from yaniv.web.protocol import MAX_MESSAGE, parse_message

from .conftest import FAST, Site, db_url
from .helpers import Player, game_over, play_until


def two_people(site: Site, **body: object) -> tuple[str, Player, Player]:
    made = site.create(players=2, **body)
    table = made["table"]
    ben = site.join(table, "Ben")
    ann = site.connect(table, made["token"], "Ann")
    bob = site.connect(table, ben["token"], "Ben")
    ann.send({"type": "start"})
    ann.wait_view(lambda v: v is not None)
    bob.wait_view(lambda v: v is not None)
    return table, ann, bob


def mover(ann: Player, bob: Player) -> tuple[Player, Player]:
    return (ann, bob) if ann.view is not None and ann.view["current"] == ann.seat else (bob, ann)


def quiet(p: Player) -> None:
    """Nothing reached *p* but table news: a ping is answered next."""
    p.send({"type": "ping", "id": "q"})
    while True:
        m = p.next()
        if m["type"] != "table":
            break
    assert m == {"type": "pong", "id": "q"}, m


def test_resent_action_is_applied_once(site: Site) -> None:
    table, ann, bob = two_people(site)
    me, other = mover(ann, bob)
    before = me.version
    discard = next(a for a in me.view["legal"] if a["type"] == "discard")
    me.act(discard, action_id="a-1")
    ack = me.expect("ack")
    assert ack == {"type": "ack", "id": "a-1", "version": before + 1}
    me.act(discard, action_id="a-1", version=before)  # resent (say after a reconnect)
    dup = me.expect("ack")
    assert dup["duplicate"] is True and dup["version"] == before + 1
    game = site.table(table).game
    assert len(game.events) == before + 1
    other.expect("update")
    quiet(other)


def test_stale_version_is_refused(site: Site) -> None:
    table, ann, bob = two_people(site)
    me, other = mover(ann, bob)
    old = me.version
    discard = next(a for a in me.view["legal"] if a["type"] == "discard")
    me.act(discard)
    me.expect("update")
    me.act({"type": "draw"}, action_id="late", version=old)
    err = me.expect("error")
    assert err["code"] == "stale" and err["id"] == "late" and "moved on" in err["message"]
    assert len(site.table(table).game.events) == old + 1
    other.expect("update")
    quiet(other)


def test_illegal_action_errs_to_that_client_only(site: Site) -> None:
    table, ann, bob = two_people(site)
    me, other = mover(ann, bob)
    v = me.version
    other.act({"type": "draw"}, action_id="x")
    err = other.expect("error")
    assert err["code"] == "illegal" and "not your turn" in err["message"] and err["id"] == "x"
    bad = [c for c in me.view["hand"]][:1] * 2  # the same card twice
    me.act({"type": "discard", "cards": bad})
    assert me.expect("error")["code"] == "illegal"
    if not any(a["type"] == "yaniv" for a in me.view["legal"]):
        me.act({"type": "yaniv"})
        assert "Yaniv needs" in me.expect("error")["message"]
    assert len(site.table(table).game.events) == v
    quiet(me)
    quiet(other)


BAD = [
    ("not json", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('"text"', "bad_message"),
    ("{}", "bad_message"),
    ('{"type": 7}', "bad_message"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "action"}', "bad_field"),
    ('{"type": "action", "id": "1", "version": 1}', "bad_field"),
    ('{"type": "action", "id": "1", "version": -1, "action": {"type": "draw"}}', "bad_field"),
    ('{"type": "action", "id": "1", "version": true, "action": {"type": "draw"}}', "bad_field"),
    ('{"type": "action", "id": "", "version": 1, "action": {"type": "draw"}}', "bad_field"),
    ('{"type": "action", "id": 5, "version": 1, "action": {"type": "draw"}}', "bad_field"),
    ('{"type": "action", "id": "1", "version": 1, "action": {"type": "fly"}}', "bad_action"),
    ('{"type": "action", "id": "1", "version": 1, "action": {"type": "take", "card": "ZZ"}}', "bad_action"),
    ('{"type": "action", "id": "1", "version": 1, "action": 12}', "bad_action"),
    ('{"type": "action", "id": "1", "version": 1, "action": "discard 7H 8H", "x": 1}', "bad_field"),
    ('{"type": "replace", "seat": "one"}', "bad_field"),
    ('{"type": "replace", "seat": 99}', "bad_field"),
    ('{"type": "replace", "seat": 1, "level": "godlike"}', "bad_field"),
    ('{"type": "ready"}', "not_allowed"),
    ('{"type": "rematch"}', "not_allowed"),
    ('{"type": "hello"}', "already_joined"),
    ("[" * 100000, "too_big"),
    ('{"type": "ping", "pad": "' + "x" * (MAX_MESSAGE + 10) + '"}', "too_big"),
    ("[" * 5000 + "]" * 5000, "bad_json"),
    ('{"type": "ping", "id": "1", "n": ' + "9" * 5000 + "}", "bad_json"),  # a number Python will not read
]


def test_bad_messages_get_clear_errors_and_change_nothing(site: Site) -> None:
    table, ann, bob = two_people(site)
    v = ann.version
    for text, code in BAD:
        ann.send(text)
        err = ann.expect("error")
        assert err["code"] == code, (text[:60], err)
        assert err["message"]
    ann.ws.send_bytes(b'{"type": "ping"}')
    assert ann.expect("error")["code"] == "binary"
    assert len(site.table(table).game.events) == v
    quiet(bob)
    me, _other = mover(ann, bob)
    # the table and this very connection still work
    discard = next(a for a in me.view["legal"] if a["type"] == "discard")
    me.act(discard)
    assert me.expect("ack")["version"] == v + 1


def test_before_hello_and_wrong_tokens(site: Site) -> None:
    table, ann, _bob = two_people(site)
    p = site.connect(table, hello=False)
    p.send({"type": "action", "id": "1", "version": 1, "action": {"type": "draw"}})
    assert p.expect("error")["code"] == "not_joined"
    p.send({"type": "hello", "token": "not-a-token"})
    assert p.expect("error")["code"] == "bad_token"
    p.send({"type": "hello", "token": "x" * 300})
    assert p.expect("error")["code"] == "bad_field"
    p.send({"type": "hello"})  # may still watch
    assert p.expect("welcome")["seat"] is None
    quiet(ann)


def test_unknown_table(site: Site) -> None:
    with site.client.websocket_connect("/ws/nosuchtable") as ws:
        msg = json.loads(ws.receive_text())
        assert msg["type"] == "error" and msg["code"] == "unknown_table"
    with site.client.websocket_connect("/ws/x;drop") as ws:
        assert json.loads(ws.receive_text())["code"] == "unknown_table"
    assert site.client.get("/api/tables/nosuchtable").status_code == 404
    assert site.client.post("/api/tables/nosuchtable/join", json={"name": "A"}).status_code == 404


@pytest.mark.parametrize(
    ("body", "word"),
    [
        ({"name": "A", "players": 9}, "players"),
        ({"name": "A", "players": 1}, "players"),
        ({"name": "A", "rules": "slovenian-yanef", "players": 2}, "3 to 8"),
        ({"name": "A", "rules": "nonsense"}, "unknown preset"),
        ({"name": "A", "overrides": {"yaniv_threshold": "high"}}, "yaniv_threshold"),
        ({"name": "A", "overrides": {"flying": True}}, "unknown knob"),
        ({"name": "A", "players": 3, "computers": 3}, "computer players"),
        ({"name": "A", "level": "godlike"}, "level"),
        ({"name": ""}, "name"),
        ({"name": "x" * 40}, "name"),
        ({"name": "a\u0000b"}, "control"),
        ({"players": 2}, "name"),
        ({"name": "A", "players": "two"}, "players"),
        # strict kinds: a boolean or a numeral in a string was read as a number (true as 1 seat)
        ({"name": "A", "players": True}, '"int_type","loc":["body","players"]'),
        ({"name": "A", "players": "2"}, '"int_type","loc":["body","players"]'),
        ({"name": "A", "players": 2.0}, '"int_type","loc":["body","players"]'),
        ({"name": "A", "computers": False}, '"int_type","loc":["body","computers"]'),
        ({"name": "A", "computers": "1"}, '"int_type","loc":["body","computers"]'),
        ({"name": "A", "public": 1}, '"bool_type","loc":["body","public"]'),
        ({"name": "A", "public": "true"}, '"bool_type","loc":["body","public"]'),
        ({"name": "A", "turn_seconds": "30"}, '"float_type","loc":["body","turn_seconds"]'),
        ({"name": "A", "turn_seconds": False}, '"float_type","loc":["body","turn_seconds"]'),
        ({"name": "   "}, "a name has 1 to 24 characters"),
        ({"name": "A", "player": 4}, '"extra_forbidden","loc":["body","player"]'),  # misspelt: not ignored
    ],
)
def test_bad_tables_are_refused(site: Site, body: dict[str, object], word: str) -> None:
    r = site.client.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert word in r.text


def test_bad_rest_bodies(site: Site) -> None:
    assert (
        site.client.post(
            "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
        ).status_code
        == 422
    )
    made = site.create(players=2)
    assert site.client.post(f"/api/tables/{made['table']}/join", json={}).status_code == 422
    for name in ("", "   ", "\t\n"):  # a malformed field is 422 (it was 409, as if the table refused)
        empty = site.client.post(f"/api/tables/{made['table']}/join", json={"name": name})
        assert empty.status_code == 422 and empty.json() == {"detail": "a name has 1 to 24 characters"}
    nowhere = site.client.post("/api/tables/nosuchtable/join", json={"name": " "})
    assert nowhere.status_code == 422  # the request is checked before the table is looked up
    extra = site.client.post(f"/api/tables/{made['table']}/join", json={"name": "B", "seat": 1})
    assert extra.status_code == 422 and "extra_forbidden" in extra.text
    quick = site.client.post("/api/quick", json={"name": "B", "computers": 1})  # no such field here
    assert quick.status_code == 422 and "extra_forbidden" in quick.text
    for body, field in (
        ({"name": "B", "players": "4"}, "players"),
        ({"name": "B", "turn_seconds": True}, "turn_seconds"),
    ):
        loose = site.client.post("/api/quick", json=body)
        assert loose.status_code == 422 and loose.json()["detail"][0]["loc"] == ["body", field], loose.text
    quick = site.client.post("/api/quick", json={"name": " ", "players": 2})
    assert quick.status_code == 422 and quick.json() == {"detail": "a name has 1 to 24 characters"}
    assert (
        site.client.post("/api/quick", json={"name": "Q", "players": 2, "turn_seconds": 30}).status_code
        == 200
    )
    long_id = "x" * 5000
    missing = site.client.post(f"/api/tables/{long_id}/join", json={"name": "B"})
    assert missing.status_code == 404 and len(missing.text) < 200, "the id is not echoed whole"
    site.join(made["table"], "B")
    assert site.client.post(f"/api/tables/{made['table']}/join", json={"name": "C"}).status_code == 409


def test_openapi_and_pages(site: Site) -> None:
    schema = site.client.get("/openapi.json").json()
    assert {"/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/join", "/api/presets"} <= set(
        schema["paths"]
    )
    assert "Yaniv" in site.client.get("/").text
    assert site.client.get("/t/anything").status_code == 200
    assert site.client.get("/static/app.js").status_code == 200
    presets = site.client.get("/api/presets").json()
    assert presets[0]["name"] == "standard" and presets[0]["description"]


def test_parse_message_directly() -> None:
    assert (
        parse_message('{"type": "action", "id": "a", "version": 3, "action": "7h 8h 9h / stock"}')[
            "parsed"
        ].type
        == "turn"
    )
    with pytest.raises(ValueError, match="text frames"):
        parse_message(b"{}")


def test_tables_survive_an_app_restart(tmp_path: Path) -> None:
    url = db_url(tmp_path / "y.db")
    with TestClient(create_app(url, bot_delay=0, round_pause=None, config=FAST)) as client:
        made = client.post(
            "/api/tables", json={"name": "Ann", "players": 3, "computers": 1, "level": "easy"}
        ).json()
        ben = client.post(f"/api/tables/{made['table']}/join", json={"name": "Ben"}).json()
        with (
            client.websocket_connect(f"/ws/{made['table']}") as w1,
            client.websocket_connect(f"/ws/{made['table']}") as w2,
        ):
            ann, bob = Player(w1, made["token"]), Player(w2, ben["token"])
            ann.hello()
            bob.hello()
            ann.send({"type": "start"})
            play_until([ann, bob], lambda: ann.version > 30, timeout=30)
            play_until(
                [ann, bob],
                lambda: ann.view is not None and ann.view["current"] != 2 and not ann.inbox.qsize(),
                timeout=30,
            )
            before = client.app.state.hub.tables[made["table"]].game  # type: ignore[attr-defined]
            events = list(before.events)
            acked = [m for m in ann.messages if m["type"] == "ack"][-1]
            ann.close()
            bob.close()
    with (
        TestClient(create_app(url, bot_delay=0, round_pause=None, config=FAST)) as client,
        client.websocket_connect(f"/ws/{made['table']}") as w1,
        client.websocket_connect(f"/ws/{made['table']}") as w2,
    ):
        ann, bob = Player(w1, made["token"]), Player(w2, ben["token"])
        welcome = ann.hello()
        bob.hello()
        game = client.app.state.hub.tables[made["table"]].game  # type: ignore[attr-defined]
        assert game.events[: len(events)] == events
        assert welcome["version"] >= len(events)
        play_until([ann, bob], game_over([ann, bob]), timeout=60)
        # an action resent from before the restart is still known: not applied twice
        ann.act({"type": "draw"}, action_id=acked["id"], version=acked["version"] - 1)
        dup = ann.expect("ack")
        assert dup == {"type": "ack", "id": acked["id"], "version": acked["version"], "duplicate": True}
        ann.close()
        bob.close()


def caught_up(ann: Player, bob: Player, version: int) -> None:
    for p in (ann, bob):
        while p.version != version:
            p.next()


def test_a_discard_picked_in_any_order_is_laid_as_the_engine_lays_it(site: Site) -> None:
    """The browser sends the cards in the order they were picked: a set keeps that order
    (the last card picked ends on top), a run is laid ascending; a wrong group is explained."""
    table, ann, bob = two_people(site, rules="standard(yaniv_threshold=0)")
    game = site.table(table).game
    laid = 0
    for _ in range(400):
        me, _other = mover(ann, bob)
        v = me.view
        assert v is not None and v["phase"] != "round_over"
        groups = [a for a in v["legal"] if a["type"] == "discard" and len(a["cards"]) >= 2]
        if v["phase"] == "after_discard":
            me.act(next(a for a in v["legal"] if a["type"] == "draw"))
        elif not groups:
            me.act(next(a for a in v["legal"] if a["type"] == "discard"))
        else:
            legal = groups[0]["cards"]
            me.act({"type": "discard", "cards": legal[::-1]})
            assert me.expect("ack")
            thrown = game.events[-1]
            assert thrown["type"] == "discard"
            # a set as picked, a run in its one legal (ascending) order; the engine
            # tells which (JK JK KS is a run: one natural rank does not make a set)
            # (a picked order that is itself legal is kept exactly, RULES.md S7.2: jokers
            # can make JK JK 10D, 8-9-10, and 10D JK JK, 10-J-Q, both runs)
            kind = classify([parse_card(c) for c in legal], game.rules)
            picked = legal[::-1]
            as_written = any(a["cards"] == picked for a in v["legal"] if a["type"] == "discard")
            assert thrown["cards"] == (picked if kind == "set" or as_written else legal), (legal, thrown)
            laid += 1
        caught_up(ann, bob, len(game.events))
        if laid >= 3:
            break
    assert laid, "no group of two or more cards came up"
    me, _other = mover(ann, bob)
    assert me.view is not None
    hand = me.view["hand"]
    discards = [sorted(a["cards"]) for a in me.view["legal"] if a["type"] == "discard"]
    wrong = next(([a, b] for a in hand for b in hand if a != b and sorted([a, b]) not in discards), None)
    if me.view["phase"] == "turn_start" and wrong is not None:
        me.act({"type": "discard", "cards": wrong})
        assert "not a legal discard" in me.expect("error")["message"]


def test_a_yaniv_out_of_turn_is_a_false_yaniv_where_the_rules_say_so(site: Site) -> None:
    _table, ann, bob = two_people(site, overrides={"false_yaniv_penalty": 30})
    me, other = mover(ann, bob)
    other.act({"type": "yaniv"})
    assert other.expect("ack")
    view = other.wait_view(lambda v: v["phase"] == "round_over")
    assert view["result"]["kind"] == "false_yaniv" and view["result"]["caller"] == other.seat
    assert me.expect("update")["view"]["result"]["kind"] == "false_yaniv"
