"""The expert's reading of how loosely each opponent calls Yaniv (bots/reading.py; issue 20)."""

from __future__ import annotations

import random

import pytest

from yaniv import Game
from yaniv.bots import make_bot
from yaniv.bots.base import bot_rngs
from yaniv.bots.heuristic import HeuristicBot, Knowledge
from yaniv.bots.model import model_for
from yaniv.bots.playout import call_risk
from yaniv.bots.reading import CALL_EDGES, CALL_LLR, PRIOR_LOG_ODDS, CallReader, llr_for
from yaniv.events import redact
from yaniv.state import SeatView


def _heuristic_game(spec: str, players: int, seed: int) -> tuple[Game, list[tuple[SeatView, int]]]:
    """A whole game of heuristic bots, and (caller's view, hand value) at each Yaniv call."""
    game = Game(spec, players=players, seed=seed)
    bots = [make_bot("heuristic") for _ in range(players)]
    rngs = bot_rngs(seed, players)
    calls: list[tuple[SeatView, int]] = []
    while not game.over:
        state = game.round
        if state.is_over:
            game.next_round()
            continue
        seat = state.current
        view = state.view(seat)
        action = bots[seat].act(view, rngs[seat])
        assert action is not None
        if action.type == "yaniv":
            calls.append((view, view.hand_value))
        game.apply(seat, action)
    return game, calls


@pytest.mark.parametrize(
    ("spec", "players", "seat"), [("standard", 2, 0), ("finnish", 3, 1), ("jdross", 4, 3)]
)
def test_a_call_is_read_at_the_risk_its_caller_took(spec: str, players: int, seat: int) -> None:
    """Every Yaniv call is read, from one seat's redacted events, at the Assaf risk the
    caller's own view gave by the model, over the score-aware factor (S10, S11, S12)."""
    game, calls = _heuristic_game(spec, players, seed=5)
    rules = game.rules
    model = model_for(rules)
    heuristic = HeuristicBot(model=model)
    reader = CallReader()
    read: list[tuple[int, float]] = []
    for event in game.events[1:]:
        reader.last_call = None
        reader.feed(redact(event, seat), rules, model)
        if reader.last_call is not None:
            read.append(reader.last_call)
    assert len(calls) >= 3 and len(read) == len(calls) == reader.calls_read
    for (view, value), (caller, normalised) in zip(calls, read, strict=True):
        assert caller == view.seat
        factor = call_risk(rules, view.totals, view.active, caller, value, 1.0)
        expected = heuristic.assaf_probability(value, Knowledge(view)) / factor
        assert normalised == pytest.approx(expected, abs=1e-12)


def test_the_odds_move_by_the_table() -> None:
    """The odds start at the prior and add each call's bin of the family's table."""
    game, calls = _heuristic_game("standard", 2, seed=3)
    model = model_for(game.rules)
    reader = CallReader()
    assert reader.p_loose(0) == pytest.approx(1 / (1 + 2.718281828459045**-PRIOR_LOG_ODDS))
    expected = {0: PRIOR_LOG_ODDS, 1: PRIOR_LOG_ODDS}
    for event in game.events[1:]:
        reader.last_call = None
        reader.feed(redact(event, 0), game.rules, model)
        if reader.last_call is not None:
            caller, normalised = reader.last_call
            expected[caller] += llr_for(game.rules, 2)[sum(normalised >= edge for edge in CALL_EDGES)]
            assert reader.log_odds[caller] == pytest.approx(expected[caller])
    assert len(calls) >= 5 and set(reader.log_odds) == {0, 1}


def test_a_new_game_starts_the_reading_over() -> None:
    game, _ = _heuristic_game("standard", 2, seed=3)
    model = model_for(game.rules)
    reader = CallReader()
    for event in game.events[1:]:
        reader.feed(redact(event, 1), game.rules, model)
    assert reader.calls_read > 0 and reader.log_odds
    reader.feed(redact(game.events[1], 1), game.rules, model)  # round 1's deal again
    assert reader.calls_read == 0 and not reader.log_odds


def test_events_it_cannot_read_skip_the_round_without_failing() -> None:
    """Bad input never hurts: a malformed event (an external program's stream) skips its
    round's reading; the next deal reads again."""
    game, _ = _heuristic_game("standard", 2, seed=3)
    model = model_for(game.rules)
    events = [redact(e, 0) for e in game.events[1:]]
    clean = CallReader()
    for event in events:
        clean.feed(event, game.rules, model)
    junk: list[dict[str, object]] = [
        {},
        {"type": "discard"},
        {"type": "discard", "seat": 9, "cards": ["AH"]},
        {"type": "take", "seat": 0, "card": "XX"},
        {"type": "deal", "round": 2, "hands": None},
        {"type": "round_end", "kind": "yaniv", "caller": 0, "values": "x", "totals": [1, 2]},
        {"type": 7},
    ]
    rounds = 0
    messy = CallReader()
    for event in events:
        messy.feed(event, game.rules, model)
        if event["type"] == "round_end":
            rounds += 1
            if rounds == 2:
                for bad in junk:
                    messy.feed(bad, game.rules, model)  # no exception
    assert messy.calls_read <= clean.calls_read
    assert messy.calls_read >= clean.calls_read - 2  # at most the round the junk broke
    messy.feed({"type": "deal", "round": 1, "hands": [["AH"], None], "players": [0, 1]}, None, model)
    assert messy.calls_read == 0


def test_without_the_rules_a_call_is_not_read() -> None:
    game, _ = _heuristic_game("standard", 2, seed=3)
    reader = CallReader()
    for event in game.events[1:]:
        reader.feed(redact(event, 0), None, model_for(game.rules))
    assert reader.calls_read == 0 and not reader.log_odds


def test_the_expert_reads_its_opponents_calls_through_the_table() -> None:
    """The table hands the expert the game's events (ExpertBot.observe); its playouts then
    let the heuristic's seat call loosely with the odds read (search.READ_CALLS)."""
    from yaniv.arena.measure import play_measured
    from yaniv.bots import search

    assert search.READ_CALLS
    expert = make_bot("expert:fast")
    game = Game("standard", players=2, seed=21, dealer=0)
    play_measured(game, [expert, make_bot("heuristic")], rngs=[random.Random(1), random.Random(2)])
    reader = expert.reader  # type: ignore[attr-defined]
    assert reader.calls_read >= 3 and reader.log_odds[1] != PRIOR_LOG_ODDS


def test_the_playouts_give_each_other_seat_the_level_the_search_asks() -> None:
    """seat_risks: every seat but the searcher calls at its own level in the playouts."""
    from tests.test_search import views_along_a_game
    from yaniv.bots.playout import PLAYOUT_RISK, playout
    from yaniv.bots.reading import LOOSE_RISK

    def calls_at_once(state: object, me: int, others: float | None, seats: list[float] | None) -> bool:
        s = state.copy()  # type: ignore[attr-defined]
        playout(s, model_for(s.rules), PLAYOUT_RISK, 1, None, me, others, seats)
        return s.result is not None

    differ = 0
    for seed in range(3):
        for state, view in views_along_a_game("standard", 2, seed=seed, limit=400):
            if not any(a.type == "yaniv" for a in view.legal):
                continue
            mover = state.current
            other = 1 - mover
            for level in (PLAYOUT_RISK, LOOSE_RISK):
                seats = [level, level]
                assert calls_at_once(state, other, None, seats) == calls_at_once(state, other, level, None)
                assert calls_at_once(state, mover, None, seats) == calls_at_once(state, mover, None, None)
            loose = calls_at_once(state, other, None, [LOOSE_RISK] * 2)
            differ += loose != calls_at_once(state, -1, None, None)
    assert differ > 0


def test_a_reading_file_that_does_not_fit_is_refused_by_name() -> None:
    from yaniv.bots.reading import parse_reading

    good = {"edges": list(CALL_EDGES), "families": {"standard": {"2": {"llr": [0.0] * 10}}}}
    assert parse_reading(good) == {"standard": {"2": (0.0,) * 10}}
    nan = [float("nan")] * 10
    bad: list[tuple[object, str]] = [
        ([], "not an object"),
        ({"edges": [0.5], "families": {}}, "other bins"),
        ({"edges": list(CALL_EDGES), "families": {"standard": []}}, "'standard' is not an object"),
        ({"edges": list(CALL_EDGES), "families": {"standard": {"9": {"llr": [0.0] * 10}}}}, "'9'"),
        ({"edges": list(CALL_EDGES), "families": {"standard": {"2": {"llr": [0.0] * 9}}}}, "not 10 values"),
        ({"edges": list(CALL_EDGES), "families": {"standard": {"2": {"llr": nan}}}}, "finite"),
    ]
    for data, words in bad:
        with pytest.raises(ValueError, match=words):
            parse_reading(data)


def test_each_rule_family_reads_by_its_table_or_the_nearest(monkeypatch: pytest.MonkeyPatch) -> None:
    from yaniv.bots import reading
    from yaniv.rules import PRESETS

    tables = {"standard": {"2": (1.0,) * 10, "4": (4.0,) * 10}}
    monkeypatch.setattr(reading, "fitted_tables", lambda: tables)
    assert reading.llr_for(PRESETS["standard"], 2) == (1.0,) * 10
    assert reading.llr_for(PRESETS["standard"], 3) == (1.0,) * 10  # a tie: the fewer players
    assert reading.llr_for(PRESETS["standard"], 6) == (4.0,) * 10
    assert reading.llr_for(PRESETS["jdross"], 2) == (1.0,) * 10  # no table of its own: standard's
    monkeypatch.setattr(reading, "fitted_tables", lambda: {})
    assert reading.llr_for(PRESETS["jdross"], 2) == CALL_LLR  # no file


def test_the_shipped_reading_is_the_measured_table() -> None:
    """No reading.json ships: the expert reads by CALL_LLR, the table measured at the table
    (the untimed refit of tools/fit_reading.py lost against the frozen expert; docs/bots.md §2)."""
    from yaniv.bots.reading import fitted_tables
    from yaniv.rules import PRESETS

    assert fitted_tables() == {}
    assert llr_for(PRESETS["standard"], 2) == llr_for(PRESETS["finnish"], 2) == CALL_LLR


@pytest.mark.parametrize(("preset", "reads"), [("standard", True), ("finnish", True), ("jdross", False)])
def test_the_reading_plays_only_in_the_families_where_it_helped(
    preset: str, reads: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """search.READ_FAMILIES: on jdross the reading lost against the frozen expert, so there
    the opponents' playout seats keep the expert's own level (no per-seat levels)."""
    from yaniv.arena.measure import play_measured
    from yaniv.bots import search

    levels: list[object] = []
    real = search.play_candidates

    def spy(*args: object) -> None:
        levels.append(args[12])  # seat_risks
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "play_candidates", spy)
    expert = make_bot("expert:fast")
    game = Game(preset, players=2, seed=21, dealer=0)
    play_measured(game, [expert, make_bot("heuristic")], rngs=[random.Random(1), random.Random(2)])
    assert levels, "the expert searched"
    assert any(x is not None for x in levels) == reads
    assert expert.reader.calls_read >= 1  # type: ignore[attr-defined]  # it reads everywhere
