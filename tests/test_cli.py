"""The yaniv command line: every subcommand, --json, errors with exit code 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from yaniv import Game
from yaniv.bots import make_bot
from yaniv.cli import PlainPlay, main
from yaniv.rules import PRESETS


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


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

    def __init__(self, game: Game, seat: int) -> None:
        super().__init__()
        self.game, self.seat = game, seat
        self.bot = make_bot("greedy")
        self.mistakes = [
            "help",
            "hand",
            "take ZZ",
            "yaniv" if game.round.hand_value(seat) > 7 else "hand",
            "",
        ]

    def readline(self, size: int | None = -1) -> str:
        if self.mistakes:
            return self.mistakes.pop() + "\n"
        state = self.game.round
        view = state.view(self.seat)
        if state.slapper == self.seat and view.legal and view.legal[0].type == "slap":
            return "y\n"
        import random

        action = self.bot.act(view, random.Random(1))
        return f"{action}\n"


def test_plain_play_a_whole_game_through_text() -> None:
    game = Game("standard", players=3, seed=12, names=["Ann", "Bot 1", "Bot 2"])
    out = io.StringIO()
    code = PlainPlay(game, [make_bot("greedy")] * 3, 0, out, ScriptedPerson(game, 0)).run()
    text = out.getvalue()
    assert code == 0
    assert game.over
    assert "Game over. Winner:" in text
    assert "Not allowed:" in text  # the mistakes were explained
    assert "Your hand:" in text


def test_plain_play_quits_on_end_of_input(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("discard ZZ\n"))
    record = tmp_path / "g.jsonl"
    code, text = run("play", "--plain", "--seed", "3", "--record", str(record))
    assert code == 0
    assert "Not allowed" in text and "Bye!" in text
    assert record.read_text().startswith('{"type":"header"')
