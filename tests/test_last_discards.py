"""Each seat's last discard: public history in the view, undone by pop, kept by positions."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from yaniv.errors import PositionError
from yaniv.state import RoundState

BASE = {
    "rules": "standard",
    "players": 2,
    "current": 0,
    "hands": [["KD", "2S", "3H"], ["5S", "9S", "QC"]],
    "stock": ["2C", "3C"],
    "discard_pile": [["KS"], ["7D"]],
}


def names(groups: Sequence[Sequence[object] | None]) -> list[list[str] | None]:
    return [None if g is None else [str(c) for c in g] for g in groups]


def test_a_discard_is_the_seats_last_discard_even_after_a_take() -> None:
    state = RoundState.from_position(BASE)
    assert names(state.view(1).last_discards) == [None, None]
    state.apply(0, "discard KD; draw")
    state.apply(1, "discard QC; take KD")
    view = state.view(0)
    assert names(view.last_discards) == [["KD"], ["QC"]]  # KD stays his last discard, though taken
    assert view.to_dict()["last_discards"] == [["KD"], ["QC"]]


def test_pop_restores_the_last_discards() -> None:
    state = RoundState.from_position(BASE)
    state.push(state.legal_actions()[0])
    assert state.last_discard[0] is not None
    state.pop()
    assert state.last_discard == [None, None]


def test_a_reshuffle_forgets_the_groups_it_shuffles_into_the_stock() -> None:
    state = RoundState.from_position(BASE)
    state.apply(0, "discard KD; draw")  # stock 3C left
    state.apply(1, "discard QC; draw")  # the last stock card: the pile but QC is reshuffled
    assert state.reshuffles == 1
    assert names(state.view(0).last_discards) == [None, ["QC"]]


def test_positions_keep_the_last_discards() -> None:
    state = RoundState.from_position(BASE)
    state.apply(0, "discard KD; draw")
    pos = state.to_position()
    assert pos["last_discards"] == [["KD"], None]
    again = RoundState.from_position(pos)
    assert again.to_position() == pos
    assert names(again.view(1).last_discards) == [["KD"], None]
    assert "last_discards" not in RoundState.from_position(BASE).to_position()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("KD", "last_discards"),
        ([["KD"]], "2 entries"),
        ([["XX"], None], "last_discards[0]"),
        ([[], None], "last_discards[0]"),
        ([None, "KD"], "last_discards[1]"),
    ],
)
def test_a_bad_last_discards_field_is_named(value: object, message: str) -> None:
    with pytest.raises(PositionError, match=message.replace("[", r"\[").replace("]", r"\]")):
        RoundState.from_position({**BASE, "last_discards": value})
