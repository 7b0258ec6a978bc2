"""Game records: written during play, read back, replayed exactly, checked."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from yaniv import Game, RecordError
from yaniv.bots import make_bot
from yaniv.events import redact
from yaniv.match import bot_rngs, play_game
from yaniv.record import RecordWriter, check, read_record, replay, write_record
from yaniv.rules import PRESETS


def played(rules: str = "standard", players: int = 3, seed: int = 5, record: str | None = None) -> Game:
    game = Game(rules, players=players, seed=seed)
    if record is not None:
        game.subscribe(RecordWriter.create(record), replay=True)
    bots = [make_bot("greedy" if p % 2 else "random") for p in range(players)]
    play_game(game, bots, bot_rngs(seed, players))
    game.close()
    return game


@pytest.mark.parametrize("preset", list(PRESETS))
def test_replay_reproduces_every_preset(preset: str) -> None:
    rules = PRESETS[preset]
    game = played(preset, players=max(3, rules.min_players), seed=11)
    buf = io.StringIO()
    write_record(game.events, buf)
    again = replay(read_record(buf.getvalue().splitlines()))
    assert again.totals == game.totals
    assert again.winners == game.winners
    assert again.round.to_position() == game.round.to_position()
    strip = [{k: v for k, v in e.items() if k != "started"} for e in again.events]
    assert strip == [{k: v for k, v in e.items() if k != "started"} for e in game.events]


def test_record_written_during_play(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game = Game("standard", players=2, seed=3)
    game.subscribe(RecordWriter.create(str(path)), replay=True)
    # the header and the deal are on disk before anyone acts
    lines = path.read_text().splitlines()
    assert [json.loads(x)["type"] for x in lines] == ["header", "deal"]
    state = game.round
    game.apply(state.current, state.legal_actions()[-1])
    assert len(path.read_text().splitlines()) == 3
    game.close()


def test_reshuffles_replay_from_the_record_not_the_seed(tmp_path: Path) -> None:
    game = played("finnish", players=4, seed=3)
    events = [dict(e) for e in game.events]
    events[0]["seed"] = 999_999  # replay must not depend on the seed
    buf = io.StringIO()
    write_record(events, buf)
    assert replay(read_record(buf.getvalue().splitlines())).totals == game.totals


def test_a_game_with_reshuffles_replays() -> None:
    for seed in range(40):
        game = played("standard(hand_size=7)", players=5, seed=seed)
        if any(e["type"] == "reshuffle" for e in game.events):
            break
    else:
        pytest.fail("no seeded game reshuffled")
    buf = io.StringIO()
    write_record(game.events, buf)
    assert check(buf.getvalue().splitlines()).totals == game.totals


def test_check_names_the_first_wrong_line(tmp_path: Path) -> None:
    game = played(seed=8)
    lines = [json.dumps(e) for e in game.events]
    # change one discard into a different card: the replay must stop on that line
    index = next(i for i, x in enumerate(lines) if json.loads(x)["type"] == "discard")
    event = json.loads(lines[index])
    event["cards"] = ["KS"] if event["cards"] != ["KS"] else ["KD"]
    lines[index] = json.dumps(event)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match=f"line {index + 1}:"):
        check(str(path))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("not json\n", "line 1: not JSON"),
        ('{"type": "deal"}\n', "line 1: the first line must be the header"),
        ('{"type": "header", "format": "other", "version": 1}\n', "format"),
        ('{"type": "header", "format": "yaniv-record", "version": 99}\n', "version 99"),
        ("[1, 2]\n", "line 1: an event is a JSON object"),
    ],
)
def test_bad_records_are_rejected_with_the_line(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        read_record(text.splitlines())


def test_unfinished_record_checks_but_a_cut_showdown_does_not() -> None:
    game = played(seed=9)
    lines = [json.dumps(e) for e in game.events]
    first_discard = next(i for i, x in enumerate(lines) if json.loads(x)["type"] == "discard")
    unfinished = check(lines[: first_discard + 1])
    assert not unfinished.over
    call = next(i for i, x in enumerate(lines) if json.loads(x)["type"] == "yaniv")
    with pytest.raises(RecordError, match="ends early"):
        check(lines[: call + 1])


def test_seat_record_hides_other_hands() -> None:
    game = played(seed=4)
    for seat in range(game.n):
        for event in game.seat_events(seat)[1:]:
            assert event == redact(event, seat)
            if event["type"] == "deal":
                assert all(h is None for p, h in enumerate(event["hands"]) if p != seat)
                assert event["stock"] is None
            if event["type"] == "draw" and event["seat"] != seat:
                assert "card" not in event


def test_missing_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "nope.jsonl")


def test_replay_steps_yield_the_game_after_every_line(tmp_path: Path) -> None:
    from yaniv.record import replay_steps

    game = played(seed=4)
    events = read_record([json.dumps(e) for e in game.events])
    steps = replay_steps(events)
    first, header = next(steps)
    assert header["type"] == "header" and first.round_no == 1
    kinds = []
    for same, event in steps:
        assert same is first
        kinds.append(event["type"])
        if event["type"] == "round_end":
            assert same.round.is_over
    assert kinds == [e["type"] for e in game.events[1:]]
    assert first.totals == game.totals


def test_resume_goes_on_appending_to_the_same_file(tmp_path: Path) -> None:
    from yaniv.record import resume
    from yaniv.table import Table

    path = tmp_path / "g.jsonl"
    game = Game("standard(quick_discard=same_rank)", players=3, seed=5)
    game.subscribe(RecordWriter.create(str(path)), replay=True)
    bots = [make_bot("greedy")] * 3
    rngs = bot_rngs(5, 3)
    table = Table(game, bots, rngs=rngs)
    while game.round_no < 3:  # stop in the middle of round 3
        assert table.step() is not None
    for _ in range(5):
        assert table.step() is not None
    game.close()
    before = path.read_text().splitlines()
    again = resume(path)
    assert again.round.to_position() == game.round.to_position()
    play_game(again, bots, rngs)
    lines = path.read_text().splitlines()
    assert lines[: len(before)] == before  # nothing rewritten
    assert sum(json.loads(x)["type"] == "header" for x in lines) == 1
    checked = check(path)
    assert checked.over and checked.totals == again.totals
    # the rounds dealt after resuming are not the recorded ones dealt again
    deals = [json.loads(x)["hands"] for x in lines if json.loads(x)["type"] == "deal"]
    assert deals[3] not in deals[:3]
    with pytest.raises(RecordError, match="over"):
        resume(path)
