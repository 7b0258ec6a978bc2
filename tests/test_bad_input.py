"""Bad input of every kind: a clear error of the right class, naming what is wrong,
and nothing changed (DESIGN.md §4, §7; RULES.md §1 "illegal action", S3, S18).

Every error class is a ``ValueError``: ``RulesError`` (rule sets and game set-up),
``PositionError`` (position JSON), ``InvalidNotationError`` (action text or JSON read on
its own), ``IllegalActionError`` (an action a state refuses, bad notation included).
"""

from __future__ import annotations

import copy
import errno
import io
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from yaniv import PRESETS, Action, Game, RoundState, Rules
from yaniv.cards import parse_cards
from yaniv.errors import (
    IllegalActionError,
    InvalidNotationError,
    PositionError,
    RulesError,
    YanivError,
)


def recorded_game(path: Path, *args: Any, **kwargs: Any) -> Game:
    """A game recorded into *path* from its first line, as the CLI starts one."""
    from yaniv.record import RecordWriter

    game = Game(*args, **kwargs)
    game.subscribe(RecordWriter.create(path), replay=True)
    return game


def expect(exc: type[Exception], fn: Callable[[], Any], *words: str) -> Exception:
    """Run *fn*; it must raise *exc* (a ValueError) whose message holds every word."""
    with pytest.raises(exc) as info:
        fn()
    err = info.value
    assert isinstance(err, ValueError) and isinstance(err, YanivError)
    message = str(err)
    assert message.strip(), "an error needs a message"
    for word in words:
        assert word.lower() in message.lower(), f"{word!r} not in message {message!r}"
    return err


def test_every_error_class_is_a_value_error() -> None:
    for cls in (RulesError, PositionError, IllegalActionError, InvalidNotationError):
        assert issubclass(cls, ValueError)
        assert issubclass(cls, YanivError)


# ============================================================================ rules


@pytest.fixture(autouse=True)
def presets_unchanged() -> Any:
    """No bad input anywhere may alter a preset."""
    before = {name: rules.to_dict() for name, rules in PRESETS.items()}
    yield
    assert {name: rules.to_dict() for name, rules in PRESETS.items()} == before
    assert Rules() == PRESETS["standard"]


@pytest.mark.parametrize(
    "build",
    [
        lambda: Rules.from_dict({"bogus_knob": 1}),
        lambda: Rules.from_spec({"bogus_knob": 1}),
        lambda: Rules.from_spec({"preset": "standard", "overrides": {"bogus_knob": 1}}),
        lambda: Rules.from_spec("standard(bogus_knob=1)"),
        lambda: Rules().replace(bogus_knob=1),
    ],
)
def test_unknown_knob(build: Callable[[], Rules]) -> None:
    expect(RulesError, build, "unknown knob", "bogus_knob")


WRONG_TYPES = [
    ("yaniv_threshold", "7"),
    ("yaniv_threshold", 7.0),
    ("yaniv_threshold", True),
    ("yaniv_threshold", None),
    ("start_card", 1),
    ("start_card", "true"),
    ("num_decks", 3),
    ("num_decks", 0),
    ("num_decks", "2"),
    ("num_decks", True),
    ("num_decks", 2.0),
    ("hand_size", "5"),
    ("min_set_size", 4),
    ("min_set_size", True),
    ("halving_scores", 100),
    ("halving_scores", [100, "200"]),
    ("halving_scores", [100.0]),
    ("halving_scores", None),
    ("assaf_penalty_multi", "20"),
    ("false_yaniv_penalty", False),
    ("first_starter", "left"),
    ("pickup_mode", "top"),
    ("pickup_mode", ["top_only"]),
    ("joker_swap", True),
    ("quick_discard", "on"),
    ("asef", "yes"),
    ("asef", 1),
    ("score_limit", None),
    ("score_limit", "200"),
    ("end_mode", "first_to_limit"),
]


@pytest.mark.parametrize(("knob", "value"), WRONG_TYPES)
def test_knob_of_the_wrong_type_or_value(knob: str, value: Any) -> None:
    for build in (
        lambda: Rules(**{knob: value}),
        lambda: Rules.from_dict({knob: value}),
        lambda: Rules.from_spec({"preset": "finnish", "overrides": {knob: value}}),
        lambda: PRESETS["jdross"].replace(**{knob: value}),
    ):
        expect(RulesError, build, knob)


@pytest.mark.parametrize(
    ("knobs", "words"),
    [
        ({"min_players": 6, "max_players": 5}, ["max_players", "min_players"]),
        ({"min_players": 1}, ["min_players"]),
        ({"max_players": 9}, ["max_players"]),
        ({"min_players": 8, "max_players": 8, "hand_size": 7}, ["8 players", "hand_size", "deck"]),
        ({"hand_size": 0}, ["hand_size"]),
        ({"hand_size": 8}, ["hand_size"]),
        ({"score_limit": 0}, ["score_limit"]),
        ({"score_limit": -200}, ["score_limit"]),
        ({"yaniv_threshold": -1}, ["yaniv_threshold"]),
        ({"halving_scores": [0, 100]}, ["halving_scores"]),
        ({"two_deck_min_players": 1}, ["two_deck_min_players"]),
        ({"assaf_penalty": -30}, ["assaf_penalty"]),
    ],
)
def test_impossible_combination(knobs: dict[str, Any], words: list[str]) -> None:
    expect(RulesError, lambda: Rules(**knobs), *words)
    expect(RulesError, lambda: Rules.from_spec({"preset": "standard", "overrides": knobs}), *words)


def test_eight_players_of_seven_cards_need_two_decks() -> None:
    # RULES.md §6b: hand_size 7 is accepted by every knob combination; the table that
    # cannot be dealt from one deck is refused when the game is created.
    rules = Rules.from_spec("jdross(hand_size=7)")
    assert Game(rules, players=7, seed=1).round.hand_value(0) >= 0
    expect(RulesError, lambda: Game(rules, players=8, seed=1), "8 players", "deck", "num_decks")
    assert Game(rules.replace(num_decks="auto"), players=8, seed=1).decks == 2


@pytest.mark.parametrize(
    "spec",
    ["nope", "Standard", {"preset": "nope"}, {"preset": None}, "nope(yaniv_threshold=5)"],
)
def test_unknown_preset(spec: Any) -> None:
    name = spec["preset"] if isinstance(spec, dict) else spec.split("(")[0]
    expect(RulesError, lambda: Rules.from_spec(spec), "preset", repr(name))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("standard(", ["standard("]),
        ("standard(yaniv_threshold=5", ["yaniv_threshold=5"]),
        ("standard)", ["standard)"]),
        ("(yaniv_threshold=5)", ["yaniv_threshold=5"]),
        ("", ["game string"]),
        ("   ", ["game string"]),
        ("standard(foo=1)", ["unknown knob", "foo"]),
        ("standard(yaniv_threshold)", ["yaniv_threshold", "knob=value"]),
        ("standard(yaniv_threshold=)", ["yaniv_threshold"]),
        ("standard(=5)", ["unknown knob"]),
        ("standard(yaniv_threshold=abc)", ["yaniv_threshold", "abc"]),
        ("standard(yaniv_threshold=5,yaniv_threshold=6)", ["yaniv_threshold", "twice"]),
        ("standard(start_card=1)", ["start_card"]),
        ("standard(num_decks=3)", ["num_decks", "3"]),
        ("standard(halving_scores=[100,)", ["halving_scores"]),
        ("standard(min_players=8,max_players=8,hand_size=7)", ["deck"]),
        ("standard(yaniv_threshold=5)(score_limit=100)", ["yaniv_threshold"]),
        ("standard(x)y", ["standard(x)y"]),
    ],
)
def test_malformed_game_string(text: str, words: list[str]) -> None:
    expect(RulesError, lambda: Rules.from_spec(text), *words)


@pytest.mark.parametrize(
    "overrides", [[("yaniv_threshold", 5)], "yaniv_threshold=5", None, 5, ["yaniv_threshold"]]
)
def test_overrides_not_a_dict(overrides: Any) -> None:
    spec = {"preset": "standard", "overrides": overrides}
    expect(RulesError, lambda: Rules.from_spec(spec), "overrides")


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ({"preset": "standard", "override": {}}, ["override"]),
        ({"preset": "standard", "overrides": {}, "extra": 1}, ["extra"]),
        (42, ["42"]),
        (None, ["None"]),
        (["standard"], ["standard"]),
        (3.5, ["3.5"]),
    ],
)
def test_rules_spec_of_the_wrong_shape(spec: Any, words: list[str]) -> None:
    expect(RulesError, lambda: Rules.from_spec(spec), *words)


@pytest.mark.parametrize("knobs", ["standard", ["num_decks"], None, 7])
def test_knob_dict_not_a_dict(knobs: Any) -> None:
    expect(RulesError, lambda: Rules.from_dict(knobs), "dict")


# ============================================================================ positions

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
QUICK = "standard(quick_discard=same_rank)"
TWO_DECKS = {"preset": "standard", "overrides": {"num_decks": 2}}


def test_the_base_position_is_good() -> None:
    state = RoundState.from_position(copy.deepcopy(BASE))
    assert state.to_position()["hands"] == BASE["hands"]


def with_(**changes: Any) -> dict[str, Any]:
    pos = copy.deepcopy(BASE)
    for key, value in changes.items():
        if value is _DELETE:
            del pos[key]
        else:
            pos[key] = value
    return pos


_DELETE = object()

BAD_POSITIONS: list[tuple[str, Any, list[str]]] = [
    # not a dict
    ("a list", [], ["JSON object"]),
    ("text", json.dumps(BASE), ["JSON object"]),
    ("None", None, ["JSON object"]),
    # unknown keys
    ("unknown key", with_(foo=1), ["unknown", "'foo'"]),
    ("misspelt key", with_(discardpile=[["KS"]]), ["unknown", "'discardpile'"]),
    # missing required keys
    *[
        (f"missing {key}", with_(**{key: _DELETE}), [f"'{key}'", "missing"])
        for key in ("rules", "players", "current", "hands", "stock", "discard_pile")
    ],
    # rules
    ("unknown preset", with_(rules="nope"), ["'rules'", "nope"]),
    ("unknown knob", with_(rules="standard(bogus=1)"), ["'rules'", "bogus"]),
    ("rules not text", with_(rules=5), ["'rules'"]),
    ("rules bad override", with_(rules={"preset": "standard", "overrides": {"asef": 1}}), ["asef"]),
    # wrong types
    ("players text", with_(players="3"), ["'players'", "integer"]),
    ("players bool", with_(players=True), ["'players'"]),
    ("players float", with_(players=3.0), ["'players'"]),
    ("current text", with_(current="1"), ["'current'", "integer"]),
    ("current None", with_(current=None), ["'current'"]),
    ("hands text", with_(hands="AH 2H"), ["'hands'", "list"]),
    ("hands dict", with_(hands={"0": ["AH"]}), ["'hands'", "list"]),
    ("hand text", with_(hands=[["AH"], "KD 9C", ["5S"]]), ["'hands[1]'", "list"]),
    ("stock text", with_(stock="5C 9D"), ["'stock'", "list"]),
    ("pile group text", with_(discard_pile=["KS"]), ["'discard_pile[0]'", "list"]),
    ("pile text", with_(discard_pile="KS"), ["'discard_pile'", "list"]),
    ("totals text", with_(totals="0 12 40"), ["'totals'"]),
    ("total text", with_(totals=[0, "12", 40]), ["'totals'", "integer"]),
    ("total float", with_(totals=[0, 12.5, 40]), ["'totals'", "integer"]),
    ("total bool", with_(totals=[0, True, 40]), ["'totals'", "integer"]),
    ("names not text", with_(names=[1, 2, 3]), ["'names'"]),
    ("names a string", with_(names="Ann"), ["'names'"]),
    ("eliminated text", with_(eliminated="2"), ["'eliminated'"]),
    ("eliminated bool", with_(eliminated=[True]), ["'eliminated'"]),
    ("dealer text", with_(dealer="0"), ["'dealer'"]),
    ("dealer bool", with_(dealer=True), ["'dealer'"]),
    ("tiebreak text", with_(tiebreak="yes"), ["'tiebreak'"]),
    ("seen text", with_(seen="JK"), ["'seen'"]),
    ("phase number", with_(phase=0), ["'phase'"]),
    # wrong lengths
    ("too few hands", with_(hands=[["AH"], ["KD"]]), ["'hands'", "3"]),
    ("too many hands", with_(hands=[["AH"], ["KD"], ["5S"], ["6S"]]), ["'hands'", "3"]),
    ("too few totals", with_(totals=[0, 0]), ["'totals'", "3"]),
    ("too few names", with_(names=["Ann", "Ben"]), ["'names'", "3"]),
    ("too few seen", with_(seen=[[], []]), ["'seen'", "3"]),
    # seats out of range
    ("players 1", with_(players=1, hands=[["AH"]], totals=[0], names=["A"]), ["'players'"]),
    ("players 9", with_(players=9), ["'players'"]),
    ("current 3", with_(current=3), ["'current'", "3"]),
    ("current -1", with_(current=-1), ["'current'", "-1"]),
    ("dealer 3", with_(dealer=3), ["'dealer'", "3"]),
    ("dealer -1", with_(dealer=-1), ["'dealer'", "-1"]),
    ("eliminated 3", with_(eliminated=[3]), ["'eliminated'", "3"]),
    ("eliminated -1", with_(eliminated=[-1]), ["'eliminated'", "-1"]),
    # eliminated players
    (
        "current eliminated",
        with_(eliminated=[1], hands=[["AH"], [], ["5S"]]),
        ["'current'", "eliminated"],
    ),
    ("eliminated holds cards", with_(eliminated=[2]), ["'hands[2]'", "eliminated"]),
    ("eliminated twice", with_(eliminated=[2, 2], hands=[["AH"], ["KD"], []]), ["'eliminated'"]),
    (
        "one player left",
        with_(eliminated=[0, 2], hands=[[], ["KD"], []]),
        ["'eliminated'", "two"],
    ),
    # too many copies of a card
    ("three AS", with_(hands=[["AS", "AS", "AS"], ["KD"], ["5S"]]), ["'hands[0]'", "AS", "1"]),
    ("AS in hand and stock", with_(hands=[["AS"], ["KD"], ["5S"]], stock=["AS"]), ["'stock'", "AS"]),
    ("5S in hand and pile", with_(discard_pile=[["5S"]]), ["'discard_pile[0]'", "5S"]),
    ("three jokers", with_(stock=["JK", "JK"]), ["'stock'", "JK", "2"]),
    (
        "five jokers, two decks",
        with_(rules=TWO_DECKS, hands=[["JK", "JK"], ["JK", "JK"], ["5S"]], stock=["JK"]),
        ["'stock'", "JK", "4"],
    ),
    (
        "three 9H, two decks",
        with_(rules=TWO_DECKS, hands=[["9H", "9H"], ["KD"], ["9H"]]),
        ["'hands[2]'", "9H", "2"],
    ),
    # unknown card names
    ("card ZZ", with_(hands=[["ZZ"], ["KD"], ["5S"]]), ["'hands[0]'", "ZZ"]),
    ("card 11H", with_(stock=["11H"]), ["'stock'", "11H"]),
    ("card 1X", with_(discard_pile=[["1X"]]), ["'discard_pile[0]'", "1X"]),
    ("card empty", with_(hands=[[""], ["KD"], ["5S"]]), ["'hands[0]'"]),
    ("card int", with_(hands=[[14], ["KD"], ["5S"]]), ["'hands[0]'", "14"]),
    ("card None", with_(stock=[None]), ["'stock'", "None"]),
    ("two cards in one", with_(stock=["5C 9D"]), ["'stock'", "5C 9D"]),
    ("seen unknown card", with_(seen=[[], ["XX"], []]), ["'seen[1]'", "XX"]),
    # empty groups and hands
    ("empty group", with_(discard_pile=[[]]), ["'discard_pile[0]'", "at least one card"]),
    ("empty later group", with_(discard_pile=[["KS"], []]), ["'discard_pile[1]'"]),
    ("active player no cards", with_(hands=[["AH"], ["KD"], []]), ["'hands[2]'"]),
    # phase
    ("bad phase", with_(phase="middle"), ["'phase'", "middle"]),
    ("empty phase", with_(phase=""), ["'phase'"]),
    ("after_discard empty pile", with_(phase="after_discard", discard_pile=[]), ["'discard_pile'"]),
    ("after_draw, no quick discard", with_(phase="after_draw"), ["quick_discard"]),
    ("after_draw without drawn", with_(phase="after_draw", rules=QUICK), ["'drawn'"]),
    (
        "after_draw, drawn half",
        with_(phase="after_draw", rules=QUICK, drawn={"seat": 0}),
        ["'drawn'"],
    ),
    (
        "after_draw, drawn not held",
        with_(phase="after_draw", rules=QUICK, drawn={"seat": 0, "card": "3H"}),
        ["'drawn'", "3H"],
    ),
    (
        "after_draw, drawer not before current",
        with_(phase="after_draw", rules=QUICK, drawn={"seat": 2, "card": "5S"}),
        ["'drawn'"],
    ),
    (
        "after_draw, drawer out of range",
        with_(phase="after_draw", rules=QUICK, drawn={"seat": 7, "card": "5S"}),
        ["'drawn.seat'"],
    ),
    (
        "after_draw, drawn card not text",
        with_(phase="after_draw", rules=QUICK, drawn={"seat": 0, "card": 2}),
        ["'drawn.card'"],
    ),
    ("drawn outside after_draw", with_(drawn={"seat": 0, "card": "2H"}), ["'drawn'"]),
    ("round_over without result", with_(phase="round_over"), ["'result'"]),
    ("round_over bad result", with_(phase="round_over", result={"kind": "yaniv"}), ["'result'"]),
    ("result outside round_over", with_(result={"kind": "yaniv"}), ["'result'"]),
    ("seen card not held", with_(seen=[[], ["QS"], []]), ["'seen[1]'", "QS"]),
]


@pytest.mark.parametrize(("why", "pos", "words"), BAD_POSITIONS, ids=[b[0] for b in BAD_POSITIONS])
def test_bad_position(why: str, pos: Any, words: list[str]) -> None:
    before = copy.deepcopy(pos)
    expect(PositionError, lambda: RoundState.from_position(pos), *words)
    assert pos == before, "the loader must not alter its input"


# ============================================================================ actions

HAND = ["5H", "6H", "7H", "9H", "JK"]  # a dealt hand's 5 cards: no hand ever holds more
ACTION_POS: dict[str, Any] = {
    "rules": "standard",
    "players": 3,
    "current": 1,
    "hands": [["AH", "2H"], HAND, ["5D"]],
    "stock": ["5C", "9D", "QH"],
    "discard_pile": [["KS"], ["7C", "8C", "9C"]],
}


def state_of(pos: dict[str, Any] = ACTION_POS, *, holding: str | None = None, **changes: Any) -> RoundState:
    """The action position (seat 1 to play), seat 1 *holding* the cards of a text if given."""
    pos = {**copy.deepcopy(pos), **changes}
    if holding is not None:
        pos["hands"][1] = holding.split()
    return RoundState.from_position(pos, log=True)


def refused(
    state: RoundState,
    seat: Any,
    action: Any,
    *words: str,
    exc: type[Exception] = IllegalActionError,
) -> None:
    """*action* by *seat* is refused with a message naming *words*; nothing changes."""
    before = state.to_position()
    snapshot = state.copy()
    log = list(state.log or [])
    legal = [str(a) for a in state.legal_actions()]
    expect(exc, lambda: state.apply(seat, action), *words)
    assert state.to_position() == before
    assert state == snapshot
    assert list(state.log or []) == log
    assert [str(a) for a in state.legal_actions()] == legal


GARBAGE_TEXT = [
    ("blah", ["blah"]),
    ("", ["empty"]),
    ("   ", ["empty"]),
    ("yaniv 5H", ["yaniv"]),
    ("draw 5C", ["draw"]),
    ("asef JK", ["asef"]),
    ("take", ["take", "one card"]),
    ("take 7C 9C", ["take", "one card"]),
    ("swap", ["swap", "one card"]),
    ("slap 5H 5S", ["slap", "one card"]),
    ("discard", ["discard"]),
    ("discard ZZ", ["ZZ"]),
    ("discard 5H 6H 7X", ["7X"]),
    ("draw; draw", ["turn"]),
    ("discard 5H; yaniv", ["turn"]),
    ("discard 5H; take 7C; draw", ["7C"]),
    ("5H;", ["empty"]),
    ("drawx", ["drawx"]),
]


@pytest.mark.parametrize(("text", "words"), GARBAGE_TEXT)
def test_garbage_action_text(text: str, words: list[str]) -> None:
    expect(InvalidNotationError, lambda: Action.parse(text), *words)
    refused(state_of(), 1, text, *words)


GARBAGE_JSON = [
    ({"type": "fold"}, ["'type'", "fold"]),
    ({"type": 5}, ["'type'", "5"]),
    ({"type": None}, ["'type'"]),
    ({}, ["'type'"]),
    ({"cards": ["5H"]}, ["'type'"]),
    ({"type": "DRAW"}, ["'type'", "DRAW"]),
    # unknown fields
    ({"type": "draw", "card": "5C"}, ["'card'", "draw"]),
    ({"type": "yaniv", "seat": 1}, ["'seat'", "yaniv"]),
    ({"type": "discard", "cards": ["5H"], "take": "stock"}, ["'take'", "discard"]),
    ({"type": "take", "card": "7C", "cards": ["7C"]}, ["'cards'", "take"]),
    # missing fields
    ({"type": "discard"}, ["'cards'"]),
    ({"type": "take"}, ["'card'"]),
    ({"type": "swap"}, ["'card'"]),
    ({"type": "slap"}, ["'card'"]),
    ({"type": "turn", "discard": ["5H"]}, ["'take'"]),
    ({"type": "turn", "take": "stock"}, ["'discard'"]),
    # wrong field types
    ({"type": "discard", "cards": "5H"}, ["'cards'", "list"]),
    ({"type": "discard", "cards": [5]}, ["'cards'"]),
    ({"type": "discard", "cards": None}, ["'cards'"]),
    ({"type": "discard", "cards": []}, ["discard"]),
    ({"type": "discard", "cards": ["ZZ"]}, ["'cards'", "ZZ"]),
    ({"type": "discard", "cards": ["5H 6H"]}, ["'cards'"]),
    ({"type": "take", "card": ["7C"]}, ["'card'"]),
    ({"type": "take", "card": 7}, ["'card'"]),
    ({"type": "take", "card": "7X"}, ["'card'", "7X"]),
    ({"type": "take", "card": ""}, ["'card'"]),
    ({"type": "turn", "discard": ["5H"], "take": "XX"}, ["'take'", "XX"]),
    ({"type": "turn", "discard": ["5H"], "take": None}, ["'take'"]),
    ({"type": "turn", "discard": "5H", "take": "stock"}, ["'discard'"]),
]


@pytest.mark.parametrize(("data", "words"), GARBAGE_JSON, ids=[json.dumps(g[0]) for g in GARBAGE_JSON])
def test_garbage_action_json(data: dict[str, Any], words: list[str]) -> None:
    expect(InvalidNotationError, lambda: Action.from_json(data), *words)
    refused(state_of(), 1, data, *words)


@pytest.mark.parametrize("value", [5, None, ["discard", "5H"], 1.5, b"draw"])
def test_action_of_no_known_form(value: Any) -> None:
    expect(InvalidNotationError, lambda: Action.coerce(value), "action")
    refused(state_of(), 1, value, "action")


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (b"AH", ["cards must be text", "b'AH'"]),  # bytes iterate as ints: once read as QS 6H
        (bytearray(b"AH"), ["cards must be text"]),
        (None, ["cards must be text", "None"]),
        (5.0, ["cards must be text", "5.0"]),
        ([b"AH"], ["b'AH'", "is not a card"]),
        (["AH", 2.5], ["2.5", "is not a card"]),
        ("AH ZZ", ["'ZZ'", "is not a card"]),
    ],
)
def test_cards_of_no_known_form(value: Any, words: list[str]) -> None:
    expect(InvalidNotationError, lambda: parse_cards(value), *words)


def test_action_json_not_an_object() -> None:
    for value in ([{"type": "draw"}], "draw", None):
        expect(InvalidNotationError, lambda v=value: Action.from_json(v), "JSON object")


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("discard AS", ["AS"]),
        ("discard 2H", ["2H"]),  # in another player's hand
        ("discard 7C", ["7C"]),  # in the discard pile
        ("discard 5H 5H", ["5H", "that many"]),
        ("discard JK JK JK", ["JK"]),
        ("discard 8H 9H 10H", ["8H"]),
        ({"type": "discard", "cards": ["QH"]}, ["QH"]),
    ],
)
def test_cards_not_held(action: Any, words: list[str]) -> None:
    refused(state_of(), 1, action, *words)


ILLEGAL_DISCARDS = [
    ("discard 5H JK", "standard", ["5H JK", "joker", "set"]),
    ("discard JK JK", "standard", ["JK JK", "jokers alone"]),
    ("discard 5H 6H", "standard", ["5H 6H", "three"]),
    ("discard 5H 7H 9H", "standard", ["5H 7H 9H", "consecutive"]),
    ("discard 7H 6H 5H", "standard", ["7H 6H 5H", "ascending"]),
    ("discard 5H 6H 7H 9H", "standard", ["5H 6H 7H 9H"]),
    ("discard 5H 5S 6H", "standard", ["5H 5S 6H", "one rank", "one suit"]),
    ("discard 5H 5S JK", "standard", ["5H 5S JK", "joker"]),
    ("discard 5H 6H 5S", "standard", ["5H 6H 5S"]),
    ("discard QD KD AD", "standard", ["QD KD AD", "Q-K-A"]),
    ("discard KD AD", "standard", ["KD AD"]),
    ("discard 5H 5S", "slovenian-yanef", ["5H 5S", "3 or more"]),
    ("discard JD QD KD", "slovenian-yanef", ["JD QD KD", "king"]),
    ("discard JK 6H 7H", "standard(jokers_in_runs=gaps_only)", ["JK 6H 7H", "gap"]),
    ("discard 5H 6H JK", "standard(jokers_in_runs=gaps_only)", ["5H 6H JK", "gap"]),
]


@pytest.mark.parametrize(("action", "rules", "words"), ILLEGAL_DISCARDS)
def test_illegal_discard(action: str, rules: str, words: list[str]) -> None:
    cards = action.split()[1:]
    state = state_of(rules=rules, holding=" ".join([*cards, *(["3C"] if len(cards) < 5 else [])]))
    refused(state, 1, action, "not a legal discard", *words)
    refused(state, 1, action + "; draw", "not a legal discard", *words)


def after_discard(**changes: Any) -> RoundState:
    state = state_of(**changes)
    state.apply(1, "discard 5H")
    return state


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("take 8C", ["8C", "7C 9C"]),  # middle card of a run
        ("take KS", ["KS", "7C 9C"]),  # older group
        ("take 5H", ["5H", "7C 9C"]),  # the group just discarded
        ("take AH", ["AH"]),  # another player's card
        ("take 7H", ["7H"]),  # a card in the own hand
        ({"type": "take", "card": "8C"}, ["8C"]),
    ],
)
def test_taking_a_card_that_is_not_takeable(action: Any, words: list[str]) -> None:
    refused(after_discard(), 1, action, "may not take", *words)


def test_taking_a_card_that_is_not_takeable_in_a_turn() -> None:
    state = state_of()
    refused(state, 1, "discard 5H; take 8C", "8C")
    refused(state, 1, "discard 5H; take KS", "KS")
    refused(state, 1, {"type": "turn", "discard": ["5H"], "take": "AH"}, "AH")
    assert "5H" in state.to_position()["hands"][1]


def test_top_only_pickup_refuses_the_first_card() -> None:
    state = state_of(rules="slovenian-yanef")
    state.apply(1, "discard 5H")
    refused(state, 1, "take 7C", "7C", "9C")


@pytest.mark.parametrize("action", ["draw", "take 7C", "take 9C", "asef"])
def test_taking_before_discarding(action: str) -> None:
    refused(state_of(), 1, action, "discard first")
    refused(state_of(rules="slovenian-yanef"), 1, action, "discard first")


@pytest.mark.parametrize("action", ["discard 6H", "discard 7H 8H 9H", "discard 6H; draw", "yaniv"])
def test_discarding_twice(action: str) -> None:
    word = "start of your turn" if action == "yaniv" else "already discarded"
    refused(after_discard(), 1, action, word)


def test_yaniv_with_too_high_a_hand() -> None:
    refused(state_of(), 1, "yaniv", "worth 27", "7 or less")
    refused(state_of(rules="finnish"), 1, "yaniv", "worth 27", "5 or less")


@pytest.mark.parametrize("seat", [0, 2])
@pytest.mark.parametrize("action", ["discard AH", "discard 5D", "draw", "take 7C", "discard 5H"])
def test_acting_out_of_turn(seat: int, action: str) -> None:
    refused(state_of(), seat, action, "not your turn")
    refused(after_discard(), seat, action, "not your turn")


def test_yaniv_out_of_turn_without_penalty_is_refused() -> None:
    state = state_of(hands=[["AH", "2H"], HAND, ["AC"]])
    refused(state, 2, "yaniv", "not your turn")
    refused(state, 0, {"type": "yaniv"}, "not your turn")


def test_acting_after_the_round_is_over() -> None:
    state = state_of(hands=[["AH", "2H"], ["AS", "2S"], ["5D"]])
    state.apply(1, "yaniv")
    assert state.is_over
    for seat in (0, 1, 2):
        for action in ("yaniv", "discard AS", "draw", "take 7C", "discard AS; draw", {"type": "yaniv"}):
            refused(state, seat, action, "round is over")


@pytest.mark.parametrize("seat", [-1, 3, 99, "1", True, False, None, 1.0, [1]])
def test_seat_out_of_range(seat: Any) -> None:
    refused(state_of(), seat, "discard 5H", "seat", repr(seat))
    refused(state_of(), seat, "yaniv", "seat")


@pytest.mark.parametrize("seat", [-1, 3, 99, "1", True, 1.0])
def test_view_of_no_such_seat(seat: Any) -> None:
    state = state_of()
    with pytest.raises(ValueError, match="seat") as info:
        state.view(seat)
    assert repr(seat) in str(info.value)


def test_eliminated_seat_may_not_act() -> None:
    state = state_of(eliminated=[0], hands=[[], HAND, ["5D"]], current=1)
    refused(state, 0, "yaniv", "seat 0")
    refused(state, 0, "discard AH", "seat 0")


def test_rules_not_played_are_refused() -> None:
    refused(state_of(), 1, "swap 5H", "joker exchange", "not played")
    refused(state_of(), 1, "slap 5H", "quick discard", "not played")
    refused(after_discard(), 1, "asef", "Asef", "not played")


def test_draw_from_an_empty_stock() -> None:
    state = state_of(stock=[])
    state.apply(1, "discard 5H")
    refused(state, 1, "draw", "stock is empty")


def test_take_with_no_previous_discard() -> None:
    state = state_of(discard_pile=[], rules="standard(start_card=false)")
    state.apply(1, "discard 5H")
    refused(state, 1, "take 5H", "no previous discard")


def test_asef_needs_one_card() -> None:
    state = state_of(rules="slovenian-yanef")
    state.apply(1, "discard 5H")
    refused(state, 1, "asef", "Asef", "one card")


def test_swap_with_no_joker_to_exchange() -> None:
    state = state_of(rules="slovenian-yanef")
    refused(state, 1, "swap 8C", "no joker", "8C")
    pile = [["KS"], ["7C", "JK", "9C"]]
    hand = ["8C", "5H", "QD"]
    state = state_of(rules="slovenian-yanef", discard_pile=pile, hands=[["AH"], hand, ["5D"]], stock=["5C"])
    refused(state, 1, "swap 5H", "no joker", "5H")  # not the card the joker stands for
    refused(state, 1, "swap 9C", "9C")  # not held
    state.apply(1, "swap 8C")  # the right one works (S19 as_turn)
    as_draw = state_of(rules="german-wiki", discard_pile=pile, hands=[["AH"], hand, ["5D"]], stock=["5C"])
    refused(as_draw, 1, "swap 8C", "discard first")


def test_slap_outside_the_window() -> None:
    pos = {
        **ACTION_POS,
        "rules": QUICK,
        "hands": [["AH", "2H"], ["5H", "9S"], ["5D", "KD"]],
        "stock": ["5C", "9D", "QH"],
    }
    state = RoundState.from_position(pos, log=True)
    refused(state, 1, "slap 5H", "slap")  # nothing drawn yet
    state.apply(1, "discard 5H; draw")  # draws 5C: may slap it
    refused(state, 1, "slap 9S", "5C")  # not the drawn card
    refused(state, 0, "slap 5C", "slap")  # not the drawer
    refused(state, 2, "draw", "discard first")  # the next player errs: the window stays open
    refused(state, 1, "yaniv", "not your turn")
    assert [str(a) for a in state.legal_actions(seat=1)] == ["slap 5C"]
    state.apply(1, "slap 5C")
    refused(state, 1, "slap 5C", "slap")  # only once


def test_slap_that_does_not_fit() -> None:
    pos = {
        **ACTION_POS,
        "rules": QUICK,
        "hands": [["AH", "2H"], ["6H", "9S"], ["5D", "KD"]],
        "stock": ["5C", "9D", "QH"],
    }
    state = RoundState.from_position(pos)
    state.apply(1, "discard 6H; draw")
    refused(state, 1, "slap 5C", "5C", "does not fit")


def test_game_apply_refuses_and_changes_nothing() -> None:
    game = Game("standard", 3, seed=3)
    state = game.round
    events = copy.deepcopy(game.events)
    pos = state.to_position()
    other = (state.current + 1) % 3
    for seat, action in [
        (state.current, "blah"),
        (state.current, {"type": "fold"}),
        (state.current, "draw"),
        (state.current, "discard AS KD"),
        (other, "discard " + str(game.round.hand(other)[0])),
        (99, "yaniv"),
        (state.current, "discard " + str(state.hand(state.current)[0]) + "; take 8C"),
    ]:
        expect(IllegalActionError, lambda s=seat, a=action: game.apply(s, a))
        assert game.events == events
        assert game.round.to_position() == pos
    expect(IllegalActionError, game.next_round, "round")
    assert game.events == events


def test_game_over_refuses_everything() -> None:
    game = Game("standard(score_limit=1)", 2, seed=1)
    rng = random.Random(1)
    while not game.over:
        state = game.round
        if state.is_over:
            game.next_round()
            continue
        legal = state.legal_actions()
        game.apply(state.current, next((a for a in legal if a.type == "yaniv"), rng.choice(legal)))
    events = len(game.events)
    expect(IllegalActionError, lambda: game.apply(0, "yaniv"), "game is over")
    expect(IllegalActionError, game.next_round, "game is over")
    assert len(game.events) == events


# ============================================================================ Game()


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ("standard", 1),
        ("standard", 6),
        ("standard", 0),
        ("standard", -3),
        ("slovenian-yanef", 2),
        ("finnish", 9),
        ("jdross", 9),
        ("spanish-zone", 8),
    ],
)
def test_players_outside_the_presets_limits(rules: str, players: int, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    r = Rules.from_spec(rules)
    expect(
        RulesError,
        lambda: recorded_game(path, rules, players, seed=1),
        str(players),
        str(r.min_players),
        str(r.max_players),
    )
    assert not path.exists(), "a refused game writes no record"


@pytest.mark.parametrize("players", ["3", 3.0, True, None, [3]])
def test_players_not_an_integer(players: Any) -> None:
    expect(RulesError, lambda: Game("standard", players, seed=1), "players")


@pytest.mark.parametrize("dealer", [-1, 3, 99, "0", 1.0, True, None])
def test_bad_dealer(dealer: Any, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    expect(RulesError, lambda: recorded_game(path, "standard", 3, seed=1, dealer=dealer), "dealer")
    assert not path.exists()


@pytest.mark.parametrize(
    "names",
    [
        ["Ann", "Ben"],
        ["Ann", "Ben", "Cy", "Dan"],
        [],
        [1, 2, 3],
        ["Ann", None, "Cy"],
        "abc",
        5,
    ],
)
def test_bad_names(names: Any, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    expect(RulesError, lambda: recorded_game(path, "standard", 3, seed=1, names=names), "names")
    assert not path.exists()


@pytest.mark.parametrize("rules", ["nope", "standard(bogus=1)", {"asef": "yes"}, 7, None])
def test_bad_rules_for_a_game(rules: Any) -> None:
    expect(RulesError, lambda: Game(rules, 3, seed=1))


def test_good_games_still_start() -> None:
    """The limits are the preset's own: its extremes are accepted."""
    for name, rules in PRESETS.items():
        for players in (rules.min_players, rules.max_players):
            game = Game(name, players, seed=1, dealer=players - 1, names=[f"P{i}" for i in range(players)])
            assert game.round.n == players


# ============================================================================ limits: deep, huge, impossible


def nested(depth: int, leaf: Any = "AH") -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def nested_dict(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return value


POSITION_FIELDS = ["rules", "players", "names", "totals", "eliminated", "dealer", "current", "phase"]
POSITION_FIELDS += ["hands", "stock", "discard_pile", "tiebreak", "seen", "last_discards", "turns"]


@pytest.mark.parametrize("field", POSITION_FIELDS)
@pytest.mark.parametrize(
    "shape",
    [
        "1000 deep",
        "1000 deep objects",
        "deep inside",
        "a million items",
        "a megabyte of text",
        "a huge number",
    ],
)
def test_a_position_field_of_any_size_is_a_position_error(field: str, shape: str) -> None:
    value: Any = {
        "1000 deep": nested(1000),
        "1000 deep objects": nested_dict(1000),
        "deep inside": [nested(1000), ["AH"], ["KD"]],
        "a million items": ["AH"] * 1_000_000,
        "a megabyte of text": "x" * 1_000_000,
        "a huge number": 10**5000,
    }[shape]
    pos = {**BASE, field: value}
    err = expect(PositionError, lambda: RoundState.from_position(pos), f"'{field}")
    assert len(str(err)) < 800, "a message quotes no whole input"


@pytest.mark.parametrize(
    ("why", "changes", "words"),
    [
        (
            "6 cards",
            {"hands": [["AH", "2H", "3H", "4H", "6H", "7H"], ["KD"], ["5S"]]},
            ["'hands[0]'", "6 cards", "5"],
        ),
        (
            "30 cards",
            {
                "hands": [
                    ["KD"],
                    [r + s for s in "SDC" for r in ("A", "2", "3", "4", "6", "8", "10", "J", "Q", "K")],
                    ["5S"],
                ],
                "stock": [],
                "discard_pile": [["KH"]],
            },
            ["'hands[1]'", "30 cards"],
        ),
        ("8 players, 2-5", {"players": 8, "names": None, "totals": [0] * 8}, ["'players'", "at most 5", "8"]),
        ("far over the limit", {"totals": [0, 401, 40]}, ["'totals'", "seat 1", "401", "200", "eliminated"]),
        ("a total of a billion", {"totals": [0, 10**9, 40]}, ["'totals'"]),
        ("turns of a billion", {"turns": 10**9}, ["'turns'"]),
        ("a card name of a megabyte", {"stock": ["A" * 1_000_000]}, ["'stock'", "not a card"]),
        ("an empty name", {"names": ["Ann", " ", "Cy"]}, ["'names'"]),
    ],
)
def test_an_impossible_position(why: str, changes: dict[str, Any], words: list[str]) -> None:
    pos = with_(**changes)
    if "players" in changes:
        pos["hands"] = [["AH"], ["KD"], ["5S"], ["6S"], ["7S"], ["8S"], ["9S"], ["10S"]]
    expect(PositionError, lambda: RoundState.from_position(pos), *words)


def test_what_a_game_can_reach_is_accepted() -> None:
    """The limits refuse only the impossible: a full hand, a tie-break over the limit, a heads-up test."""
    full = with_(hands=[["AH", "2H", "3H", "4H", "6H"], ["KD"], ["5S"]])
    assert RoundState.from_position(full).hand_value(0) == 16
    tiebreak = with_(totals=[0, 450, 460], eliminated=[0], hands=[[], ["KD"], ["5S"]], tiebreak=True)
    assert RoundState.from_position(tiebreak).tiebreak
    near = with_(rules="standard(score_limit=100)", totals=[0, 90, 190])  # one set of totals for every preset
    assert RoundState.from_position(near).totals == [0, 90, 190]
    heads_up = {**BASE, "rules": "slovenian-yanef", "players": 2, "names": None, "totals": [0, 0]}
    heads_up |= {"current": 0, "dealer": 1, "hands": [["AH"], ["KD"]]}
    assert RoundState.from_position(heads_up).n == 2


ROUND_OVER = with_(
    phase="round_over",
    result={
        "kind": "yaniv", "caller": 1, "values": [3, 0, 5], "assaf": False, "assafers": [],
        "round_scores": [3, 0, 5], "totals": [3, 12, 45], "landed": [], "eliminated": [],
        "next_starter": 1, "game_over": False, "winners": [], "tiebreak": [],
    },
)  # fmt: skip


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"kind": "fold"}, ["'result.kind'", "fold"]),
        ({"caller": 7}, ["'result.caller'", "7"]),
        ({"caller": "1"}, ["'result.caller'"]),
        ({"values": [1, 2]}, ["'result.values'", "3"]),
        ({"values": "3 0 5"}, ["'result.values'", "list"]),
        ({"assaf": 0}, ["'result.assaf'"]),
        ({"assafers": [9]}, ["'result.assafers'"]),
        ({"totals": [1, 2, None]}, ["'result.totals'"]),
        ({"next_starter": 3}, ["'result.next_starter'"]),
        ({"winners": None}, ["'result.winners'"]),
        ({"tiebreak": nested(1000, 1)}, ["'result'", "deeply"]),
        ({"extra": 1}, ["'result'", "extra"]),
    ],
)
def test_a_round_over_position_with_a_bad_result(change: dict[str, Any], words: list[str]) -> None:
    pos = copy.deepcopy(ROUND_OVER)
    pos["result"].update(change)
    expect(PositionError, lambda: RoundState.from_position(pos), *words)


def test_the_round_over_position_is_good() -> None:
    state = RoundState.from_position(copy.deepcopy(ROUND_OVER))
    assert state.is_over and state.to_position()["result"] == ROUND_OVER["result"]
    for key in ROUND_OVER["result"]:
        pos = copy.deepcopy(ROUND_OVER)
        del pos["result"][key]
        expect(PositionError, lambda p=pos: RoundState.from_position(p), "'result'", key)


DEEP_TEXT = "[" * 1000 + "]" * 1000
HUGE_SPECS: dict[str, Callable[[], Any]] = {
    "deep JSON text": lambda: '{"preset": "standard", "overrides": {"halving_scores": ' + DEEP_TEXT + "}}",
    "unclosed JSON": lambda: "{" * 1000,
    "deep game string value": lambda: "standard(halving_scores=" + DEEP_TEXT + ")",
    "deep override": lambda: {"preset": "standard", "overrides": {"halving_scores": nested(1000, 1)}},
    "deep preset": lambda: {"preset": nested(1000, "standard")},
    "deep knob": lambda: {"score_limit": nested_dict(1000)},
    "5000-digit knob": lambda: {"score_limit": 10**5000},
    "1000 halvings": lambda: {"halving_scores": list(range(1000))},
    "5000-digit game string value": lambda: "standard(score_limit=" + "9" * 5000 + ")",
    "two megabytes of name": lambda: "x" * 2_000_000,
}


@pytest.mark.parametrize("name", list(HUGE_SPECS))
def test_a_rule_spec_of_any_size_is_a_rules_error(name: str) -> None:
    spec = HUGE_SPECS[name]()
    err = expect(RulesError, lambda: Rules.from_spec(spec))
    assert len(str(err)) < 800, "a message quotes no whole input"


@pytest.mark.parametrize("seed", [[1], "7", 1.5, True, {"seed": 1}, b"x"])
def test_a_seed_is_a_whole_number_or_none(seed: Any, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    expect(RulesError, lambda: recorded_game(path, "standard", 3, seed=seed), "seed")
    assert not path.exists()
    assert Game("standard", 3, seed=None).seed is None
    assert Game("standard", 3, seed=-(10**30) + 1).round.n == 3  # 30 digits: a record holds it


def test_the_deck_limit_of_a_rule_set_agrees_with_the_docs() -> None:
    """docs/formats.md §2.3: only a rule set whose smallest table cannot be dealt is an error."""
    rules = Rules.from_spec("finnish(hand_size=7)")  # RULES.md §6b: hand_size 7 is seen in the wild
    assert rules.players_problem(7) is None
    assert "58 cards" in (rules.players_problem(8) or "")
    expect(RulesError, lambda: Rules.from_spec("finnish(hand_size=7,min_players=8)"), "8 players", "deck")
    docs = (Path(__file__).parent.parent / "docs" / "formats.md").read_text(encoding="utf-8")
    assert "8 players with hand_size=7 need 58 cards but the deck has 54" in docs


def test_every_door_that_seats_players_asks_the_rules_one_check() -> None:
    """S3 and the deal: the arena, a web table and a bot's view refuse a count the rules
    cannot deal with Rules.players_problem's own words, not a range check of their own."""
    from yaniv.arena import run_arena
    from yaniv.bots.program import ViewError, view_from_dict
    from yaniv.web.seats import TableSettings

    rules = "finnish(hand_size=7)"  # 2 to 8 players, but 8 hands of 7 need 58 cards
    words = "8 players with hand_size=7 need 58 cards"
    with pytest.raises(ValueError, match=words):
        run_arena(rules, ["random"], games=1, players=8)
    expect(RulesError, lambda: TableSettings.make(rules, None, 8, 1, "expert"), words)
    text: Any = "8"
    expect(RulesError, lambda: TableSettings.make(rules, None, text, 1, "expert"), "must be an integer")
    view = Game(rules, 7, seed=1).round.view(0).to_dict()
    view["players"] = 8
    with pytest.raises(ViewError, match=f"view field 'players': {words}"):
        view_from_dict(view)


# ============================================================================ found by hand
#
# Bad input tried by hand for the closing notes of issues 14 and 15 that still crashed:
# a full disk or a closed standard stream, a policy file that calls sys.exit, a bot
# view whose legal action has a list for its type, record lines that are not text.


class _FullDisk(io.StringIO):
    """An output on a full disk (``> /dev/full``): every write fails."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from yaniv.cli import main

    assert main(["rules", "standard"], out=_FullDisk()) == 2
    err = capsys.readouterr().err
    assert err == "yaniv rules: error: cannot write: No space left on device\n", err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "argv", [["rules", "standard"], ["simulate", "--games", "2"], ["odds", "--value", "5", "--cards", "3"]]
)
def test_output_to_dev_full_is_one_line_and_exit_2(argv: list[str]) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "yaniv.cli", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == f"yaniv {argv[0]}: error: cannot write: No space left on device\n", proc.stderr


def test_closed_standard_streams(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Started with ``>&-``, ``<&-`` or ``2>&-``: Python's sys.stdout, stdin or stderr is None."""
    from yaniv.cli import main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["rules", "standard"]) == 2
    assert capsys.readouterr().err == "yaniv: error: standard output is closed: nothing could be printed\n"
    monkeypatch.undo()
    monkeypatch.setattr(sys, "stdin", None)  # no input: the person leaves at the first turn
    out = io.StringIO()
    assert main(["play", "--plain", "--seed", "3", "--record", str(tmp_path / "g.jsonl")], out=out) == 0
    assert "Bye!" in out.getvalue()
    monkeypatch.setattr(sys, "stderr", None)  # the progress and the messages go nowhere
    assert main(["simulate", "--games", "2"], out=io.StringIO()) == 0


def test_a_policy_file_that_calls_sys_exit_is_a_value_error(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    from yaniv.bots import make_bot

    policy = tmp_path / "quits.py"
    policy.write_text("import sys\nsys.exit(0)\n")
    with pytest.raises(ValueError, match="failed to load: SystemExit"):
        make_bot(f"policy:{policy}")


@pytest.mark.parametrize("kind", [[], {}, ["discard"], None])
def test_a_bot_view_with_a_legal_action_of_no_word_type_is_answered_with_an_error(kind: Any) -> None:
    """``yaniv bot``: a decide whose legal list holds ``{"type": []}`` (was a TypeError, exit 1)."""
    from yaniv.bots.program import ProtocolServer
    from yaniv.bots.simple import GreedyBot

    game = Game("standard", players=2, seed=1)
    view = game.round.view(game.round.current).to_dict()
    view["legal"] = [{"type": kind}, *view["legal"]]
    out, err = io.StringIO(), io.StringIO()
    server = ProtocolServer("greedy", GreedyBot, out, err)
    assert server.handle(json.dumps({"type": "decide", "id": 4, "view": view}))
    answer = json.loads(out.getvalue())
    assert answer["type"] == "error" and answer["id"] == 4 and "legal" in answer["message"], answer
    assert err.getvalue().count("\n") == 1


@pytest.mark.parametrize("lines", [[1, 2], [None], [b'{"type": "header"}']])
def test_record_lines_that_are_not_text_are_a_record_error(lines: list[Any]) -> None:
    from yaniv.errors import RecordError
    from yaniv.record import read_record

    with pytest.raises(RecordError, match="line 1: a record line is text"):
        read_record(lines)


@pytest.mark.parametrize("what", ["missing", "folder"])
def test_check_of_no_file_is_a_usage_error_not_a_failed_check(
    what: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit 1 means "a record that does not check"; no file to read at all is bad input (2)."""
    from yaniv.cli import main

    target = tmp_path / "nothing.jsonl" if what == "missing" else tmp_path
    with pytest.raises(SystemExit) as e:
        main(["check", str(target)], io.StringIO())
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert err.startswith("yaniv check: error:") and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("kind", [[], {}, ["take"], {"a": 1}, 3, None, True])
def test_an_action_type_that_is_not_a_word_is_an_invalid_notation(kind: object) -> None:
    """A JSON action whose ``type`` is a list or a dict: the library's error, not a TypeError."""
    from yaniv.actions import Action
    from yaniv.errors import InvalidNotationError

    with pytest.raises(InvalidNotationError, match="'type'"):
        Action.from_json({"type": kind})


@pytest.mark.parametrize(
    ("names", "seed"),
    [
        (["\x1b[2J", "b"], 1),
        (["a\nb", "b"], 1),
        (["x" * 101, "b"], 1),
        (None, 10**40),
        (None, -(10**30)),
    ],
)
def test_a_game_never_writes_a_record_it_could_not_read_back(names: object, seed: int) -> None:
    """Names with control characters or too long, a seed of more than 30 digits: refused
    when the game is made (the record's reader refuses them too)."""
    from yaniv.errors import RulesError
    from yaniv.game import Game

    with pytest.raises(RulesError, match=r"names|seed"):
        Game("standard", players=2, seed=seed, names=names)


def test_the_longest_name_a_game_takes_round_trips_through_its_record() -> None:
    from yaniv.game import MAX_NAME_CHARS, MAX_SEED, Game
    from yaniv.record import check

    game = Game("standard", players=2, seed=MAX_SEED - 1, names=["x" * MAX_NAME_CHARS, "Ben"])
    assert check(json.dumps(e) for e in game.events).names == ["x" * MAX_NAME_CHARS, "Ben"]


class _Pipe(io.StringIO):
    """Standard input that refuses to be read a whole line at a time (of unbounded length)."""

    def __init__(self, text: str, most: int) -> None:
        super().__init__(text)
        self.most = most

    def readline(self, size: int | None = -1) -> str:
        assert size is not None and 0 <= size <= self.most, f"a read of {size} characters"
        return super().readline(size)


def test_yaniv_bot_skips_an_overlong_line_without_holding_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """``yaniv bot``: a line without end (was read whole: 300 MB in, 600 MB of memory)."""
    from yaniv.bots import program

    monkeypatch.setattr(program, "MAX_INPUT_BYTES", 1000)
    inp = _Pipe("x" * 5000 + '\n{"type": "hello"}\n' + "y" * 3000, most=1001)
    out, err = io.StringIO(), io.StringIO()
    assert program.serve("random", inp, out, err) == 0
    assert out.getvalue() == '{"type":"ready","name":"random"}\n'
    assert err.getvalue().splitlines() == [
        f"yaniv bot random: line {n}: skipped: input line: too long (more than 1,000 characters)"
        for n in (1, 3)
    ]


def test_the_plain_game_skips_an_overlong_line_without_holding_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from yaniv.cli import main, plain

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "stdin", _Pipe("x" * 50_000 + "\nquit\n", most=plain.MAX_LINE_CHARS + 1))
    out = io.StringIO()
    assert main(["play", "--plain", "--seed", "3", "--bots", "random"], out=out) == 0
    text = out.getvalue()
    assert "Not read: your line: too long (more than 10,000 characters)" in text and "Bye!" in text


_ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "argv",
    [
        ["bench/bots.py", "--bots", "nope"],
        ["bench/bots.py", "--seconds", "nan"],
        ["bench/engine.py", "--seconds", "0"],
        ["bench/instructions.py", "--src", "{d}/missing"],
        ["bench/instructions.py", "--src", "{d}"],
        ["bench/instructions.py", "--work", "nope"],
        ["bench/engine.py", "--players", "x"],
        ["bench/engine.py", "--players", "99"],
        ["bench/engine.py", "--rules", "nope"],
        ["bench/engine.py", "--decks", "5"],
        ["bench/env.py", "--seconds", "-1"],
        ["bench/env.py", "--rules", "nope"],
        ["bench/env.py", "--players", "x"],
        ["bench/search.py", "--players", "x"],
        ["bench/triage.py", "--settings", "16:x"],
        ["bench/triage.py", "--settings", "0:2"],
        ["bench/triage.py", "--games", "0"],
        ["bench/triage.py", "--players", "9"],
        ["bench/triage.py", "--rules", "nope"],
        ["bench/strength.py", "--games", "-1"],
        ["bench/strength.py", "--workers", "0"],
        ["bench/strength.py", "--from", "{d}/missing.jsonl"],
        ["bench/strength.py", "--from", "{d}"],
        ["bench/strength.py", "--from", "{d}/not-json.jsonl"],
        ["bench/strength.py", "--from", "{d}/not-utf8.jsonl"],
        ["bench/strength.py", "--from", "{d}/other.jsonl"],
        ["bench/strength.py", "--markdown", "{d}"],
        ["tools/calibrate.py", "--games", "-1", "--out", "{d}/cal.json"],
        ["tools/calibrate.py", "--out", "{d}"],
        ["tools/fit_calls.py", "--out", "{d}"],
        ["tools/fit_calls.py", "--out", "{d}/not-json.jsonl"],
        ["tools/fit_models.py", "--games", "0", "--out", "{d}/f.json"],
        ["tools/fit_models.py", "--out", "{d}"],
        ["tools/fit_models.py", "--out", "{d}/not-json.jsonl"],
        ["tools/fit_reading.py", "--games", "1", "--out", "{d}/r.json"],
        ["tools/fit_reading.py", "--players", "9", "--out", "{d}/r.json"],
        ["tools/fit_reading.py", "--families", "nope", "--out", "{d}/r.json"],
        ["tools/fit_reading.py", "--out", "{d}"],
        ["tools/fit_reading.py", "--out", "{d}/not-json.jsonl"],
    ],
)
def test_bench_and_tools_scripts_refuse_bad_arguments_in_one_line(argv: list[str], tmp_path: Path) -> None:
    """Each was a traceback (or, for a negative count or a directory to write, a run that
    went on and failed, or wrote nothing of use, at its end)."""
    if argv[0] == "bench/env.py":
        pytest.importorskip("gymnasium")
    (tmp_path / "not-json.jsonl").write_text("not json\n")
    (tmp_path / "not-utf8.jsonl").write_bytes(b"\xff\xfe\n")
    (tmp_path / "other.jsonl").write_text('{"type": "header"}\n')
    args = [a.format(d=tmp_path) for a in argv]
    env = dict(os.environ, PYTHONPATH=str(_ROOT / "src"))
    proc = subprocess.run(
        [sys.executable, str(_ROOT / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith(f"{Path(args[0]).name}: error: "), proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not-json.jsonl", "not-utf8.jsonl", "other.jsonl"]
