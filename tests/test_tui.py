"""The terminal app, driven as a person drives it: Textual's pilot presses keys and clicks.

Every test runs the app headless at 80x24 (``App.run_test``) with no delay between the
computer's moves. ``python tests/test_tui.py`` rewrites ``docs/tui-table.svg``.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import random
import re
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot

from yaniv import Game
from yaniv.bots import GreedyBot
from yaniv.cards import Card
from yaniv.cli import main
from yaniv.record import RecordWriter, check, read_record
from yaniv.session import Session, games_dir, unfinished_games
from yaniv.state import RoundState
from yaniv.tui import KEYS, YanivApp
from yaniv.tui.app import replay_states
from yaniv.tui.play import TableScreen
from yaniv.tui.replay import ReplayScreen
from yaniv.tui.screens import ChoiceScreen, HelpScreen, RoundEndScreen, SetupScreen
from yaniv.tui.widgets import card_face

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def quick_pilot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pilot waits for the app to go idle after every key in slices of 20 ms; 2 ms will do."""
    import textual._wait

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 1 / 500)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", 1 / 500 / 20)


def run(coro_fn: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(coro_fn())


def screen_text(app: App[Any]) -> str:
    """What the terminal shows, as plain text (the SVG screenshot's content)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), force_terminal=True, color_system="truecolor",
        record=True, legacy_windows=False, safe_box=False,
    )  # fmt: skip
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def faces(cards: Any) -> list[str]:
    return [card_face(c) for c in cards]


class Person:
    """Plays the person's seat through the UI: a greedy bot decides, keys and clicks act."""

    def __init__(
        self, pilot: Pilot[Any], *, clicks: bool = False, hints: bool = False, seed: int = 0
    ) -> None:
        self.pilot = pilot
        self.hints = hints
        self.hinted = 0
        self.bot = GreedyBot()
        self.rng = random.Random(seed)
        self.clicks = clicks
        self.turns = 0
        self.rounds_seen = 0
        self.checked_table = 0

    @property
    def app(self) -> App[Any]:
        return self.pilot.app

    async def select(self, table: TableScreen, cards: Any) -> None:
        if table.selected:
            await self.pilot.press("escape")
        for card in cards:
            index = next(
                i for i, c in enumerate(table.hand_cards) if str(c) == str(card) and c not in table.selected
            )
            if self.clicks:
                await self.pilot.click(table.query_one("#hand").views[index])  # type: ignore[attr-defined]
            else:
                await self.pilot.press(str(index + 1))

    def check_table(self, table: TableScreen) -> None:
        """The screen shows the hand, its value, the takeable cards, the others' counts and totals."""
        state = table.game.round
        text = screen_text(self.app)
        hand = state.hand(table.seat)
        for face in faces(hand):
            assert face in text
        assert f"{state.hand_value(table.seat)} points" in text
        if state.previous_group() is not None:
            assert "▲ may be taken: " + " ".join(faces(state.takeable())) in text
        view = state.view(table.seat)
        for p in view.active:
            if p != table.seat:
                label = table.labels[p]
                assert f"{label}  {view.totals[p]} pts" in text
                count = view.hand_counts[p]
                assert f"{count} card" in text
        self.checked_table += 1

    def check_round_end(self, screen: RoundEndScreen) -> None:
        """Every hand revealed, who called, Assaf or not, the scores and totals, eliminations."""
        text = screen_text(self.app)
        table = self.app.screen_stack[-2]
        assert isinstance(table, TableScreen)
        game = table.game
        result = game.round.result
        assert result is not None
        assert ("Game over" if game.over else "Round over") in text
        caller = table.labels[result.caller]
        if result.kind != "false_yaniv":
            assert f"{caller} called" in text
            for p in game.round.active:
                assert " ".join(faces(game.round.hand(p))) in text  # every hand shown
        assert ("Assaf by" in text) == result.assaf
        for p in range(game.n):
            assert re.search(rf"{re.escape(table.labels[p])} .*\b{result.totals[p]}\b", text)
        for p in result.landed:
            assert f"landed: {result.totals[p]}" in text
        assert text.count("out!") == len(result.eliminated)
        if game.over:
            assert "Rematch" in text

    async def step(self) -> bool:
        """One decision of the person (or a key on a round-end screen); False when the game is over."""
        await self.pilot.pause()
        screen = self.app.screen
        if isinstance(screen, RoundEndScreen):
            self.check_round_end(screen)
            self.rounds_seen += 1
            if screen.over:
                return False
            await self.pilot.press("enter")
            return True
        assert isinstance(screen, TableScreen), screen
        table = screen
        state = table.game.round
        seat = table.seat
        if table.slap_pending():
            await self.pilot.press("x" if self.rng.random() < 0.7 else "enter")
            return True
        assert state.current == seat and not state.is_over, "the computer must have moved on"
        if self.turns % 7 == 0:
            self.check_table(table)
        action = self.bot.act(state.view(seat), self.rng)
        assert action is not None
        self.turns += 1
        if self.hints and action.type == "yaniv":
            await self.pilot.press("h")
            text = screen_text(self.app)
            assert "Hint:" in text and "A Yaniv call now succeeds with probability" in text
            self.hinted += 1
        if action.type == "yaniv":
            await self.pilot.press("y")
        elif action.type == "discard":
            await self.select(table, action.cards)
            await self.pilot.press("d")
        elif action.type == "draw":
            if self.clicks:
                await self.pilot.click("#stock")
            else:
                await self.pilot.press("s")
        elif action.type == "take":
            assert action.card is not None
            if self.clicks:
                pile = table.query_one("#pile").views  # type: ignore[attr-defined]
                view = next(v for v in pile if v.card is not None and str(v.card) == str(action.card))
                await self.pilot.click(view)
            else:
                await self.pilot.press("t")
                await self.pilot.pause()
                if isinstance(self.app.screen, ChoiceScreen):
                    index = [str(c) for c in self.app.screen.cards].index(str(action.card))
                    await self.pilot.press(str(index + 1))
        elif action.type == "swap":
            await self.pilot.press("w")
            await self.pilot.pause()
            if isinstance(self.app.screen, ChoiceScreen):
                index = [str(c) for c in self.app.screen.cards].index(str(action.card))
                await self.pilot.press(str(index + 1))
        elif action.type == "asef":
            await self.pilot.press("a")
        else:
            raise AssertionError(f"unexpected action {action}")
        return True

    async def play_to_end(self, limit: int = 2000) -> None:
        for _ in range(limit):
            if not await self.step():
                return
        raise AssertionError("the game did not end")


def table_of(app: App[Any]) -> TableScreen:
    screen = app.screen
    assert isinstance(screen, TableScreen), screen
    return screen


# ----------------------------------------------------------------- whole games


@pytest.mark.parametrize(
    ("rules", "levels", "clicks"),
    [
        ("standard(score_limit=50)", ["greedy", "random"], False),
        ("slovenian-yanef(score_limit=40)", ["greedy", "greedy"], True),
        ("jdross(quick_discard=fits_meld,score_limit=40)", ["random"], False),
    ],
)
def test_a_whole_game_through_the_ui(rules: str, levels: list[str], clicks: bool, tmp_path: Path) -> None:
    async def go() -> None:
        session = Session.start(rules, levels, name="Ann", seed=11, record=tmp_path / "g.jsonl")
        app = YanivApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            person = Person(pilot, clicks=clicks, hints=not clicks)
            await person.play_to_end()
            game = session.game
            assert game.over
            text = screen_text(app)
            assert "Game over" in text
            assert ("You win!" in text) == (0 in game.winners)
            assert person.checked_table > 0 and person.rounds_seen == game.round_no
            assert clicks or person.hinted > 0
            await pilot.press("q")
        assert check(tmp_path / "g.jsonl").over  # the whole game is on disk and replays

    run(go)


def session_at(position: dict[str, Any], **start: Any) -> Session:
    """A session whose first round is replaced by a hand-made position (the person on seat 0)."""
    opponents = ["greedy"] * (position["players"] - 1)
    session = Session.start(position["rules"], opponents, name="Ann", seed=1, **start)
    game = session.game
    state = RoundState.from_position(position)
    state.log = game.events
    state.names = game.names
    game.round = state
    return session


def message(app: App[Any]) -> str:
    return str(app.screen.query_one("#message").render())


def test_illegal_choices_are_explained_in_one_sentence_and_change_nothing() -> None:
    position = {
        "rules": "standard", "players": 2, "current": 0, "phase": "turn_start",
        "hands": [["KS", "2H", "9D", "9C", "QH"], ["KD", "QD", "JD", "KC", "10S"]],
        "stock": ["5C", "6C", "7C", "8C"], "discard_pile": [["4H", "5H", "6H"]],
    }  # fmt: skip

    async def go() -> None:
        session = session_at(position)
        app = YanivApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            table = table_of(app)
            game = session.game
            before = game.round.to_position()
            events = len(game.events)
            assert table.query_one("#act-yaniv").disabled  # Yaniv is not offered with 40
            assert table.query_one("#act-draw").disabled
            text = screen_text(app)
            assert "▲ may be taken: 4♥ 6♥" in text  # first or last of the run
            assert text.count("▲═╝") == 2 and "║5♥ ║" not in text
            await pilot.press("d")
            assert message(app) == (
                "Not allowed: Select the cards to discard first: press their numbers or click them."
            )
            await pilot.press("1", "2", "d")  # K♠ 2♥: not a combination
            assert message(app).startswith("Not allowed: KS 2H is not a legal discard: ")
            assert message(app).count(".") == 1
            await pilot.press("y")
            assert message(app) == "Not allowed: Your hand is worth 40: Yaniv needs 7 or less."
            await pilot.press("s")
            assert message(app) == "Not allowed: Discard first, then take a card."
            await pilot.press("x")
            assert message(app).startswith("Not allowed: Quick discard (slap) is not played")
            await pilot.press("w")
            assert message(app) == "Not allowed: The joker exchange is not played under these rules."
            await pilot.press("a")
            assert message(app) == "Not allowed: Discard first, then take a card."
            assert game.round.to_position() == before and len(game.events) == events
            # the selection survives a refused discard; a legal one goes through
            await pilot.press("escape", "4", "5", "d")  # 9♦ 9♣ (the hand is K♠ 2♥ Q♥ 9♦ 9♣)
            assert [e["type"] for e in game.events[events:]] == ["discard"]
            assert game.events[-1]["cards"] == ["9D", "9C"]
            await pilot.press("t")  # two cards may be taken: the app asks which
            assert isinstance(app.screen, ChoiceScreen)
            assert "Take which card?" in screen_text(app)
            await pilot.press("2")
            assert game.events[events + 1] == {"type": "take", "seat": 0, "card": "6H"}
            assert game.round.current == 0  # the bot has played and it is Ann's turn again
            assert "6♥" in screen_text(app)

    run(go)


def test_computer_moves_are_paced_and_a_move_out_of_turn_is_refused() -> None:
    delay = 0.3

    async def wait_for_person(pilot: Pilot[Any], game: Game) -> None:
        for _ in range(200):
            if game.round.current == 0 or game.round.is_over:
                return
            await pilot.pause(0.02)
        raise AssertionError("the computer did not finish its moves")

    async def go() -> None:
        session = Session.start("standard", ["greedy", "greedy"], name="Ann", seed=5)
        moments: list[float] = []
        step = session.table.step

        def timed() -> Any:
            moments.append(asyncio.get_running_loop().time())
            move = step()
            assert move is not None  # the app steps only when a bot's decision is waited for
            return move

        session.table.step = timed  # type: ignore[method-assign]
        app = YanivApp(session, delay=delay)
        async with app.run_test(size=SIZE) as pilot:
            game = session.game
            await wait_for_person(pilot, game)
            view = game.round.view(0)
            discard = next(a for a in view.legal if a.type == "discard")
            table = table_of(app)
            keys = [str(table.hand_cards.index(c) + 1) for c in discard.cards]
            await pilot.press(*keys, "d", "s")
            mine = sum(e.get("seat") == 0 for e in game.events)
            # the computer takes its time: it is not Ann's turn, and a move now is refused
            assert game.round.current != 0
            assert re.search(r"(Avi|Noa) \(easy\) is playing", screen_text(app))
            await pilot.press("s")
            assert re.fullmatch(r"Not allowed: It is not your turn: (Avi|Noa) is to play\.", message(app))
            assert sum(e.get("seat") == 0 for e in game.events) == mine
            await wait_for_person(pilot, game)
        # every computer move (a discard, then a take) comes a delay after the one before
        assert len(moments) >= 8
        gaps = [b - a for a, b in itertools.pairwise(moments)]
        assert all(gap >= delay * 0.9 for gap in gaps), gaps

    run(go)


# ----------------------------------------------------------------- special moves


def test_joker_swap_as_the_take() -> None:
    position = {
        "rules": "german-wiki", "players": 2, "current": 0, "phase": "turn_start",
        "hands": [["7C", "KS", "QD"], ["9S", "9D", "2H", "3H", "KH"]],
        "stock": ["5C", "6D", "8D", "4S"], "discard_pile": [["6C", "JK", "8C"]],
    }  # fmt: skip

    async def go() -> None:
        session = session_at(position)
        app = YanivApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            game = session.game
            await pilot.press("w")
            assert message(app) == "Not allowed: The joker exchange is your take: discard first."
            await pilot.press("1", "d")  # K♠
            assert not table_of(app).query_one("#act-swap").disabled
            assert "w the joker" in screen_text(app)
            await pilot.press("w")
            swap = next(e for e in game.events if e["type"] == "swap")
            assert swap == {"type": "swap", "seat": 0, "card": "7C", "position": 1}
            assert "JK" in faces(game.round.hand(0))

    run(go)


def test_slap_the_drawn_card_in_its_window() -> None:
    position = {
        "rules": "standard(quick_discard=same_rank)", "players": 2, "current": 0, "phase": "turn_start",
        "hands": [["QS", "5H", "2C"], ["9S", "9D", "8H", "KH", "KC"]],
        "stock": ["QD", "6D", "8D", "4S", "3S"], "discard_pile": [["AD"]],
    }  # fmt: skip

    async def go() -> None:
        session = session_at(position)
        app = YanivApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            game = session.game
            await pilot.press("1", "d", "s")  # Q♠, then the stock gives Q♦
            table = table_of(app)
            assert table.slap_pending() and game.round.current == 1  # the computer waits
            assert "You drew Q♦: x slaps it onto your discard" in screen_text(app)
            assert not table.query_one("#act-slap").disabled
            await pilot.press("x")
            assert {"type": "slap", "seat": 0, "card": "QD"} in game.events
            assert faces(game.round.hand(0)) == ["5♥", "2♣"]
            assert game.round.current == 0  # the computer has played on

    run(go)


def test_asef_after_discarding_the_last_card() -> None:
    position = {
        "rules": "slovenian-yanef", "players": 3, "current": 0, "phase": "turn_start",
        "hands": [["2S"], ["9S", "9D", "8H", "KH", "KC"], ["QS", "QD", "JH"]],
        "stock": ["AD", "6D", "8D", "4S", "3S"], "discard_pile": [["10C"]],
    }  # fmt: skip

    async def go() -> None:
        session = session_at(position)
        app = YanivApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            assert not table_of(app).query_one("#act-yaniv").disabled  # 2 <= 5: Yaniv is offered
            await pilot.press("1", "d")
            assert "a Asef" in screen_text(app)
            await pilot.press("a")
            assert isinstance(app.screen, RoundEndScreen)
            text = screen_text(app)
            assert "Ann called Asef with 1" in text and "it succeeds" in text
            assert "-30" in text

    run(go)


# ----------------------------------------------------------------- start, help, save, resume


def test_start_screen_sets_the_rules_players_opponents_and_name(tmp_path: Path) -> None:
    async def go() -> None:
        app = YanivApp(None, records=tmp_path, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, SetupScreen)
            text = screen_text(app)
            assert "Rules" in text and "◀ standard ▶" in text and "Opponent 2" in text
            await pilot.press("right", "right")  # standard -> german-wiki -> finnish
            assert "◀ finnish ▶" in screen_text(app) and "Yaniv at or below   ◀ 5 ▶" in screen_text(app)
            await pilot.press("down", "right", "right")  # 3 -> 5 players
            await pilot.press("down", "left")  # Yaniv at 4
            await pilot.press("down", "right")  # out over 250
            await pilot.press("down", "right")  # slap: same rank
            await pilot.press("down", "left")  # opponent 1: easy
            await pilot.press("down", "right")  # opponent 2: hard
            await pilot.click("#name")
            await pilot.press("end", "backspace", "backspace", "backspace", "R", "u", "t", "h")
            assert "Opponent 4" in screen_text(app) and "Opponent 5" not in screen_text(app)
            assert "finnish(quick_discard=same_rank,yaniv_threshold=4,score_limit=250)" in screen_text(app)
            await pilot.press("enter")
            table = table_of(app)
            game = table.game
            assert game.rules.yaniv_threshold == 4 and game.rules.score_limit == 250
            assert game.rules.quick_discard == "same_rank" and game.rules.base == "finnish"
            assert game.n == 5 and game.names is not None and game.names[0] == "Ruth"
            assert table.session.opponents == [None, "greedy", "expert", "heuristic", "heuristic"]
            assert "Ruth:" in screen_text(app)
            assert "Tamar (medium)" in screen_text(app)
            await pilot.press("q")
        records = list(tmp_path.glob("*.jsonl"))
        assert len(records) == 1
        seating = json.loads(records[0].with_name(records[0].stem + ".session.json").read_text())
        assert seating == {"seat": 0, "opponents": [None, "greedy", "expert", "heuristic", "heuristic"]}

    run(go)


def test_help_shows_the_active_rules_and_the_keys() -> None:
    async def go() -> None:
        session = Session.start("slovenian-yanef", ["greedy", "greedy"], name="Ann", seed=2)
        app = YanivApp(session, delay=0)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            text = screen_text(app)
            assert "The rules: slovenian-yanef" in text
            assert session.game.rules.describe()[0] in text
            for key, _ in KEYS[:6]:
                assert key in text
            await pilot.press("escape")
            assert isinstance(app.screen, TableScreen)

    run(go)


def test_a_game_is_saved_as_it_is_played_and_resumed(tmp_path: Path) -> None:
    async def first() -> None:
        session = Session.start("standard(score_limit=40)", ["greedy"], name="Ann", seed=21,
                                record=tmp_path / "game-1.jsonl")  # fmt: skip
        app = YanivApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            person = Person(pilot)
            for _ in range(6):
                await person.step()
            await pilot.press("1")  # a selection is not part of the game
            await pilot.press("q")
        assert not session.game.over
        session.close()  # as run_game does when the app ends: the record is free to resume

    async def second() -> None:
        assert unfinished_games(tmp_path) == [tmp_path / "game-1.jsonl"]
        session = Session.resume_last(tmp_path)
        assert session.opponents == [None, "greedy"]
        app = YanivApp(session, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            table = table_of(app)
            assert table.labels == ["Ann", "Avi (easy)"]
            await Person(pilot, seed=1).play_to_end()
            assert session.game.over
            await pilot.press("q")
        session.close()
        assert unfinished_games(tmp_path) == []

    run(first)
    lines = (tmp_path / "game-1.jsonl").read_text().splitlines()
    run(second)
    again = (tmp_path / "game-1.jsonl").read_text().splitlines()
    assert again[: len(lines)] == lines and len(again) > len(lines)
    assert check(tmp_path / "game-1.jsonl").over


def test_rematch_starts_a_new_recorded_game(tmp_path: Path) -> None:
    async def go() -> None:
        session = Session.start("standard(score_limit=20)", ["random"], name="Ann", seed=30,
                                record=tmp_path / "a.jsonl")  # fmt: skip
        app = YanivApp(session, records=tmp_path, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await Person(pilot).play_to_end()
            await pilot.press("enter")  # rematch
            table = table_of(app)
            assert table.game is not session.game and table.game.round_no == 1
            assert table.game.seed == 31 and table.labels == ["Ann", "Avi (beginner)"]
            await pilot.press("q")
        assert len(list(tmp_path.glob("*.jsonl"))) == 2

    run(go)


@pytest.mark.parametrize("ended_by", ["computer", "person"])
def test_new_game_after_the_game_end_shows_a_working_start_screen(ended_by: str, tmp_path: Path) -> None:
    """'New game' at the end used to leave a blank screen (the start screen's choice was lost)."""
    position = {
        "rules": "standard(score_limit=5)", "players": 2, "current": 1, "phase": "turn_start",
        "hands": [["KS", "QH", "9D", "9C", "QS"], ["AD", "2C", "3H"]],
        "stock": ["5C", "6C", "7C", "8C"], "discard_pile": [["4H"]],
    }  # fmt: skip

    async def go() -> None:
        if ended_by == "computer":  # Avi calls Yaniv at once: the table screen asks for the report
            session = session_at(position, record=tmp_path / "first.jsonl")
        else:
            session = Session.start("standard(score_limit=5)", ["random"], name="Ann", seed=3,
                                    record=tmp_path / "first.jsonl")  # fmt: skip
        app = YanivApp(session, records=tmp_path, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            if ended_by == "computer":
                await pilot.pause()
                await pilot.click("#new")
            else:
                await Person(pilot).play_to_end()
                await pilot.press("n")
            assert session.game.over
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen), app.screen_stack
            text = screen_text(app)
            assert "Yaniv: a new game" in text and "Out over            ◀ 5 ▶" in text  # the last game's
            assert "Ann" in text
            await pilot.press("down", "right")  # 2 -> 3 players
            await pilot.pause()
            assert "Opponent 2" in screen_text(app)
            await pilot.press("enter")
            await pilot.pause()
            table = table_of(app)
            game = table.game
            assert game is not session.game and game.n == 3 and game.round_no == 1 and not game.over
            assert game.rules.score_limit == 5 and table.labels[0] == "Ann"
            assert "Ann:" in screen_text(app)
            await Person(pilot).step()  # the new table plays
            await pilot.press("q")
        assert len(list(tmp_path.glob("*.jsonl"))) == 2

    run(go)


def test_play_resume_from_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert games_dir() == tmp_path / "yaniv" / "games"
    monkeypatch.setattr(sys, "stdin", io.StringIO("hand\n"))
    out = io.StringIO()
    assert main(["play", "--plain", "--level", "beginner", "--seed", "4"], out=out) == 0
    assert "Bye!" in out.getvalue()
    saved = unfinished_games(games_dir())
    assert len(saved) == 1
    # a plain game resumes, with the same opponents, and goes on in the same file
    monkeypatch.setattr(sys, "stdin", io.StringIO("draw\n"))
    out = io.StringIO()
    assert main(["play", "--plain", "--resume"], out=out) == 0
    assert f"Resuming {saved[0]}" in out.getvalue() and "Not allowed" in out.getvalue()
    assert read_record(saved[0])[0]["names"] == ["You", "Avi", "Noa"]
    seating = json.loads(saved[0].with_name(saved[0].stem + ".session.json").read_text())
    assert seating["opponents"] == [None, "random", "random"]


@pytest.mark.parametrize(
    ("seating", "why"),
    [
        ("garbage", "not JSON"),
        ('{"seat": 0, "opponents": [null, "wizard", "random"]}', "unknown bot 'wizard'"),
        ('{"seat": 1, "opponents": [null, "random", "random"]}', "no person on seat 1"),
        ('{"seat": 0, "opponents": [null]}', "seats 1 players for 3"),
    ],
)
def test_a_seating_file_that_cannot_be_used_is_said_on_resume(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    seating: str,
    why: str,
) -> None:
    record = tmp_path / "g.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--plain", "--level", "beginner", "--seed", "4", "--record", str(record)]) == 0
    (tmp_path / "g.session.json").write_text(seating)
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    out = io.StringIO()
    assert main(["play", "--plain", "--resume", "--record", str(record)], out=out) == 0
    err = capsys.readouterr().err
    assert err.startswith("yaniv play: note: g.session.json could not be used (") and why in err, err
    assert "you play seat 0 against medium bots" in err and f"Resuming {record}" in out.getvalue()
    (tmp_path / "g.session.json").unlink()  # no seating file at all: the documented default, said nothing
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--plain", "--resume", "--record", str(record)], out=io.StringIO()) == 0
    assert "note" not in capsys.readouterr().err


def test_play_resume_with_nothing_to_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with pytest.raises(SystemExit) as exc:
        main(["play", "--plain", "--resume"], out=io.StringIO())
    assert exc.value.code == 2


def test_play_level_and_bots_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    record = tmp_path / "g.jsonl"
    argv = ["play", "--plain", "--rules", "finnish", "--players", "4", "--level", "hard,easy", "--seed", "7"]
    assert main([*argv, "--record", str(record)], out=io.StringIO()) == 0
    header = read_record(record)[0]
    assert header["players"] == 4 and header["seed"] == 7 and header["rules_string"] == "finnish"
    seating = json.loads((tmp_path / "g.session.json").read_text())
    assert seating["opponents"] == [None, "expert", "greedy", "expert"]
    with pytest.raises(SystemExit):
        main(["play", "--plain", "--level", "godlike"], out=io.StringIO())


# ----------------------------------------------------------------- replay


def finished_record(tmp_path: Path) -> Path:
    path = tmp_path / "done.jsonl"
    game = Game("standard(score_limit=60)", players=3, seed=4, names=["Ann", "Ben", "Cy"])
    game.subscribe(RecordWriter.create(str(path)), replay=True)
    bots = [GreedyBot()] * 3
    from yaniv.match import play_game

    play_game(game, bots)
    game.close()
    return path


def test_replay_viewer_steps_through_a_finished_game(tmp_path: Path) -> None:
    path = finished_record(tmp_path)
    events = read_record(path)
    steps, problem = replay_states(events)
    assert problem is None and len(steps) == len(events) - 1

    async def go() -> None:
        app = YanivApp(replay=steps, replay_names=["Ann", "Ben", "Cy"])
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            assert "Replay: line 1 of" in screen_text(app)
            deal = events[1]
            assert " ".join(card_face(Card.parse(c)) for c in deal["hands"][1]) in screen_text(app)
            await pilot.press("right", "right")
            text = screen_text(app)
            assert "Replay: line 3 of" in text
            second = events[3]
            assert f"{['Ann', 'Ben', 'Cy'][second['seat']]} " in message(app)
            await pilot.press("left")
            assert "Replay: line 2 of" in screen_text(app)
            await pilot.press("pagedown")
            assert screen.steps[screen.index].event["type"] == "deal"
            assert screen.steps[screen.index].round_no == 2
            await pilot.press("tab")
            assert "Ben:" in screen_text(app)
            await pilot.press("end")
            assert "The end:" in message(app) and "won" in message(app)
            await pilot.press("q")

    run(go)


def test_replay_of_a_seat_record_is_refused_by_the_viewer(tmp_path: Path) -> None:
    path = finished_record(tmp_path)
    game = check(path)
    redacted = tmp_path / "seat.jsonl"
    redacted.write_text("".join(json.dumps(e) + "\n" for e in game.seat_events(1)))
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(redacted), "--tui"], out=io.StringIO())
    assert exc.value.code == 2
    code = main(["replay", str(redacted)], out=(out := io.StringIO()))  # text, as before
    assert code == 0 and "P0: 5 cards" not in out.getvalue() and "Ann: 5 cards" in out.getvalue()


# ----------------------------------------------------------------- the screenshot


async def table_screenshot() -> tuple[str, str]:
    """The table after a few turns, with a hint: the SVG and the same screen as text."""
    session = Session.start("standard", ["heuristic", "expert", "greedy"], name="You", seed=8)
    app = YanivApp(session, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        person = Person(pilot, seed=2)
        while person.turns < 2 or session.game.round.phase_name != "turn_start":
            await person.step()
        table = table_of(app)
        await pilot.press("h")  # the hint selects the expert's discard
        assert table.selected
        return app.export_screenshot(title="yaniv play"), screen_text(app)


def test_screenshot_of_the_table() -> None:
    svg, text = asyncio.run(table_screenshot())
    assert svg.startswith("<svg") and "Hint:" in text and "▲ may be taken" in text


if __name__ == "__main__":
    target = Path(__file__).parent.parent / "docs" / "tui-table.svg"
    svg, text = asyncio.run(table_screenshot())
    target.write_text(svg, encoding="utf-8")
    print(text)
    print(f"wrote {target}")


def test_no_color_draws_every_card_face_in_the_text_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR: red faces would be a dim grey; every face is bold text instead (issue 15)."""
    from yaniv.cards import CARDS, parse_card
    from yaniv.tui.widgets import card_style

    hearts, spades, joker = CARDS[parse_card("QH")], CARDS[parse_card("QS")], CARDS[parse_card("JK")]
    assert "red" in card_style(hearts)
    monkeypatch.setenv("NO_COLOR", "1")
    for card in (hearts, spades, joker):
        style = card_style(card)
        assert "bold" in style and not any(c in style for c in ("red", "magenta", "grey", "dim"))
    assert card_style(joker) != card_style(spades)
