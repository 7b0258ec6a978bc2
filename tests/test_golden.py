"""Golden playthroughs: a seeded game per preset, checked in as text (DESIGN.md §7).

A rule change that alters play shows up as a diff of tests/golden/*.txt. To accept an
intended change: ``YANIV_UPDATE_GOLDEN=1 pytest tests/test_golden.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from yaniv.rules import PRESETS

from .golden_game import golden_text

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_golden_playthrough(preset: str) -> None:
    text = golden_text(preset)
    path = GOLDEN / f"{preset}.txt"
    if os.environ.get("YANIV_UPDATE_GOLDEN") or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
    assert "Game over. Winner:" in text
