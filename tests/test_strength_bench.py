"""``bench/strength.py``: the ladder's matches, one JSON line each, on the presets asked for."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "strength.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the script on this checkout's package."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    argv = [sys.executable, str(SCRIPT), *args]
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300, check=False)


def test_a_match_the_presets_player_count_rules_out_is_skipped_by_name() -> None:
    """slovenian-yanef is played by 3 or more (S3): its heads-up match is skipped, the others run."""
    done = _run("--matches", "heuristic-vs-greedy", "--presets", "slovenian-yanef,standard", "--games", "2")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(text) for text in done.stdout.splitlines() if text.strip()]
    assert [(line["preset"], line["match"]) for line in lines] == [("standard", "heuristic-vs-greedy")]
    assert lines[0]["games"] == 2 and lines[0]["capped"] == 0
    assert "heuristic-vs-greedy skipped on slovenian-yanef" in done.stderr
    assert "3 to 8 players, not 2" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_match_is_named_and_nothing_is_played() -> None:
    """A misspelt match stops the run before any game, naming it and the matches there are."""
    done = _run("--matches", "expert-vs-nobody", "--presets", "standard", "--games", "2")
    assert done.returncode == 2
    assert "unknown match 'expert-vs-nobody'" in done.stderr
    assert "expert-self-play" in done.stderr
    assert done.stdout == ""
