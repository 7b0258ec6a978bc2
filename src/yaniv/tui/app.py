"""The Textual application: start screen, table, rematches, the replay viewer."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from textual.app import App

from ..errors import RecordError
from ..session import Session, bot_spec, level_of, new_record_path
from .play import TableScreen
from .replay import ReplayScreen, ReplayStep, replay_states
from .screens import Settings, SetupScreen

__all__ = ["YanivApp", "replay_states", "run_game", "run_replay"]


class YanivApp(App[int]):
    """Yaniv against the computer in the terminal (or a replay, with *replay* steps).

    Without a *session* the start screen asks for the rules and the opponents. New
    games are recorded in *records* (a directory; ``None``: not recorded), the first one
    in *record* if given. *delay* is the pause between the computer's moves in seconds.
    """

    TITLE = "Yaniv"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { background: $background; }
    """

    def __init__(
        self,
        session: Session | None = None,
        *,
        records: Path | None = None,
        delay: float = 0.8,
        name: str | None = None,
        settings: Settings | None = None,
        record: Path | None = None,
        replay: Sequence[ReplayStep] | None = None,
        replay_names: Sequence[str] = (),
        replay_seat: int | None = None,
        replay_problem: str | None = None,
    ) -> None:
        """Set the app up; nothing is shown before it runs."""
        super().__init__()
        self.session = session
        self.records = records
        self.delay = delay
        self.settings = settings
        self._first_record = record
        if settings is None and session is None and name:
            start = SetupScreen().defaults
            self.settings = Settings(start.rules, start.levels, name)
        self._replay = list(replay) if replay is not None else None
        self._replay_names = list(replay_names)
        self._replay_seat = replay_seat
        self._replay_problem = replay_problem

    def on_mount(self) -> None:
        """The first screen: the replay, the table of a given game, or the start screen."""
        if self._replay is not None:
            self.push_screen(
                ReplayScreen(
                    self._replay, self._replay_names, seat=self._replay_seat, problem=self._replay_problem
                )
            )
        elif self.session is not None:
            self.push_screen(self._table(self.session))
        else:
            self.ask_settings()

    def ask_settings(self) -> None:
        """Show the start screen; its choices start a game."""
        self.push_screen(SetupScreen(self.settings), self._settings_chosen)

    def _settings_chosen(self, settings: Settings | None) -> None:
        if settings is not None:
            self.start_game(settings)

    def start_game(self, settings: Settings) -> None:
        """A new game with *settings*, recorded in the records directory (the first in *record*)."""
        self.settings = settings
        seed = settings.seed
        if seed is None:
            import time

            seed = int(time.time())
        record, self._first_record = self._first_record, None
        if record is None and self.records is not None:
            try:
                record = new_record_path(self.records, seed)
            except OSError:
                record = None
        opponents = [bot_spec(level) for level in settings.levels]
        session = Session.start(settings.rules, opponents, name=settings.name, seed=seed, record=record)
        self._replace_session(session)
        table = self._table(session)
        if isinstance(self.screen, TableScreen):
            self.switch_screen(table)
        else:
            self.push_screen(table)

    def _replace_session(self, session: Session | None) -> None:
        if self.session is not None and self.session is not session:
            self.session.close()
        self.session = session

    def _table(self, session: Session) -> TableScreen:
        return TableScreen(session, delay=self.delay, leave=self.leave)

    def current_settings(self) -> Settings:
        """The settings of the game being played (for a rematch)."""
        session = self.session
        if session is None:
            return self.settings or SetupScreen().defaults
        game = session.game
        levels = tuple(level_of(s) or s for s in session.opponents if s is not None)
        name = game.names[session.seat] if game.names else "You"
        return Settings(game.rules, levels, name, None)

    def leave(self, what: str) -> None:
        """From the table: ``rematch`` (same table, next seed), ``new`` (start screen) or ``quit``.

        The screens change from the app's own message loop, not the table's: a screen
        pushed from a handler of the table would hand its result to the table, which is
        gone by then (the start screen's choice was lost and the screen stayed blank).
        """
        self.call_next(self._leave, what)

    def _leave(self, what: str) -> None:
        if what == "quit":
            self.exit(0)
            return
        settings = self.current_settings()
        if what == "rematch":
            seed = self.session.game.seed if self.session is not None else None
            next_seed = seed + 1 if isinstance(seed, int) else None
            self.start_game(Settings(settings.rules, settings.levels, settings.name, next_seed))
        elif what == "new":
            self.settings = settings
            if isinstance(self.screen, TableScreen):
                self.pop_screen()
            self._replace_session(None)
            self.ask_settings()


def run_replay(events: list[dict[str, Any]], *, seat: int | None = None) -> int:
    """Open the step-through viewer on a full record (:class:`RecordError` if it cannot be replayed)."""
    steps, problem = replay_states(events)
    header = events[0]
    players = steps[0].players
    names = header.get("names") or [f"P{p}" for p in range(players)]
    if seat is not None and not 0 <= seat < players:
        raise RecordError(f"there is no seat {seat}: seats are 0..{players - 1}")
    app = YanivApp(replay=steps, replay_names=names, replay_seat=seat, replay_problem=problem)
    app.run()
    return app.return_code or 0


def run_game(
    session: Session | None,
    *,
    records: Path | None,
    delay: float = 0.8,
    name: str | None = None,
    record: Path | None = None,
    out: TextIO | None = None,
) -> int:
    """Run the app on a game (or the start screen); says where an unfinished game is saved."""
    app = YanivApp(session, records=records, delay=delay, name=name, record=record)
    try:
        app.run()
    finally:
        last = app.session
        if last is not None:
            last.close()
    stream = out or sys.stdout
    if last is not None and not last.game.over and last.path is not None:
        stream.write(f"The game is saved in {last.path}; 'yaniv play --resume' continues it.\n")
    return app.return_code or 0
