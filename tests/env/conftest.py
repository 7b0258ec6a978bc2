"""Shared helpers for the RL environment tests (skipped without the rl extra)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
pytest.importorskip("numpy")
