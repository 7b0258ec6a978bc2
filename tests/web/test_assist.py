"""What a seat may ask beyond its view (issue 16, during play): the hint and the odds of a
Yaniv call as the terminal game gives them, the engine's reason for an illegal selection,
the score sheet; and after play the record as a download, the step-through history."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from yaniv.actions import Action
from yaniv.arena.run import make_arena_bot
from yaniv.cli import main
from yaniv.record import check, read_record
from yaniv.tui.hint import yaniv_odds
from yaniv.web import assist

from .conftest import Site
from .helpers import Player, game_over, play_until
from .test_play import start_table


def my_turn(p: Player) -> dict[str, Any]:
    return p.wait_view(lambda v: v["current"] == p.seat and v["phase"] == "turn_start" and bool(v["legal"]))


def test_hint_is_the_terminal_games_hint_with_the_odds(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """S10: the odds are those of a Yaniv call now; the move is the expert's on the seat's own view."""
    # the expert stops at its time limit, so on a loaded machine two searches of one view may
    # differ: untimed (on the server and here) its move depends on its seed alone
    monkeypatch.setattr(assist, "make_opponent", lambda spec: make_arena_bot(spec, untimed=True))
    table, (p0, p1) = start_table(site, 2, 0, rules="standard(yaniv_threshold=50)")
    ann = p0 if p0.view["current"] == p0.seat else p1  # type: ignore[index]
    view = my_turn(ann)
    assert any(a["type"] == "yaniv" for a in view["legal"])
    ann.send({"type": "hint"})
    got = ann.expect("hint")
    assert got["version"] == ann.version
    room = site.table(table)
    seat_view = room.table.view(ann.seat)
    assert got["odds"] == round(yaniv_odds(seat_view), 4)  # the terminal game's odds, to the digit
    expert = make_arena_bot(assist.HINT_LEVEL, untimed=True).act(
        seat_view, random.Random(f"hint-{table}-{ann.version}-{ann.seat}")
    )
    assert expert is not None and got["action"] == expert.to_json()
    hinted = Action.coerce(got["action"])  # a whole turn (discard, then draw or take) or one step
    discards = {tuple(sorted(map(str, a.cards))) for a in seat_view.legal if a.type == "discard"}
    assert hinted.type == "yaniv" or tuple(sorted(map(str, hinted.cards))) in discards
    # asked again: the same answer (from memory), and nothing changed
    ann.send({"type": "hint"})
    assert ann.expect("hint") == got
    assert room.version == ann.version


def test_no_hint_off_turn_and_no_odds_without_yaniv(site: Site) -> None:
    table, (ann, ben) = start_table(site, 2, 0, rules="standard(yaniv_threshold=0)")
    mover = ann if ann.view["current"] == ann.seat else ben  # type: ignore[index]
    other = ben if mover is ann else ann
    other.send({"type": "hint"})
    assert other.expect("error")["code"] == "not_allowed"
    my_turn(mover)
    mover.send({"type": "hint"})
    got = mover.expect("hint")
    assert got["odds"] is None  # a threshold of 0: no Yaniv to call
    assert got["action"]["type"] in ("discard", "turn")
    watcher = site.connect(table)
    watcher.send({"type": "hint"})
    assert watcher.expect("error")["code"] == "not_seated"


def test_check_gives_the_engines_reason_and_changes_nothing(site: Site) -> None:
    """S7: a discard is a single card, a set or a run; the reason is the engine's words."""
    table, (ann,) = start_table(site, 1, 1, level="beginner")
    view = my_turn(ann)
    hand: list[str] = view["hand"]
    version = ann.version
    legal = next(a for a in view["legal"] if a["type"] == "discard")
    ann.send({"type": "check", "action": legal})
    ok = ann.expect("check")
    assert ok["ok"] is True and ok["reason"] is None and ok["version"] == version
    legal_sets = {tuple(sorted(a["cards"])) for a in view["legal"] if a["type"] == "discard"}
    bad = next(
        [a, b] for i, a in enumerate(hand) for b in hand[i + 1 :] if tuple(sorted([a, b])) not in legal_sets
    )
    ann.send({"type": "check", "action": {"type": "discard", "cards": bad}})
    no = ann.expect("check")
    assert no["ok"] is False and "is not a legal discard" in no["reason"]
    assert no["action"]["cards"] == bad
    # the same reason the move itself gets
    ann.act({"type": "discard", "cards": bad})
    err = ann.expect("error")
    assert err["code"] == "illegal" and err["message"] == no["reason"]
    assert site.table(table).version == version


def test_score_sheet_lists_every_settled_round(site: Site) -> None:
    table, players = start_table(site, 2, 1, rules="standard(score_limit=30)", level="beginner")
    play_until(players, game_over(players), timeout=60)
    game = site.table(table).game
    sheet = players[0].view["sheet"]  # type: ignore[index]
    assert [r["round"] for r in sheet] == list(range(1, len(game.results) + 1))
    assert [r["scores"] for r in sheet] == [list(r.round_scores) for r in game.results]
    assert sheet[-1]["totals"] == list(game.totals)


def test_record_download_and_history_once_the_game_is_over(site: Site, tmp_path: Path) -> None:
    table, players = start_table(site, 2, 1, rules="standard(score_limit=30)", level="beginner")
    # while the game is on the record (with its seed) and the history are not given
    assert site.client.get(f"/api/tables/{table}/record").status_code == 409
    assert site.client.get(f"/api/tables/{table}/history").status_code == 409
    assert "seed" not in site.client.get(f"/api/tables/{table}").text
    play_until(players, game_over(players), timeout=60)
    r = site.client.get(f"/api/tables/{table}/record")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/x-ndjson")
    assert f"yaniv-{table}.jsonl" in r.headers["content-disposition"]
    game = site.table(table).game
    assert [json.loads(line) for line in r.text.splitlines()] == game.events
    path = tmp_path / "downloaded.jsonl"
    path.write_text(r.text, encoding="utf-8")
    assert check(path).winners == game.winners  # yaniv.record accepts it
    out = io.StringIO()
    assert main(["check", str(path)], out) == 0  # so does `yaniv check`
    out = io.StringIO()
    assert main(["replay", "--text", str(path)], out) == 0  # and `yaniv replay`
    assert out.getvalue()
    # the history: one step per record line after the header, every hand open
    h = site.client.get(f"/api/tables/{table}/history").json()
    events = read_record(path)
    assert len(h["steps"]) == len(events) - 1
    assert [s["event"]["type"] for s in h["steps"]] == [e["type"] for e in events[1:]]
    first = h["steps"][0]
    assert first["event"]["type"] == "deal" and all(len(hand) == 5 for hand in first["hands"])
    assert h["steps"][-1]["totals"] == list(game.totals)
    assert h["names"] == [s["name"] for s in site.client.get(f"/api/tables/{table}").json()["seats"]]
    assert site.client.get("/api/tables/nosuchtable/record").status_code == 404
