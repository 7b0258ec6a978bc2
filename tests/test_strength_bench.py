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
    # off a terminal the progress is plain lines, and the last one says the match is done
    assert "heuristic-vs-greedy on standard: 2/2 after" in done.stderr


def test_an_unknown_match_is_named_and_nothing_is_played() -> None:
    """A misspelt match stops the run before any game, naming it and the matches there are."""
    done = _run("--matches", "expert-vs-nobody", "--presets", "standard", "--games", "2")
    assert done.returncode == 2
    assert "unknown match 'expert-vs-nobody'" in done.stderr
    assert "expert-self-play" in done.stderr
    assert done.stdout == ""


def test_progress_off_a_terminal_is_silent_unless_lines_are_asked_for() -> None:
    """A log gets no redrawn bar: nothing by default, on request a plain line per interval and at the end."""
    import io

    from yaniv.cli.common import Progress

    quiet = io.StringIO()
    bar = Progress(3, quiet, "quiet")
    for done in (1, 2, 3):
        bar.update(done)
    bar.close()
    assert quiet.getvalue() == ""

    log = io.StringIO()
    lines = Progress(3, log, "match", every=3600.0)
    for done in (1, 2, 3):
        lines.update(done)
    lines.close()
    written = log.getvalue().splitlines()
    assert len(written) == 1 and written[0].startswith("match: 3/3 after "), written
    assert "\r" not in log.getvalue()

    every = io.StringIO()
    eager = Progress(3, every, "match", every=0.0)
    for done in (1, 2, 3):
        eager.update(done)
    assert [line.split(" after ")[0] for line in every.getvalue().splitlines()] == [
        "match: 1/3",
        "match: 2/3",
        "match: 3/3",
    ]
