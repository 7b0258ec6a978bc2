"""``bench/triage.py``: the expert's early stop scored by a search that never stops early."""

from __future__ import annotations

from types import ModuleType

from tests.scripts import load_script


def _load() -> ModuleType:
    return load_script("bench/triage.py", "bench_triage")


def test_every_setting_scores_the_same_decisions_and_no_early_stop_costs_the_most() -> None:
    """On one short game: every setting scores the same decisions; a setting with no early stop
    at the reference's budget runs every candidate on every deal (the most playouts), and the
    regret of a choice is never negative (the reference's best mean is the best)."""
    module = _load()
    out = module.measure("standard(score_limit=50)", 2, 1, 50000, 64, [(16, 2.0), (10**9, 2.0)])
    figures = out["settings"]
    early, full, again = figures["16:2"], figures["1000000000:2"], figures["reference-again"]
    assert early["decisions"] == full["decisions"] == again["decisions"] > 20
    assert 0 < early["playouts"] < full["playouts"]
    assert all(f["regret"] >= 0 and 0 <= f["agree"] <= 1 for f in figures.values())
    assert 0 < early["call_decisions"] <= early["decisions"]


def test_settings_parse_and_bad_ones_are_named() -> None:
    module = _load()
    assert module.parse_settings("16:2,32:3.5") == [(16, 2.0), (32, 3.5)]
    for bad in ("16", "x:2", "16:0", "0:2"):
        try:
            module.parse_settings(bad)
        except ValueError as e:
            assert repr(bad) in str(e)
        else:
            raise AssertionError(bad)
