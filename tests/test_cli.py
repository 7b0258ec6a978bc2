"""The yaniv command line: every subcommand, --json, errors with exit code 2."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from yaniv import Game
from yaniv.actions import Action
from yaniv.bots import make_bot
from yaniv.cli import main
from yaniv.cli.parser import build_parser
from yaniv.cli.plain import PlainGame
from yaniv.errors import RulesError
from yaniv.match import play_game
from yaniv.record import RecordWriter, check, read_record, replay, write_record
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
    assert err.count("\n") == 1 and err.startswith(("yaniv ", "yaniv:")) and "Traceback" not in err, err
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


def test_a_record_that_does_not_check_is_shown_up_to_its_first_bad_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run("simulate", "--games", "1", "--seed", "7", "--record", str(tmp_path))
    lines = (tmp_path / "game-7.jsonl").read_text().splitlines()
    skipped = tmp_path / "skipped.jsonl"  # a line taken out: the next one is someone else's turn
    skipped.write_text("\n".join(lines[:5] + lines[6:]) + "\n")
    err = usage_error(["replay", str(skipped), "--text"], capsys)
    assert "line 6" in err and "does not check" in err and "Traceback" not in err
    buf = io.StringIO()  # what was shown before the error: the lines that do follow
    with pytest.raises(SystemExit):
        main(["replay", str(skipped), "--text"], out=buf)
    shown = buf.getvalue().splitlines()
    assert shown[0].startswith("Game of") and shown[-1] == "P2 discards 10H"  # line 5, then line 6 refused
    cut = tmp_path / "cut.jsonl"  # the end lost: the game would have gone on
    cut.write_text("\n".join(lines[:-3]) + "\n")
    err = usage_error(["replay", str(cut), "--text"], capsys)
    assert "ends early" in err and "shown to its end" in err
    whole = tmp_path / "game-7.jsonl"  # and a record that checks is shown whole, as before
    code, text = run("replay", str(whole), "--text")
    assert code == 0 and "Game over. Winner:" in text


# ============================================================================ bad input, every command
#
# Every subcommand on bad arguments: exit 2, one line on stderr that names what is wrong,
# no traceback, nothing written. ``{tmp}`` in an argument is the test's directory, which
# holds an existing report, plot, record directory and plain file (see bad_input_dir).

DEEP = "[" * 1000 + "]" * 1000
DEEP_RULES = '{"preset": "standard", "overrides": {"halving_scores": ' + DEEP + "}}"
LONG_NUMBER = "9" * 5000

BAD_INPUT: dict[str, list[tuple[list[str], str]]] = {
    "yaniv": [
        ([], "required: COMMAND"),
        (["frobnicate"], "invalid choice"),
        (["--bogus", "rules"], "unrecognized arguments: --bogus"),
    ],
    "rules": [
        (["rules", "nope"], "unknown preset 'nope'"),
        (["rules", "standard(yaniv_threshold=x)"], "yaniv_threshold"),
        (["rules", "standard(hand_size=8)"], "hand_size"),
        (["rules", DEEP_RULES], "nested too deeply"),
        (["rules", "{" + DEEP], "nested too deeply"),
        (["rules", "standard(halving_scores=" + DEEP + ")"], "nested too deeply"),
        (["rules", DEEP], "not a game string"),
        (["rules", '{"score_limit": ' + LONG_NUMBER + "}"], "30 digits"),
        (["rules", "standard(score_limit=" + LONG_NUMBER + ")"], "30 digits"),
        (["rules", LONG_NUMBER], "unknown preset"),
        (["rules", "{" + "x" * 1_100_000 + "}"], "too long"),
        (["rules", '{"score_limit": 100000000}'], "score_limit"),
        (["rules", "[1, 2]"], "not a game string"),
        (["rules", '{"preset": [1]}'], "unknown preset"),
        (["rules", "standard", "--bogus"], "--bogus"),
    ],
    "simulate": [
        (["simulate", "--rules", "nope"], "--rules: unknown preset"),
        (["simulate", "--rules", DEEP_RULES], "--rules: the rules (JSON): nested too deeply"),
        (["simulate", "--players", "9"], "--players: these rules allow 2 to 5 players, not 9"),
        (["simulate", "--players", "x"], "argument --players"),
        (["simulate", "--players", LONG_NUMBER], "argument --players: expected a whole number"),
        (["simulate", "--games", "0"], "argument --games: must be 1"),
        (["simulate", "--games", "-5"], "argument --games"),
        (["simulate", "--games", "2000000"], "argument --games: must be 1 to 1,000,000"),
        (["simulate", "--games", "1e3"], "argument --games: expected a whole number"),
        (["simulate", "--seed", "x"], "argument --seed"),
        (["simulate", "--seed", LONG_NUMBER], "argument --seed"),
        (["simulate", "--bots", "wizard"], "--bots: unknown bot 'wizard'"),
        (["simulate", "--bots", ","], "--bots: name at least one bot"),
        (["simulate", "--bots", ",".join(["greedy"] * 9)], "--bots: at most 8 bots"),
        (["simulate", "--bots", "greedy:strong"], "no levels"),
        (["simulate", "--bots", "cmd:{tmp}/no-such-program"], "--bots: cannot start"),
        (["simulate", "--turn-cap", "0"], "argument --turn-cap: must be 1"),
        (["simulate", "--turn-cap", "-1"], "argument --turn-cap"),
        (["simulate", "--record", "/dev/null/x"], "--record: cannot make the directory"),
        (["simulate", "--record", "{tmp}/a-file"], "--record: cannot make the directory"),
        (
            ["simulate", "--record", "{tmp}/records", "--games", "3"],
            "--record: {tmp}/records/game-1.jsonl exists: a record is never overwritten",
        ),
        (["simulate", "--record", "{tmp}/records", "--seed", "0", "--games", "3"], "game-1.jsonl exists"),
        (["simulate", "--bot-time-limit", "0"], "argument --bot-time-limit: must be 1"),
        (["simulate", "--bot-time-limit", "x"], "argument --bot-time-limit"),
        (["simulate", "--bot-time-limit", "100000000"], "argument --bot-time-limit: must be 1 to 600,000"),
        (["simulate", "--bot-stderr", "{tmp}"], "--bot-stderr: {tmp} is a directory"),
        (["simulate", "--bot-stderr", "/dev/null/x"], "--bot-stderr: cannot write"),
        (["simulate", "--json", "x"], "unrecognized arguments: x"),
    ],
    "play": [
        (["play", "--plain", "--delay", "inf"], "argument --delay: must be a number of seconds from 0 to 60"),
        (["play", "--plain", "--delay", "nan"], "argument --delay: must be a number of seconds"),
        (["play", "--plain", "--delay", "-1"], "argument --delay"),
        (["play", "--plain", "--delay", "61"], "argument --delay"),
        (["play", "--plain", "--delay", "1e400"], "argument --delay"),
        (["play", "--plain", "--delay", "soon"], "argument --delay"),
        (["play", "--plain", "--players", "9"], "--players: these rules allow 2 to 5 players, not 9"),
        (["play", "--plain", "--rules", DEEP_RULES], "nested too deeply"),
        (["play", "--plain", "--level", "godlike"], "--level"),
        (["play", "--plain", "--bots", "wizard"], "--bots: unknown bot"),
        (["play", "--plain", "--seed", "x"], "argument --seed"),
        (["play", "--plain", "--record", "{tmp}/a-file"], "--record: {tmp}/a-file exists"),
        (["play", "--plain", "--record", "/dev/null/x.jsonl"], "--record: cannot write"),
        (["play", "--plain", "--resume", "--record", "{tmp}/missing.jsonl"], "--resume: cannot read"),
        (["play", "--plain", "--resume", "--record", "{tmp}/a-file"], "--resume: line 1: not JSON"),
        (["play", "--plain", "--resume"], "--resume: no unfinished game to resume in {tmp}/xdg/yaniv/games"),
        # a set-up flag beside --resume was ignored without a word (the record fixes the game)
        (["play", "--plain", "--resume", "--players", "4"], "--players: not with --resume"),
        (["play", "--plain", "--resume", "--rules", "finnish", "--seed", "5"], "leave out --rules, --seed"),
        (["play", "--plain", "--resume", "--level", "hard"], "--level: not with --resume"),
        (["play", "--plain", "--resume", "--bots", "greedy"], "--bots: not with --resume"),
        (["play", "--plain", "--resume", "--name", "Ann"], "--name: not with --resume"),
        (["play", "--plain", "--name", ""], "--name"),
        (["play", "--plain", "--name", "\x1b[2J"], "--name"),
        (["play", "--plain", "--name", "x" * 100], "--name"),
        (["play", "--plain", "--bot-time-limit", "0"], "argument --bot-time-limit"),
        (["play", "--plain", "--bot-stderr", "/dev/null/x"], "--bot-stderr: cannot write"),
    ],
    "replay": [
        (["replay", "{tmp}/missing.jsonl"], "cannot read record"),
        (["replay", "{tmp}"], "cannot read record"),
        (["replay", "{tmp}/a-file"], "line 1: not JSON"),
        (["replay", "{tmp}/empty.jsonl"], "the record is empty"),
        (["replay", "{tmp}/binary.jsonl"], "not UTF-8"),
        (["replay", "{tmp}/records/game-1.jsonl", "--text", "--seat", "5"], "--seat: there is no seat 5"),
        (["replay", "{tmp}/records/game-1.jsonl", "--text", "--seat", "-1"], "--seat: there is no seat -1"),
        (["replay", "{tmp}/records/game-1.jsonl", "--seat", "x"], "argument --seat"),
        (["replay", "{tmp}/records/game-1.jsonl", "--tui"], "--tui needs a terminal"),
        (["replay", "{tmp}/records/game-1.jsonl", "--tui", "--text"], "not allowed with argument"),
        (["replay", "{tmp}/seat1.jsonl", "--text", "--seat", "0"], "only what seat 1 saw"),
        (["replay"], "required: file"),
        (["replay", ""], "name a record file, not ''"),  # was: "cannot read record : No such file"
        (["replay", " "], "name a record file, not ' '"),
    ],
    "check": [
        (["check"], "required: file"),
        (["check", ""], "name a record file, not ''"),  # was: "'' is a folder" (Path('') is '.')
        (["check", "{tmp}/records/game-1.jsonl", "--seat", "1"], "unrecognized arguments"),
    ],
    "serve": [
        (["serve", "--port", "70000"], "argument --port: must be 0 to 65,535"),
        (["serve", "--port", "x"], "argument --port"),
        (["serve", "--host", "no-such-host.invalid"], "--host: cannot listen on"),
        (["serve", "--port", "{busy}"], "--port: cannot listen on 127.0.0.1:{busy}"),
        (["serve", "--db", "bogus://x"], "--db: 'bogus://x' is not a database URL"),
        (["serve", "--db", "{tmp}/missing/x.db"], "--db: the directory {tmp}/missing does not exist"),
        (["serve", "--bot-delay", "inf"], "argument --bot-delay"),
        (["serve", "--round-pause", "nan"], "argument --round-pause"),
        (["serve", "--round-pause", "-1"], "argument --round-pause"),
        # each flag's message names its own unit (all said "seconds", the days and the rate too)
        (["serve", "--retention-days", "nan"], "argument --retention-days: must be a number of days from 0"),
        (["serve", "--abandoned-days", "-1"], "argument --abandoned-days: must be a number of days from 0"),
        (["serve", "--lobby-hours", "inf"], "argument --lobby-hours: must be a number of hours from 0"),
        (["serve", "--message-rate", "-2"], "argument --message-rate: must be a number of messages a second"),
        (["serve", "--host-grace", "-1"], "argument --host-grace: must be a number of seconds from 0"),
        (["serve", "--allowed-origin", "https://a.example"], "'https://a.example' is not a host"),
        (["serve", "--allowed-origin", ""], "allowed_origins: '' is not a host"),
        (["serve", "--log-level", "loud"], "argument --log-level: invalid choice"),
        (["serve", "--log-format", "xml"], "argument --log-format: invalid choice"),
        (["serve", "--db", "bogus://u:s3cret@x"], "--db: 'bogus://u:***@x' is not a database URL"),
        (["serve", "--db", ""], "--db: name a database"),  # was: the default's folder does not exist
        (["serve", "--db", "mysql://u@127.0.0.1:1/x"], "--db: mysql://u@127.0.0.1:1/x: "),  # no driver
        (["serve", "--db", "{tmp}/foreign.db"], "a table named 'tables' that is not a yaniv server's"),
        (["serve", "--host", "h" * 300], "--host: cannot listen on '" + "h" * 80 + "'"),
    ],
    "bot": [
        (["bot", "nosuch"], "unknown bot 'nosuch'"),
        (["bot", "cmd:x"], "not another program"),
        (["bot", "heuristic:strong"], "has no levels"),
        (["bot", "expert:"], "bot spec 'expert:': name a level after ':'"),
        (["bot", "expert", "--seed", "x"], "--seed"),
    ],
    "db": [
        (["db"], "required: {migrate,copy}"),
        (["db", "copy", "{tmp}/none.db", "{tmp}/b.db"], "there is no database file {tmp}/none.db"),
        (["db", "copy", "{tmp}/none.db"], "required: target"),
        (["db", "migrate", "--db", "{tmp}/missing/x.db"], "--db: there is no folder {tmp}/missing"),
        (["db", "migrate", "--db", "bogus://x"], "bogus://x"),
        (["db", "migrate", "--db", ""], "--db: name a database"),
        (["db", "migrate", "--db", "mysql://u@127.0.0.1:1/x"], "mysql://u@127.0.0.1:1/x: "),  # no driver
        (["db", "migrate", "--db", "{tmp}/foreign.db"], "a table named 'tables' that is not a yaniv"),
        (["db", "copy", "{tmp}/notes.db", "{tmp}/new.db"], "the source holds no yaniv tables"),
        (["db", "copy", "{tmp}/empty.jsonl", "{tmp}/new.db"], "the source holds no yaniv tables"),
        (["db", "copy", "sqlite://", "{tmp}/new.db"], "the source holds no yaniv tables"),
        (["db", "copy", "{tmp}/foreign.db", "{tmp}/new.db"], "a table named 'tables' that is not a yaniv"),
        (["db", "copy", "{tmp}/a-file", "sqlite://"], "the target is a database in memory"),
        (["db", "copy", "{tmp}/a-file", "sqlite:///:memory:"], "the target is a database in memory"),
    ],
    "arena": [
        (["arena", "--games", "0"], "argument --games"),
        (["arena", "--workers", "0"], "argument --workers: must be 1 to 64"),
        (["arena", "--workers", "1000"], "argument --workers: must be 1 to 64"),
        (["arena", "--workers", "2", "--ray"], "--workers: not with --ray"),  # was run on Ray, ignored
        (["arena", "--ray", "auto", "--workers", "1"], "--workers: not with --ray"),
        (["arena", "--bots", "wizard"], "--bots: unknown bot"),
        (["arena", "--players", "9"], "--players: these rules allow 2 to 5 players, not 9"),
        # without --players a seat per bot: the count is the bots', not a --players never given
        (["arena", "--bots", ",".join(["greedy"] * 7)], "--bots: these rules allow 2 to 5 players, not 7"),
        (["arena", "--bots", "greedy,random", "--players", "7"], "--players: these rules allow 2 to 5"),
        (["arena", "--rules", DEEP_RULES], "nested too deeply"),
        (["arena", "--turn-cap", "0"], "argument --turn-cap"),
        (["arena", "--games", "100000", "--json", "{tmp}/report.json"], "--json: {tmp}/report.json exists"),
        (["arena", "--games", "100000", "--json", "/dev/null/x.json"], "--json: cannot write"),
        (["arena", "--games", "100000", "--json", "{tmp}/missing/x.json"], "--json: cannot write"),
        (["arena", "--games", "100000", "--json", "{tmp}"], "--json: {tmp} is a directory"),
        (["arena", "--games", "100000", "--plot", "{tmp}/plot.png"], "--plot: {tmp}/plot.png exists"),
        (
            ["arena", "--games", "100000", "--plot", "{tmp}/new.xyz"],
            "--plot: {tmp}/new.xyz: unknown file type .xyz",
        ),
        (["arena", "--games", "100000", "--plot", "{tmp}/new"], "unknown file type (no extension)"),
        (["arena", "--games", "100000", "--plot", "/dev/null/x.png"], "--plot: cannot write"),
        (["arena", "--bot-time-limit", "-3"], "argument --bot-time-limit"),
        (["arena", "--bot-stderr", "{tmp}"], "--bot-stderr: {tmp} is a directory"),
    ],
    "odds": [
        (["odds", "--value", "5", "--cards", "100"], "--cards: opponent 1 holds at most 5 cards"),
        (["odds", "--value", "5", "--cards", "6"], "at most 5 cards"),
        (["odds", "--value", "5", "--cards", "x"], "--cards: expected up to 16"),
        (["odds", "--value", "5", "--cards", ","], "--cards: give the card count"),
        (["odds", "--value", "5", "--cards", ",".join(["3"] * 20)], "--cards: expected up to 16"),
        (["odds", "--value", "5", "--cards", LONG_NUMBER], "--cards"),
        (["odds", "--value", "51", "--cards", "3"], "--value: a hand of at most 5 cards is worth 0 to 50"),
        (["odds", "--value", "-1", "--cards", "3"], "--value"),
        (["odds", "--value", "x", "--cards", "3"], "argument --value"),
        (["odds", "--value", "5", "--cards", "3", "--turn", "-2"], "--turn"),
        (["odds", "--value", "5", "--cards", "3", "--players", "9"], "--players"),
        (
            ["odds", "--value", "5", "--cards", ",".join(["3"] * 9)],
            "--cards: these rules allow 2 to 5 players",
        ),
        (["odds", "--value", "5", "--cards", "3,3", "--seen-counts", "1"], "one number per opponent"),
        (["odds", "--value", "5", "--cards", "3", "--rules", DEEP_RULES], "nested too deeply"),
        (["odds", "--cards", "3"], "required: --value"),
    ],
}
BAD_CASES = [(command, argv, message) for command, cases in BAD_INPUT.items() for argv, message in cases]


@pytest.fixture
def bad_input_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory with files to refuse, as the working directory and the games' home."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    (tmp_path / "report.json").write_text("{}\n")
    (tmp_path / "plot.png").write_bytes(b"not really a png")
    (tmp_path / "a-file").write_text("hello\n")
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "binary.jsonl").write_bytes(b"\xff\xfe\x00garbage")
    with contextlib.closing(sqlite3.connect(tmp_path / "notes.db")) as db:  # another program's database
        db.execute("CREATE TABLE notes (body TEXT)")
        db.commit()
    with contextlib.closing(sqlite3.connect(tmp_path / "foreign.db")) as db:  # ... with a 'tables' table
        db.execute("CREATE TABLE tables (x TEXT)")
        db.execute("INSERT INTO tables VALUES ('keep me')")
        db.commit()
    games = tmp_path / "xdg" / "yaniv" / "games"
    games.mkdir(parents=True)
    (games / "game-deep.jsonl").write_text(DEEP + "\n")  # what play --resume looks at first
    assert run("simulate", "--games", "1", "--seed", "1", "--record", str(tmp_path / "records"))[0] == 0
    game = replay(read_record(tmp_path / "records" / "game-1.jsonl"))
    write_record(game.seat_events(1), tmp_path / "seat1.jsonl")
    return tmp_path


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    ("command", "argv", "message"), BAD_CASES, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(BAD_CASES)]
)
def test_bad_input_of_every_command(
    command: str, argv: list[str], message: str, bad_input_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tmp = str(bad_input_dir)
    with socket.socket() as busy:  # a port something already listens on
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        argv = [a.replace("{tmp}", tmp).replace("{busy}", port) for a in argv]
        before = tree(bad_input_dir)
        started = time.perf_counter()
        err = usage_error(argv, capsys)
    assert message.replace("{tmp}", tmp).replace("{busy}", port) in err, err
    assert len(err) < 700, "a message quotes no whole input"
    assert time.perf_counter() - started < 20, "refused before the run, not after"
    assert tree(bad_input_dir) == before, "nothing written or changed"


def test_every_subcommand_has_bad_input_cases() -> None:
    commands = set(build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    assert commands <= set(BAD_INPUT), commands - set(BAD_INPUT)


def test_help_says_where_the_limits_are() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "yaniv.cli", "--help"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    for words in (
        "limits (all in docs/formats.md §6.2)",
        "docs/bot-protocol.md",
        "32 levels",
        "--bot-time-limit",
        "130",
    ):
        assert words in text, words


def test_the_library_error_of_a_command_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A library error no command turned into a flag's message still ends as one line, exit 2."""
    import yaniv.cli.info as info

    def boom(*args: object) -> None:
        raise RulesError("a rule set nobody checked")

    monkeypatch.setattr(info, "rules_arg", boom)
    assert "a rule set nobody checked" in usage_error(["rules", "standard"], capsys)


def test_an_internal_error_is_one_line_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import yaniv.cli.info as info

    def boom(*args: object) -> None:
        raise TypeError("deep inside")

    monkeypatch.setattr(info, "rules_arg", boom)
    monkeypatch.delenv("YANIV_TRACEBACK", raising=False)
    assert main(["rules", "standard"], out=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" in err and "TypeError: deep inside" in err
    monkeypatch.setenv("YANIV_TRACEBACK", "1")
    with pytest.raises(TypeError):
        main(["rules", "standard"], out=io.StringIO())


def test_a_rule_set_whose_big_tables_cannot_be_dealt_is_explained() -> None:
    """docs/formats.md §2.3: finnish(hand_size=7) is a rule set (RULES.md §6b), 8 players are not dealt."""
    code, text = run("rules", "finnish(hand_size=7)")
    assert code == 0
    assert "Note: 8 players cannot be dealt" in text and "num_decks" in text
    assert "Note:" not in run("rules", "finnish(hand_size=7,num_decks=auto)")[1]
    assert "Note:" not in run("rules", "finnish")[1]


# ---------------------------------------------------------------------------- outputs


def test_arena_checks_its_outputs_first_and_force_replaces_them(tmp_path: Path) -> None:
    report, plot = tmp_path / "report.json", tmp_path / "plot.svg"
    report.write_text("old\n")
    argv = ["arena", "--bots", "greedy,random", "--players", "2", "--games", "2", "--json", str(report)]
    code, text = run(*argv, "--plot", str(plot), "--force")
    assert code == 0 and f"wrote {report}" in text and f"wrote {plot}" in text
    assert json.loads(report.read_text())["games"] == 2
    assert plot.read_text().lstrip().startswith("<?xml")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".yaniv-")], "no probe left behind"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        # with --force the plot replaced the JSON report just written; without it the run
        # ended in an error after the games, the plot lost
        (["arena", "--json", "{d}/out.svg", "--plot", "{d}/./out.svg", "--force"], "--plot: "),
        (["arena", "--json", "{d}/out.json", "--bot-stderr", "{d}/../{n}/out.json"], "--bot-stderr: "),
        # the bots' stderr was appended into the record being written
        (["simulate", "--record", "{d}", "--bot-stderr", "{d}/game-1.jsonl"], "--bot-stderr: "),
        (
            ["play", "--plain", "--seed", "1", "--record", "{d}/g.jsonl", "--bot-stderr", "{d}/g.jsonl"],
            "--bot-stderr: ",
        ),
        (
            ["play", "--plain", "--resume", "--record", "{d}/g.jsonl", "--bot-stderr", "{d}/g.jsonl"],
            "--bot-stderr: ",
        ),
    ],
)
def test_two_outputs_of_one_run_never_name_the_same_file(
    argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [a.format(d=tmp_path, n=tmp_path.name) for a in argv]
    if argv[0] == "arena":
        argv += ["--bots", "random,random", "--games", "2"]
    else:
        argv += ["--games", "1"] if argv[0] == "simulate" else []
    err = usage_error(argv, capsys)
    assert words in err and "is also the" in err, err
    assert list(tmp_path.iterdir()) == [], "nothing written, not even an empty file"


def test_resume_without_record_refuses_a_bot_stderr_that_is_a_game_to_resume(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``play --resume`` alone goes on with the games folder's newest unfinished record:
    a --bot-stderr naming that file had the bots' stderr appended into the record."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    games = tmp_path / "yaniv" / "games"
    quit_at_once(monkeypatch, "--seed", "3")  # an unfinished game in the games folder
    (record,) = games.glob("*.jsonl")
    before = record.read_bytes()
    err = usage_error(["play", "--plain", "--resume", "--bot-stderr", str(record)], capsys)
    assert "--resume: " in err and "is also the --bot-stderr file" in err, err
    assert record.read_bytes() == before
    other = tmp_path / "bots.log"  # a file elsewhere is fine
    text = quit_at_once(monkeypatch, "--resume", "--bot-stderr", str(other))
    assert f"Resuming {record}" in text and other.exists()


@pytest.mark.parametrize(
    ("argv", "taken"),
    [
        (["--bots", "cmd:/nonexistent/bot"], False),  # a program that cannot start
        (["--bot-stderr", "{d}"], False),  # a directory
        ([], True),  # the first record's name taken (by a folder): the folders it had stay
    ],
)
def test_a_refused_simulate_leaves_no_record_folder_behind(
    argv: list[str], taken: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The record folder was made before the bots started: a refused run left it empty."""
    target = tmp_path / "out" / "new"
    if taken:
        (target / "game-1.jsonl").mkdir(parents=True)
    args = [a.format(d=tmp_path) for a in argv] + ["--record", str(target)]
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    err = usage_error(["simulate", "--games", "1", "--players", "2", *args], capsys)
    assert err.startswith("yaniv simulate: error: --"), err
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


def test_simulate_refuses_a_directory_that_takes_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only directories")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert "--record: cannot write" in usage_error(["simulate", "--record", str(locked)], capsys)
    finally:
        locked.chmod(0o700)


# ---------------------------------------------------------------------------- external bots' options

OPTION_BOT = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print("time limit", message["time_limit_ms"], file=sys.stderr, flush=True)
        sys.stdout.write(json.dumps({"type": "ready", "name": "options"}) + "\\n")
    elif message["type"] == "decide":
        answer = {"type": "action", "id": message["id"], "action": message["legal"][0]}
        sys.stdout.write(json.dumps(answer) + "\\n")
    elif message["type"] == "bye":
        break
    sys.stdout.flush()
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "1", "--players", "2", "--rules", "standard(score_limit=30)"],
        ["arena", "--games", "4", "--players", "2", "--workers", "2", "--rules", "standard(score_limit=30)"],
        ["play", "--plain", "--players", "2", "--seed", "3"],
    ],
    ids=["simulate", "arena-workers", "play"],
)
def test_external_bot_options_reach_every_bot(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = tmp_path / "bot.py"
    program.write_text(OPTION_BOT)
    spec = f"cmd:{sys.executable} {program}"
    log = tmp_path / "bots.log"
    log.write_text("kept\n")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    bots = [spec] if argv[0] == "play" else [spec, "greedy"]
    code, _text = run(*argv, "--bots", ",".join(bots), "--bot-time-limit", "4321", "--bot-stderr", str(log))
    assert code == 0
    lines = log.read_text().splitlines()
    assert lines[0] == "kept", "the stderr file is appended to"
    assert "time limit 4321" in lines[1:], lines
    assert "YANIV_BOT_TIME_LIMIT_MS" not in os.environ and "YANIV_BOT_STDERR" not in os.environ


def test_make_bot_passes_options_to_programs_only(tmp_path: Path) -> None:
    from yaniv.bots import external_bot_options

    program = tmp_path / "bot.py"
    program.write_text(OPTION_BOT)
    bot = make_bot(f"cmd:{sys.executable} {program}", time_limit_ms=250, stderr=tmp_path / "err.log")
    try:
        assert bot.time_limit_ms == 250  # type: ignore[attr-defined]
    finally:
        bot.close()  # type: ignore[attr-defined]
    with external_bot_options(time_limit_ms=99):
        assert os.environ["YANIV_BOT_TIME_LIMIT_MS"] == "99"
        bot = make_bot(f"cmd:{sys.executable} {program}")
        assert bot.time_limit_ms == 99  # type: ignore[attr-defined]
        bot.close()  # type: ignore[attr-defined]
        assert make_bot("greedy").name == "greedy"
    assert "YANIV_BOT_TIME_LIMIT_MS" not in os.environ
    with pytest.raises(ValueError, match="bot spec is text"):
        make_bot(5)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- Ctrl-C


def _sigint_as_from_a_terminal() -> None:
    """In the child before it starts: Ctrl-C's default disposition, unblocked.

    A child inherits an ignored or blocked SIGINT from the test process, and Python then
    never installs its KeyboardInterrupt handler: the command could not be interrupted
    at all. No test leaves it so: a command a non-interactive shell starts in the
    background (``cmd &``, as CI starts ``.ci/run``) begins with SIGINT ignored (POSIX),
    and everything it starts inherits that (``bash -c 'python3 -c "import signal;
    print(signal.getsignal(signal.SIGINT))" & wait'`` prints 1, SIG_IGN).
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def interrupted(argv: list[str], ready: Callable[[str, int], bool], cwd: Path) -> tuple[int, str, str]:
    """Run ``yaniv ARGV``, press Ctrl-C once *ready(stdout so far, pid)*; (exit code, stdout, stderr)."""
    env = {**os.environ, "XDG_DATA_HOME": str(cwd / "xdg"), "PYTHONUNBUFFERED": "1"}
    env.pop("YANIV_TRACEBACK", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "yaniv.cli", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        text=True,
        start_new_session=True,  # its own process group, which gets the SIGINT as from a terminal
        preexec_fn=_sigint_as_from_a_terminal,
    )
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(iter(lambda: proc.stdout.read(1), "")), daemon=True)  # type: ignore[union-attr]
    reader.start()
    deadline = time.monotonic() + 60
    while not ready("".join(seen), proc.pid):
        assert proc.poll() is None, f"ended before it was interrupted: {proc.stderr.read()}"  # type: ignore[union-attr]
        assert time.monotonic() < deadline, "never got ready"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # the group: the command and the workers it started
    # stdin stays open until the command has ended, as a terminal's does: closing it
    # first (communicate() would) races the Ctrl-C with an end of input on a busy machine
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("Ctrl-C did not end the command")
    err = proc.stderr.read()  # type: ignore[union-attr]
    proc.stdin.close()  # type: ignore[union-attr]
    proc.stderr.close()  # type: ignore[union-attr]
    reader.join(5)
    return proc.returncode, "".join(seen), err


def children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize(
    ("argv", "ready"),
    [
        (["simulate", "--games", "100000", "--record", "records"], "record"),
        (["arena", "--games", "100000", "--workers", "2", "--bots", "greedy,random"], "workers"),
        (["play", "--plain", "--seed", "3", "--record", "g.jsonl"], "prompt"),
    ],
    ids=["simulate", "arena", "play"],
)
def test_ctrl_c_ends_a_command_cleanly(argv: list[str], ready: str, tmp_path: Path) -> None:
    workers: list[int] = []
    since: list[float] = []

    def started_workers(out: str, pid: int) -> bool:
        """Both workers up for a moment (not in the middle of a fork, where no handler is safe)."""
        workers[:] = children(pid)
        if len(workers) < 2:
            return False
        since.append(time.monotonic())
        return since[-1] - since[0] > 0.5

    checks: dict[str, Callable[[str, int], bool]] = {
        "record": lambda out, pid: (tmp_path / "records" / "game-3.jsonl").exists(),
        "workers": started_workers,
        "prompt": lambda out, pid: "your turn> " in out or "] " in out,
    }
    code, _out, err = interrupted(argv, checks[ready], tmp_path)
    assert code == 130, err
    assert err == f"yaniv {argv[0]}: interrupted\n", err
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers), "no worker is left behind"
    if ready == "record":  # every record is whole: the interrupted game's is unfinished, and checks
        for path in (tmp_path / "records").iterdir():
            assert check(path).n == 3
    if ready == "prompt":
        assert not check(tmp_path / "g.jsonl").over  # resumable


def test_simulate_reports_what_an_external_bot_got_wrong(tmp_path: Path) -> None:
    """A garbage bot is not credited with its fallback's play in silence (issue 15)."""
    bot = Path(__file__).parent / "external" / "badbot.py"
    spec = f"cmd:{sys.executable} {bot} garbage {tmp_path / 'pid'} all"
    code, text = run("simulate", "--games", "2", "--players", "2", "--bots", f"{spec},greedy",
                     "--bot-time-limit", "2000", "--json")  # fmt: skip
    assert code == 0, text
    summary = json.loads(text.strip().splitlines()[-1])
    (external,) = summary["external"]
    assert external["seat"] == 0 and external["failures"] > 0
    assert external["fallback_decisions"] > 0 and external["decisions"] >= external["fallback_decisions"]
    code, text = run("simulate", "--games", "1", "--players", "2", "--bots", f"{spec},greedy")
    assert code == 0 and "failures; the fallback made" in text
    assert "\x1b" not in text  # the bot's escape code never reaches the terminal


# ---------------------------------------------------------------- yaniv serve: the limits' options


def _served(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *options: str) -> dict[str, object]:
    """Run ``yaniv serve`` with *options* up to the server's start; the keyword arguments it got."""
    pytest.importorskip("fastapi")
    import yaniv.web

    got: dict[str, object] = {}
    monkeypatch.setattr(yaniv.web, "serve", lambda *a, **kw: got.update(kw) or 0)
    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = ["serve", "--port", str(port), "--db", str(tmp_path / "t.db"), *options]
    assert main(argv, io.StringIO()) == 0
    return got


def test_serve_expands_a_home_relative_db_as_the_db_commands_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--db '~/x.db'`` (quoted, so no shell expands it) was refused (no folder ``./~``), where
    ``yaniv db migrate --db '~/x.db'`` used the home folder's file."""
    pytest.importorskip("fastapi")
    import yaniv.web

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    got: list[object] = []
    monkeypatch.setattr(yaniv.web, "serve", lambda *a, **kw: got.append(a[2]) or 0)
    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["serve", "--port", str(port), "--db", "~/x.db"], io.StringIO()) == 0
    assert got == [f"sqlite+aiosqlite:///{tmp_path.resolve() / 'x.db'}"]
    assert (tmp_path / "x.db").is_file() and not (tmp_path / "~").exists()


def test_serve_options_set_the_servers_limits_and_the_environment_still_counts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from yaniv.web.config import WebConfig

    got = _served(
        monkeypatch, tmp_path,
        "--turn-seconds", "30", "--private-turn-seconds", "0", "--host-grace", "5", "--full-start", "0",
        "--tables-per-client", "3", "--body-limit", "1000", "--retention-days", "2", "--lobby-hours", "1",
        "--allowed-origin", "a.example", "--allowed-origin", "b.example", "--durable",
    )  # fmt: skip
    limits = got["limits"]
    assert limits == {
        "turn_seconds_public": 30.0,
        "turn_seconds_private": 0.0,
        "host_grace": 5.0,
        "full_start": 0.0,
        "tables_per_client": 3,
        "body_limit": 1000,
        "finished_retention": 2 * 86_400.0,
        "lobby_retention": 3_600.0,
        "allowed_origins": ("a.example", "b.example"),
        "durable": True,
    }
    assert isinstance(limits, dict)
    config = WebConfig.from_env({"YANIV_WEB_TURN_SECONDS_PUBLIC": "99", "YANIV_WEB_MESSAGE_RATE": "7"})
    config = config.with_limits(limits)
    assert config.turn_seconds_public == 30.0  # the option wins over the variable
    assert config.message_rate == 7.0  # a variable no option names still counts
    assert config.finished_retention == 172_800.0 and config.durable
    assert _served(monkeypatch, tmp_path)["limits"] == {}  # no option: the environment's or the defaults


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--turn-seconds", "3"),
        ("--turn-seconds", "-1"),
        ("--tables-per-client", "x"),
        ("--retention-days", "nan"),
    ],
)
def test_serve_refuses_bad_limits_in_one_line(
    option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("fastapi")
    with pytest.raises(SystemExit) as e:
        main(["serve", option, value], io.StringIO())
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert option in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("YANIV_WEB_MESSAGE_RATE", "abc", "YANIV_WEB_MESSAGE_RATE='abc' is not a valid value"),
        ("YANIV_WEB_TURN_SECONDS_PUBLIC", "2", "turn_seconds_public must be 0 (no clock) or 5 to 3600"),
        ("YANIV_WEB_TURN_SECONDS_PRIVATE", "9999", "turn_seconds_private must be 0 (no clock) or 5 to"),
        ("YANIV_WEB_MESAGE_RATE", "5", "YANIV_WEB_MESAGE_RATE is not a server setting"),  # misspelt
    ],
)
def test_serve_refuses_a_bad_variable_before_it_shows_or_makes_anything(
    variable: str, value: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """A bad YANIV_WEB_* variable was refused after the banner, with the database made; a turn
    clock no host may choose made every public table's creation fail; a misspelt one was ignored."""
    pytest.importorskip("fastapi")
    import yaniv.web

    monkeypatch.setattr(yaniv.web, "serve", lambda *a, **kw: 0)  # never reached
    monkeypatch.setenv(variable, value)
    out = io.StringIO()
    with pytest.raises(SystemExit) as exc:
        main(["serve", "--port", "0", "--db", str(tmp_path / "t.db")], out=out)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert out.getvalue() == "" and list(tmp_path.iterdir()) == []


def test_serve_help_documents_the_limits(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = capsys.readouterr().out
    for option in ("--turn-seconds", "--host-grace", "--retention-days", "--allowed-origin", "--durable"):
        assert option in out
    assert "YANIV_WEB_" in out


def test_serve_shows_an_ipv6_host_as_a_url_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The banner printed ``http://::1:8123/``, which no browser opens; a URL brackets it."""
    web = pytest.importorskip("yaniv.web")
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    ports: list[int] = []
    monkeypatch.setattr(web, "serve", lambda *a, **kw: ports.append(kw["sock"].getsockname()[1]) or 0)
    code, text = run("serve", "--host", "::1", "--port", "0", "--db", str(tmp_path / "t.db"))
    assert code == 0 and ports[0] != 0 and text.startswith(f"Yaniv on http://[::1]:{ports[0]}/"), text


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_serve_on_port_0_shows_the_port_the_os_chose(
    log_format: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--port 0`` printed ``http://127.0.0.1:0/``, which no browser opens: now the port the OS
    picked, on a socket bound before the banner and handed to the server (it listens there)."""
    web = pytest.importorskip("yaniv.web")
    got: dict[str, object] = {}

    def serve(*args: object, **kwargs: object) -> int:
        sock = kwargs["sock"]
        assert isinstance(sock, socket.socket) and sock.fileno() != -1  # bound, still open
        got.update(port=sock.getsockname()[1], sock=sock)
        return 0

    monkeypatch.setattr(web, "serve", serve)
    argv = ["serve", "--port", "0", "--db", str(tmp_path / "t.db"), "--log-format", log_format]
    code, text = run(*argv)
    port = got["port"]
    assert code == 0 and isinstance(port, int) and port > 0
    first = text.splitlines()[0]
    if log_format == "json":
        first = json.loads(first)["event"]
    assert first.startswith(f"Yaniv on http://127.0.0.1:{port}/"), text
    sock = got["sock"]
    assert isinstance(sock, socket.socket) and sock.fileno() == -1  # closed once the server is done
    # a port given is passed on as it is, with no socket of ours: the server binds it itself
    monkeypatch.setattr(web, "serve", lambda *a, **kw: got.update(kw, args=a) or 0)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    code, text = run("serve", "--port", str(free), "--db", str(tmp_path / "t.db"))
    assert code == 0 and text.startswith(f"Yaniv on http://127.0.0.1:{free}/")
    assert got["sock"] is None and got["args"] == (
        "127.0.0.1",
        free,
        f"sqlite+aiosqlite:///{tmp_path / 't.db'}",
    )
