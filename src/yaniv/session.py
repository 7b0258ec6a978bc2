"""A person's game against the computer: opponents by difficulty, saved games, resuming.

Shared by the terminal app (:mod:`yaniv.tui`) and ``yaniv play --plain``. A
:class:`Session` is a :class:`~yaniv.game.Game` with one person's seat, a bot on every
other seat and the file the game is recorded in (DESIGN.md §4). Beside each record
``game-….jsonl`` a small ``game-….session.json`` remembers who sat where
(``{"seat": 0, "opponents": [null, "greedy", "expert:strong"]}``), so
:meth:`Session.resume_last` can seat the same opponents again.

Difficulties (docs/bots.md): ``beginner`` = ``random``, ``easy`` = ``greedy``,
``medium`` = ``heuristic``, ``hard`` = ``expert``, ``expert`` = ``expert:strong``.

>>> bot_spec("hard"), bot_spec("greedy"), level_of("expert:strong")
('expert', 'greedy', 'expert')
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .bots import LEVELS, Bot, make_bot
from .errors import RecordError, YanivError
from .game import Game
from .jsonio import JSONInputError, loads
from .match import bot_rngs
from .record import RecordWriter, resume
from .rules import Rules, brief_repr
from .table import Table

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "OPPONENT_NAMES",
    "Session",
    "bot_spec",
    "games_dir",
    "level_of",
    "make_opponent",
    "new_record_path",
    "seat_names",
    "unfinished_games",
]

DEFAULT_LEVEL = "medium"
"""The difficulty offered first."""
OPPONENT_NAMES = ("Avi", "Noa", "Eli", "Tamar", "Yoni", "Dana", "Omer", "Gali")
"""Names of the computer players, seat by seat."""


def bot_spec(text: str) -> str:
    """The bot spec of a difficulty or a bot spec (``NAME``, ``NAME:LEVEL``, ``cmd:…``).

    ``ValueError`` names the choices for anything else.
    """
    text = text.strip()
    if text in LEVELS:
        return LEVELS[text]
    if text.startswith("cmd:"):
        return text
    make_opponent(text)  # raises ValueError naming the choices
    return text


def level_of(spec: str) -> str | None:
    """The difficulty name of a bot spec, if it is one of :data:`LEVELS`."""
    for level, s in LEVELS.items():
        if s == spec:
            return level
    return None


def make_opponent(spec: str) -> Bot:
    """A new bot from a spec: ``NAME``, ``NAME:LEVEL`` (``expert:strong``), a difficulty or ``cmd:PROGRAM``.

    The one reading of bot specs is :func:`yaniv.bots.make_bot` (its ``ValueError``
    names the bots and the difficulties); this is it, under the name the front ends use.
    """
    return make_bot(spec)


def games_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where games are recorded: ``$XDG_DATA_HOME/yaniv/games`` (``~/.local/share/yaniv/games``)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "yaniv" / "games"


def new_record_path(directory: Path, seed: int | None) -> Path:
    """A fresh record file name in *directory* (created if missing): ``game-DATE-TIME-SEED.jsonl``."""
    directory.mkdir(parents=True, exist_ok=True)
    stem = f"game-{time.strftime('%Y%m%d-%H%M%S')}-{seed}"
    path = directory / f"{stem}.jsonl"
    n = 1
    while path.exists():
        n += 1
        path = directory / f"{stem}-{n}.jsonl"
    return path


def _seating_path(record: Path) -> Path:
    return record.with_name(record.stem + ".session.json")


def seat_names(name: str, players: int) -> list[str]:
    """The person's name on seat 0, then a distinct computer name on every other seat."""
    name = name.strip() or "You"
    others = [n for n in OPPONENT_NAMES if n.lower() != name.lower()]
    out = [name]
    for p in range(1, players):
        out.append(others[p - 1] if p - 1 < len(others) else f"Bot {p}")
    return out


def _last_type(path: Path) -> str | None:
    """The ``type`` of a record's last line (cheaply, from the end of the file)."""
    try:
        with path.open("rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 4096))
            tail = f.read().decode("utf-8", errors="replace")
    except OSError:
        return None
    lines = [x for x in tail.splitlines() if x.strip()]
    if not lines:
        return None
    try:
        kind = loads(lines[-1], "a record's last line").get("type")
    except (JSONInputError, AttributeError):
        return None
    return kind if isinstance(kind, str) else None


def unfinished_games(directory: Path) -> list[Path]:
    """Records in *directory* whose game has not ended, the most recently played first."""
    if not directory.is_dir():
        return []
    found = []
    for path in directory.glob("*.jsonl"):
        kind = _last_type(path)
        if kind is not None and kind != "game_end":
            try:
                found.append((path.stat().st_mtime, path))
            except OSError:
                continue
    return [p for _, p in sorted(found, key=lambda x: (x[0], x[1].name), reverse=True)]


@dataclass
class Session:
    """One person (``seat``) against bots (``opponents``: a spec per seat, ``None`` for the person)."""

    game: Game
    seat: int
    opponents: list[str | None]
    path: Path | None = None
    """The record file, if the game is recorded."""
    notice: str | None = None
    """What a front end should tell the person before play goes on (a seating file not read)."""
    bots: list[Bot | None] = field(init=False)
    rngs: list[random.Random] = field(init=False)
    table: Table = field(init=False)
    """The driver the game is played through: the person submits, the bots step."""

    def __post_init__(self) -> None:
        """Build the bots and their RNGs and seat them at the table."""
        if len(self.opponents) != self.game.n or self.opponents[self.seat] is not None:
            raise ValueError("opponents must name a bot for every seat but the person's")
        self.bots = [None if s is None else make_opponent(s) for s in self.opponents]
        self.rngs = bot_rngs(self.game.seed, self.game.n)
        # the front end decides when the next round is dealt (after the person has seen the scores)
        self.table = Table(self.game, self.bots, rngs=self.rngs, auto_deal=False)

    @classmethod
    def start(
        cls,
        rules: Rules | str,
        opponents: Sequence[str],
        *,
        name: str = "You",
        seed: int | None = None,
        record: Path | None = None,
    ) -> Session:
        """A new game: the person on seat 0, one bot spec per opponent.

        :func:`bot_spec` turns a difficulty into a spec. *record*: the file to record the
        game in (its seating is saved beside it). ``RulesError`` for a table the rules do
        not allow, ``ValueError`` for a bad bot.
        """
        for spec in opponents:
            if not spec.startswith("cmd:"):
                make_opponent(spec)  # a bad spec fails before any file is written
        specs: list[str | None] = [None, *opponents]
        players = len(specs)
        names = seat_names(name, players)
        seed = seed if seed is not None else int(time.time())
        game = Game(rules, players=players, seed=seed, names=names)
        if record is not None:
            game.subscribe(RecordWriter.create(record), replay=True)  # never over an existing file
        session = cls(game, 0, specs, record)
        if record is not None:
            session.save_seating()
        return session

    def save_seating(self) -> None:
        """Write who sits where beside the record (``….session.json``)."""
        if self.path is None:
            return
        data = {"seat": self.seat, "opponents": self.opponents}
        with contextlib.suppress(OSError):  # the record alone still resumes, with default opponents
            _seating_path(self.path).write_text(json.dumps(data) + "\n", encoding="utf-8")

    @classmethod
    def resume(cls, path: Path) -> Session:
        """Go on with the unfinished game recorded in *path* (:class:`RecordError` if it cannot)."""
        game = resume(path)
        seat, opponents = 0, [None] + [LEVELS[DEFAULT_LEVEL]] * (game.n - 1)
        seating, notice = _seating_path(path), None
        try:
            data = loads(seating.read_text(encoding="utf-8"), "the seating file")
            seat = int(data["seat"])
            saved = [None if s is None else str(s) for s in data["opponents"]]
            if len(saved) != game.n:
                raise ValueError(f"it seats {len(saved)} players for {game.n}")
            if not 0 <= seat < game.n or saved[seat] is not None:
                raise ValueError(f"no person on seat {seat}")
            for s in saved:
                if s is not None:
                    make_opponent(s)
            opponents = saved
        except FileNotFoundError:
            seat = 0  # a record alone: its game goes on against the default opponents, as documented
        except (OSError, ValueError, KeyError, TypeError) as e:
            seat = 0
            why = brief_repr(str(e) or type(e).__name__)[1:-1]
            notice = f"{seating.name} could not be used ({why}): you play seat 0 against {DEFAULT_LEVEL} bots"
        try:
            return cls(game, seat, opponents, path, notice)
        except ValueError as e:
            game.close()
            raise RecordError(f"{path}: {e}") from None

    @classmethod
    def resume_last(cls, directory: Path) -> Session:
        """Go on with the most recent unfinished game in *directory*; :class:`RecordError` if none."""
        problems = []
        for path in unfinished_games(directory):
            try:
                return cls.resume(path)
            except (RecordError, YanivError) as e:
                problems.append(str(e))
        detail = f" ({problems[0]})" if problems else ""
        raise RecordError(f"no unfinished game to resume in {directory}{detail}")

    def label(self, seat: int) -> str:
        """A seat's name with its difficulty (or bot), e.g. ``Avi (easy)``."""
        name = self.game.names[seat] if self.game.names else f"P{seat}"
        spec = self.opponents[seat]
        if spec is None:
            return name
        return f"{name} ({level_of(spec) or spec})"

    def close(self) -> None:
        """Close the record file (the game stays resumable if it is not over) and stop external bots."""
        self.game.close()
        for bot in self.bots:
            close = getattr(bot, "close", None)
            if close is not None:  # a program speaking the bot protocol
                close()
