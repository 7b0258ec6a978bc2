"""The replay screen: step through a recorded game on the board, every hand face up or one seat's.

:func:`replay_states` replays a full record line by line
(:func:`yaniv.record.replay_steps`) and keeps, after every line, the view of every
seat; :class:`ReplayScreen` draws those views, so it shows what the record holds and
nothing it would have to work out itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import RichLog

from ..errors import RecordError
from ..events import redact
from ..record import replay_steps
from .board import BoardScreen
from .screens import HelpScreen
from .widgets import event_line

__all__ = ["ReplayScreen", "ReplayStep", "replay_states"]

if TYPE_CHECKING:  # a front end reads views, never the state module itself
    from .. import SeatView


@dataclass(frozen=True)
class ReplayStep:
    """One line of a record and every seat's view of the round right after it."""

    event: dict[str, Any]
    views: tuple[SeatView, ...]
    """Seat by seat."""
    round_no: int

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.views)


def replay_states(events: list[dict[str, Any]]) -> tuple[list[ReplayStep], str | None]:
    """Every line of a full record with the round right after it, and the problem if it stops early.

    :class:`RecordError` if not even the start can be replayed (a seat's redacted record).
    """
    steps: list[ReplayStep] = []
    problem = None
    try:
        for game, event in replay_steps(events):
            if event.get("type") == "header":
                continue
            views = tuple(game.round.view(p) for p in range(game.n))
            steps.append(ReplayStep({k: v for k, v in event.items() if k != "_line"}, views, game.round_no))
    except RecordError as e:
        if not steps:
            raise
        problem = str(e)
    if not steps:
        raise RecordError("the record holds no events to show")
    return steps, problem


class ReplayScreen(BoardScreen):
    """Step through a recorded game: every hand face up (or as one seat saw it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "step(1)", "Next"),
        Binding("left,backspace,p", "step(-1)", "Back"),
        Binding("pagedown,right_square_bracket", "round(1)", "Next round"),
        Binding("pageup,left_square_bracket", "round(-1)", "Round back"),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        Binding("tab", "next_seat", "Seat"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q,escape", "app.quit", "Quit"),
    ]
    REPLAY_KEYS = (
        ("→, space, n", "next line of the record"),
        ("←, p", "back one line"),
        ("PgDn / PgUp, ] / [", "next / previous round"),
        ("Home / End", "the start / the end"),
        ("Tab", "whose hand is at the bottom"),
        ("q, Esc", "leave"),
    )

    def __init__(
        self, steps: Sequence[ReplayStep], names: Sequence[str], *, seat: int | None, problem: str | None
    ) -> None:
        """*steps* from :func:`replay_states`; *seat*: show only what that seat saw."""
        super().__init__()
        self.steps = list(steps)
        self.names = list(names)
        self.fixed = seat
        self.seat = seat if seat is not None else 0
        self.problem = problem
        self.index = 0

    def on_mount(self) -> None:
        """Show the first step."""
        self.show_step()

    def show_step(self) -> None:
        """Draw the table after the current line and the round's log so far."""
        step = self.steps[self.index]
        active = step.views[0].active
        if self.fixed is None and self.seat not in active:
            self.seat = next((p for p in active), self.seat)
        view = step.views[self.seat]
        self.hand_cards = self.show_view(
            view,
            self.names,
            round_no=step.round_no,
            takeable=step.views[view.current].takeable,  # the current player's: public, marked for all
            revealed=step.views if self.fixed is None else None,
        )
        line = event_line(self._seen(step.event), self.names) or Text("")
        whose = "every hand shown" if self.fixed is None else f"as {self.names[self.fixed]} saw it"
        self.set_status(f"Replay: line {self.index + 1} of {len(self.steps)} · {whose}")
        log = self.query_one("#log", RichLog)
        log.clear()
        start = self.index
        while start > 0 and self.steps[start].event.get("type") != "deal":
            start -= 1
        for s in self.steps[start : self.index + 1]:
            text = event_line(self._seen(s.event), self.names)
            if text is not None:
                log.write(text)
        message = Text.assemble(line, "\n\n")
        if self.index == len(self.steps) - 1:
            if self.problem:
                message.append(f"The record stops here: {self.problem}", style="bold red")
            elif step.event.get("type") == "game_end":
                winners = ", ".join(self.names[p] for p in step.event.get("winners", []))
                message.append(f"The end: {winners} won.", style="bold green")
            else:
                message.append("The record ends here: the game was not finished.", style="bold")
        else:
            message.append("→ next · ← back · PgDn/PgUp round · Tab seat · ? help · q quit", style="dim")
        self.say(message)

    def _seen(self, event: dict[str, Any]) -> dict[str, Any]:
        return redact(event, self.fixed) if self.fixed is not None else event

    def action_step(self, delta: int) -> None:
        """One line forward or back."""
        self.index = max(0, min(len(self.steps) - 1, self.index + delta))
        self.show_step()

    def action_round(self, delta: int) -> None:
        """To the next round's deal, or back to this (or the previous) round's deal."""
        current = self.steps[self.index].round_no
        if delta > 0:
            later = [i for i, s in enumerate(self.steps) if s.round_no > current]
            self.index = later[0] if later else len(self.steps) - 1
        else:
            target = current - 1 if self.steps[self.index].event.get("type") == "deal" else current
            earlier = [i for i, s in enumerate(self.steps) if s.round_no == max(target, 1)]
            self.index = earlier[0] if earlier else 0
        self.show_step()

    def action_jump(self, index: int) -> None:
        """To the first (0) or the last (-1) line."""
        self.index = index % len(self.steps)
        self.show_step()

    def action_next_seat(self) -> None:
        """Put the next player's hand at the bottom (only when every hand is shown)."""
        if self.fixed is not None:
            self.say("This replay shows what one seat saw: its hand stays at the bottom.")
            return
        step = self.steps[self.index]
        active = step.views[0].active
        seats = [p for p in range(step.players) if p in active] or list(range(step.players))
        later = [p for p in seats if p > self.seat]
        self.seat = later[0] if later else seats[0]
        self.show_step()

    def action_help(self) -> None:
        """The rules of the recorded game and the keys."""
        self.app.push_screen(HelpScreen(self.steps[0].views[0].rules, self.REPLAY_KEYS))
