"""Typed events: the JSON of docs/formats.md §5, read-only values, checked reading, redaction."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from yaniv import Game
from yaniv.bots import make_bot
from yaniv.events import (
    EVENT_CLASSES,
    Deal,
    Discard,
    Draw,
    Event,
    EventError,
    Reshuffle,
    RoundEnd,
    Timeout,
    event_from_json,
    redact,
)
from yaniv.match import play_game


def played(rules: str = "standard(quick_discard=same_rank)", seed: int = 3) -> Game:
    game = Game(rules, players=3, seed=seed)
    play_game(game, [make_bot("greedy"), make_bot("random"), make_bot("heuristic")])
    return game


def test_every_event_of_a_game_is_typed_and_its_json_is_the_format() -> None:
    game = played()
    for event in game.events[1:]:
        assert isinstance(event, Event)
        assert type(event) is EVENT_CLASSES[event["type"]]
        assert event.type == event["type"]
        text = json.dumps(event)
        assert json.loads(text) == dict(event)
        assert event_from_json(json.loads(text)) == event


def test_fields_are_typed_attributes() -> None:
    deal = Game("standard", players=2, seed=3).events[1]
    assert isinstance(deal, Deal)
    assert deal.round == 1 and deal.players == [0, 1] and deal.stock is not None
    assert len(deal.stock) == 43 and deal.discard_pile == [["AD"]]
    assert Discard(1, ["8S", "8D"]).cards == ["8S", "8D"]
    end = next(e for e in played().events if isinstance(e, RoundEnd))
    assert end.hand_values == end["values"] and end.kind in ("yaniv", "asef", "false_yaniv")
    assert next(iter(end.values())) == "round_end"  # the dict's own values() is untouched


def test_events_are_read_only() -> None:
    event = Discard(0, ["QS"])
    with pytest.raises(TypeError, match="cannot be changed"):
        event["seat"] = 1
    with pytest.raises(TypeError):
        event.update(seat=1)
    with pytest.raises(TypeError):
        del event["cards"]
    assert event == {"type": "discard", "seat": 0, "cards": ["QS"]}


def test_redaction_keeps_the_type_and_hides_what_it_must() -> None:
    draw = redact(Draw(0, "QH"), 1)
    assert isinstance(draw, Draw) and draw == {"type": "draw", "seat": 0} and draw.card is None
    assert redact(Draw(0, "QH"), 0) == Draw(0, "QH")
    shuffled = redact(Reshuffle(["AH", "2C"]), 0)
    assert isinstance(shuffled, Reshuffle) and shuffled == {"type": "reshuffle", "count": 2}
    deal = redact(Game("standard", players=2, seed=3).events[1], 0)
    assert isinstance(deal, Deal)
    assert deal.hands[1] is None and deal.stock is None and deal.stock_count == 43
    assert deal.hand_counts == [5, 5]
    assert event_from_json(json.loads(json.dumps(deal))) == deal  # a seat's record reads back


def test_events_pickle_for_process_pools() -> None:
    event = Timeout(1, "turn", "heuristic")
    again = pickle.loads(pickle.dumps(event))
    assert again == event and isinstance(again, Timeout)


BAD_DEAL = {
    "type": "deal", "round": 1, "dealer": 0, "starter": 1, "players": [0, 1], "tiebreak": False,
    "hands": None, "stock": [], "discard_pile": [],
}  # fmt: skip


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"type": "party"}, "unknown event type 'party'"),
        ({"type": "discard", "seat": 0}, "'cards' is missing"),
        ({"type": "discard", "seat": "0", "cards": ["QS"]}, "'seat': must be a whole number"),
        ({"type": "discard", "seat": 0, "cards": "QS"}, "'cards': must be a list of card names"),
        (BAD_DEAL, "'hands': must be a list of card lists"),
        ({"type": "take", "seat": True, "card": "AD"}, "'seat'"),
        ({"type": "game_end", "winners": [0], "totals": [1, "x"]}, "'totals'"),
        ({"type": "yaniv", "seat": 10**30}, "'seat'"),
    ],
)
def test_bad_event_json_names_the_field(data: Any, message: str) -> None:
    with pytest.raises(EventError, match=message):
        event_from_json(data)


def test_the_engines_fast_built_events_equal_the_constructors() -> None:
    from yaniv.events import Take

    game = played("standard", seed=5)
    kinds = {type(e) for e in game.events[1:]}
    assert {Discard, Draw, Take} <= kinds
    for event in game.events[1:]:
        if isinstance(event, Discard):
            assert event == Discard(event.seat, event.cards)
            assert list(event) == list(Discard(event.seat, event.cards))  # the same key order
        elif isinstance(event, (Draw, Take)):
            rebuilt = type(event)(event.seat, event["card"])
            assert event == rebuilt and list(event) == list(rebuilt)
