"""Cards: int-backed values, their notation, decks and bitmask helpers.

A *physical* card is a small int ``p = deck * 54 + x`` where ``x`` is ``suit * 13 +
rank - 1`` for the 52 natural cards (suits S H D C = 0 1 2 3, ranks A..K = 1..13) and
52 or 53 for the two jokers of that deck. Its *kind* is ``x`` for natural cards and
52 for every joker (all jokers are identical, RULES.md §1). With two decks two
physical cards share a kind; the engine tells them apart internally while every
notation shows only the kind. Hands and piles in the engine are int bitmasks over
physical ids (54 bits for one deck, 108 for two).

>>> Card.parse("10s")
Card.parse('10S')
>>> str(Card.parse("♥q"))
'QH'
>>> [str(c) for c in parse_cards("AH, 2h 3♥ *")]
['AH', '2H', '3H', 'JK']
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final, TypeVar

from .errors import InvalidNotationError, PositionError

if TYPE_CHECKING:
    from .rules import Rules

_C = TypeVar("_C", bound=type)

__all__ = [
    "CARDS",
    "DECK_SIZE",
    "JOKER",
    "KIND",
    "NAMES",
    "RANK",
    "RANK_NAMES",
    "SUIT",
    "SUIT_NAMES",
    "Card",
    "CardAllocator",
    "cards_of_mask",
    "deck",
    "format_cards",
    "hand_value",
    "mask_of",
    "parse_card",
    "parse_cards",
    "shuffle",
]

SUIT_NAMES: Final = "SHDC"
"""Suit letters in suit-number order: spades, hearts, diamonds, clubs."""
RANK_NAMES: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank names in rank-number order (index 0 = ace = rank 1)."""
JOKER: Final = 52
"""The kind number shared by every joker."""
DECK_SIZE: Final = 54
"""Cards in one deck: 52 natural cards and 2 jokers."""

# Lookup tables indexed by physical id (0..107): the hot path never computes these.
KIND: Final[tuple[int, ...]] = tuple(min(x, JOKER) for _ in range(2) for x in range(DECK_SIZE))
"""Kind (0..52) of every physical id."""
RANK: Final[tuple[int, ...]] = tuple(0 if k == JOKER else k % 13 + 1 for k in KIND)
"""Rank number (1..13; 0 for a joker) of every physical id."""
SUIT: Final[tuple[int, ...]] = tuple(-1 if k == JOKER else k // 13 for k in KIND)
"""Suit number (0..3; -1 for a joker, used only inside lookups) of every physical id."""
NAMES: Final[tuple[str, ...]] = tuple(
    "JK" if k == JOKER else RANK_NAMES[k % 13] + SUIT_NAMES[k // 13] for k in KIND
)
"""The canonical notation (``'10S'``, ``'JK'``) of every physical id: ``str(CARDS[p])``."""
_NAMES = NAMES

_SUIT_ALIASES = {
    "S": 0, "H": 1, "D": 2, "C": 3,
    "♠": 0, "♥": 1, "♦": 2, "♣": 3,
    "♤": 0, "♡": 1, "♢": 2, "♧": 3,
}  # fmt: skip
_RANK_ALIASES = {name: i + 1 for i, name in enumerate(RANK_NAMES)} | {"T": 10, "1": 1}
_TOKEN = re.compile(
    r"\s*(?:(?P<joker>JOKER|JK|\*|🃏)"
    r"|(?P<rank>10|[2-9TAJQK1])(?P<suit>[SHDC♠♥♦♣♤♡♢♧])"
    r"|(?P<suit2>[♠♥♦♣♤♡♢♧])(?P<rank2>10|[2-9TAJQK1]))\s*(?:,\s*)?",
    re.IGNORECASE,
)


def _python_class(cls: _C) -> _C:
    """Leave a class to the interpreter in a compiled build.

    mypyc makes a decorated class a regular Python class: ``Card`` subclasses ``int``,
    which a compiled (native) class cannot.
    """
    return cls


@_python_class
class Card(int):
    """One physical card; an ``int`` whose ``str`` is the canonical notation.

    Cards are interned: ``Card(p) is CARDS[p]`` is not guaranteed, but ``CARDS[p]``
    is the shared instance and what the engine hands out.
    """

    __slots__ = ()

    def __new__(cls, physical: int) -> Card:
        """Make the card with physical id *physical* (0..107)."""
        if not 0 <= physical < 2 * DECK_SIZE:
            raise InvalidNotationError(f"no physical card {physical}: ids are 0..107")
        return int.__new__(cls, physical)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card leniently (``'10h'``, ``'th'``, ``'♥10'``, ``'*'``); deck 0's copy."""
        return CARDS[parse_card(text)]

    @property
    def kind(self) -> int:
        """The kind 0..52 (52 = joker); equal for the two decks' copies."""
        return KIND[self]

    @property
    def rank(self) -> int:
        """Rank number 1..13 (A..K); 0 for a joker."""
        return RANK[self]

    @property
    def suit(self) -> str | None:
        """Suit letter S, H, D or C; ``None`` for a joker."""
        s = SUIT[self]
        return None if s < 0 else SUIT_NAMES[s]

    @property
    def is_joker(self) -> bool:
        """Whether this card is a joker."""
        return KIND[self] == JOKER

    def __str__(self) -> str:
        """The canonical notation of the card's kind, e.g. ``'10S'`` or ``'JK'``."""
        return _NAMES[self]

    def __repr__(self) -> str:
        """Code that rebuilds this card's kind."""
        return f"Card.parse({_NAMES[self]!r})"

    def __format__(self, spec: str) -> str:
        """Format like ``str`` (so f-strings show the notation, not the int)."""
        return format(_NAMES[self], spec)


CARDS: Final[tuple[Card, ...]] = tuple(Card(p) for p in range(2 * DECK_SIZE))
"""The interned ``Card`` instance of every physical id."""


def parse_card(text: str) -> int:
    """Read one card's notation leniently and return its kind (deck 0's physical id)."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"a card must be text like 'AH', got {text!r}")
    m = _TOKEN.fullmatch(text)
    if m is None:
        raise InvalidNotationError(f"{text!r} is not a card: use rank A 2-10 J Q K plus suit S H D C, or JK")
    return _kind_of_match(m)


def _kind_of_match(m: re.Match[str]) -> int:
    if m.group("joker"):
        return JOKER
    rank_text = m.group("rank") or m.group("rank2")
    suit_text = m.group("suit") or m.group("suit2")
    return _SUIT_ALIASES[suit_text.upper()] * 13 + _RANK_ALIASES[rank_text.upper()] - 1


def parse_cards(text: str | Iterable[str | int]) -> list[Card]:
    """Read a list of cards: a string (spaces, commas or nothing between) or an iterable.

    Each card is returned as deck 0's copy of its kind; the engine maps kinds to the
    physical cards of a hand when an action is applied.
    """
    if isinstance(text, str):
        kinds: list[int] = []
        pos = 0
        stripped = text.strip()
        while pos < len(stripped):
            m = _TOKEN.match(stripped, pos)
            if m is None or m.end() == pos:
                bad = stripped[pos:].split()[0] if stripped[pos:].split() else stripped[pos:]
                raise InvalidNotationError(
                    f"{bad!r} is not a card: use rank A 2-10 J Q K plus suit S H D C, or JK"
                )
            kinds.append(_kind_of_match(m))
            pos = m.end()
        return [CARDS[k] for k in kinds]
    given: object = text  # checked here, whatever the caller's types say (and the compiled build's)
    if isinstance(given, (bytes, bytearray)) or not isinstance(given, Iterable):
        # bytes iterate as ints, which read as physical ids: b"AH" would be QS 6H
        raise InvalidNotationError(f"cards must be text like 'AH 2C' or a list of cards, got {given!r}")
    items: Iterable[object] = given
    out: list[Card] = []
    for item in items:
        if isinstance(item, Card):
            out.append(item)
        elif isinstance(item, str):
            out.append(CARDS[parse_card(item)])
        elif isinstance(item, int) and not isinstance(item, bool):
            out.append(Card(item))
        else:
            raise InvalidNotationError(f"{item!r} is not a card")
    return out


def format_cards(cards: Iterable[int]) -> str:
    """The canonical notation of a list of cards, separated by spaces."""
    return " ".join(_NAMES[c] for c in cards)


def deck(num_decks: int) -> list[int]:
    """The physical ids of *num_decks* (1 or 2) full decks, in id order."""
    if num_decks == 1 or num_decks == 2:
        return list(_DECKS[num_decks - 1])  # a copy of a tuple: every round deals one
    return list(range(DECK_SIZE * num_decks))


_DECKS: Final = (tuple(range(DECK_SIZE)), tuple(range(2 * DECK_SIZE)))


def _replica_batched(rng: random.Random, x: list[Any]) -> None:
    """``random.Random.shuffle`` step for step (CPython's algorithm, with getrandbits).

    Each step draws ``getrandbits(k)`` for the k bits of the number of cards left,
    which is the top k bits of one 32-bit output of the Mersenne Twister, and draws
    again while the number is too big. The outputs are fetched in batches instead of a
    call each: ``getrandbits(32 * m)`` is m outputs in a row, least significant first,
    and for k <= 8 the top byte of an output is all a step reads. A batch is never longer
    than the steps still to do (each takes at least one output), so the generator ends
    exactly where ``rng.shuffle`` leaves it.
    """
    n = len(x)  # the cards not yet placed; the step swaps x[n - 1] with x[randbelow(n)]
    if n <= _BATCH_MIN or n > 255:  # too short to pay, or a step would read more than a top byte
        _replica_stepwise(rng, x, n)
        return
    k = n.bit_length()  # the bits a step draws, kept as n falls (no bit_length call a step)
    low = 1 << (k - 1)  # the least n of k bits
    getrandbits = rng.getrandbits
    while n > _BATCH_MIN:
        raw = getrandbits(32 * (n - 1)).to_bytes(4 * (n - 1), "little")
        for top in range(3, len(raw), 4):
            j = raw[top] >> (8 - k)
            if j < n:
                n -= 1
                x[n], x[j] = x[j], x[n]
                if n < low:
                    k -= 1
                    low >>= 1
    _replica_stepwise(rng, x, n)


_BATCH_MIN: Final = 8
"""The steps left below which a call a draw is cheaper than a batch (and its bytes)."""


def _replica_stepwise(rng: random.Random, x: list[Any], n: int) -> None:
    """:func:`_replica_batched`'s steps for the first *n* items of *x*, a ``getrandbits`` call a draw.

    The faster of the two in pure Python, where a step's own bytecode costs more than the
    call, and for lists of over 255 items.
    """
    getrandbits = rng.getrandbits
    for i in range(n - 1, 0, -1):
        m = i + 1
        k = m.bit_length()
        j = getrandbits(k)
        while j >= m:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _replica_agrees() -> bool:
    """Whether this Python's ``random.shuffle`` is the algorithm the replicas repeat."""
    for seed in range(3):
        for size in (2, 7, 9, 54, 108, 300):
            a, b, c = list(range(size)), list(range(size)), list(range(size))
            ra, rb, rc = random.Random(seed), random.Random(seed), random.Random(seed)
            ra.shuffle(a)
            _replica_batched(rb, b)
            _replica_stepwise(rc, c, size)
            # the same order, and the generator left where shuffle leaves it
            after = ra.getrandbits(64)
            if a != b or a != c or rb.getrandbits(64) != after or rc.getrandbits(64) != after:
                return False
    return True


_REPLICA_OK: Final = _replica_agrees()
# which replica shuffle() runs: the batched one pays off only compiled (_replica_stepwise says why)
_COMPILED: Final = not (__file__ or ".py").endswith(".py")


def shuffle(rng: Any, items: list[Any]) -> None:
    """Shuffle *items* in place exactly as ``rng.shuffle(items)`` does (deals, reshuffles).

    For a plain ``random.Random`` the same steps run here, where a compiled build runs
    them compiled (its own ``shuffle`` is Python code in the standard library); any
    other shuffler, or a Python whose algorithm differs, is asked itself.
    """
    if _REPLICA_OK and type(rng) is random.Random:
        if _COMPILED:
            _replica_batched(rng, items)
        else:
            _replica_stepwise(rng, items, len(items))
    else:
        rng.shuffle(items)


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of physical ids."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of_mask(mask: int) -> Iterator[int]:
    """The physical ids in a bitmask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def hand_value(cards: Iterable[str | int] | str, rules: Rules | None = None) -> int:
    """The value of a hand under *rules* (standard if omitted): RULES.md S2.

    >>> hand_value("AH 10S KH JK")
    21
    """
    if rules is not None:
        values = rules.card_values
        return sum(values[c] for c in parse_cards(cards))
    # the standard values (S2), without reaching up to the rules layer
    return sum(0 if KIND[c] == JOKER else min(KIND[c] % 13 + 1, 10) for c in parse_cards(cards))


class CardAllocator:
    """Hands out physical ids for card names, never more copies than the deck has.

    With two decks two cards of a kind (and four jokers) exist: the first name of a kind
    gets the first deck's copy, the next the second's. Positions and recorded deals are
    read through one allocator, so a card named too often is caught with the field.

    >>> alloc = CardAllocator(1)
    >>> alloc.take("AH", "hand"), alloc.take("JK", "hand"), alloc.take("jk", "hand")
    (13, 52, 53)
    """

    def __init__(self, decks: int) -> None:
        """An allocator for a game of *decks* decks (1 or 2)."""
        self.decks = decks
        self.used: set[int] = set()

    def take(self, name: object, field: str) -> int:
        """The next free physical id of the card *name*; ``PositionError`` naming *field*."""
        if not isinstance(name, str):
            raise PositionError(f"position field {field!r}: {name!r} is not a card name")
        try:
            kind = parse_card(name)
        except InvalidNotationError as e:
            raise PositionError(f"position field {field!r}: {e}") from None
        if kind == JOKER:
            choices = (52, 53, 106, 107)[: 2 * self.decks]
        else:
            choices = (kind, kind + 54)[: self.decks]
        for p in choices:
            if p not in self.used:
                self.used.add(p)
                return p
        raise PositionError(
            f"position field {field!r}: {CARDS[kind]} appears more often than the "
            f"{self.decks}-deck game has it ({len(choices)})"
        )
