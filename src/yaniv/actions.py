"""Actions: one small value type with JSON and text notation (DESIGN.md §4).

=========  =====================================  ==========================
type       JSON                                   text
=========  =====================================  ==========================
yaniv      ``{"type": "yaniv"}``                  ``yaniv``
discard    ``{"type": "discard", "cards": [..]}`` ``discard 7H 8H 9H``
draw       ``{"type": "draw"}``                   ``draw``
take       ``{"type": "take", "card": "9H"}``     ``take 9H``
swap       ``{"type": "swap", "card": "7S"}``     ``swap 7S``
slap       ``{"type": "slap", "card": "4C"}``     ``slap 4C``
asef       ``{"type": "asef"}``                   ``asef``
turn       ``{"type": "turn", "discard": [..],    ``discard 7H 8H 9H; draw`` or
           "take": "stock" | CARD}``              ``discard 7H 8H 9H; take 9H``
=========  =====================================  ==========================

Text is read leniently: any case, ``stock`` for ``draw``, a bare card list for a
discard (``7h 8h 9h``), ``/`` or ``;`` between the two halves of a turn.

>>> Action.parse("7h8h9h / take 9h")
Action.parse('discard 7H 8H 9H; take 9H')
>>> Action.from_json({"type": "draw"}).to_json()
{'type': 'draw'}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, Literal, get_args

from .cards import Card, format_cards, parse_cards
from .errors import InvalidNotationError

__all__ = ["ACTION_TYPES", "Action", "ActionType"]

ActionType = Literal["yaniv", "discard", "draw", "take", "swap", "slap", "asef", "turn"]
"""The closed set of action types."""
ACTION_TYPES: tuple[ActionType, ...] = get_args(ActionType)
"""Every action type."""
_TYPE_OF: Final[dict[str, ActionType]] = {t: t for t in ACTION_TYPES}  # a word read to its closed type

_CARD_ACTIONS = ("take", "swap", "slap")


def _all_cards(cards: tuple[object, ...]) -> bool:
    """Whether every item is a :class:`Card` (a plain loop: it runs per action made)."""
    for c in cards:  # noqa: SIM110 (a generator is slower, compiled or not)
        if not isinstance(c, Card):
            return False
    return True


_FIELDS = {
    "yaniv": set(),
    "draw": set(),
    "asef": set(),
    "discard": {"cards"},
    "take": {"card"},
    "swap": {"card"},
    "slap": {"card"},
    "turn": {"discard", "take"},
}


class Action:
    """One action of a seat: a read-only value (equal and hashed by its three fields).

    ``cards`` is the discard (``discard``, ``turn``); ``card`` the taken, swapped or
    slapped card (``take``, ``swap``, ``slap``, and ``turn`` unless it draws). Cards may
    be given as :class:`Card` values, physical ids or notation; they are kept as cards.
    """

    __slots__ = ("_card", "_cards", "_type")

    # A plain class, not a dataclass: a compiled build runs a dataclass's generated
    # __init__ as interpreted code (once per legal action listed), and its Card-typed
    # fields would refuse a physical id given as a plain int. Read-only by properties.
    _type: ActionType
    _cards: tuple[Card, ...]
    _card: Card | None

    def __init__(
        self,
        type: ActionType | object,
        cards: Iterable[str | int] | str = (),
        card: str | int | object | None = None,
    ) -> None:
        """The action; InvalidNotationError if the fields do not fit the type.

        Any value is checked (``| object``: a compiled build would otherwise refuse a
        wrong type with a bare ``TypeError``).
        """
        kind = _TYPE_OF.get(type) if isinstance(type, str) else None
        if kind is None:
            raise InvalidNotationError(f"unknown action type {type!r}; types are: {', '.join(ACTION_TYPES)}")
        if not isinstance(cards, tuple) or not _all_cards(cards):
            cards = tuple(parse_cards(cards))
        if card is not None and not isinstance(card, Card):
            if isinstance(card, (str, int)):
                card = parse_cards([card])[0]
            else:
                raise InvalidNotationError(f"{card!r} is not a card")
        if not cards and (kind == "discard" or kind == "turn"):
            raise InvalidNotationError(f"a {kind} action needs the cards to discard")
        if card is None and kind in _CARD_ACTIONS:
            raise InvalidNotationError(f"a {kind} action needs a card")
        self._type = kind
        self._cards = cards
        self._card = card

    @property
    def type(self) -> ActionType:
        """The action type."""
        return self._type

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards discarded (``discard``, ``turn``), in the order laid; else empty."""
        return self._cards

    @property
    def card(self) -> Card | None:
        """The card taken, swapped or slapped (``turn``: taken, or ``None`` for the stock)."""
        return self._card

    def __eq__(self, other: object) -> bool:
        """Equal when the type and both card fields are."""
        if not isinstance(other, Action):
            return NotImplemented
        return self._type == other._type and self._cards == other._cards and self._card == other._card

    def __hash__(self) -> int:
        """The hash of the three fields."""
        return hash((self._type, self._cards, self._card))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (process pools) as the constructor's arguments."""
        return (Action, (self._type, self._cards, self._card))

    # ----- constructors -----

    @classmethod
    def yaniv(cls) -> Action:
        """Call Yaniv (S10)."""
        return _YANIV

    @classmethod
    def draw(cls) -> Action:
        """Take the top card of the stock (S8a)."""
        return _DRAW

    @classmethod
    def asef(cls) -> Action:
        """Call Asef after discarding one's last card (S21)."""
        return _ASEF

    @classmethod
    def discard(cls, cards: Iterable[str | int] | str) -> Action:
        """Discard these cards, in the order laid (S7)."""
        return cls("discard", tuple(parse_cards(cards)))

    @classmethod
    def take(cls, card: str | int) -> Action:
        """Take a takeable card of the previous group (S8b)."""
        return cls("take", card=parse_cards([card])[0])

    @classmethod
    def swap(cls, card: str | int) -> Action:
        """Exchange this natural card for the joker standing for it (S19)."""
        return cls("swap", card=parse_cards([card])[0])

    @classmethod
    def slap(cls, card: str | int) -> Action:
        """Add the card just drawn to one's discard (S20)."""
        return cls("slap", card=parse_cards([card])[0])

    @classmethod
    def turn(cls, discard: Iterable[str | int] | str, take: str | int | None = None) -> Action:
        """A whole turn: a discard, then the stock (``take=None``/``"stock"``) or a card."""
        card = None if take is None or take == "stock" else parse_cards([take])[0]
        return cls("turn", tuple(parse_cards(discard)), card)

    # ----- the two halves of a compound turn -----

    def halves(self) -> tuple[Action, Action]:
        """A ``turn`` as its discard action and its take action."""
        if self.type != "turn":
            raise ValueError("only a turn action has halves")
        take = _DRAW if self.card is None else Action("take", card=self.card)
        return Action("discard", self.cards), take

    # ----- notation -----

    def __str__(self) -> str:
        """The canonical text notation."""
        if self.type == "discard":
            return f"discard {format_cards(self.cards)}"
        if self.type in _CARD_ACTIONS:
            return f"{self.type} {self.card}"
        if self.type == "turn":
            second = "draw" if self.card is None else f"take {self.card}"
            return f"discard {format_cards(self.cards)}; {second}"
        return self.type

    def __repr__(self) -> str:
        """Code that rebuilds the action."""
        return f"Action.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the text notation leniently."""
        if not isinstance(text, str):
            raise InvalidNotationError(f"an action must be text, got {text!r}")
        for sep in (";", "/", ">"):
            if sep in text:
                first, second = text.split(sep, 1)
                discard = cls.parse(first)
                take = cls.parse(second)
                if discard.type != "discard" or take.type not in ("draw", "take"):
                    raise InvalidNotationError(f"{text!r}: a turn is a discard, then draw or take CARD")
                return cls("turn", discard.cards, take.card)
        words = text.strip().split(None, 1)
        if not words:
            raise InvalidNotationError("empty action: try 'yaniv', 'discard 7H 8H 9H', 'draw'")
        verb = words[0].lower()
        rest = words[1] if len(words) > 1 else ""
        if verb == "stock":
            verb = "draw"
        if verb in ("yaniv", "draw", "asef"):
            if rest.strip():
                raise InvalidNotationError(f"{text!r}: {verb} takes no cards")
            return cls(_TYPE_OF[verb])
        if verb == "discard":
            return cls("discard", tuple(parse_cards(rest)))
        if verb in _CARD_ACTIONS:
            cards = parse_cards(rest)
            if len(cards) != 1:
                raise InvalidNotationError(f"{text!r}: {verb} needs exactly one card")
            return cls(_TYPE_OF[verb], card=cards[0])
        try:
            return cls("discard", tuple(parse_cards(text)))
        except InvalidNotationError:
            raise InvalidNotationError(
                f"{text!r} is not an action: try 'yaniv', 'discard 7H 8H 9H', 'draw', "
                "'take 9H', 'swap 7S', 'slap 4C', 'asef' or 'discard 5C; draw'"
            ) from None

    def to_json(self) -> dict[str, Any]:
        """The action JSON of DESIGN.md §4."""
        out: dict[str, Any] = {"type": self.type}
        if self.type == "discard":
            out["cards"] = [str(c) for c in self.cards]
        elif self.type in _CARD_ACTIONS:
            out["card"] = str(self.card)
        elif self.type == "turn":
            out["discard"] = [str(c) for c in self.cards]
            out["take"] = "stock" if self.card is None else str(self.card)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Read the action JSON; unknown or missing fields are errors naming the field."""
        if not isinstance(data, dict):
            raise InvalidNotationError(f"an action must be a JSON object, got {data!r}")
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in _FIELDS:  # a list or a dict cannot be looked up
            raise InvalidNotationError(
                f"action field 'type' must be one of {', '.join(ACTION_TYPES)}, got {repr(kind)[:60]}"
            )
        allowed = _FIELDS[kind]
        for key in data:
            if key != "type" and key not in allowed:
                raise InvalidNotationError(f"unknown field {key!r} in a {kind} action")
        for key in allowed:
            if key not in data:
                raise InvalidNotationError(f"a {kind} action needs the field {key!r}")
        if kind == "discard":
            return cls("discard", tuple(_card_list(data["cards"], "cards")))
        if kind in _CARD_ACTIONS:
            return cls(kind, card=_one_card(data["card"], "card"))
        if kind == "turn":
            take = data["take"]
            card = None if take == "stock" else _one_card(take, "take")
            return cls("turn", tuple(_card_list(data["discard"], "discard")), card)
        return cls(kind)

    @classmethod
    def coerce(cls, action: Action | dict[str, Any] | str | object) -> Action:
        """An ``Action`` from a value, a JSON dict or text (anything else: InvalidNotationError)."""
        if isinstance(action, Action):
            return action
        if isinstance(action, dict):
            return cls.from_json(action)
        if isinstance(action, str):
            return cls.parse(action)
        raise InvalidNotationError(f"an action must be an Action, a JSON object or text, got {action!r}")


def _card_list(value: Any, field: str) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidNotationError(f"action field {field!r} must be a list of card names")
    try:
        return parse_cards(value)
    except InvalidNotationError as e:
        raise InvalidNotationError(f"action field {field!r}: {e}") from None


def _one_card(value: Any, field: str) -> Card:
    if not isinstance(value, str):
        raise InvalidNotationError(f"action field {field!r} must be a card name like '9H'")
    try:
        return parse_cards([value])[0]
    except InvalidNotationError as e:
        raise InvalidNotationError(f"action field {field!r}: {e}") from None


_YANIV = Action("yaniv")
_DRAW = Action("draw")
_ASEF = Action("asef")
