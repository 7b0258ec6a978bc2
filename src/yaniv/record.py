"""Game records: JSON Lines write, read, replay and check (DESIGN.md §4).

A record is a header line then one line per event (see :mod:`yaniv.events`). A full
record carries every deal and every reshuffle order, so :func:`replay` rebuilds every
state exactly without the seed; :func:`check` replays a record and names the first line
that does not follow; :func:`replay_steps` replays it line by line (for a step-through
viewer) and :func:`resume` goes on with an unfinished game, appending to its file. A
seat's record (``Game.seat_events(seat)``) is the same events redacted for that seat: it
can be read and shown, not replayed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from .actions import Action
from .cards import KIND, parse_card
from .errors import RecordError, YanivError
from .events import EventError, Timeout, event_from_json
from .game import RECORD_FORMAT, RECORD_VERSION, Game
from .jsonio import JSONInputError, loads
from .rules import Rules

__all__ = [
    "RecordWriter",
    "ScriptedShuffler",
    "check",
    "read_record",
    "replay",
    "replay_steps",
    "resume",
    "write_record",
]

_ACTIONS = {"discard", "draw", "take", "swap", "slap", "yaniv", "false_yaniv", "asef"}
_NOTES = {"timeout"}  # events that change no state (Game.note): replayed as they are


class RecordWriter:
    """Writes a game's record as it is played: an observer of :meth:`Game.subscribe`.

    ``RecordWriter.create(path)`` makes a new file and refuses an existing one (a record
    is never overwritten); ``RecordWriter.append(path)`` continues an unfinished one.
    Either holds an exclusive lock on the file while it is open, so two programs never
    interleave their lines in one record (the second gets a :class:`RecordError`). The
    file is flushed after every change and closed at the game's end or :meth:`close`.
    """

    def __init__(self, out: IO[str], path: str | None = None, *, own: bool = True) -> None:
        """Write to the open text file *out* (closed by :meth:`close` when *own*)."""
        self.out: IO[str] | None = out
        self.path = path
        self.own = own

    @classmethod
    def create(cls, path: str | Path) -> RecordWriter:
        """A writer of a new record file; :class:`RecordError` if it exists or cannot be made."""
        try:
            out = open(path, "x", encoding="utf-8")  # noqa: SIM115 - closed at game end
        except FileExistsError:
            raise RecordError(f"{path} exists: a record is never overwritten; choose another file") from None
        except OSError as e:
            raise RecordError(f"cannot write record {path}: {e.strerror or e}") from None
        return cls._locked(out, str(path))

    @classmethod
    def append(cls, path: str | Path) -> RecordWriter:
        """A writer that continues the record in *path*; :class:`RecordError` if it is in use."""
        try:
            out = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed at game end
        except OSError as e:
            raise RecordError(f"cannot write record {path}: {e.strerror or e}") from None
        return cls._locked(out, str(path))

    @classmethod
    def _locked(cls, out: IO[str], path: str) -> RecordWriter:
        try:
            import fcntl
        except ImportError:  # not on this system: no lock, as before
            return cls(out, path)
        try:
            fcntl.flock(out.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            out.close()
            raise RecordError(
                f"{path} is being played in another window; finish or quit that game first"
            ) from None
        return cls(out, path)

    def __call__(self, events: Sequence[dict[str, Any]]) -> None:
        """Write *events* as JSON Lines and flush; close after the game's end."""
        out = self.out
        if out is None:
            return
        out.write("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events))
        out.flush()
        if events and events[-1].get("type") == "game_end":
            self.close()

    def close(self) -> None:
        """Close the file (the lock goes with it)."""
        out, self.out = self.out, None
        if out is not None and self.own:
            out.close()

    @property
    def closed(self) -> bool:
        """Whether nothing more will be written."""
        return self.out is None


def write_record(events: Iterable[dict[str, Any]], out: str | Path | IO[str]) -> None:
    """Write events (header first) as JSON Lines to a path or an open text file."""
    lines = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)
    if isinstance(out, (str, Path)):
        Path(out).write_text(lines, encoding="utf-8")
    else:
        out.write(lines)


def read_record(source: str | Path | IO[str] | Iterable[str]) -> list[dict[str, Any]]:
    """Read a JSON Lines record; a :class:`RecordError` names the first bad line."""
    if isinstance(source, (str, Path)):
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as e:
            raise RecordError(f"cannot read record {source}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise RecordError(f"record {source} is not UTF-8 text") from None
        lines: Iterable[str] = text.splitlines()
    else:
        lines = source
    events = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            event = loads(line, f"line {number}")
        except JSONInputError as e:
            raise RecordError(str(e)) from None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise RecordError(f"line {number}: an event is a JSON object with a 'type'")
        event["_line"] = number
        events.append(event)
    if not events:
        raise RecordError("the record is empty")
    header = events[0]
    if header["type"] != "header":
        raise RecordError(f"line {header['_line']}: the first line must be the header")
    if header.get("format") != RECORD_FORMAT:
        raise RecordError(f"line {header['_line']}: format must be {RECORD_FORMAT!r}")
    if header.get("version") != RECORD_VERSION:
        raise RecordError(
            f"line {header['_line']}: record version {header.get('version')!r} is not "
            f"supported (this engine reads version {RECORD_VERSION})"
        )
    for event in events[1:]:
        try:
            event_from_json({k: v for k, v in event.items() if k != "_line"})  # every field checked
        except EventError as e:
            raise RecordError(f"line {event['_line']}: {e}") from None
    return events


class ScriptedShuffler:
    """Plays back recorded reshuffle orders instead of shuffling (for replays)."""

    def __init__(self, orders: list[tuple[int, list[str]]]) -> None:
        """*orders*: (line number, stock top first) of each reshuffle of one round."""
        self.orders = list(orders)

    def shuffle(self, cards: list[Any], /) -> None:
        """Reorder *cards* (physical ids) to the next recorded order."""
        if not self.orders:
            raise RecordError("the game reshuffled the stock here but the record has no reshuffle")
        line, names = self.orders.pop(0)
        pool: dict[int, list[int]] = {}
        for c in cards:
            pool.setdefault(KIND[c], []).append(c)
        ordered = []
        try:
            for name in names:
                ordered.append(pool[parse_card(name)].pop())
        except (KeyError, IndexError, ValueError):
            raise RecordError(f"line {line}: the reshuffled stock is not the discard pile's cards") from None
        if len(ordered) != len(cards):
            raise RecordError(f"line {line}: the reshuffled stock is not the discard pile's cards")
        cards[:] = list(reversed(ordered))


def _comparable(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in ("_line", "started")}


def replay(events: list[dict[str, Any]]) -> Game:
    """Rebuild a game from a full record; :class:`RecordError` names the first bad line."""
    steps = replay_steps(events)
    game, _header = next(steps)  # the same Game object is yielded after every line
    for _step in steps:
        pass
    return game


def replay_steps(events: list[dict[str, Any]]) -> Iterator[tuple[Game, dict[str, Any]]]:
    """Replay a full record line by line: yields the game and the line just replayed.

    The first item is the game as built from the header (round 1 dealt) with the header
    line; then one item per following line, the same :class:`Game` object each time, in
    the state right after that line. A :class:`RecordError` names the first bad line
    (raised when it is reached, so the steps before it have been seen).
    """
    header = events[0]
    if header.get("redacted"):
        raise RecordError(
            f"line {header['_line']}: this is seat {header.get('seat')}'s redacted record: "
            "it can be shown (yaniv replay) but not replayed, as it lacks the hidden cards"
        )
    try:
        rules = Rules.from_dict(header["rules"])
        named = header.get("rules_string")
        if isinstance(named, str):
            try:
                if Rules.from_spec(named) == rules:
                    rules = Rules.from_spec(named)  # keeps the preset name it was played as
            except YanivError:
                pass
        players = header["players"]
        deals = {e.get("round"): e for e in events if e["type"] == "deal"}
        if 1 not in deals:
            raise RecordError("the record has no deal of round 1")
        reshuffles: dict[int, list[tuple[int, list[str]]]] = {}
        round_no = 0
        for e in events:
            if e["type"] == "deal":
                round_no = e.get("round", 0)
            elif e["type"] == "reshuffle":
                reshuffles.setdefault(round_no, []).append((e["_line"], e.get("stock") or []))
        game = Game(
            rules,
            players=players,
            seed=header.get("seed"),
            dealer=header.get("dealer", 0),
            names=header.get("names"),
            _deals=lambda r: deals[r],
            _shufflers=lambda r: ScriptedShuffler(reshuffles.get(r, [])),
        )
    except RecordError:
        raise
    except (YanivError, KeyError, TypeError, ValueError) as err:
        raise RecordError(f"line {header['_line']}: bad header or deal: {err}") from None
    yield game, header
    produced = 1  # game.events[0] is the header
    for e in events[1:]:
        line = e["_line"]
        kind = e["type"]
        try:
            if kind == "deal" and e.get("round", 1) > 1:
                game.next_round()
            elif kind in _ACTIONS:
                game.apply(e["seat"], _action_of(e))
            elif kind in _NOTES:
                game.note(Timeout(e["seat"], e["decision"], e["stand_in"]))
        except (YanivError, KeyError, TypeError, ValueError) as err:
            raise RecordError(f"line {line}: {kind} does not follow: {err}") from None
        if produced >= len(game.events):
            raise RecordError(f"line {line}: the game produced no {kind} event here")
        mine = _comparable(game.events[produced])
        if mine != _comparable(e):
            raise RecordError(
                f"line {line}: recorded {json.dumps(_comparable(e))} but the game gives {json.dumps(mine)}"
            )
        produced += 1
        yield game, e
    if produced != len(game.events):
        extra = game.events[produced]
        raise RecordError(f"the record ends early: the game goes on with a {extra['type']} event")


def resume(path: str | Path) -> Game:
    """Rebuild the unfinished game recorded in *path* and keep recording into that file.

    The record is read and replayed (a :class:`RecordError` names a bad line); the game
    then goes on as described at :meth:`Game.resume`, appending its events to *path*
    (a :class:`RecordWriter` holding the file's lock: a game resumed twice at once is
    refused the second time).
    """
    game = replay(read_record(path))
    if game.over:
        raise RecordError(f"{path}: the game is over; there is nothing to resume")
    game.resume()
    game.subscribe(RecordWriter.append(path))
    return game


def _action_of(event: dict[str, Any]) -> Action:
    kind = event["type"]
    if kind == "discard":
        return Action.discard(event["cards"])
    if kind in ("take", "swap", "slap"):
        return Action(kind, card=Action.take(event["card"]).card)
    if kind == "false_yaniv":
        return Action.yaniv()
    return Action(kind)


def check(source: str | Path | IO[str] | Iterable[str]) -> Game:
    """Read and replay a record; returns the replayed game or raises :class:`RecordError`."""
    return replay(read_record(source))
