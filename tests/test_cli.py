"""The yaniv command line: every subcommand, --json, errors with exit code 2."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from yaniv import Game
from yaniv.actions import Action
from yaniv.bots import make_bot
from yaniv.cli import main
from yaniv.cli.plain import PlainGame
from yaniv.match import play_game
from yaniv.record import RecordWriter
from yaniv.rules import PRESETS
from yaniv.state import SeatView
from yaniv.table import DecisionKind, Table


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run *argv*; it must exit 2 with one line on stderr (no traceback), which is returned."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(argv, out=io.StringIO())
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("yaniv ") and "Traceback" not in err, err
    return err


def quit_at_once(monkeypatch: pytest.MonkeyPatch, *argv: str) -> str:
    """``yaniv play --plain ARGV`` by a person who leaves at his first turn; its output."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, text = run("play", "--plain", *argv)
    assert code == 0 and "Bye!" in text
    return text


def test_help_of_every_command() -> None:
    for cmd in ([], ["rules"], ["simulate"], ["play"], ["replay"], ["check"]):
        proc = subprocess.run(
            [sys.executable, "-m", "yaniv.cli", *cmd, "--help"], capture_output=True, text=True, check=False
        )
        assert proc.returncode == 0
        assert "usage: yaniv" in proc.stdout


def test_rules_lists_every_preset() -> None:
    code, text = run("rules")
    assert code == 0
    for name in PRESETS:
        assert name in text


def test_rules_explains_and_prints_json() -> None:
    code, text = run("rules", "finnish(score_limit=100)")
    assert code == 0
    assert text.startswith("finnish(score_limit=100)")
    assert "100" in text
    code, text = run("rules", "slovenian-yanef", "--json")
    knobs = json.loads(text)
    assert knobs["asef"] is True and knobs["pickup_mode"] == "top_only"


def test_simulate_json_summary(tmp_path: Path) -> None:
    code, text = run(
        "simulate",
        "--rules",
        "finnish",
        "--players",
        "4",
        "--games",
        "5",
        "--seed",
        "3",
        "--json",
        "--record",
        str(tmp_path),
    )
    assert code == 0
    summary = json.loads(text)
    assert summary["games"] == 5
    assert summary["rounds"] >= 5
    assert summary["turns"] > summary["rounds"]
    assert 0 <= summary["assaf_rate"] <= 1
    assert sum(summary["wins_by_seat"]) == pytest.approx(5)
    assert len(list(tmp_path.glob("*.jsonl"))) == 5
    again = json.loads(
        run("simulate", "--rules", "finnish", "--players", "4", "--games", "5", "--seed", "3", "--json")[1]
    )
    assert {k: v for k, v in again.items() if k != "seconds"} == {
        k: v for k, v in summary.items() if k != "seconds"
    }


def test_simulate_text_summary() -> None:
    code, text = run("simulate", "--games", "3", "--players", "2")
    assert code == 0
    assert "3 games of standard" in text and "Assafed" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--rules", "nope"], "unknown preset"),
        (["simulate", "--players", "9"], "2 to 5 players"),
        (["simulate", "--games", "0"], "--games"),
        (["simulate", "--bots", "wizard"], "unknown bot"),
        (["rules", "standard(yaniv_threshold=x)"], "yaniv_threshold"),
        (["replay", "/nonexistent/file.jsonl"], "cannot read"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv, out=io.StringIO())
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_unknown_subcommand_exits_2() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["frobnicate"], out=io.StringIO())
    assert exc.value.code == 2


def test_replay_and_check(tmp_path: Path) -> None:
    run("simulate", "--games", "1", "--seed", "7", "--record", str(tmp_path))
    record = tmp_path / "game-7.jsonl"
    code, text = run("replay", str(record))
    assert code == 0
    assert "Round 1:" in text and "Game over. Winner:" in text
    code, text = run("replay", str(record), "--seat", "1")
    assert "P0: 5 cards" in text  # another seat's hand is hidden
    code, text = run("check", str(record))
    assert code == 0 and "ok" in text
    lines = record.read_text().splitlines()
    lines[2] = lines[2].replace('"discard"', '"yaniv"')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    code, text = run("check", str(bad), "--json")
    assert code == 1
    verdict = json.loads(text)
    assert verdict["ok"] is False and "line 3" in verdict["error"]


class ScriptedPerson(io.StringIO):
    """Answers the plain prompts by asking a greedy bot, as text, plus some mistakes."""

    def __init__(self, table: Table, seat: int) -> None:
        super().__init__()
        self.table, self.seat = table, seat
        self.bot = make_bot("greedy")
        self.rng = random.Random(1)
        self.slaps = 0
        self.mistakes = [
            "help",
            "hand",
            "take ZZ",
            "yaniv" if (table.view(seat).hand_value or 0) > 7 else "hand",
            "",
        ]

    def readline(self, size: int | None = -1) -> str:
        decision = self.table.decision_of(self.seat)
        assert decision is not None, "the person is asked only when a decision of his is pending"
        if decision.kind == DecisionKind.SLAP:
            self.slaps += 1
            return "y\n" if self.slaps % 2 else "n\n"  # slap one, pass the next
        if self.mistakes:
            return self.mistakes.pop() + "\n"
        action = self.bot.act(self.table.view(self.seat), self.rng)
        assert action is not None
        if action.type == "discard" and len(action.cards) > 1:  # written loosely: any order
            return f"discard {' '.join(map(str, reversed(action.cards)))}\n"
        return f"{action}\n"


@pytest.mark.parametrize("rules", ["standard", "standard(quick_discard=same_rank)"])
def test_plain_play_a_whole_game_through_text(rules: str) -> None:
    game = Game(rules, players=3, seed=12, names=["Ann", "Bot 1", "Bot 2"])
    table = Table(game, [None, make_bot("greedy"), make_bot("greedy")], auto_deal=False)
    out = io.StringIO()
    person = ScriptedPerson(table, 0)
    code = PlainGame(table, 0, out, person).run()
    text = out.getvalue()
    assert code == 0
    assert game.over
    assert "Game over. Winner:" in text
    assert "Not allowed:" in text  # the mistakes were explained
    assert "Your hand:" in text
    assert not table.faults
    if "quick_discard" in rules:
        assert person.slaps > 0 and "Ann slaps" in text


def test_plain_play_quits_on_end_of_input(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("discard ZZ\n"))
    record = tmp_path / "g.jsonl"
    code, text = run("play", "--plain", "--seed", "3", "--record", str(record))
    assert code == 0
    assert "Not allowed" in text and "Bye!" in text
    assert record.read_text().startswith('{"type":"header"')


def test_plain_play_asks_the_oracle_with_the_full_state(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from yaniv.bots.search import OracleBot
    from yaniv.state import RoundState

    full: list[int] = []
    by_view: list[int] = []
    act_full, act = OracleBot.act_full, OracleBot.act

    def counted_full(self: OracleBot, state: RoundState, seat: int, rng: random.Random) -> Action | None:
        assert isinstance(state, RoundState)
        assert all(hand for p, hand in enumerate(state.hands) if p in state.active)  # every hand, not a view
        full.append(seat)
        return act_full(self, state, seat, rng)

    def counted(self: OracleBot, view: SeatView, rng: random.Random) -> Action | None:
        by_view.append(view.seat or 0)
        return act(self, view, rng)

    monkeypatch.setattr(OracleBot, "act_full", counted_full)
    monkeypatch.setattr(OracleBot, "act", counted)
    record = tmp_path / "g.jsonl"
    quit_at_once(monkeypatch, "--players", "3", "--bots", "oracle", "--seed", "5", "--record", str(record))
    assert set(full) == {1, 2}  # both oracles played their first turns (seat 1 starts after dealer 0)
    assert by_view == []
    assert json.loads((tmp_path / "g.session.json").read_text())["opponents"] == [None, "oracle", "oracle"]


class HandReader(io.StringIO):
    """A person who discards his first card and draws, reading his hand from the game's output."""

    def __init__(self, out: io.StringIO, turns: int) -> None:
        super().__init__()
        self.out, self.turns = out, turns

    def readline(self, size: int | None = -1) -> str:
        if self.turns == 0:
            return ""
        self.turns -= 1
        hand = [line for line in self.out.getvalue().splitlines() if line.startswith("  Your hand:")][-1]
        return f"discard {hand.split()[2]}; draw\n"


def test_plain_play_and_replay_speak_to_you_in_the_second_person(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", HandReader(out, turns=3))
    record = tmp_path / "g.jsonl"
    assert (
        main(["play", "--plain", "--seed", "8", "--level", "beginner", "--record", str(record)], out=out) == 0
    )
    text = out.getvalue()
    assert "You deal" in text and "You discard" in text and "You draw" in text
    for wrong in ("You deals", "You discards", "You draws", "You takes", "You calls"):
        assert wrong not in text
    code, replayed = run("replay", str(record), "--text")
    assert code == 0 and "You discard" in replayed
    for wrong in ("You deals", "You discards", "You draws"):
        assert wrong not in replayed


def test_play_refuses_to_overwrite_a_record(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "g.jsonl"
    quit_at_once(monkeypatch, "--seed", "3", "--record", str(record))
    before = record.read_bytes()
    for seed in ("3", "4"):
        err = usage_error(["play", "--plain", "--seed", seed, "--record", str(record)], capsys)
        assert "exists" in err and "--resume" in err
    assert record.read_bytes() == before
    # a finished record is refused just the same
    done = tmp_path / "done.jsonl"
    game = Game("standard(score_limit=30)", players=2, seed=1)
    game.subscribe(RecordWriter.create(done), replay=True)
    play_game(game, [make_bot("greedy"), make_bot("greedy")])
    game.close()
    finished = done.read_bytes()
    assert "exists" in usage_error(["play", "--plain", "--record", str(done)], capsys)
    assert done.read_bytes() == finished
    # with --resume the same file goes on
    text = quit_at_once(monkeypatch, "--resume", "--record", str(record))
    assert f"Resuming {record}" in text
    assert record.read_bytes().startswith(before)


def test_two_resumes_of_one_record_do_not_interleave(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "g.jsonl"
    quit_at_once(monkeypatch, "--seed", "3", "--record", str(record))
    before = record.read_bytes()
    other = RecordWriter.append(record)  # another window goes on with this game
    try:
        err = usage_error(["play", "--plain", "--resume", "--record", str(record)], capsys)
        assert "another window" in err
        assert record.read_bytes() == before
    finally:
        other.close()
    quit_at_once(monkeypatch, "--resume", "--record", str(record))  # free again


def test_simulate_refuses_to_overwrite_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("simulate", "--games", "2", "--seed", "5", "--record", str(tmp_path))[0] == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert sorted(before) == ["game-5.jsonl", "game-6.jsonl"]
    err = usage_error(["simulate", "--games", "3", "--seed", "4", "--record", str(tmp_path)], capsys)
    assert "game-5.jsonl exists" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # nothing written, not even game-4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--plain", "--players", "9"], "--players: these rules allow 2 to 5 players, not 9"),
        (["play", "--plain", "--players", "1"], "2 to 5 players"),
        (["play", "--plain", "--rules", "slovenian-yanef", "--players", "2"], "--players"),
        (["play", "--plain", "--rules", "standard(hand_size=7,max_players=8)", "--players", "8"], "deck"),
        (["play", "--plain", "--bots", "wizard"], "--bots: unknown bot 'wizard'"),
        (["play", "--plain", "--bots", " , "], "--bots: name at least one bot"),
        (["play", "--plain", "--level", "godlike"], "--level"),
        (["play", "--plain", "--level", ","], "--level"),
        (["play", "--plain", "--bots", "greedy:strong"], "no levels"),
        (["play", "--plain", "--rules", "nope"], "--rules: unknown preset"),
        (["play", "--plain", "--delay", "-1"], "--delay"),
        (["play", "--plain", "--players", "x"], "--players"),
        (["play", "--plain", "--resume", "--record", "/nonexistent/g.jsonl"], "--resume: cannot read"),
        (["play", "--plain", "--record", "/nonexistent/dir/g.jsonl"], "--record: cannot write"),
        (["simulate", "--players", "1"], "--players: these rules allow 2 to 5 players, not 1"),
        (["simulate", "--players", "8", "--rules", "standard(hand_size=7,max_players=8)"], "deck"),
        (["simulate", "--bots", ""], "--bots: name at least one bot"),
        (["simulate", "--bots", "greedy:strong"], "no levels"),
        (["simulate", "--turn-cap", "0"], "--turn-cap"),
        (["simulate", "--record", "/dev/null/x"], "--record"),
        (["arena", "--players", "1"], "--players: these rules allow"),
        (["odds", "--value", "5", "--cards", "3", "--players", "9"], "--players"),
        (["replay", "/nonexistent/file.jsonl", "--seat", "1"], "cannot read"),
        (["check", "--json"], "file"),
    ],
)
def test_bad_arguments_of_every_command_give_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as exc:
        main(argv, out=io.StringIO())
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("yaniv")  # argparse's usage line may come first


def test_replay_of_a_seat_that_is_not_there_and_of_a_bad_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run("simulate", "--games", "1", "--seed", "7", "--record", str(tmp_path))
    record = tmp_path / "game-7.jsonl"
    assert "--seat: there is no seat 5" in usage_error(
        ["replay", str(record), "--text", "--seat", "5"], capsys
    )
    lines = record.read_text().splitlines()
    lines[2] = json.dumps({"type": "discard", "seat": 1})  # no cards
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    assert "line 3" in usage_error(["replay", str(bad), "--text"], capsys)
