"""A whole game: deals its rounds, carries totals, eliminations, tie-breaks; owns the RNG.

>>> g = Game("standard", players=3, seed=1)
>>> g.round.current        # left of dealer 0 (S5)
1
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Final

from .actions import Action
from .cards import NAMES, CardAllocator, deck, shuffle
from .errors import IllegalActionError, RulesError
from .events import Deal, GameEnd, Timeout
from .jsonio import MAX_DIGITS
from .rules import Rules, brief_repr
from .scoring import RoundResult, clockwise_from
from .state import RoundState, Shuffler

MAX_NAME_CHARS: Final = 100
"""The longest player name a game (and its record) takes, in characters."""

MAX_SEED: Final = 10**MAX_DIGITS
"""Seeds are below this in size: a record's numbers have at most :data:`~yaniv.jsonio.MAX_DIGITS` digits."""

__all__ = [
    "MAX_NAME_CHARS",
    "MAX_SEED",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "Game",
    "Observer",
    "is_player_name",
]


def is_player_name(name: object) -> bool:
    """Whether *name* is a name a game and its record take for a player.

    Printable text, not blank, at most :data:`MAX_NAME_CHARS` characters.
    """
    return isinstance(name, str) and bool(name.strip()) and name.isprintable() and len(name) <= MAX_NAME_CHARS


RECORD_FORMAT = "yaniv-record"
"""The ``format`` field of every record header."""
RECORD_VERSION = 1
"""The record format version written by this engine."""

Observer = Callable[[Sequence[dict[str, Any]]], None]
"""Gets the events a change of the game added (header first on the first call)."""


class Game:
    """A seeded game of Yaniv from the first deal to its winners (RULES.md S3–S16).

    ``game.round`` is the current :class:`RoundState`. Play with :meth:`apply` (or
    through a :class:`yaniv.table.Table`); when a round ends (``game.round.result``
    set) call :meth:`next_round` unless ``game.over``. Every event goes to
    ``game.events`` (a full record, header first); observers added with
    :meth:`subscribe` (a :class:`yaniv.record.RecordWriter`, say) get the new events
    after every change.
    """

    def __init__(
        self,
        rules: Rules | str | dict[str, Any] | Any,
        players: int | Any,
        seed: int | Any | None = None,
        dealer: int | Any = 0,
        names: Sequence[str] | Any | None = None,
        *,
        _deals: Callable[[int], dict[str, Any]] | None = None,
        _shufflers: Callable[[int], Shuffler] | None = None,
    ) -> None:
        """Start a game and deal its first round.

        Any value of the first five arguments is checked here, a wrong one refused with
        a :class:`RulesError` naming it (``| Any``: a compiled build would otherwise
        refuse a wrong type with a bare ``TypeError``, or take ``True`` for seat 1).
        """
        self.rules = Rules.from_spec(rules)
        problem = self.rules.players_problem(players)
        if problem:
            raise RulesError(problem)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
            raise RulesError(f"dealer must be a seat 0..{players - 1}, got {brief_repr(dealer)}")
        if names is not None and (
            isinstance(names, str)
            or not isinstance(names, (list, tuple))
            or len(names) != players
            or not all(is_player_name(x) for x in names)
        ):
            raise RulesError(
                f"names must list {players} non-empty printable names of at most {MAX_NAME_CHARS} "
                f"characters, got {brief_repr(names)}"
            )
        # a seed is a whole number (or none: the clock's entropy); random.Random would take
        # text and bytes too, but a record's header must say it as JSON, and a float's
        # hash or a list's TypeError from deep inside is no seed anybody means
        if seed is not None and (
            not isinstance(seed, int) or isinstance(seed, bool) or not -MAX_SEED < seed < MAX_SEED
        ):
            # bounded as every number a record holds (formats.md §6.2): the record stays readable
            raise RulesError(
                f"seed must be a whole number of at most {MAX_DIGITS} digits or None, got {brief_repr(seed)}"
            )
        self.n: int = players
        self.seed: int | None = seed
        self.rng = random.Random(seed)
        self.decks = self.rules.decks_for(players)
        self.names: list[str] | None = list(names) if names is not None else None
        self._totals = [0] * players
        self.out: list[int] = []
        self.dealer: int = dealer
        self.round_no = 0
        self._over = False
        self._winners: tuple[int, ...] = ()
        self.results: list[RoundResult] = []
        self._settled = 0  # the last round number whose result is in totals and results
        self._deals = _deals
        self._shufflers = _shufflers
        self._observers: list[Observer] = []
        self._flushed = 0
        self.events: list[dict[str, Any]] = [self._header()]
        if _deals is not None:
            starter = _deals(1)["starter"]
        elif self.rules.first_starter == "random":
            starter = self.rng.randrange(players)
        else:
            starter = (dealer + 1) % players
        self.round: RoundState = self._start_round(starter, ())
        self._flush()

    # ----- the game's standing (settled from the round whenever it has ended) -----

    @property
    def over(self) -> bool:
        """Whether the game has ended (S16)."""
        if self._settled < self.round_no and self.round.result is not None:  # inlined: asked often
            self._end_round(self.round.result)
        return self._over

    @property
    def totals(self) -> list[int]:
        """Every seat's running total, the current round's result included once it has ended."""
        self._settle()
        return self._totals

    @totals.setter
    def totals(self, totals: Sequence[int]) -> None:
        """Set the running totals (a test or puzzle setting up a game's standing)."""
        self._totals = list(totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winners once the game is over (empty before)."""
        self._settle()
        return self._winners

    def _settle(self) -> None:
        """Take in the current round's result if it ended outside :meth:`apply`.

        A round changed directly (``game.round.apply``) can end without the game being
        told; its scores must still count, exactly once.
        """
        if self._settled < self.round_no:
            result = self.round.result
            if result is not None:
                self._end_round(result)

    def _header(self) -> dict[str, Any]:
        return {
            "type": "header",
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "rules": self.rules.to_dict(),
            "rules_string": str(self.rules),
            "players": self.n,
            "names": self.names,
            "seed": self.seed,
            "dealer": self.dealer,
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
        }

    # ----- rounds -----

    def _start_round(self, starter: int, tiebreak: Sequence[int]) -> RoundState:
        self.round_no += 1
        eliminated = [p for p in range(self.n) if p not in tiebreak] if tiebreak else list(self.out)
        seats = [p for p in range(self.n) if p not in eliminated]
        if self._deals is not None:
            deal = self._deals(self.round_no)
            hands, stock, pile = _deal_from_event(deal, self.n, self.decks)
            self.dealer = deal["dealer"]
        else:
            hands, stock, pile = self._deal(seats)
        shuffler = self._shufflers(self.round_no) if self._shufflers is not None else self.rng
        state = RoundState(
            self.rules,
            hands,
            stock,
            pile,
            starter,
            totals=self._totals,
            eliminated=eliminated,
            dealer=self.dealer,
            names=self.names,
            tiebreak=bool(tiebreak),
            shuffler=shuffler,
        )
        state.log = self.events
        self.events.append(
            Deal(
                round=self.round_no,
                dealer=self.dealer,
                starter=starter,
                players=seats,
                tiebreak=bool(tiebreak),
                hands=[[NAMES[c] for c in _ids(h)] for h in hands],
                stock=[NAMES[c] for c in reversed(stock)],
                discard_pile=[[NAMES[c] for c in g] for g in pile],
            )
        )
        return state

    def _deal(self, seats: list[int]) -> tuple[list[int], list[int], list[tuple[int, ...]]]:
        """S4: shuffle, deal one card at a time clockwise from the dealer's left."""
        cards = deck(self.decks)
        shuffle(self.rng, cards)  # = self.rng.shuffle(cards), faster compiled
        order = clockwise_from(self.dealer, seats, self.n)
        # each hand as its two 54-bit deck words while dealing (native ints when compiled,
        # where a 108-bit mask is a boxed one), joined once at the end
        lo = [0] * self.n
        hi = [0] * self.n
        pos = 0
        for _ in range(self.rules.hand_size):
            for p in order:
                c = cards[pos]
                if c < 54:
                    lo[p] = lo[p] | (1 << c)  # not |=: native ints when compiled
                else:
                    hi[p] = hi[p] | (1 << (c - 54))
                pos += 1
        hands = [lo[p] | hi[p] << 54 if hi[p] else lo[p] for p in range(self.n)]
        rest = cards[pos:]
        pile: list[tuple[int, ...]] = []
        if self.rules.start_card:
            pile.append((rest[0],))
            rest = rest[1:]
        return hands, list(reversed(rest)), pile

    def next_round(self) -> RoundState:
        """Deal the next round after one has ended (dealer passes clockwise)."""
        result = self.round.result
        if result is None:
            raise IllegalActionError("the round is still being played")
        if self.over:  # settles a round that ended outside apply()
            raise IllegalActionError("the game is over")
        assert result.next_starter is not None
        seats = list(result.tiebreak) or [p for p in range(self.n) if p not in self.out]
        self.dealer = clockwise_from(self.dealer, seats, self.n)[0]
        self.round = self._start_round(result.next_starter, result.tiebreak)
        self._flush()
        return self.round

    # ----- play -----

    def apply(self, seat: int | Any, action: Action | dict[str, Any] | str | Any) -> RoundResult | None:
        """Apply a checked action to the current round; returns the result if it ended.

        Any value of either argument is checked by :meth:`RoundState.apply` (``| Any``:
        not refused first with a bare ``TypeError`` by a compiled build).
        """
        if self._settled < self.round_no and self.round.result is not None:
            self._end_round(self.round.result)  # a round ended outside apply()
        if self._over:
            raise IllegalActionError("the game is over")
        result = self.round.apply(seat, action)
        if result is not None:
            self._end_round(result)
        self._flush()
        return result

    def note(self, event: Timeout) -> None:
        """Add an event that changes no state (a table's ``timeout``) to the record."""
        if not isinstance(event, Timeout):
            raise ValueError(f"a note is an event that changes no state, not {event!r}")
        self.events.append(event)
        self._flush()

    def _end_round(self, result: RoundResult) -> None:
        self._settled = self.round_no
        self.results.append(result)
        self._totals = list(result.totals)
        for p in result.eliminated:
            if p not in self.out:
                self.out.append(p)
        if result.game_over:
            self._over = True
            self._winners = result.winners
            self.events.append(GameEnd(list(result.winners), list(self._totals)))

    def subscribe(self, observer: Observer, *, replay: bool = False) -> None:
        """Give *observer* the new events after every change (all so far too, with *replay*)."""
        self._observers.append(observer)
        if replay:
            observer(self.events[: self._flushed])

    def unsubscribe(self, observer: Observer) -> None:
        """Stop giving *observer* events."""
        self._observers = [o for o in self._observers if o is not observer]

    def _flush(self) -> None:
        """Hand the events since the last flush to every observer."""
        if self._settled < self.round_no and self.round.result is not None:
            self._end_round(self.round.result)
        events = self.events
        size = len(events)
        if size > self._flushed:
            new = events[self._flushed :]
            self._flushed = size
            for observer in list(self._observers):
                observer(new)

    def resume(self) -> None:
        """Go on with a game rebuilt from its record by :func:`yaniv.record.replay`.

        The rounds to come are dealt, and the stock reshuffled, by the game's own RNG
        instead of the record, reseeded from the seed and the number of events so far:
        the continuation is reproducible and never deals the recorded hands again.
        Observers subscribed afterwards get only the events to come.
        """
        if self.over:
            raise IllegalActionError("the game is over")
        self.rng = random.Random(f"{self.seed}-resumed-{len(self.events)}")
        self._deals = None
        self._shufflers = None
        if not self.round.is_over:
            self.round.shuffler = self.rng
        self._flushed = len(self.events)

    def close(self) -> None:
        """Close every observer that can be closed (a record file) and stop sending it events."""
        observers, self._observers = self._observers, []
        for observer in observers:
            close = getattr(observer, "close", None)
            if close is not None:
                close()

    def seat_events(self, seat: int | None) -> list[dict[str, Any]]:
        """The whole game's events as *seat* may see them (a seat's redacted record)."""
        from .events import redact

        header = {k: v for k, v in self.events[0].items() if k != "seed"}  # the seed fixes every hand
        header["seat"] = seat
        header["redacted"] = True
        return [header, *(redact(e, seat) for e in self.events[1:])]

    def __repr__(self) -> str:
        """A short summary."""
        state = "over" if self.over else f"round {self.round_no}"
        return f"<Game {self.rules} players={self.n} seed={self.seed} {state} totals={self.totals}>"


def _ids(mask: int) -> list[int]:
    """Cards of a hand in canonical order (by kind, the two decks' copies side by side).

    The order of ``sorted(ids, key=lambda c: (KIND[c], c))``, walked off the bits instead
    (every deal lists every hand): natural kinds in order, each deck 0's copy before
    deck 1's, then the jokers 52, 53, 106, 107.
    """
    out: list[int] = []
    lo = mask & _M54
    hi = mask >> 54
    nat = (lo | hi) & _NAT
    while nat:
        low = nat & -nat
        k = low.bit_length() - 1
        if lo & low:
            out.append(k)
        if hi & low:
            out.append(k + 54)
        nat ^= low
    jokers = (lo >> 52) | (hi >> 52) << 2  # bits 0..3: ids 52, 53, 106, 107
    if jokers:
        for i in range(4):
            if jokers >> i & 1:
                out.append(_JOKER_IDS[i])
    return out


_M54: Final = (1 << 54) - 1
_NAT: Final = (1 << 52) - 1
_JOKER_IDS: Final = (52, 53, 106, 107)


def _deal_from_event(
    deal: dict[str, Any], n: int, decks: int
) -> tuple[list[int], list[int], list[tuple[int, ...]]]:
    """Physical hands, stock (top last) and pile from a recorded deal event."""
    alloc = CardAllocator(decks)
    hands = []
    for p in range(n):
        mask = 0
        for name in deal["hands"][p]:
            mask |= 1 << alloc.take(name, f"deal.hands[{p}]")
        hands.append(mask)
    stock = [alloc.take(c, "deal.stock") for c in deal["stock"]]
    pile = [tuple(alloc.take(c, "deal.discard_pile") for c in g) for g in deal["discard_pile"]]
    return hands, list(reversed(stock)), pile
