"""The bots of a room on the table driver: asked through the driver (the oracle with the
full state), thinking off the event loop for the expert, and the driver's fallback when a
bot fails, passes its turn or answers illegally."""

from __future__ import annotations

import asyncio
import random
import threading

import pytest

from yaniv import Action, Game, IllegalActionError, RoundState, SeatView
from yaniv.bots import Bot, ExpertBot, make_bot
from yaniv.table import DecisionKind, Table
from yaniv.web.robots import Thought, check_level, play, players_for, think
from yaniv.web.seats import Seat


class Scripted(Bot):
    """Answers with what it is told, and notes how it was asked."""

    name = "scripted"

    def __init__(self, answer: object = "legal", sees_all: bool = False) -> None:
        self.answer = answer
        self.sees_all = sees_all
        self.asked: list[str] = []

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        self.asked.append("view")
        return self._answer(view.legal)

    def act_full(self, state: RoundState, seat: int, rng: random.Random) -> Action | None:
        self.asked.append("full")
        return self._answer(state.legal_actions(seat))

    def _answer(self, legal: list[Action]) -> Action | None:
        if self.answer == "legal":
            return legal[-1]
        if self.answer == "raise":
            raise RuntimeError("boom")
        if self.answer == "illegal":
            return Action.parse("yaniv")
        return None


def table_with(bot: Bot) -> Table:
    # seat 0 (the starter's right) is a person; the bot sits on seat 1, which starts
    game = Game("standard(yaniv_threshold=0)", players=2, seed=11)
    table = Table(game, [None, bot], auto_deal=False)
    assert table.waiting_for() is not None and table.waiting_for().seat == 1  # type: ignore[union-attr]
    return table


def run_once(table: Table) -> tuple[Thought, object]:
    decision = table.waiting_for()
    assert decision is not None
    thought = asyncio.run(think(table, decision))
    return thought, play(table, thought)


def test_a_bot_is_asked_with_its_view_and_the_oracle_with_the_full_state() -> None:
    plain, oracle = Scripted(), Scripted(sees_all=True)
    for bot in (plain, oracle):
        table = table_with(bot)
        version = table.version
        _, move = run_once(table)
        assert move.by == "player" and table.version > version  # type: ignore[attr-defined]
        assert not table.faults
    assert plain.asked == ["view"] and oracle.asked == ["full"]


@pytest.mark.parametrize("answer", ["raise", "illegal", "pass"])
def test_a_failing_bot_gets_the_drivers_fallback(answer: str) -> None:
    bot = Scripted(answer)
    table = table_with(bot)
    legal = table.view(1).legal
    first = next(a for a in legal if a.type in ("draw", "discard"))
    thought, move = run_once(table)
    assert (thought.error is not None) == (answer == "raise")
    assert move.by == "fallback" and move.action == first  # type: ignore[attr-defined]
    assert len(table.faults) == 1
    assert bot.asked == ["view"]  # not asked again: the fallback plays at once


def test_a_thought_on_a_decision_gone_is_refused() -> None:
    table = table_with(Scripted())
    decision = table.waiting_for()
    assert decision is not None
    thought = asyncio.run(think(table, decision))
    table.submit(1, table.view(1).legal[0])  # the game moves on meanwhile
    with pytest.raises(IllegalActionError, match="no longer pending"):
        play(table, thought)
    assert not table.faults


def test_a_passed_slap_changes_nothing() -> None:
    game = Game("standard(quick_discard=same_rank)", players=2, seed=3)
    table = Table(game, [make_bot("greedy"), Scripted("pass")], auto_deal=False)
    for _ in range(500):
        first = table.waiting_for()
        assert first is not None
        if first.seat is None:
            table.next_round()
            continue
        if first.kind == DecisionKind.SLAP and first.seat == 1:
            break
        table.submit(first.seat, next(a for a in table.view(first.seat).legal if a.type != "yaniv"))
    else:
        pytest.skip("no slap window for seat 1 in this game")
    version = table.version
    _, move = run_once(table)
    assert move.action is None and table.version == version  # type: ignore[attr-defined]
    assert table.waiting_for() != first and not table.faults


def test_the_expert_thinks_in_a_worker_thread() -> None:
    seen: list[int] = []

    class Watched(ExpertBot):
        def act(self, view: SeatView, rng: random.Random) -> Action | None:
            seen.append(threading.get_ident())
            return view.legal[0]

    table = table_with(Watched())
    run_once(table)
    assert seen and seen[0] != threading.get_ident()


def test_seats_and_levels() -> None:
    seats = [
        Seat(name="Ann", token_hash="x"),
        Seat(bot="easy"),
        Seat(name="Ben", token_hash="y", stand_in="hard"),
    ]
    players = players_for(seats)
    assert players[0] is None and players[1] is not None and isinstance(players[2], ExpertBot)
    assert check_level(None, "medium") == "medium"
    with pytest.raises(ValueError, match="unknown level"):
        check_level("godlike", "medium")
