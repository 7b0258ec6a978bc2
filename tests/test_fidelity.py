"""``bench/fidelity.py``: the playout policy's turns against a bot's own, in self-play.

Checked on the heuristic, whose call rule the playouts share (``call_risk``): at the
heuristic's own level (0.3) the rule agrees with every call it makes where its stall
allowance does not apply, and at the expert's playout level (0.15) it calls less.
"""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from tests.scripts import load_script


def _load() -> ModuleType:
    return load_script("bench/fidelity.py", "bench_fidelity")


def test_playout_call_rule_at_the_heuristics_risk_agrees_with_its_calls() -> None:
    """At 0.3 the playouts' rule is the heuristic's call; at 0.15 it calls less often."""
    out = _load().measure("heuristic", "standard", 2, 3, 30000, [0.15, 0.3])
    by_risk = out["call_agreement_by_risk"]
    assert out["call_decisions"] > 50
    assert by_risk["0.3"]["agreement"] >= 0.97
    assert by_risk["0.3"]["rule_calls"] == pytest.approx(out["bot_calls"], abs=3)
    assert by_risk["0.15"]["rule_calls"] < by_risk["0.3"]["rule_calls"]
    assert out["best_risk"] == 0.3
    # the heuristic reads the stage alone: the rule reading discards agrees less with it
    read = out["read_call_agreement_by_risk"]["0.3"]
    assert out["read_risk"] == 0.2 and read["agreement"] < by_risk["0.3"]["agreement"]
    # the playouts throw what the heuristic throws on most turns (docs/bots.md §2: 95%)
    assert 0.9 <= out["discard_agreement"] <= 1.0
    assert 0.0 < out["take_agreement"] <= 1.0


def test_bad_arguments_are_named_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad bot, rule set, table size or Assaf level is a usage error naming it."""
    module = _load()
    for argv, named in (
        (["--bot", "nosuchbot"], "nosuchbot"),
        (["--rules", "standard(nosuch=1)"], "nosuch"),
        (["--players", "1"], "--players"),
        (["--risks", "x"], "x"),
        (["--risks", "0.1,2"], "--risks"),
        (["--risks", ","], "--risks"),
    ):
        monkeypatch.setattr(sys, "argv", ["fidelity.py", *argv])
        with pytest.raises(SystemExit) as stop:
            module.main()
        assert stop.value.code == 2, argv
        err = capsys.readouterr().err
        assert named in err and "Traceback" not in err, (argv, err)
