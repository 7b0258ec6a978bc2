"""The public lobby and quick match."""

from __future__ import annotations

from .conftest import Site


def test_public_tables_waiting_for_players_are_listed(site: Site) -> None:
    public = site.create(players=3, public=True, rules="finnish", turn_seconds=20)
    private = site.create(players=3)
    lobby = site.client.get("/api/lobby").json()
    ids = [t["id"] for t in lobby]
    assert public["table"] in ids and private["table"] not in ids
    entry = next(t for t in lobby if t["id"] == public["table"])
    assert entry["free"] == 2 and entry["players"] == 3 and entry["turn_seconds"] == 20
    assert entry["rules"] == "finnish" and entry["description"] and entry["host"] == "Ann"
    assert "token" not in repr(entry) and "seed" not in repr(entry)


def test_full_and_started_tables_leave_the_lobby(site: Site) -> None:
    made = site.create(players=2, public=True)
    site.hub._lobby = None
    assert made["table"] in [t["id"] for t in site.client.get("/api/lobby").json()]
    site.join(made["table"], "Ben")  # full now
    assert made["table"] not in [t["id"] for t in site.client.get("/api/lobby").json()]
    other = site.create(players=3, public=True)
    host = site.connect(other["table"], other["token"])
    host.send({"type": "start"})
    host.wait_view(lambda v: v is not None)
    site.hub._lobby = None
    assert other["table"] not in [t["id"] for t in site.client.get("/api/lobby").json()]


def test_a_public_lobby_nobody_is_at_leaves_the_list_after_a_while(clocked: Site) -> None:
    made = clocked.create(players=3, public=True)
    assert made["table"] in [t["id"] for t in clocked.client.get("/api/lobby").json()]
    clocked.tick(121)
    assert made["table"] not in [t["id"] for t in clocked.client.get("/api/lobby").json()]
    clocked.connect(made["table"], made["token"])  # the host is here: listed again
    clocked.tick(2)
    assert made["table"] in [t["id"] for t in clocked.client.get("/api/lobby").json()]


def test_quick_match_joins_an_open_table_with_the_same_rules_or_makes_one(site: Site) -> None:
    first = site.client.post("/api/quick", json={"name": "Ann", "rules": "finnish", "players": 3}).json()
    assert first["created"] is True and first["seat"] == 0
    info = site.client.get(f"/api/tables/{first['table']}").json()
    assert info["public"] is True and info["turn_seconds"] == 45.0
    other_rules = site.client.post(
        "/api/quick", json={"name": "Ben", "rules": "standard", "players": 3}
    ).json()
    assert other_rules["created"] is True and other_rules["table"] != first["table"]
    second = site.client.post("/api/quick", json={"name": "Cy", "rules": "finnish", "players": 3}).json()
    assert second == {**second, "table": first["table"], "seat": 1, "created": False}
    # a name that clashes at the open table gets a table of its own, not an error
    third = site.client.post("/api/quick", json={"name": "ann", "rules": "finnish", "players": 3}).json()
    assert third["table"] != first["table"] and third["created"] is True
    r = site.client.post("/api/quick", json={"name": "Dee", "rules": "finnish", "players": 99})
    assert r.status_code == 422
