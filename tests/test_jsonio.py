"""Bounded JSON: deep nesting, huge texts and absurd numbers are refused by name, never crash."""

from __future__ import annotations

import pytest

from yaniv import Rules, RulesError
from yaniv.errors import RecordError
from yaniv.jsonio import MAX_DEPTH, JSONInputError, loads
from yaniv.record import read_record


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ('{"a":' * 2000 + "1" + "}" * 2000, "nested too deeply"),
        ("9" * 5000, "digits"),
        ('{"n": -' + "1" * 40 + "}", "digits"),
        ("x" * 2_000_000, "too long"),
        ("{not json", "not JSON"),
        (b"\xff\xfe", "UTF-8"),
    ],
)
def test_bad_json_is_refused_with_what_and_why(text: str | bytes, reason: str) -> None:
    with pytest.raises(JSONInputError, match=reason) as info:
        loads(text, "the thing")
    assert str(info.value).startswith("the thing: ")
    assert isinstance(info.value, ValueError)


def test_what_is_deep_enough_for_our_formats_is_read() -> None:
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(nested, "x") is not None
    assert loads('{"id": "' + "1" * 60 + '"}', "x") == {"id": "1" * 60}  # long digits in a string are text
    assert loads('["[[[[", "{{{{"]', "x") == ["[[[[", "{{{{"]


def test_a_deep_knob_value_in_a_game_string_is_a_rules_error() -> None:
    with pytest.raises(RulesError, match=r"halving_scores.*nested too deeply"):
        Rules.from_spec("standard(halving_scores=" + "[" * 3000 + ")")
    with pytest.raises(RulesError, match=r"score_limit.*digits"):
        Rules.from_spec("standard(score_limit=" + "9" * 5000 + ")")


def test_a_deep_record_line_is_a_record_error_naming_the_line() -> None:
    lines = ['{"type": "header"}', "[" * 3000]
    with pytest.raises(RecordError, match="line 2: nested too deeply"):
        read_record(lines)
