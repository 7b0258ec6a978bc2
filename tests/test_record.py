"""Game records: written during play, read back, replayed exactly, checked."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


# ============================================================================ bad records
#
# A real record, mutated line by line and field by field: every mutation is refused by
# ``check`` (exit 1) with one line naming the line (and, where there is one, the field),
# or still checks (a field replay does not depend on); ``replay --text`` shows it or
# refuses it (exit 2); never a traceback, and the file is never changed.

SHORT = "standard(score_limit=40)"


@pytest.fixture(scope="module")
def short_record() -> list[str]:
    game = played(SHORT, players=3, seed=3)
    return [json.dumps(e, separators=(",", ":")) for e in game.events]


def _line_of(lines: list[str], kind: str, nth: int = 0) -> int:
    return [i for i, x in enumerate(lines) if json.loads(x)["type"] == kind][nth]


def mutations(lines: list[str]) -> Iterator[tuple[str, int, str | None]]:
    """(name, index of the line changed, its new text or None to delete it)."""
    chosen = [
        0,
        1,
        2,
        3,
        4,
        _line_of(lines, "take"),
        _line_of(lines, "showdown"),
        _line_of(lines, "round_end"),
    ]
    chosen += [_line_of(lines, "deal", 1), _line_of(lines, "game_end")]
    for i in chosen:
        event = json.loads(lines[i])
        for key, value in event.items():
            for how, new in [
                ("deleted", None),
                ("null", None),
                ("text", "x" if not isinstance(value, str) else 5),
                ("list", [value]),
                ("object", {"a": value}),
                ("float", 1.5),
                ("bool", True),
                ("negative", -1),
                ("large", 10**20),
                *(
                    [("plus one", value + 1)]
                    if isinstance(value, int) and not isinstance(value, bool)
                    else []
                ),
                *(
                    [("shorter", value[:-1]), ("longer", value + value[-1:])]
                    if isinstance(value, list) and value
                    else []
                ),
            ]:
                if how == "deleted":
                    changed = {k: v for k, v in event.items() if k != key}
                else:
                    changed = {**event, key: new}
                yield f"line {i + 1} {key} {how}", i, json.dumps(changed)
            marker = json.dumps({**event, key: "@@"})
            yield f"line {i + 1} {key} 1000 deep", i, marker.replace('"@@"', "[" * 1000 + "]" * 1000)
            yield f"line {i + 1} {key} 5000 digits", i, marker.replace('"@@"', "9" * 5000)
        yield f"line {i + 1} deleted", i, None
        yield f"line {i + 1} not an object", i, "[1, 2]"
        yield f"line {i + 1} not JSON", i, '{"type": "deal",'
        yield f"line {i + 1} doubled", i, lines[i] + "\n" + lines[i]


# Mutations that do not change the game: the replay does not read these fields.
HARMLESS = {"started", "seed", "names", "rules_string"}


def test_every_mutation_of_a_record_is_refused_in_one_line(
    short_record: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from yaniv.cli import main

    path = tmp_path / "mutated.jsonl"
    tried = refused = 0
    for name, i, new in mutations(short_record):
        lines = list(short_record)
        if new is None:
            del lines[i]
        else:
            lines[i] = new
        path.write_text("\n".join(lines) + "\n")
        before = path.read_bytes()
        tried += 1
        code = main(["check", str(path)], out=(out := io.StringIO()))
        verdict = out.getvalue()
        assert path.read_bytes() == before, name
        if code == 0:
            field = name.split()[2]
            assert field in HARMLESS and i == 0, f"{name}: a changed record checks: {verdict}"
            continue
        refused += 1
        assert code == 1, name
        assert verdict.count("\n") == 1 and "Traceback" not in verdict, (name, verdict)
        assert len(verdict) < 1000, (name, "a message quotes no whole line")
        assert "line " in verdict or "ends early" in verdict or "no deal" in verdict, (name, verdict)
        capsys.readouterr()
        try:
            shown = main(["replay", str(path), "--text"], out=io.StringIO())
        except SystemExit as e:
            shown = e.code
        err = capsys.readouterr().err
        assert shown in (0, 2), (name, shown)
        assert "Traceback" not in err and err.count("\n") == (1 if shown else 0), (name, err)
    assert tried > 500 and refused > 0.95 * tried, (tried, refused)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("players", 4, "line 2: deal event field 'hands' must have one entry per seat (4), got 3"),
        ("players", 9, "line 1: header field 'players' must be a number of players 2..8, got 9"),
        ("players", 6, "line 1: header field 'players' does not fit the rules"),
        ("players", True, "header field 'players'"),
        ("names", "Ann", "line 1: header field 'names' must be null or list 3"),
        ("names", ["Ann", "Ben"], "header field 'names'"),
        ("names", ["Ann", "Ben", "\x1b[2J"], "header field 'names'"),
        ("dealer", 1, "line 2: deal of round 1: the dealer is seat 1, not 0"),
        ("dealer", 3, "line 1: header field 'dealer' must be a seat 0..2, got 3"),
        ("seed", [1], "line 1: header field 'seed' must be a whole number or null, got [1]"),
        ("seed", "7", "header field 'seed'"),
        ("rules", None, "line 1: header field 'rules' is not a rule set"),
        ("rules", {"score_limit": "x"}, "header field 'rules' is not a rule set: knob 'score_limit'"),
        (
            "rules_string",
            "finnish",
            "header field 'rules_string' 'finnish' does not name the header's 'rules'",
        ),
        ("version", True, "record version True is not supported"),
        ("format", None, "format must be 'yaniv-record'"),
        ("started", 5, "header field 'started' must be text"),
    ],
)
def test_a_bad_header_names_its_field(short_record: list[str], field: str, value: Any, message: str) -> None:
    header = json.loads(short_record[0])
    header[field] = value
    with pytest.raises(RecordError) as info:
        check([json.dumps(header), *short_record[1:]])
    assert message in str(info.value)


@pytest.mark.parametrize("field", ["rules", "players", "dealer", "format", "version"])
def test_a_header_without_a_required_field(short_record: list[str], field: str) -> None:
    header = json.loads(short_record[0])
    del header[field]
    with pytest.raises(RecordError, match=f"line 1: .*{field}"):
        read_record([json.dumps(header), *short_record[1:]])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": None}, "line 2: deal event field 'hands': must be a list of card lists, got None"),
        ({"stock": None}, "line 2: deal of round 1: field 'stock' is missing or null"),
        ({"dealer": 2}, "line 2: deal of round 1: the dealer is seat 0, not 2"),
        ({"starter": 2}, "line 2: deal of round 1: the first round is started left of the dealer, by seat 1"),
        ({"starter": 7}, "line 2: deal event field 'starter': no seat 7 in a game of 3"),
        ({"discard_pile": []}, "line 2: deal of round 1: the discard pile must be the start card alone"),
    ],
)
def test_a_bad_deal_is_reported_on_its_own_line(
    short_record: list[str], change: dict[str, Any], message: str
) -> None:
    deal = json.loads(short_record[1])
    deal.update(change)
    with pytest.raises(RecordError) as info:
        check([short_record[0], json.dumps(deal), *short_record[2:]])
    assert message in str(info.value)


def test_a_deal_must_hold_the_whole_deck_once(short_record: list[str]) -> None:
    deal = json.loads(short_record[1])
    lost = {**deal, "stock": deal["stock"][:-1]}
    with pytest.raises(
        RecordError, match="line 2: deal of round 1: the hands, stock and discard pile hold 53"
    ):
        check([short_record[0], json.dumps(lost), *short_record[2:]])
    twice = {**deal, "stock": [deal["hands"][0][0], *deal["stock"][1:]]}
    with pytest.raises(RecordError, match="line 2: deal of round 1: 'stock'"):
        check([short_record[0], json.dumps(twice), *short_record[2:]])
    six = [list(h) for h in deal["hands"]]
    six[0].append(deal["stock"][0])
    with pytest.raises(RecordError, match=r"line 2: deal of round 1: 'hands\[0\]' must hold 5 cards, got 6"):
        check(
            [
                short_record[0],
                json.dumps({**deal, "hands": six, "stock": deal["stock"][1:]}),
                *short_record[2:],
            ]
        )


def test_a_changed_dealer_of_a_later_round_fails_check(short_record: list[str]) -> None:
    i = _line_of(short_record, "deal", 1)
    deal = json.loads(short_record[i])
    lines = list(short_record)
    lines[i] = json.dumps({**deal, "dealer": (deal["dealer"] + 1) % 3})
    with pytest.raises(
        RecordError, match=f"line {i + 1}: deal of round 2: the dealer is seat {deal['dealer']}"
    ):
        check(lines)


def test_a_seat_out_of_the_game_is_refused_when_read(short_record: list[str]) -> None:
    i = _line_of(short_record, "discard")
    event = json.loads(short_record[i])
    lines = list(short_record)
    lines[i] = json.dumps({**event, "seat": 5})
    with pytest.raises(
        RecordError, match=f"line {i + 1}: discard event field 'seat': no seat 5 in a game of 3"
    ):
        read_record(lines)


def test_a_record_file_is_read_no_further_than_its_limit(
    short_record: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import yaniv.record

    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(short_record) + "\n")
    monkeypatch.setattr(yaniv.record, "MAX_RECORD_BYTES", 1000)
    with pytest.raises(RecordError, match="too large"):
        read_record(path)
    if Path("/dev/zero").exists():  # a device without end is refused, not read into memory
        with pytest.raises(RecordError, match="too large"):
            read_record("/dev/zero")


def test_replay_steps_report_a_late_bad_deal_when_it_is_reached(short_record: list[str]) -> None:
    from yaniv.record import replay_steps

    i = _line_of(short_record, "deal", 1)
    lines = list(short_record)
    deal = json.loads(lines[i])
    lines[i] = json.dumps({**deal, "stock": deal["stock"][:-1]})
    steps = replay_steps(read_record(lines))
    seen = 0
    with pytest.raises(RecordError, match=f"line {i + 1}: deal of round 2"):
        for _ in steps:
            seen += 1
    assert seen == i  # the header and every line before the bad deal
