"""Fuzzing the parsers of outside input (Hypothesis, bounded in time).

Cards, actions, game strings and rule specs, positions, record lines and the bounded
JSON reader, each fed arbitrary and near-valid input: the only exception ever raised is
the parser's own documented error (a ``ValueError`` subclass whose message is short and
non-empty), never ``RecursionError``, ``TypeError``, ``IndexError`` or ``KeyError``; and
what a parser accepts, it accepts again from its own output. Each test draws a bounded
number of examples (``deadline=None``: a slow machine is not a failure); the whole file
runs in well under a minute.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yaniv import Game, RoundState, Rules
from yaniv.actions import Action
from yaniv.bots import make_bot
from yaniv.cards import CARDS, Card, parse_card, parse_cards
from yaniv.errors import (
    IllegalActionError,
    InvalidNotationError,
    PositionError,
    RecordError,
    RulesError,
    YanivError,
)
from yaniv.intent import legal_match
from yaniv.jsonio import JSONInputError, loads
from yaniv.match import bot_rngs, play_game
from yaniv.record import check, read_record
from yaniv.rules import KNOBS, PRESETS

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# JSON values: scalars, and lists and objects of them, a few levels deep
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)
CARD_WORDS = st.sampled_from(
    ["AH", "10s", "TS", "qd", "JK", "joker", "*", "🃏", "♥Q", "1h", "ZZ", "11H", "", " ", ",", "7h8h9h", "K"]
)
CARDISH = st.lists(CARD_WORDS | st.text(max_size=4), max_size=8).map(" ".join) | st.text(max_size=30)


def refused_well(err: Exception, *classes: type[Exception]) -> None:
    """*err* is one of *classes*, a ValueError of the package, with a short message."""
    assert isinstance(err, classes), f"{type(err).__name__}: {err}"
    assert isinstance(err, ValueError) and isinstance(err, YanivError)
    assert 0 < len(str(err)) < 2000, str(err)[:200]


# ---------------------------------------------------------------------------- cards


@FUZZ
@given(CARDISH)
def test_card_text(text: str) -> None:
    try:
        cards = parse_cards(text)
    except Exception as e:
        refused_well(e, InvalidNotationError)
        return
    assert parse_cards(" ".join(map(str, cards))) == cards
    for word in text.split():
        try:
            assert str(Card.parse(word)) == str(CARDS[parse_card(word)])
        except Exception as e:
            refused_well(e, InvalidNotationError)


# ---------------------------------------------------------------------------- actions

ACTION_WORDS = st.sampled_from(["discard", "draw", "take", "swap", "slap", "yaniv", "asef", ";", "stock"])
ACTION_TEXT = st.lists(ACTION_WORDS | CARD_WORDS, max_size=7).map(" ".join) | st.text(max_size=30)
ACTION_JSON = (
    st.fixed_dictionaries(
        {"type": st.sampled_from(["discard", "draw", "take", "turn", "swap", "slap", "yaniv", "asef", "x"])},
        optional={
            "cards": JSON | st.lists(CARD_WORDS, max_size=4),
            "card": JSON | CARD_WORDS,
            "take": JSON,
            "discard": JSON,
        },
    )
    | JSON
)

POSITION: dict[str, Any] = {
    "rules": "standard(quick_discard=same_rank,joker_swap=as_draw)",
    "players": 3,
    "current": 1,
    "hands": [["AH", "2H"], ["5H", "6H", "7H", "9H", "JK"], ["5D"]],
    "stock": ["5C", "9D", "QH"],
    "discard_pile": [["KS"], ["7C", "JK", "9C"]],
}


@FUZZ
@given(ACTION_TEXT | ACTION_JSON, st.sampled_from([0, 1, 2, -1, 3, "1", None]))
def test_actions_parsed_and_applied(action: Any, seat: Any) -> None:
    try:
        parsed = Action.parse(action) if isinstance(action, str) else Action.from_json(action)
    except Exception as e:
        refused_well(e, InvalidNotationError)
    else:
        assert Action.coerce(str(parsed)) == parsed or parsed.type == "turn"
    state = RoundState.from_position(copy.deepcopy(POSITION))
    before = state.to_position()
    try:
        state.apply(seat, action)
    except Exception as e:
        refused_well(e, IllegalActionError)
        assert state.to_position() == before, "a refused action changes nothing"
    if isinstance(action, str):
        try:
            loose = Action.parse(action)
        except InvalidNotationError:
            return
        view = RoundState.from_position(copy.deepcopy(POSITION)).view(1)
        match = legal_match(view, loose)
        assert match is None or match in view.legal


# ---------------------------------------------------------------------------- game strings and rule specs

KNOB_NAMES = st.sampled_from([*KNOBS, "bogus", ""])
KNOB_VALUES = st.sampled_from(
    ["5", "true", "null", "[50,100]", "top_only", "auto", '"x"', "[", "1e3", "-7", "[[1]]"]
)
GAME_STRINGS = st.builds(
    lambda preset, items, tail: f"{preset}(" + ",".join(f"{k}={v}" for k, v in items) + tail,
    st.sampled_from([*PRESETS, "nope", ""]),
    st.lists(st.tuples(KNOB_NAMES, KNOB_VALUES | st.text(max_size=6)), max_size=4),
    st.sampled_from([")", "", "))", ")(x)"]),
)


@FUZZ
@given(GAME_STRINGS | st.text(max_size=40) | JSON.map(json.dumps) | JSON)
def test_rule_specs(spec: Any) -> None:
    try:
        rules = Rules.from_spec(spec)
    except Exception as e:
        refused_well(e, RulesError)
        return
    assert Rules.from_spec(str(rules)) == rules
    assert Rules.from_dict(rules.to_dict()) == rules


@FUZZ
@given(st.dictionaries(st.sampled_from(list(KNOBS)), JSON | SCALARS, max_size=4))
def test_knob_dicts(knobs: dict[str, Any]) -> None:
    try:
        rules = Rules.from_spec({"preset": "finnish", "overrides": knobs})
    except Exception as e:
        refused_well(e, RulesError)
        return
    assert Rules.from_spec(str(rules)) == rules


# ---------------------------------------------------------------------------- positions

BASE: dict[str, Any] = {
    "rules": "standard",
    "players": 3,
    "names": ["Ann", "Ben", "Cy"],
    "totals": [0, 12, 40],
    "eliminated": [],
    "dealer": 0,
    "current": 1,
    "phase": "turn_start",
    "hands": [["AH", "2H"], ["KD", "9C", "JK"], ["5S"]],
    "stock": ["5C", "9D", "QH"],
    "discard_pile": [["KS"], ["7H", "8H", "9H"]],
}
FIELDS = st.sampled_from([*BASE, "seen", "drawn", "result", "turns", "last_discards", "tiebreak", "bogus"])


@FUZZ
@given(
    st.lists(
        st.tuples(FIELDS, JSON | st.lists(CARD_WORDS, max_size=6) | st.just(None)), min_size=1, max_size=3
    )
)
def test_positions(changes: list[tuple[str, Any]]) -> None:
    pos = copy.deepcopy(BASE)
    for field, value in changes:
        pos[field] = value
    try:
        state = RoundState.from_position(pos)
    except Exception as e:
        refused_well(e, PositionError)
        return
    assert RoundState.from_position(state.to_position()).to_position() == state.to_position()


@FUZZ
@given(JSON)
def test_any_json_as_a_position(value: Any) -> None:
    try:
        RoundState.from_position(value)
    except Exception as e:
        refused_well(e, PositionError)


# ---------------------------------------------------------------------------- record lines and JSON text


@pytest.fixture(scope="module")
def record() -> list[str]:
    game = Game("standard(score_limit=30)", players=2, seed=4)
    play_game(game, [make_bot("greedy"), make_bot("random")], bot_rngs(4, 2))
    return [json.dumps(e, separators=(",", ":")) for e in game.events]


@SLOW
@given(st.data())
def test_record_lines(record: list[str], data: st.DataObject) -> None:
    lines = list(record)
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    event = json.loads(lines[i])
    how = data.draw(st.sampled_from(["field", "line", "text"]), label="how")
    if how == "field":
        key = data.draw(st.sampled_from(sorted(event)), label="field")
        event[key] = data.draw(JSON, label="value")
        lines[i] = json.dumps(event)
    elif how == "line":
        lines[i] = json.dumps(data.draw(JSON, label="line"))
    else:
        lines[i] = data.draw(st.text(max_size=40), label="text")
    try:
        check(lines)
    except Exception as e:
        refused_well(e, RecordError)
        assert "\n" not in str(e)
    try:
        read_record(lines)
    except Exception as e:
        refused_well(e, RecordError)


JSONISH = st.lists(st.sampled_from(list('[]{}",:0123456789.e-tfn ')) | st.text(max_size=3), max_size=60).map(
    "".join
)


@FUZZ
@given(JSONISH | JSON.map(json.dumps) | st.binary(max_size=30))
def test_bounded_json_reader(text: str | bytes) -> None:
    try:
        value = loads(text, "a test")
    except Exception as e:
        refused_well(e, JSONInputError)
        assert str(e).startswith("a test: ")
        return
    assert loads(json.dumps(value), "again") == value or value != value  # NaN is not equal to itself
