"""``policy:FILE``: a trained policy in a Python file, seated by spec in the arena and the CLI."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from tests.scripts import load_script
from yaniv.arena import run_arena
from yaniv.bots import make_bot
from yaniv.bots.policy import PolicyBot
from yaniv.cli import main

FIRST_LEGAL = """
import numpy as np

def policy(observation, action_mask, rng):
    # the first legal action: a discard of one card, or Yaniv never (listed after the discards)
    return int(np.flatnonzero(action_mask)[0])
"""


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    path = tmp_path / "first_legal.py"
    path.write_text(FIRST_LEGAL)
    return path


def test_a_policy_file_is_seated_by_its_spec(policy_file: Path) -> None:
    bot = make_bot(f"policy:{policy_file}")
    assert isinstance(bot, PolicyBot) and bot.name == "policy:first_legal.py"
    again = make_bot(f"policy:{policy_file}")
    assert isinstance(again, PolicyBot) and again.policy is bot.policy  # loaded once per process


@pytest.mark.parametrize("workers", [1, 2])
def test_the_arena_plays_a_policy_file_in_every_worker(policy_file: Path, workers: int) -> None:
    report = run_arena("standard", [f"policy:{policy_file}", "greedy"], 8, 1, players=2, workers=workers)
    assert report.games == 8
    (policy,) = [b for b in report.bots if b.bot.startswith("policy:")]
    assert policy.games == 8 and policy.wins < 8  # first-legal play is weak, but it plays whole games


def test_yaniv_arena_takes_policy_specs(policy_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    argv = ["arena", "--games", "4", "--bots", f"policy:{policy_file},random", "--json", str(out)]
    code = main(argv, out=io.StringIO())
    assert code == 0
    specs = [b["bot"] for b in json.loads(out.read_text())["bots"]]
    assert f"policy:{policy_file}" in specs


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "No such file"),
        ("def policy(:\n", "failed to load: SyntaxError"),
        ("raise RuntimeError('weights missing')\n", "failed to load: RuntimeError: weights missing"),
        ("POLICY = 1\n", "defines no function policy"),
        ("policy = 3\n", "defines no function policy"),
    ],
)
def test_a_bad_policy_file_is_one_clear_error(
    text: str | None, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.py"
    if text is not None:
        path.write_text(text)
    with pytest.raises(ValueError, match=message):
        make_bot(f"policy:{path}")
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["arena", "--games", "2", "--bots", f"policy:{path},random"], out=io.StringIO())
    err = capsys.readouterr().err
    assert exc.value.code == 2 and message.split(":")[0] in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_directory_is_not_a_policy_file(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="is not a file"):
        make_bot(f"policy:{tmp_path}")


def test_the_examples_policy_is_a_policy_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """examples/linear_policy.py seats policy_gradient.py's weights (here untrained) by spec."""
    example = Path(__file__).parents[2] / "examples"
    features = load_script("examples/policy_gradient.py", "pg_features").FEATURES
    del sys.modules["pg_features"]  # the example is loaded for its feature names only
    weights = tmp_path / "weights.json"
    weights.write_text(json.dumps({"features": features, "theta": [0.0] * len(features)}))
    monkeypatch.setenv("YANIV_LINEAR_POLICY", str(weights))
    report = run_arena("finnish", [f"policy:{example / 'linear_policy.py'}", "random"], 6, 1, players=3)
    assert report.games == 6 and sum(b.games for b in report.bots) == 18  # every seat-game
