"""The table driver: pending decisions, checked submits, bots, the slap window, clocks, cursors."""

from __future__ import annotations

import random
from typing import Any

import pytest

from yaniv import Game, IllegalActionError
from yaniv.actions import Action
from yaniv.bots import Bot, make_bot
from yaniv.bots.search import OracleBot
from yaniv.rules import PRESETS, Rules
from yaniv.state import RoundState, SeatView
from yaniv.table import Decision, DecisionKind, Table, TurnClock


class FakeTime:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Counting(Bot):
    """Plays greedy and counts how it was asked."""

    name = "counting"

    def __init__(self, sees_all: bool = False) -> None:
        self.inner = make_bot("greedy")
        self.sees_all = sees_all
        self.views = 0
        self.full = 0

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        self.views += 1
        return self.inner.act(view, rng)

    def act_full(self, state: RoundState, seat: int, rng: random.Random) -> Action | None:
        self.full += 1
        return self.inner.act(state.view(seat), rng)


class Broken(Bot):
    """Fails or answers nonsense, by turns."""

    name = "broken"

    def __init__(self) -> None:
        self.calls = 0

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        self.calls += 1
        if self.calls % 3 == 0:
            raise RuntimeError("boom")
        if self.calls % 3 == 1:
            return Action.parse("take 2C") if view.phase == "after_discard" else Action.yaniv()
        return None


def test_the_first_decision_is_the_starters_turn() -> None:
    game = Game("standard", players=3, seed=1)
    table = Table(game, [None, None, None])
    (first,) = table.pending()
    assert first.kind == DecisionKind.TURN
    assert first.seat == game.round.current
    assert first.deadline is None
    assert str(first) == f"P{first.seat} turn"
    assert table.step() is None  # a person decides: the driver waits


def test_submit_refuses_the_wrong_seat_and_illegal_actions_and_changes_nothing() -> None:
    game = Game("standard", players=3, seed=1)
    table = Table(game, [None, None, None])
    seat = game.round.current
    before = (game.round.to_position(), len(game.events))
    with pytest.raises(IllegalActionError, match="turn"):
        table.submit((seat + 1) % 3, "draw")
    with pytest.raises(IllegalActionError):
        table.submit(seat, "draw")  # a turn starts with a discard
    with pytest.raises(IllegalActionError, match="seat"):
        table.submit(7, "draw")
    with pytest.raises(IllegalActionError, match="pass"):
        table.submit(seat, None)
    with pytest.raises(IllegalActionError):
        table.submit(seat, "discard 3X")
    assert (game.round.to_position(), len(game.events)) == before


def test_a_turn_is_a_discard_then_a_take_decision() -> None:
    game = Game("standard", players=2, seed=4)
    table = Table(game, [None, None])
    seat = game.round.current
    discard = next(a for a in table.view(seat).legal if a.type == "discard")
    move = table.submit(seat, discard)
    assert move.by == "player" and move.result is None
    (take,) = table.pending()
    assert take.kind == DecisionKind.TAKE and take.seat == seat
    table.submit(seat, "draw")
    assert table.waiting_for() == Decision(DecisionKind.TURN, 1 - seat, table.version)


def test_an_outdated_decision_is_refused() -> None:
    game = Game("standard", players=2, seed=4)
    table = Table(game, [None, None])
    old = table.waiting_for()
    assert old is not None and old.seat is not None
    table.submit(old.seat, next(a for a in table.view(old.seat).legal if a.type == "discard"))
    with pytest.raises(IllegalActionError, match="no longer pending"):
        table.submit(old.seat, "draw", expect=old)


def test_bots_play_a_whole_game_the_same_as_play_game() -> None:
    from yaniv.match import play_game

    a = Game("standard", players=3, seed=9)
    Table(a, [make_bot("greedy"), make_bot("random"), make_bot("heuristic")]).run()
    b = Game("standard", players=3, seed=9)
    play_game(b, [make_bot("greedy"), make_bot("random"), make_bot("heuristic")])
    assert a.over and b.over
    assert a.events[1:] == b.events[1:]


def test_next_round_waits_without_auto_deal() -> None:
    game = Game("standard(score_limit=400)", players=2, seed=2)
    table = Table(game, [make_bot("greedy"), make_bot("greedy")], auto_deal=False)
    table.run()
    assert game.round.is_over and not game.over
    assert [d.kind for d in table.pending()] == [DecisionKind.NEXT_ROUND]
    assert table.step() is None
    table.next_round()
    assert game.round_no == 2


def test_S20_slap_window_the_slapper_decides_first_and_may_pass() -> None:
    """S20: with quick_discard on, the drawer may slap before the next player acts."""
    windows = sum(_person_passes_slap_windows(seed) for seed in range(1, 15))
    assert windows > 0


def _person_passes_slap_windows(seed: int) -> int:
    game = Game("standard(quick_discard=same_rank)", players=2, seed=seed)
    table = Table(game, [None, make_bot("greedy")])
    seen_window = 0
    for _ in range(400):
        if game.over:
            break
        pending = table.pending()
        first = pending[0]
        if first.kind == DecisionKind.SLAP and first.seat == 1:
            table.step()
            continue
        if first.kind == DecisionKind.SLAP:
            seen_window += 1
            assert first.seat == 0 and pending[1].seat == 1
            assert table.step() is None  # the bot on turn waits for the person's slap decision
            table.submit(0, None)
            assert table.pending()[0].kind == DecisionKind.TURN
            continue
        if first.kind == DecisionKind.NEXT_ROUND:
            table.next_round()
            continue
        if first.seat == 0:
            view = table.view(0)
            pick = next((a for a in view.legal if a.type == "discard"), view.legal[0])
            if view.phase == "after_discard":
                pick = Action.draw()
            table.submit(0, pick)
        else:
            table.step()
    return seen_window


def test_S20_a_bot_slapper_is_asked_before_the_current_player() -> None:
    game = Game("standard(quick_discard=same_rank)", players=3, seed=8)
    asked: list[tuple[int, str]] = []

    class Recorder(Bot):
        def __init__(self, seat: int) -> None:
            self.seat = seat
            self.inner = make_bot("greedy")

        def act(self, view: SeatView, rng: random.Random) -> Action | None:
            kind = "slap" if view.legal and view.legal[0].type == "slap" else view.phase
            asked.append((self.seat, kind))
            return self.inner.act(view, rng)

    table = Table(game, [Recorder(p) for p in range(3)])
    table.run()
    slaps = [i for i, (_, kind) in enumerate(asked) if kind == "slap"]
    assert slaps, "no slap window in this game"
    for i in slaps:
        assert asked[i + 1][0] != asked[i][0] or asked[i + 1][1] != "slap"


def test_the_oracle_is_asked_with_the_full_state_and_others_with_their_view() -> None:
    seer, plain = Counting(sees_all=True), Counting()
    Table(Game("standard", players=2, seed=3), [seer, plain]).run()
    assert seer.full > 0 and seer.views == 0
    assert plain.views > 0 and plain.full == 0
    assert OracleBot.sees_all and not make_bot("expert").sees_all


def test_a_failing_bot_is_replaced_by_a_legal_fallback_and_the_fault_noted() -> None:
    game = Game("standard", players=2, seed=6)
    table = Table(game, [Broken(), make_bot("greedy")])
    table.run()
    assert game.over
    assert any("boom" in f for f in table.faults)
    assert any("passed" in f for f in table.faults)
    assert any("played" in f for f in table.faults)


def test_the_turn_cap_stops_the_table_and_says_why() -> None:
    game = Game("standard", players=2, seed=1)
    table = Table(game, [make_bot("random"), make_bot("random")], turn_cap=3)
    table.run()
    assert table.over and not game.over
    assert table.stalled is not None and "3 turns" in table.stalled
    assert table.pending() == ()
    with pytest.raises(IllegalActionError, match="stopped"):
        table.submit(game.round.current, "draw")


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "9"])
def test_bad_turn_caps_are_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match="turn cap"):
        Table(Game("standard", players=2, seed=1), [None, None], turn_cap=bad)


def test_the_player_list_must_fit_the_table() -> None:
    with pytest.raises(ValueError, match="seats"):
        Table(Game("standard", players=3, seed=1), [None, None])


def test_the_clock_gives_persons_deadlines_and_the_stand_in_plays_when_they_pass() -> None:
    now = FakeTime()
    clock = TurnClock(30, make_bot("greedy"), "greedy", now=now)
    game = Game("standard", players=2, seed=3)
    table = Table(game, [None, make_bot("greedy")], clock=clock)
    table.run()
    first = table.waiting_for()
    assert first is not None and first.seat == 0
    assert first.deadline == 130.0
    assert table.expire() == []  # not yet
    now.t = 129.9
    assert table.expire() == [] and table.waiting_for() == first  # the deadline stays put
    now.t = 130.0
    moves = table.expire()
    assert [m.by for m in moves] == ["stand_in"] and moves[0].seat == 0
    timeout = [e for e in game.events if e["type"] == "timeout"]
    assert timeout == [{"type": "timeout", "seat": 0, "decision": first.kind.value, "stand_in": "greedy"}]
    nxt = table.waiting_for()  # the take after the stand-in's discard gets its own deadline
    assert nxt is not None and nxt.seat == 0 and nxt.deadline == 160.0
    assert table.next_deadline() == 160.0


def test_a_recorded_timeout_replays_and_checks() -> None:
    from yaniv.record import replay

    now = FakeTime()
    game = Game("standard", players=2, seed=3)
    table = Table(game, [None, make_bot("greedy")], clock=TurnClock(5, make_bot("greedy"), "greedy", now=now))
    for _ in range(30):
        table.run()
        now.t += 10
        table.expire()
    again = replay([dict(e, _line=i + 1) for i, e in enumerate(game.events)])
    assert again.round.to_position() == game.round.to_position()


@pytest.mark.parametrize("seconds", [0, -5, float("nan"), float("inf"), "10"])
def test_a_clock_needs_a_sensible_number_of_seconds(seconds: Any) -> None:
    with pytest.raises(ValueError, match="seconds"):
        TurnClock(seconds, make_bot("greedy"), "greedy")


def test_bots_get_no_deadline() -> None:
    table = Table(
        Game("standard", players=2, seed=3),
        [make_bot("greedy"), make_bot("greedy")],
        clock=TurnClock(1, make_bot("greedy"), "greedy", now=FakeTime()),
    )
    assert all(d.deadline is None for d in table.pending())


def test_cursors_give_each_seat_its_unseen_events_redacted() -> None:
    game = Game("standard", players=2, seed=3)
    table = Table(game, [None, make_bot("greedy")])
    mine, theirs, watcher = table.cursor(0), table.cursor(1), table.cursor(None)
    first = mine.new()
    assert first[0]["type"] == "deal"
    assert first[0]["hands"][0] is not None and first[0]["hands"][1] is None
    assert mine.new() == []  # nothing new
    table.run()
    seat = 0
    view = table.view(seat)
    discard = next(a for a in view.legal if a.type == "discard")
    table.submit(seat, discard)
    table.submit(seat, "draw")
    new = mine.new()
    assert [e["type"] for e in new][-2:] == ["discard", "draw"]
    assert "card" in new[-1]  # my own draw I see
    theirs_events = theirs.new()
    assert all("card" not in e for e in theirs_events if e["type"] == "draw" and e["seat"] == 0)
    assert all(h is None for h in watcher.new()[0]["hands"])


def test_an_observing_bot_hears_every_event_once_before_it_acts() -> None:
    heard: list[dict[str, Any]] = []

    class Listener(Bot):
        def __init__(self) -> None:
            self.inner = make_bot("greedy")

        def observe(self, event: dict[str, Any]) -> None:
            heard.append(event)

        def act(self, view: SeatView, rng: random.Random) -> Action | None:
            return self.inner.act(view, rng)

    game = Game("standard", players=2, seed=3)
    Table(game, [Listener(), make_bot("greedy")]).run()
    assert heard[0]["type"] == "deal"
    assert heard[0]["hands"][1] is None  # redacted for seat 0
    assert len(heard) == len({id(e) for e in heard})
    types = [e["type"] for e in heard]
    assert types.count("deal") == game.round_no or types.count("deal") == game.round_no - 1


def test_S12_a_round_ended_outside_the_game_still_counts_at_the_next_deal() -> None:
    """S12: the round's scores are added; ending it through game.round must not lose them."""
    game = Game("standard", players=2, seed=3)
    state = game.round
    greedy, rng = make_bot("greedy"), random.Random(1)
    for _ in range(400):
        if state.is_over:
            break
        action = greedy.act(state.view(state.current), rng)  # greedy calls as soon as it may
        assert action is not None
        state.apply(state.current, action)  # the round, not the game
    assert state.result is not None
    assert game.totals == list(state.result.totals)
    game.next_round()
    assert game.results[-1] is state.result and len(game.results) == 1
    assert any(e["type"] == "round_end" for e in game.events)


def test_S18_a_yaniv_out_of_turn_is_taken_and_penalised_where_the_rules_say_so() -> None:
    """S18: under false_yaniv_penalty a call out of turn ends the round with the penalty."""
    game = Game("finnish", players=3, seed=2)
    assert game.rules.false_yaniv_penalty is not None
    table = Table(game, [None, None, None])
    caller = (game.round.current + 1) % 3
    move = table.submit(caller, "yaniv")
    assert move.result is not None and move.result.kind == "false_yaniv"
    assert move.result.round_scores[caller] == game.rules.false_yaniv_penalty
    plain = Table(Game("standard", players=3, seed=2), [None, None, None])
    with pytest.raises(IllegalActionError, match="not your turn"):
        plain.submit((plain.round.current + 1) % 3, "yaniv")


def test_time_out_records_the_timeout_and_hands_over_the_decision_to_think_elsewhere() -> None:
    now = FakeTime()
    clock = TurnClock(10, make_bot("greedy"), "greedy", now=now)
    game = Game("standard", players=2, seed=3)
    table = Table(game, [None, make_bot("greedy")], clock=clock)
    table.run()
    assert table.time_out() is None  # nothing overdue
    now.t += 10
    due = table.time_out()
    assert due is not None and due.seat == 0 and due.version == table.version
    assert game.events[-1] == {"type": "timeout", "seat": 0, "decision": due.kind.value, "stand_in": "greedy"}
    move = table.answer(due, table.thinker(due, clock.stand_in)(), by="stand_in")
    assert move.by == "stand_in" and move.seat == 0


def _as_ids(view: SeatView) -> dict[str, Any]:
    """A seat view's facts with cards as physical ids and the legal actions in parts."""
    legal = view.legal
    return {
        "hand": sorted(int(c) for c in view.hand),
        "hand_value": view.hand_value,
        "hand_counts": view.hand_counts,
        "seen": [sorted(int(c) for c in g) for g in view.seen],
        "discard_pile": [tuple(int(c) for c in g) for g in view.discard_pile],
        "last_discards": [None if g is None else tuple(int(c) for c in g) for g in view.last_discards],
        "previous_group": None if view.previous_group is None else tuple(int(c) for c in view.previous_group),
        "takeable": [int(c) for c in view.takeable],
        "drawn": None if view.drawn is None else int(view.drawn),
        "discards": [tuple(int(c) for c in a.cards) for a in legal if a.type == "discard"],
        "takes": [int(a.card) for a in legal if a.type == "take" and a.card is not None],
        "draw": any(a.type == "draw" for a in legal),
        "yaniv": any(a.type == "yaniv" for a in legal),
        "others": [a for a in legal if a.type in ("swap", "asef", "slap")],
        "rest": (view.phase, view.current, view.active, view.stock_count, view.totals, view.turns),
    }


RAW_SPECS = [
    *sorted(PRESETS),
    "standard(quick_discard=same_rank)",
    "jdross(quick_discard=fits_meld,asef=true)",
]


@pytest.mark.parametrize("preset", RAW_SPECS)
def test_the_raw_view_says_what_the_view_says_with_ids(preset: str) -> None:
    """Table.raw_view: every fact of view(seat) (S8 takeable, S20 slap, S19 swaps, Asef), as ids."""
    rng = random.Random(preset)
    rules = Rules.from_spec(preset)
    wanted = {"slap"} if rules.quick_discard != "off" else set()
    wanted |= {"swap"} if rules.joker_swap != "off" else set()
    kinds: set[str] = set()
    for seed in range(40):
        if seed >= 3 and wanted <= kinds:
            break
        players = max(2, rules.min_players) + seed % 2
        table = Table(Game(preset, players=players, seed=seed), [None] * players)
        for _ in range(400):
            pending = table.pending()
            if not pending or table.game.over:
                break
            for seat in range(players):
                raw, view = table.raw_view(seat), table.view(seat)
                expected = _as_ids(view)
                takes = raw.takeable if raw.phase == "after_discard" else []
                got = {
                    "hand": raw.hand, "hand_value": raw.hand_value, "hand_counts": raw.hand_counts,
                    "seen": raw.seen, "discard_pile": raw.discard_pile, "last_discards": raw.last_discards,
                    "previous_group": raw.previous_group, "takeable": raw.takeable, "drawn": raw.drawn,
                    "discards": raw.discards, "takes": takes, "draw": raw.draw, "yaniv": raw.yaniv,
                    "others": raw.others,
                    "rest": (raw.phase, raw.current, raw.active, raw.stock_count, raw.totals, raw.turns),
                }  # fmt: skip
                assert got == expected, (preset, seed, seat)
                kinds.update(a.type for a in raw.others)
            decision = pending[0]
            if decision.seat is None:
                table.next_round()
                continue
            legal = table.view(decision.seat).legal
            action = None if decision.kind == DecisionKind.SLAP and rng.random() < 0.5 else rng.choice(legal)
            table.submit(decision.seat, action, expect=decision)
    assert kinds & {"slap", "swap"} == wanted  # the rare actions were met too, and only where played


def test_the_raw_view_refuses_a_seat_that_is_not_there() -> None:
    table = Table(Game("standard", players=2, seed=1), [None, None])
    for bad in (2, -1, None, "0"):
        with pytest.raises(ValueError, match="there is no seat"):
            table.raw_view(bad)  # type: ignore[arg-type]
