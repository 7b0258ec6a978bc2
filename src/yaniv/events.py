"""Events: everything that happens, as typed read-only values, and their redaction per seat.

Every event is a value of one of the classes below: a read-only JSON object (a ``dict``
whose items are the JSON of docs/formats.md §5, so records, the web protocol and the bot
protocol are unchanged) with typed attributes (``event.seat``, ``event.cards``) and a
closed ``type`` (:data:`EventType`). Build them with their constructors, read JSON with
:func:`event_from_json` (every field checked, errors naming it), and redact them with
:func:`redact`.

==============  ===============================================================
``deal``        ``round``, ``dealer``, ``starter``, ``players`` (seats in the round), ``tiebreak``,
                ``hands`` (per seat), ``stock`` (top first), ``discard_pile``
``discard``     ``seat``, ``cards``
``draw``        ``seat``, ``card`` (only the drawer and full records see it)
``take``        ``seat``, ``card``
``swap``        ``seat``, ``card`` (natural card given), ``position``
``slap``        ``seat``, ``card``
``reshuffle``   ``stock`` (top first; redacted to ``count``)
``yaniv``       ``seat``
``false_yaniv`` ``seat``
``asef``        ``seat``, ``card`` (the blind card, shown at the showdown)
``showdown``    ``hands`` (per seat, ``null`` for seats not in the round)
``round_end``   the round result (``RoundResult.to_dict()``)
``game_end``    ``winners``, ``totals``
``timeout``     ``seat``, ``decision``, ``stand_in``: a turn clock ran out and the stand-in played
==============  ===============================================================

>>> e = Discard(1, ["8S", "8D"])
>>> e, e.seat, e.cards
({'type': 'discard', 'seat': 1, 'cards': ['8S', '8D']}, 1, ['8S', '8D'])
>>> redact(Draw(0, "QH"), 1)
{'type': 'draw', 'seat': 0}
>>> event_from_json({"type": "take", "seat": 0, "card": "AD"}).card
'AD'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Generic, Literal, NoReturn, TypeVar, cast, get_args, overload

from .errors import YanivError

__all__ = [
    "EVENT_CLASSES",
    "HIDDEN_FROM_OTHERS",
    "Asef",
    "Deal",
    "Discard",
    "Draw",
    "Event",
    "EventError",
    "EventType",
    "FalseYaniv",
    "GameEnd",
    "Reshuffle",
    "RoundEnd",
    "Showdown",
    "Slap",
    "Swap",
    "Take",
    "Timeout",
    "YanivCall",
    "event_from_json",
    "redact",
]

EventType = Literal[
    "deal", "discard", "draw", "take", "swap", "slap", "reshuffle", "yaniv", "false_yaniv",
    "asef", "showdown", "round_end", "game_end", "timeout",
]  # fmt: skip
"""The closed set of event types."""

HIDDEN_FROM_OTHERS = frozenset({"draw"})
"""Event types whose card only the acting seat may see."""

T = TypeVar("T")


class EventError(YanivError, ValueError):
    """An event (JSON) is malformed: the message names the field."""


class _Field(Generic[T]):
    """A typed, read-only attribute reading the event's JSON field (of the same name by default)."""

    def __init__(self, key: str | None = None) -> None:
        self.key = key

    def __set_name__(self, owner: type, name: str) -> None:
        if self.key is None:
            self.key = name

    @overload
    def __get__(self, obj: None, owner: type) -> _Field[T]: ...
    @overload
    def __get__(self, obj: Event, owner: type) -> T: ...
    def __get__(self, obj: Event | None, owner: type) -> T | _Field[T]:
        if obj is None:
            return self
        return cast(T, dict.get(obj, self.key or ""))


class Event(dict[str, Any]):
    """One event: a read-only JSON object with typed attributes (see the module docstring)."""

    __slots__ = ()
    TYPE: ClassVar[EventType]
    """The ``type`` of events of this class."""
    FIELDS: ClassVar[tuple[str, ...]] = ()  # fields every event of the class carries
    """The fields every event of this class has, in JSON order (after ``type``)."""

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"a {self['type']} event cannot be changed: build a new one")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = __ior__ = _read_only

    @property
    def type(self) -> EventType:
        """The event's type."""
        kind: EventType = self["type"]
        return kind

    def replace(self, **changes: Any) -> Event:
        """A copy of the same type with some fields changed or added.

        A ``None`` value leaves out a field that is not in :attr:`FIELDS`. Redaction builds
        a seat's event this way.
        """
        out = self.__class__.__new__(self.__class__)
        items = {k: v for k, v in self.items() if k not in changes}
        items |= {k: v for k, v in changes.items() if v is not None or k in self.FIELDS}
        dict.__init__(out, items)
        return out

    def to_json(self) -> dict[str, Any]:
        """The plain JSON object (a new ``dict``)."""
        return dict(self)

    def __repr__(self) -> str:
        """The JSON object, as a dict prints."""
        return dict.__repr__(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (process pools) as the JSON it is."""
        return (event_from_json, (dict(self),))


def _init(event: Event, fields: dict[str, Any]) -> None:
    dict.__init__(event, {"type": event.TYPE, **fields})


class _SeatEvent(Event):
    __slots__ = ()
    FIELDS = ("seat",)
    seat: _Field[int] = _Field()

    def __init__(self, seat: int) -> None:
        """The event of *seat*."""
        dict.__init__(self, type=self.TYPE, seat=seat)  # one dict: the hot path of logged games


class _CardEvent(Event):
    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "card")
    seat: _Field[int] = _Field()
    card: _Field[str] = _Field()

    def __init__(self, seat: int, card: str) -> None:
        """*seat*'s event with *card*."""
        dict.__init__(self, type=self.TYPE, seat=seat, card=card)


class Deal(Event):
    """A round is dealt (S4).

    Redacted for a seat: the others' ``hands`` and the ``stock`` are ``None``;
    ``hand_counts`` and ``stock_count`` are added.
    """

    __slots__ = ()
    TYPE = "deal"
    FIELDS = ("round", "dealer", "starter", "players", "tiebreak", "hands", "stock", "discard_pile")
    round: _Field[int] = _Field()
    dealer: _Field[int] = _Field()
    starter: _Field[int] = _Field()
    players: _Field[list[int]] = _Field()
    tiebreak: _Field[bool] = _Field()
    hands: _Field[list[list[str] | None]] = _Field()
    stock: _Field[list[str] | None] = _Field()
    discard_pile: _Field[list[list[str]]] = _Field()
    hand_counts: _Field[list[int] | None] = _Field()
    stock_count: _Field[int | None] = _Field()

    def __init__(
        self,
        round: int,
        dealer: int,
        starter: int,
        players: list[int],
        tiebreak: bool,
        hands: list[list[str] | None],
        stock: list[str] | None,
        discard_pile: list[list[str]],
    ) -> None:
        """The deal of round *round*."""
        dict.__init__(  # one dict: every round of every game makes one
            self,
            type=self.TYPE,
            round=round,
            dealer=dealer,
            starter=starter,
            players=players,
            tiebreak=tiebreak,
            hands=hands,
            stock=stock,
            discard_pile=discard_pile,
        )


class Discard(Event):
    """A discard (S7): ``cards`` in the order laid."""

    __slots__ = ()
    TYPE = "discard"
    FIELDS = ("seat", "cards")
    seat: _Field[int] = _Field()
    cards: _Field[list[str]] = _Field()

    def __init__(self, seat: int, cards: list[str]) -> None:
        """*seat* lays *cards*."""
        dict.__init__(self, type=self.TYPE, seat=seat, cards=cards)


class Draw(_CardEvent):
    """The top of the stock taken (S8a); ``card`` is ``None`` in others' redacted view."""

    __slots__ = ()
    TYPE = "draw"
    FIELDS = ("seat",)
    card: _Field[str | None] = _Field()  # type: ignore[assignment]


class Take(_CardEvent):
    """A card taken from the previous group (S8b)."""

    __slots__ = ()
    TYPE = "take"


class Slap(_CardEvent):
    """A quick discard (S20)."""

    __slots__ = ()
    TYPE = "slap"


class Asef(_CardEvent):
    """The blind call (S21); ``card`` is the blind card."""

    __slots__ = ()
    TYPE = "asef"


class Swap(Event):
    """The joker exchange (S19): ``card`` given for the joker at ``position``."""

    __slots__ = ()
    TYPE = "swap"
    FIELDS = ("seat", "card", "position")
    seat: _Field[int] = _Field()
    card: _Field[str] = _Field()
    position: _Field[int] = _Field()

    def __init__(self, seat: int, card: str, position: int) -> None:
        """*seat* gives *card* for the joker at *position*."""
        _init(self, {"seat": seat, "card": card, "position": position})


class Reshuffle(Event):
    """The stock ran out and was rebuilt (S9); redacted to ``count``."""

    __slots__ = ()
    TYPE = "reshuffle"
    FIELDS = ()
    stock: _Field[list[str] | None] = _Field()
    count: _Field[int | None] = _Field()

    def __init__(self, stock: list[str]) -> None:
        """The new stock, top first."""
        _init(self, {"stock": stock})


class YanivCall(_SeatEvent):
    """Yaniv called (S10)."""

    __slots__ = ()
    TYPE = "yaniv"


class FalseYaniv(_SeatEvent):
    """An out-of-turn call (S18)."""

    __slots__ = ()
    TYPE = "false_yaniv"


class Showdown(Event):
    """Every hand shown after a call (``None`` for seats not in the round)."""

    __slots__ = ()
    TYPE = "showdown"
    FIELDS = ("hands",)
    hands: _Field[list[list[str] | None]] = _Field()

    def __init__(self, hands: list[list[str] | None]) -> None:
        """The hands shown."""
        _init(self, {"hands": hands})


class RoundEnd(Event):
    """The round's result (``RoundResult.to_dict()``'s fields, docs/formats.md §5.3)."""

    __slots__ = ()
    TYPE = "round_end"
    FIELDS = (
        "kind", "caller", "values", "assaf", "assafers", "round_scores", "totals", "landed",
        "eliminated", "next_starter", "game_over", "winners", "tiebreak",
    )  # fmt: skip
    kind: _Field[str] = _Field()
    caller: _Field[int] = _Field()
    hand_values: _Field[list[int | None]] = _Field("values")  # not .values: that is the dict's
    assaf: _Field[bool] = _Field()
    assafers: _Field[list[int]] = _Field()
    round_scores: _Field[list[int]] = _Field()
    totals: _Field[list[int]] = _Field()
    landed: _Field[list[int]] = _Field()
    eliminated: _Field[list[int]] = _Field()
    next_starter: _Field[int | None] = _Field()
    game_over: _Field[bool] = _Field()
    winners: _Field[list[int]] = _Field()
    tiebreak: _Field[list[int]] = _Field()

    def __init__(self, result: Mapping[str, Any]) -> None:
        """From a round result's dict (``RoundResult.to_dict()``)."""
        _init(self, {k: result[k] for k in self.FIELDS})


class GameEnd(Event):
    """The game is over."""

    __slots__ = ()
    TYPE = "game_end"
    FIELDS = ("winners", "totals")
    winners: _Field[list[int]] = _Field()
    totals: _Field[list[int]] = _Field()

    def __init__(self, winners: list[int], totals: list[int]) -> None:
        """The winners and the final totals."""
        _init(self, {"winners": winners, "totals": totals})


class Timeout(Event):
    """A person's turn clock ran out; the named stand-in bot played the decision."""

    __slots__ = ()
    TYPE = "timeout"
    FIELDS = ("seat", "decision", "stand_in")
    seat: _Field[int] = _Field()
    decision: _Field[str] = _Field()
    stand_in: _Field[str] = _Field()

    def __init__(self, seat: int, decision: str, stand_in: str) -> None:
        """*seat*'s *decision* (``turn``, ``take``, ``slap``) played by *stand_in*."""
        _init(self, {"seat": seat, "decision": decision, "stand_in": stand_in})


EVENT_CLASSES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        Deal, Discard, Draw, Take, Swap, Slap, Reshuffle, YanivCall, FalseYaniv, Asef, Showdown,
        RoundEnd, GameEnd, Timeout,
    )
}  # fmt: skip
"""The class of every event type."""
assert set(EVENT_CLASSES) == set(get_args(EventType))

# What every field of a full (unredacted) event must hold, for event_from_json.
_INT, _BOOL, _CARD, _CARDS, _INTS = "int", "bool", "card", "cards", "ints"
_SHAPES: dict[str, str] = {
    "seat": _INT, "round": _INT, "dealer": _INT, "starter": _INT, "position": _INT,
    "caller": _INT, "card": _CARD, "cards": _CARDS, "stock": _CARDS, "players": _INTS,
    "assafers": _INTS, "round_scores": _INTS, "totals": _INTS, "landed": _INTS,
    "eliminated": _INTS, "winners": _INTS, "tiebreak": _BOOL, "assaf": _BOOL, "game_over": _BOOL,
}  # fmt: skip


_REDACTED_TO_NULL = {("deal", "stock")}  # a seat's record keeps the field, as null


def _bad(kind: str, field: str, why: str) -> NoReturn:
    raise EventError(f"{kind} event field {field!r}: {why}")


def _check(kind: str, field: str, value: Any) -> None:
    if value is None and (kind, field) in _REDACTED_TO_NULL:
        return
    shape = _SHAPES.get(field)
    if field == "tiebreak" and kind == "round_end":
        shape = _INTS
    if shape == _INT:
        if not isinstance(value, int) or isinstance(value, bool) or not -(10**9) < value < 10**9:
            _bad(kind, field, f"must be a whole number, got {value!r}")
    elif shape == _BOOL:
        if not isinstance(value, bool):
            _bad(kind, field, f"must be true or false, got {value!r}")
    elif shape == _CARD:
        if not isinstance(value, str):
            _bad(kind, field, f"must be a card name, got {value!r}")
    elif shape == _CARDS:
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            _bad(kind, field, f"must be a list of card names, got {value!r}")
    elif shape == _INTS:
        if not isinstance(value, list) or not all(_whole(v) for v in value):
            _bad(kind, field, f"must be a list of whole numbers, got {value!r}")
    elif field in ("hands", "discard_pile") and not _card_lists(value, nulls=field == "hands"):
        _bad(kind, field, f"must be a list of card lists, got {value!r}")


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _card_lists(value: Any, nulls: bool) -> bool:
    return isinstance(value, list) and all(
        (g is None and nulls) or (isinstance(g, list) and all(isinstance(c, str) for c in g)) for g in value
    )


def event_from_json(data: Any) -> Event:
    """The typed event of a JSON object; :class:`EventError` names a wrong or missing field.

    Full events are checked field by field (the shapes of docs/formats.md §5); a field
    beyond those of its type is kept (redacted forms add ``hand_counts``, ``count`` …).
    """
    if not isinstance(data, dict):
        raise EventError(f"an event is a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    cls = EVENT_CLASSES.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        raise EventError(f"unknown event type {kind!r}; types are: {', '.join(EVENT_CLASSES)}")
    for field in cls.FIELDS:
        if field not in data:
            raise EventError(f"{kind} event field {field!r} is missing")
        _check(kind, field, data[field])
    for field, value in data.items():
        if field not in cls.FIELDS and field != "type" and value is not None:
            _check(kind, field, value)
    out = cls.__new__(cls)
    dict.__init__(out, data)
    return out


def redact(event: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """The event as *seat* may see it (``None``: a spectator, who sees no hand)."""
    kind = event["type"]
    if kind == "deal":
        if event.get("stock") is None:
            return dict(event) if not isinstance(event, dict) else event  # already redacted
        hands = event["hands"]
        changes = {
            "hands": [h if p == seat else None for p, h in enumerate(hands)],
            "stock": None,
            "hand_counts": [len(h) for h in hands],
            "stock_count": len(event["stock"]),
        }
        if isinstance(event, Event):
            return event.replace(**changes)
        return {**event, **changes}
    if kind in HIDDEN_FROM_OTHERS and event.get("seat") != seat:
        out = {k: v for k, v in event.items() if k != "card"}
        return _same_class(event, out)
    if kind == "reshuffle" and "stock" in event:
        return _same_class(event, {"type": "reshuffle", "count": len(event["stock"])})
    return event if isinstance(event, dict) else dict(event)


def _same_class(event: Mapping[str, Any], items: dict[str, Any]) -> dict[str, Any]:
    """*items* as an event of *event*'s class (a plain dict for a plain dict)."""
    if not isinstance(event, Event):
        return items
    out = event.__class__.__new__(event.__class__)
    dict.__init__(out, items)
    return out
