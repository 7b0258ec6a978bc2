"""narrate.event_text: the plain-words log of the plain game and ``replay --text``.

A seat named "You" (the person in ``yaniv play``) is spoken to in the second person
("You discard"), every other name in the third ("Ann discards").
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from yaniv import Game, Rules
from yaniv.narrate import event_text

NAMES = ["You", "Ann"]


def _round_end(**kw: Any) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": "round_end",
        "caller": 0,
        "kind": "yaniv",
        "assaf": False,
        "assafers": [],
        "round_scores": [0, 12],
        "values": [3, 12],
        "totals": [0, 12],
        "landed": [],
        "eliminated": [],
        "tiebreak": [],
    }
    event.update(kw)
    return event


DEAL = {
    "type": "deal",
    "round": 1,
    "dealer": 0,
    "starter": 0,
    "players": [0, 1],
    "tiebreak": False,
    "hands": [["5H"], None],
    "hand_counts": [1, 1],
    "discard_pile": [["AD"]],
}

# (event, line for seat 0 named "You", line for seat 0 named "Ann")
CASES: list[tuple[dict[str, Any], str, str]] = [
    ({"type": "discard", "seat": 0, "cards": ["7H", "7S"]}, "You discard 7H 7S", "Ann discards 7H 7S"),
    ({"type": "draw", "seat": 0, "card": "3C"}, "You draw 3C", "Ann draws 3C"),
    ({"type": "draw", "seat": 0}, "You draw from the stock", "Ann draws from the stock"),
    ({"type": "take", "seat": 0, "card": "7H"}, "You take 7H", "Ann takes 7H"),
    ({"type": "swap", "seat": 0, "card": "5S"}, "You swap 5S for the joker", "Ann swaps 5S for the joker"),
    (
        {"type": "slap", "seat": 0, "card": "5S"},
        "You slap 5S onto the discard",
        "Ann slaps 5S onto the discard",
    ),
    ({"type": "yaniv", "seat": 0}, "You call Yaniv!", "Ann calls Yaniv!"),
    (
        {"type": "false_yaniv", "seat": 0},
        "You call Yaniv out of turn and are penalised",
        "Ann calls Yaniv out of turn and is penalised",
    ),
    (
        {"type": "asef", "seat": 0, "card": "2D"},
        "You call Asef! The blind card is 2D",
        "Ann calls Asef! The blind card is 2D",
    ),
    (
        DEAL,
        "Round 1: You deal; You start; the start card is AD",
        "Round 1: Ann deals; Ann starts; the start card is AD",
    ),
    (_round_end(), "You win the round.", "Ann wins the round."),
    (
        _round_end(assaf=True, assafers=[1], round_scores=[33, 0]),
        "Assaf! You are caught by Bob.",
        "Assaf! Ann is caught by Bob.",
    ),
    (
        _round_end(kind="false_yaniv", round_scores=[30, 0]),
        "You are penalised 30 for a false Yaniv.",
        "Ann is penalised 30 for a false Yaniv.",
    ),
]


@pytest.mark.parametrize(("event", "you", "other"), CASES, ids=[c[0]["type"] for c in CASES])
def test_narrate_you_in_the_second_person_other_names_in_the_third(
    event: dict[str, Any], you: str, other: str
) -> None:
    you_text = event_text(event, ["You", "Bob"])
    other_text = event_text(event, ["Ann", "Bob"])
    assert you_text is not None and other_text is not None
    assert you_text.split("\n")[0].startswith(you.rstrip("."))
    assert other_text.split("\n")[0].startswith(other.rstrip("."))


def test_narrate_other_seats_keep_the_third_person_beside_you() -> None:
    assert event_text({"type": "discard", "seat": 1, "cards": ["KD"]}, NAMES) == "Ann discards KD"
    assert event_text({"type": "take", "seat": 1, "card": "KD"}, None) == "P1 takes KD"
    # The board marks seats with placeholders and picks the person itself (tui.widgets).
    assert (
        event_text({"type": "draw", "seat": 0, "card": "3C"}, ["\x000\x01", "\x001\x01"])
        == "\x000\x01 draws 3C"
    )


THIRD_PERSON_AFTER_YOU = re.compile(r"\bYou (deals|starts|discards|draws|takes|swaps|slaps|calls|wins|is)\b")


@pytest.mark.parametrize("spec", ["standard", "finnish"])
def test_narrate_a_whole_game_with_a_seat_named_you(spec: str) -> None:
    rules = Rules.from_spec(spec)
    game = Game(rules, players=3, seed=5, names=["You", "Ann", "Bob"])
    rng = random.Random(5)
    while not game.over:
        state = game.round
        while not state.is_over:
            for seat in state.active:  # anyone may slap first; passing is fine too
                if seat != state.current and state.legal_actions(seat) and rng.random() < 0.5:
                    game.apply(seat, state.legal_actions(seat)[0])
            legal = state.legal_actions()
            calls = [a for a in legal if a.type == "yaniv"]
            game.apply(state.current, calls[0] if calls else rng.choice(legal))
        if not game.over:
            game.next_round()
    text = "\n".join(t for e in game.events if (t := event_text(e, game.names)) is not None)
    assert "You discard " in text and "Ann discards " in text
    assert THIRD_PERSON_AFTER_YOU.search(text) is None
