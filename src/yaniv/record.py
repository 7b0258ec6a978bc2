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
from .cards import DECK_SIZE, KIND, CardAllocator, parse_card
from .errors import RecordError, YanivError
from .events import EventError, Timeout, event_from_json
from .game import MAX_NAME_CHARS, RECORD_FORMAT, RECORD_VERSION, Game, is_player_name
from .jsonio import JSONInputError, loads
from .rules import MAX_PLAYERS, Rules, brief_repr

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

MAX_RECORD_BYTES = 64 * 1024 * 1024
"""The largest record file read (a long game is well under a megabyte)."""
MAX_MESSAGE = 400
"""The most characters of a record's own text quoted in one error message."""

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


def _clip(text: str) -> str:
    """*text* cut to :data:`MAX_MESSAGE` characters (a message never carries a whole line)."""
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def _read_file(path: str | Path) -> str:
    """The text of a record file, read no further than :data:`MAX_RECORD_BYTES`.

    Bounded so that a huge file, or a device or pipe without end, is refused instead of
    filling the memory.
    """
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise RecordError(f"cannot read record {path}: {e.strerror or e}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"record {path} is too large (more than {MAX_RECORD_BYTES // 2**20} MiB)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"record {path} is not UTF-8 text") from None


def read_record(source: str | Path | IO[str] | Iterable[str]) -> list[dict[str, Any]]:
    """Read a JSON Lines record; a :class:`RecordError` names the first bad line.

    Every line is checked: the header field by field (:func:`check_header`), every
    event by :func:`yaniv.events.event_from_json` and its seats against the header's
    number of players. Whether the events follow from each other is :func:`replay`'s.
    """
    if isinstance(source, (str, Path)):
        lines: Iterable[str] = _read_file(source).splitlines()
    else:
        lines = source
    events = []
    items: Iterable[object] = lines  # read as objects: a compiled build checks a str at once
    for number, item in enumerate(items, 1):
        if not isinstance(item, str):  # an iterable of something else than lines of text
            raise RecordError(f"line {number}: a record line is text, got {type(item).__name__}")
        line = item
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
    check_header(header)
    players = header["players"]
    for event in events[1:]:
        at = event["_line"]  # an int (``line`` is the text above: one type per name, for mypyc)
        if event["type"] == "header":
            raise RecordError(f"line {at}: a second header (only the first line is the header)")
        try:
            event_from_json({k: v for k, v in event.items() if k != "_line"})  # every field checked
        except EventError as e:
            raise RecordError(_clip(f"line {at}: {e}")) from None
        _check_seats(event, players)
    return events


_HEADER_REQUIRED = ("rules", "players", "dealer")  # besides format and version, checked first


def check_header(header: dict[str, Any]) -> Rules:
    """Check a record's header field by field (docs/formats.md §6); returns its rules.

    A :class:`RecordError` names the line and the field. ``format``, ``version``,
    ``rules``, ``players`` and ``dealer`` are required; ``rules_string``, ``names``,
    ``seed`` and ``started`` are optional (a seat's record has no ``seed`` but
    ``redacted`` and ``seat``); a field this engine does not know is left alone.
    """
    where = f"line {header.get('_line', 1)}"

    def bad(field: str, why: str) -> RecordError:
        return RecordError(_clip(f"{where}: header field {field!r} {why}"))

    if header.get("format") != RECORD_FORMAT:
        raise RecordError(
            f"{where}: format must be {RECORD_FORMAT!r}, got {brief_repr(header.get('format'))}"
        )
    version = header.get("version")
    if not _whole(version) or version != RECORD_VERSION:
        raise RecordError(
            f"{where}: record version {brief_repr(version)} is not supported "
            f"(this engine reads version {RECORD_VERSION})"
        )
    for field in _HEADER_REQUIRED:
        if field not in header:
            raise bad(field, "is missing")
    try:
        rules = Rules.from_dict(header["rules"])
    except YanivError as e:
        raise bad("rules", f"is not a rule set: {e}") from None
    named = header.get("rules_string")
    if named is not None:
        if not isinstance(named, str):
            raise bad("rules_string", f"must be a game string, got {brief_repr(named)}")
        try:
            same = Rules.from_spec(named) == rules
        except YanivError:
            same = False
        if not same:
            raise bad("rules_string", f"{brief_repr(named)} does not name the header's 'rules'")
    players = header["players"]
    if not _whole(players) or not 2 <= players <= MAX_PLAYERS:
        raise bad("players", f"must be a number of players 2..{MAX_PLAYERS}, got {brief_repr(players)}")
    problem = rules.players_problem(players)
    if problem:
        raise bad("players", f"does not fit the rules: {problem}")
    names = header.get("names")
    if names is not None and (
        not isinstance(names, list) or len(names) != players or not all(is_player_name(x) for x in names)
    ):
        raise bad(
            "names",
            f"must be null or list {players} printable names of 1 to {MAX_NAME_CHARS} characters, "
            f"got {brief_repr(names)}",
        )
    seed = header.get("seed")
    if seed is not None and not _whole(seed):
        raise bad("seed", f"must be a whole number or null, got {brief_repr(seed)}")
    dealer = header["dealer"]
    if not _whole(dealer) or not 0 <= dealer < players:
        raise bad("dealer", f"must be a seat 0..{players - 1}, got {brief_repr(dealer)}")
    for field in ("started",):
        if field in header and not isinstance(header[field], str):
            raise bad(field, f"must be text, got {brief_repr(header[field])}")
    if "redacted" in header and not isinstance(header["redacted"], bool):
        raise bad("redacted", "must be true or false")
    seat = header.get("seat")
    if seat is not None and (not _whole(seat) or not 0 <= seat < players):
        raise bad("seat", f"must be null or a seat 0..{players - 1}, got {brief_repr(seat)}")
    return rules


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_seats(event: dict[str, Any], players: int) -> None:
    """Every seat an event names lies in the game (formats §5): a RecordError names the field."""
    line, kind = event["_line"], event["type"]

    def seat(field: str, value: Any) -> None:
        if _whole(value) and not 0 <= value < players:
            raise RecordError(
                f"line {line}: {kind} event field {field!r}: no seat {value} in a game of {players}"
            )

    for field in ("seat", "dealer", "starter", "caller", "next_starter"):
        if field in event:
            seat(field, event[field])
    for field in ("players", "assafers", "landed", "eliminated", "winners", "tiebreak"):
        if isinstance(event.get(field), list):
            for value in event[field]:
                seat(field, value)
    for field in ("hands", "hand_counts", "values", "round_scores", "totals"):
        value = event.get(field)
        if isinstance(value, list) and len(value) != players:
            raise RecordError(
                f"line {line}: {kind} event field {field!r} must have one entry per seat ({players}), "
                f"got {len(value)}"
            )


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
    rules = check_header(header)  # read_record checked it; events built by hand may not be
    named = header.get("rules_string")
    if isinstance(named, str) and Rules.from_spec(named) == rules:
        rules = Rules.from_spec(named)  # keeps the preset name it was played as
    players = header["players"]
    deals: dict[int, dict[str, Any]] = {}
    for e in events:
        if e["type"] == "deal":
            deals.setdefault(e.get("round", 0), e)
    if 1 not in deals:
        raise RecordError("the record has no deal of round 1")
    reshuffles: dict[int, list[tuple[int, list[str]]]] = {}
    round_no = 0
    for e in events:
        if e["type"] == "deal":
            round_no = e.get("round", 0)
        elif e["type"] == "reshuffle":
            reshuffles.setdefault(round_no, []).append((e["_line"], e.get("stock") or []))
    built: list[Game] = []  # the game, once built: a later round's deal is checked against it

    def deal_of(round_no: int) -> dict[str, Any]:
        deal = deals.get(round_no)
        if deal is None:
            raise RecordError(f"the record has no deal of round {round_no}")
        dealer = header["dealer"] if round_no == 1 else built[0].dealer
        _check_deal(deal, rules, players, dealer)
        return deal

    try:
        game = Game(
            rules,
            players=players,
            seed=header.get("seed"),
            dealer=header["dealer"],
            names=header.get("names"),
            _deals=deal_of,
            _shufflers=lambda r: ScriptedShuffler(reshuffles.get(r, [])),
        )
    except RecordError:
        raise
    except YanivError as err:
        raise RecordError(_clip(f"line {header['_line']}: bad header: {err}")) from None
    built.append(game)
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
        except RecordError:
            raise
        except (YanivError, KeyError, TypeError, ValueError) as err:
            raise RecordError(_clip(f"line {line}: {kind} does not follow: {err}")) from None
        if produced >= len(game.events):
            raise RecordError(f"line {line}: the game produced no {kind} event here")
        mine = _comparable(game.events[produced])
        # compared as JSON text: in Python true == 1 and 1.0 == 1, in a record they differ
        if json.dumps(mine, sort_keys=True) != json.dumps(_comparable(e), sort_keys=True):
            raise RecordError(
                f"line {line}: recorded {_clip(json.dumps(_comparable(e)))} "
                f"but the game gives {_clip(json.dumps(mine))}"
            )
        produced += 1
        yield game, e
    if produced != len(game.events):
        extra = game.events[produced]
        raise RecordError(f"the record ends early: the game goes on with a {extra['type']} event")


def _check_deal(deal: dict[str, Any], rules: Rules, players: int, dealer: int) -> None:
    """A recorded deal as the engine deals (S4): a RecordError names the deal's own line.

    Every seat of the round holds ``hand_size`` cards, the others none; the pile is the
    start card alone (none without ``start_card``); the hands, the stock and the pile
    are the whole deck(s), each card once; the dealer is the game's (the header's in
    round 1, then passed clockwise), and the first round's starter is the rules' (left
    of the dealer, unless ``first_starter`` is random).
    """
    line = deal["_line"]

    def bad(why: str) -> RecordError:
        return RecordError(_clip(f"line {line}: deal of round {deal.get('round')}: {why}"))

    for field in ("hands", "stock", "discard_pile", "players", "dealer", "starter"):
        if deal.get(field) is None:
            raise bad(f"field {field!r} is missing or null (a seat's record cannot be replayed)")
    if deal["dealer"] != dealer:
        raise bad(f"the dealer is seat {dealer}, not {brief_repr(deal['dealer'])}")
    seats, hands, stock, pile = deal["players"], deal["hands"], deal["stock"], deal["discard_pile"]
    if len(hands) != players:
        raise bad(f"'hands' must have one hand per seat ({players}), got {len(hands)}")
    for p, hand in enumerate(hands):
        want = rules.hand_size if p in seats else 0
        if hand is None or len(hand) != want:
            got = "null" if hand is None else f"{len(hand)} cards"
            raise bad(f"'hands[{p}]' must hold {want} cards, got {got}")
    if deal["starter"] not in seats:
        raise bad(f"the starter {brief_repr(deal['starter'])} is not a seat of the round")
    left = (dealer + 1) % players
    if deal.get("round") == 1 and rules.first_starter == "left_of_dealer" and deal["starter"] != left:
        raise bad(f"the first round is started left of the dealer, by seat {left}")
    if [len(g) for g in pile] != ([1] if rules.start_card else []):
        alone = "the start card alone" if rules.start_card else "empty (the rules turn up no start card)"
        raise bad(f"the discard pile must be {alone}")
    decks = rules.decks_for(players)
    alloc = CardAllocator(decks)
    named = [(f"hands[{p}]", hand) for p, hand in enumerate(hands)] + [
        ("stock", stock),
        ("discard_pile", pile[0] if pile else []),
    ]
    try:
        for field, cards in named:
            for name in cards:
                alloc.take(name, field)
    except YanivError as err:
        raise bad(str(err).removeprefix("position field ")) from None
    count = sum(len(cards) for _, cards in named)
    if count != DECK_SIZE * decks:
        raise bad(f"the hands, stock and discard pile hold {count} cards, not the deck's {DECK_SIZE * decks}")


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
