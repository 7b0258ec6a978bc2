"""``bench/information.py``: the expert told the true hands at chosen decisions.

The mode that acts on the truth must do what it says: ``no-assafs`` never makes a call
that is Assafed, where the expert on the same deals is Assafed. The table options are
checked.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "information.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """The script with *args*, its output as text."""
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600, check=False
    )


def test_the_informed_modes_do_what_they_say_heads_up() -> None:
    out = run(
        "--games", "6", "--players", "2", "--workers", "2", "--untimed", "--modes", "expert,no-assafs"
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = {line["mode"]: line for line in map(json.loads, out.stdout.splitlines())}
    assert set(lines) == {"expert", "no-assafs"}
    for line in lines.values():
        assert (line["players"], line["against"], line["games"]) == (2, "heuristic", 6)
        assert 0.0 <= line["ci95"][0] <= line["win_rate"] <= line["ci95"][1] <= 1.0
        assert line["calls"] > 0
    assert lines["expert"]["assafed"] > 0  # so the mode has calls to keep from it
    assert lines["no-assafs"]["assafed"] == 0


def test_a_player_count_the_rules_rule_out_is_refused() -> None:
    out = run("--players", "9")
    assert out.returncode == 2
    assert "--players: these rules allow 2 to 5 players, not 9" in out.stderr
    assert "Traceback" not in out.stderr
