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
from dataclasses import dataclass
from typing import Any, Literal, get_args

from .cards import Card, format_cards, parse_cards
from .errors import InvalidNotationError

__all__ = ["ACTION_TYPES", "Action", "ActionType"]

ActionType = Literal["yaniv", "discard", "draw", "take", "swap", "slap", "asef", "turn"]
"""The closed set of action types."""
ACTION_TYPES: tuple[ActionType, ...] = get_args(ActionType)
"""Every action type."""
_TYPE_OF: dict[str, ActionType] = {t: t for t in ACTION_TYPES}  # a word read to its closed type

_CARD_ACTIONS = ("take", "swap", "slap")
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


@dataclass(frozen=True, slots=True)
class Action:
    """One action of a seat.

    ``cards`` is the discard (``discard``, ``turn``); ``card`` the taken, swapped or
    slapped card (``take``, ``swap``, ``slap``, and ``turn`` unless it draws).
    """

    type: ActionType
    cards: tuple[Card, ...] = ()
    card: Card | None = None

    def __post_init__(self) -> None:
        """Check the fields fit the type."""
        if self.type not in ACTION_TYPES:
            raise InvalidNotationError(
                f"unknown action type {self.type!r}; types are: {', '.join(ACTION_TYPES)}"
            )
        if self.type in ("discard", "turn") and not self.cards:
            raise InvalidNotationError(f"a {self.type} action needs the cards to discard")
        if self.type in _CARD_ACTIONS and self.card is None:
            raise InvalidNotationError(f"a {self.type} action needs a card")

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
        if kind not in _FIELDS:
            raise InvalidNotationError(
                f"action field 'type' must be one of {', '.join(ACTION_TYPES)}, got {kind!r}"
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
