"""The table driver: the one game loop every front end runs on (DESIGN.md §1, §3).

A :class:`Table` owns a :class:`~yaniv.game.Game` and one player per seat (a bot, or
``None`` for a person or a remote client) and answers the questions every front end
asks:

* **what is pending** — :meth:`Table.pending` lists the decisions that may be made now
  (a turn, a take, the slap window, the next deal), each a :class:`Decision` with its
  seat and, under a :class:`TurnClock`, its deadline. The first one is the one the game
  waits for: in the slap window the player who drew decides first, and a bot whose
  turn it is waits for him (a person who is current may still play at once, which
  closes the window, as RULES.md S20 says).
* **submit** — :meth:`Table.submit` checks that the seat has a pending decision and
  that the action is legal; on a bad one it raises
  :class:`~yaniv.errors.IllegalActionError` and changes nothing.
* **bots** — :meth:`Table.step` lets the bot of the first pending decision play it
  (:meth:`Table.run` until a person must act); :meth:`Table.thinker` gives a front end
  that thinks elsewhere (a thread) a snapshot to decide on. A bot that sees everything
  (``sees_all``, the oracle) is asked with the full state, every other bot with its
  seat's view only. A bot that fails or answers illegally is replaced for that decision
  by the first legal discard or draw, and the fault is noted in :attr:`Table.faults`.
* **clocks** — a :class:`TurnClock` gives every pending decision of a person a
  deadline; :meth:`Table.expire` lets the clock's stand-in bot play the decisions whose
  deadline has passed and records a ``timeout`` event. The clock reads time from an
  injected function, so tests run without a real clock.
* **cursors** — :meth:`Table.cursor` follows the game's events for one seat
  (:meth:`EventCursor.new`: what it has not seen yet, redacted for it).
* **stalls** — a round that reaches the turn cap without ending stops the table
  (:attr:`Table.stalled` says which round and after how many turns).

>>> from yaniv.bots import make_bot
>>> table = Table(Game("standard", players=2, seed=3), [make_bot("greedy"), make_bot("random")])
>>> table.run()
>>> table.game.over, table.stalled
(True, None)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, NamedTuple, Protocol

from .actions import Action
from .cards import cards_of_mask
from .errors import IllegalActionError, YanivError
from .events import Timeout, redact
from .game import Game
from .intent import legal_match
from .scoring import RoundResult
from .state import Phase, RoundState, SeatView

__all__ = [
    "DEFAULT_TURN_CAP",
    "Decision",
    "DecisionKind",
    "EventCursor",
    "Move",
    "MoveBy",
    "Player",
    "RawSeatView",
    "Table",
    "TurnClock",
    "player_rngs",
]

DEFAULT_TURN_CAP = 2000
"""Turns after which a round counts as stalled and the table stops."""


def player_rngs(seed: int | None, seats: int) -> list[random.Random]:
    """One independent, reproducible RNG per seat (the bots' choices)."""
    return [random.Random(f"{seed}-{seat}") for seat in range(seats)]


class Player(Protocol):
    """A computer player as the driver sees it (every :class:`yaniv.bots.Bot` is one).

    ``act`` answers from the seat's view; a player with ``sees_all`` set is asked
    through ``act_full`` with the whole state instead (analysis bots only).
    """

    name: str
    sees_all: bool

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        """The action to play (``None`` only to pass a slap)."""

    def act_full(self, state: RoundState, seat: int, rng: random.Random) -> Action | None:
        """The action to play, seeing every hand."""


class DecisionKind(StrEnum):
    """What a pending decision is about."""

    TURN = "turn"
    """The start of a turn: discard, call Yaniv, or swap a joker (phase turn_start)."""
    TAKE = "take"
    """After a discard: draw, take from the previous group, swap, or Asef (after_discard)."""
    SLAP = "slap"
    """The slap window (S20): slap the card just drawn, or pass (``None``)."""
    NEXT_ROUND = "next_round"
    """A round has ended and the next deal waits (no seat; :meth:`Table.next_round`)."""


class Decision(NamedTuple):
    """One decision the table waits for (an immutable value; a tuple, cheap to make)."""

    kind: DecisionKind
    seat: int | None
    """The seat that decides (``None`` for the next deal)."""
    version: int
    """The number of game events when it became pending: it identifies the decision."""
    deadline: float | None = None
    """When the turn clock lets the stand-in play it (the clock's time), if it runs."""

    def __str__(self) -> str:
        """``P1 turn``, ``P0 slap``, ``next_round``."""
        return self.kind.value if self.seat is None else f"P{self.seat} {self.kind.value}"


MoveBy = Literal["player", "stand_in", "fallback"]
"""Who played a move: the seat's own bot or person, the clock's stand-in, or the fallback."""


class Move(NamedTuple):
    """A decision made through the table: who, what, and by whom it was played."""

    seat: int
    action: Action | None
    """``None``: a slap passed."""
    by: MoveBy
    """``"player"`` (the seat's own bot or person), ``"stand_in"`` (the clock's), or
    ``"fallback"`` (a bot failed; the table played its first legal discard or draw)."""
    result: RoundResult | None = None
    """The round's result, if this move ended it."""


class RawSeatView(NamedTuple):
    """What one seat may know now, as card ids and plain ints: :meth:`Table.raw_view`.

    The same facts as :class:`~yaniv.SeatView`, field for field where the names agree,
    for loops that read a view every step (learners, fast bots): cards are physical ids
    (0..107, :mod:`yaniv.cards`; ``CARDS[id]`` is the :class:`~yaniv.Card`) and the
    legal actions come as their parts instead of :class:`~yaniv.Action` objects. Never
    another seat's hidden card. Read only: the tuples and lists are the table's own.
    """

    seat: int
    players: int
    phase: Phase
    current: int
    active: tuple[int, ...]
    hand: list[int]
    """The seat's cards, ascending ids."""
    hand_value: int
    hand_counts: list[int]
    seen: list[list[int]]
    """Per seat: the cards seen taken from the pile (or swapped), still in that hand."""
    discard_pile: list[tuple[int, ...]]
    """The groups discarded this round, oldest first, each as laid."""
    last_discards: list[tuple[int, ...] | None]
    previous_group: tuple[int, ...] | None
    takeable: list[int]
    """The previous group's takeable cards (S8), when it is this seat's turn."""
    stock_count: int
    totals: list[int]
    drawn: int | None
    """The card this seat just drew, while it may still slap it (S20)."""
    turns: int
    discards: list[tuple[int, ...]]
    """The legal discards (each as it would be laid), at the start of this seat's turn."""
    draw: bool
    """Drawing from the stock is legal."""
    yaniv: bool
    """Calling Yaniv is legal."""
    others: list[Action]
    """The other legal actions (takes aside): swaps, Asef, a slap, as actions."""


@dataclass(frozen=True)
class TurnClock:
    """A deadline per decision of a person, and the stand-in that plays it when it passes.

    *seconds* per decision; *stand_in* the bot that plays a decision whose deadline has
    passed, named *stand_in_name* in the ``timeout`` event; *now* the clock (any
    monotonic function of seconds: :func:`time.monotonic` by default, a counter in tests).
    Decisions of bots get no deadline: they are played by :meth:`Table.step`.
    """

    seconds: float
    stand_in: Player
    stand_in_name: str
    now: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        """Reject a clock that could never or always run out."""
        if not (isinstance(self.seconds, (int, float)) and 0 < self.seconds < 86_400 * 7):
            raise ValueError(f"a turn clock needs a positive number of seconds, got {self.seconds!r}")


class EventCursor:
    """One seat's place in the game's events: :meth:`new` gives what it has not seen yet."""

    def __init__(self, table: Table, seat: int | None, position: int = 1) -> None:
        """A cursor at *position* (1: just after the record header)."""
        self.table = table
        self.seat = seat
        self.position = position

    def new(self) -> list[dict[str, Any]]:
        """The events since the last call, redacted for the seat; moves the cursor on."""
        events = self.table.events_since(self.seat, self.position)
        self.position = self.table.version
        return events

    def __repr__(self) -> str:
        """A short summary."""
        return f"<EventCursor seat={self.seat} at {self.position}>"


class Table:
    """The driver of one game: pending decisions, checked submits, bots, clock, cursors.

    *players* holds one entry per seat: a :class:`Player` (a bot) or ``None`` (a person
    or remote client, who submits through :meth:`submit`). *rngs* gives each bot its
    random generator (default: :func:`player_rngs` of the game's seed). *turn_cap*: a
    round that reaches it stops the table (:attr:`stalled`; ``None``: no cap, for
    tables of people). *clock*: the optional
    :class:`TurnClock` for the persons' decisions. *auto_deal*: :meth:`step` deals the
    next round itself (front ends that pause between rounds turn it off and call
    :meth:`next_round`).
    """

    def __init__(
        self,
        game: Game,
        players: Sequence[Player | None],
        *,
        rngs: Sequence[random.Random] | None = None,
        turn_cap: int | None = DEFAULT_TURN_CAP,
        clock: TurnClock | None = None,
        auto_deal: bool = True,
    ) -> None:
        """Seat *players* at *game*."""
        if len(players) != game.n:
            raise ValueError(f"the table has {game.n} seats but {len(players)} players were given")
        whole = isinstance(turn_cap, int) and not isinstance(turn_cap, bool)
        if turn_cap is not None and (not whole or turn_cap < 1):
            raise ValueError(
                f"the turn cap must be a whole number of turns of at least 1 (or None), got {turn_cap!r}"
            )
        self.game = game
        self.players: list[Player | None] = list(players)
        self.rngs = list(rngs) if rngs is not None else player_rngs(game.seed, game.n)
        if len(self.rngs) != game.n:
            raise ValueError(f"the table has {game.n} seats but {len(self.rngs)} bot generators were given")
        self.turn_cap = turn_cap
        self.clock = clock
        self.auto_deal = auto_deal
        self.faults: list[str] = []
        """What went wrong with bots (an exception or an illegal answer), oldest first."""
        self._slap_passed = -1  # the version at which the slap window was passed
        self._deadlines: dict[tuple[DecisionKind, int | None, int], float] = {}
        self._stand_in_rng = random.Random(f"{game.seed}-stand-in")
        self._bot_cursors: dict[int, tuple[Player, EventCursor]] = {}
        self._seating = 0  # changes of seat(): deadlines depend on who sits where
        self._pending_key: tuple[int, int, int, int] | None = None
        self._pending: tuple[Decision, ...] = ()

    # ------------------------------------------------------------------ state

    @property
    def version(self) -> int:
        """The number of game events so far (the record's line count); grows with every change."""
        return len(self.game.events)

    @property
    def round(self) -> RoundState:
        """The round being played (read-only for front ends: change it through :meth:`submit`)."""
        return self.game.round

    @property
    def over(self) -> bool:
        """Whether nothing more will happen: the game is over or the table stalled."""
        return self.game.over or self.stalled is not None

    @property
    def stalled(self) -> str | None:
        """Why the table stopped early (a round reached the turn cap), or ``None``."""
        state = self.game.round
        cap = self.turn_cap
        if cap is None or self.game.over or state.is_over or state.turns < cap:
            return None
        return (
            f"round {self.game.round_no} reached {state.turns} turns without ending "
            f"(the cap is {self.turn_cap})"
        )

    def view(self, seat: int | None) -> SeatView:
        """What *seat* may know now (``None``: a spectator)."""
        return self.game.round.view(seat)

    def raw_view(self, seat: int) -> RawSeatView:
        """What *seat* may know now as card ids: :class:`RawSeatView` (no card or action objects).

        The legal actions are those of ``view(seat).legal``, in parts: ``discards`` (the
        cards of each), ``takeable`` when taking is legal (phase ``after_discard``),
        ``draw``, ``yaniv`` and ``others`` (the rest, built as actions: they are rare).
        """
        state = self.game.round
        if not (isinstance(seat, int) and 0 <= seat < state.n):
            raise ValueError(f"there is no seat {seat!r}: seats are 0..{state.n - 1}")
        phase = state.phase_name
        over = phase == Phase.ROUND_OVER
        current = state.current
        on_turn = seat == current and not over
        active = state.active
        discards: list[tuple[int, ...]] = []
        draw = yaniv = False
        others: list[Action] = []
        rules = self.game.rules
        if on_turn:
            if phase == Phase.AFTER_DISCARD:
                draw = bool(state.stock)
                if rules.joker_swap != "off" or rules.asef:  # as the engine lists them (no discard here)
                    others = [a for a in state.legal_actions(seat) if a.type in ("swap", "asef")]
            else:
                yaniv = state.can_yaniv()
                discards = state.discards()
                if rules.joker_swap != "off":
                    others = [Action("swap", card=c) for c in state.swappable()]
        elif not over and seat in active:
            slap = state.slap_card(seat)
            if slap is not None:
                others = [Action("slap", card=slap)]
        drawn = state.drawn if seat == state.slapper else None
        return RawSeatView(
            seat,
            state.n,
            phase,
            current,
            active,
            list(cards_of_mask(state.hands[seat])),
            state.hv[seat],
            [h.bit_count() for h in state.hands],
            [list(cards_of_mask(m)) for m in state.seen],
            list(state.pile),
            list(state.last_discard),
            state.previous_group(),
            state.takeable_cards() if on_turn else [],
            len(state.stock),
            list(state.totals),
            drawn,
            state.turns,
            discards,
            draw,
            yaniv,
            others,
        )

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays *seat*."""
        return self.players[seat] is not None

    def seat(self, seat: int, player: Player | None) -> None:
        """Put *player* on *seat* (a bot taking over, or ``None``: a person back)."""
        if not 0 <= seat < self.game.n:
            raise ValueError(f"there is no seat {seat}: seats are 0..{self.game.n - 1}")
        self.players[seat] = player
        self._seating += 1

    # ------------------------------------------------------------------ decisions

    def pending(self) -> tuple[Decision, ...]:
        """The decisions that may be made now, the one the game waits for first.

        Empty when the game is over or the table stalled. In the slap window (S20) the
        slapper's decision comes first and the current player's second.
        """
        game = self.game
        state = game.round
        version = len(game.events)
        # asked several times per move (step, submit, front ends): the answer only changes
        # with the game's events, a passed slap, the seating, or a swapped round
        key = (version, self._slap_passed, self._seating, id(state))
        if key == self._pending_key:
            return self._pending
        self._pending = self._compute_pending(game, state, version)
        self._pending_key = key
        return self._pending

    def _compute_pending(self, game: Game, state: RoundState, version: int) -> tuple[Decision, ...]:
        if game.over:
            return ()
        if state.is_over:
            return (self._decision(DecisionKind.NEXT_ROUND, None, version),)
        if self.turn_cap is not None and state.turns >= self.turn_cap:
            return ()
        out = []
        slapper = state.slapper
        if slapper is not None and self._slap_passed != version and state.slap_card(slapper) is not None:
            out.append(self._decision(DecisionKind.SLAP, slapper, version))
        kind = DecisionKind.TAKE if state.phase_name == "after_discard" else DecisionKind.TURN
        out.append(self._decision(kind, state.current, version))
        return tuple(out)

    def _decision(self, kind: DecisionKind, seat: int | None, version: int) -> Decision:
        deadline = None
        clock = self.clock
        if clock is not None and seat is not None and self.players[seat] is None:
            key = (kind, seat, version)
            deadline = self._deadlines.get(key)
            if deadline is None:
                if len(self._deadlines) > 8:  # only the decisions pending now are kept
                    self._deadlines = {k: v for k, v in self._deadlines.items() if k[2] == version}
                deadline = self._deadlines[key] = clock.now() + clock.seconds
        return Decision(kind, seat, version, deadline)

    def decision_of(self, seat: int) -> Decision | None:
        """*seat*'s pending decision, if it has one."""
        return next((d for d in self.pending() if d.seat == seat), None)

    def waiting_for(self) -> Decision | None:
        """The decision the game waits for (the first pending one), or ``None``."""
        pending = self.pending()
        return pending[0] if pending else None

    # ------------------------------------------------------------------ changes

    def submit(
        self,
        seat: int,
        action: Action | dict[str, Any] | str | None,
        *,
        expect: Decision | None = None,
        loose: bool = False,
    ) -> Move:
        """Play *seat*'s pending decision: an action, or ``None`` to pass a slap.

        Checked: :class:`~yaniv.errors.IllegalActionError` (nothing changed) when the seat
        has no pending decision, *expect* is no longer pending (the game moved on), or
        the action is not legal now; the message is the engine's. With *loose*, cards
        written in any order are matched to the legal action they name
        (:func:`yaniv.intent.legal_match`: what a person picked or typed). A Yaniv out
        of turn is accepted, and penalised, where the rules say so (S18).
        """
        if loose and action is not None and 0 <= seat < self.game.n and not self.game.round.is_over:
            try:
                act = Action.coerce(action)
            except YanivError as e:
                raise IllegalActionError(str(e)) from None
            action = legal_match(self.game.round.view(seat), act) or act
        return self._play(seat, action, "player", expect)

    def _play(
        self, seat: int, action: Action | dict[str, Any] | str | None, by: MoveBy, expect: Decision | None
    ) -> Move:
        if type(seat) is not int or not 0 <= seat < self.game.n:
            raise IllegalActionError(f"there is no seat {seat!r}: seats are 0..{self.game.n - 1}")
        pending = self.pending()
        if expect is not None and expect not in pending:
            raise IllegalActionError(f"that decision ({expect}) is no longer pending: the game has moved on")
        mine = None
        for d in pending:  # a loop, not next(genexpr): this runs on every move
            if d.seat == seat:
                mine = d
                break
        if mine is None:
            if self.game.over:
                raise IllegalActionError("the game is over")
            if self.stalled is not None:
                raise IllegalActionError(f"the table has stopped: {self.stalled}")
            state = self.game.round
            if action is None or state.is_over or seat == state.slapper:
                raise IllegalActionError(f"{self._who(seat)} has nothing to decide now")
            # not this seat's decision: the engine says why in its words, or takes a
            # Yaniv out of turn where the rules penalise one (S18)
            result = self.game.apply(seat, action)
            return Move(seat, Action.coerce(action), by, result)
        if action is None:
            if mine.kind != DecisionKind.SLAP:
                raise IllegalActionError(f"{self._who(seat)} must act now: only a slap may be passed")
            self._slap_passed = mine.version
            return Move(seat, None, by)
        if mine.kind == DecisionKind.SLAP:
            try:
                act = Action.coerce(action)
            except YanivError as e:
                raise IllegalActionError(str(e)) from None
            if act.type != "slap":
                raise IllegalActionError(f"{self._who(seat)} may only slap the card just drawn now (or pass)")
            action = act
        result = self.game.apply(seat, action)
        return Move(seat, Action.coerce(action), by, result)

    def next_round(self) -> RoundState:
        """Deal the next round after one has ended (``IllegalActionError`` otherwise)."""
        return self.game.next_round()

    def _who(self, seat: int) -> str:
        names = self.game.names
        return names[seat] if names else f"P{seat}"

    # ------------------------------------------------------------------ bots

    def thinker(self, decision: Decision, player: Player | None = None) -> Callable[[], Action | None]:
        """A function that decides *decision* for its seat's bot (or *player*) on a snapshot.

        It may run anywhere (another thread) while the table goes on; hand its answer to
        :meth:`submit` with ``expect=decision``. Exceptions of the bot propagate.
        """
        seat = decision.seat
        if seat is None:
            raise ValueError("the next deal is not a bot's decision")
        bot = player if player is not None else self.players[seat]
        if bot is None:
            raise ValueError(f"seat {seat} has no bot")
        rng = self.rngs[seat] if player is None else self._stand_in_rng
        if getattr(bot, "sees_all", False):
            state = self.game.round.copy()
            return lambda: bot.act_full(state, seat, rng)
        view = self.game.round.view(seat)
        observe = getattr(bot, "observe", None)
        if observe is not None:  # a bot that follows the game (an external program) hears what it missed
            cursor = self._bot_cursors.get(seat)
            if cursor is None or cursor[0] is not bot:
                cursor = self._bot_cursors[seat] = (bot, EventCursor(self, seat))
            for event in cursor[1].new():
                observe(event)
        return lambda: bot.act(view, rng)

    def decide(self, decision: Decision, player: Player | None = None) -> Move:
        """Let the seat's bot (or *player*) make *decision* now, falling back on a failure."""
        by: MoveBy = "player" if player is None else "stand_in"
        try:
            action = self.thinker(decision, player)()
        except Exception as e:  # a bot's bug must not stop the table
            return self.answer(decision, None, error=e, by=by)
        return self.answer(decision, action, by=by)

    def answer(
        self,
        decision: Decision,
        action: Action | None,
        *,
        error: Exception | None = None,
        by: MoveBy = "player",
    ) -> Move:
        """Play a bot's answer to *decision* (thought elsewhere: :meth:`thinker`).

        A bot that failed (*error*), passed a turn, or answered illegally gets the first
        legal discard or draw instead, and :attr:`faults` says so. ``IllegalActionError``
        only when *decision* is no longer pending (the game moved on meanwhile).
        """
        seat = decision.seat
        assert seat is not None
        if error is not None:
            self.faults.append(f"seat {seat}: the bot failed ({type(error).__name__}: {error})")
            action, by = self._fallback(decision), "fallback"
        elif action is None and decision.kind != DecisionKind.SLAP:
            self.faults.append(f"seat {seat}: the bot passed its {decision.kind.value}")
            action, by = self._fallback(decision), "fallback"
        try:
            return self._play(seat, action, by, decision)
        except IllegalActionError as e:
            if self.decision_of(seat) != decision:
                raise  # the game moved on: nothing to fall back from
            self.faults.append(f"seat {seat}: the bot played {action}: {e}")
            return self._play(seat, self._fallback(decision), "fallback", decision)

    def _fallback(self, decision: Decision) -> Action | None:
        """The first legal discard or draw (a pass in a slap window)."""
        if decision.kind == DecisionKind.SLAP:
            return None
        legal = self.game.round.legal_actions(decision.seat)
        return next((a for a in legal if a.type in ("draw", "discard")), legal[0])

    def step(self) -> Move | None:
        """Let a bot make the decision the game waits for (or deal the next round).

        Returns the move made, or ``None`` when nothing was done: a person must decide,
        the next deal waits (``auto_deal`` off), or the game is over or stalled.
        """
        first = self.waiting_for()
        if first is None:
            return None
        if first.kind == DecisionKind.NEXT_ROUND:
            if not self.auto_deal:
                return None
            self.game.next_round()
            return self.step()
        assert first.seat is not None
        if self.players[first.seat] is None:
            return None
        return self.decide(first)

    def run(self) -> None:
        """Let the bots play until a person must decide or nothing more will happen."""
        while self.step() is not None:
            pass

    def expire(self) -> list[Move]:
        """Let the clock's stand-in play every pending decision whose deadline has passed.

        Each is recorded as a ``timeout`` event (``seat``, ``decision``, ``stand_in``)
        before the stand-in's move. Returns the moves made (none without a clock).
        """
        moves: list[Move] = []
        while (due := self.time_out()) is not None:
            assert self.clock is not None
            moves.append(self.decide(due, self.clock.stand_in))
        return moves

    def time_out(self) -> Decision | None:
        """Record the ``timeout`` of the first decision whose deadline has passed, if any.

        Returns that decision as it stands after the event, for the clock's stand-in to
        make: :meth:`expire` lets it decide at once; a server whose stand-in searches for
        a while runs ``thinker(decision, clock.stand_in)`` elsewhere and then
        ``answer(decision, action, by="stand_in")``.
        """
        clock = self.clock
        if clock is None:
            return None
        now = clock.now()
        due = next((d for d in self.pending() if d.deadline is not None and d.deadline <= now), None)
        if due is None or due.seat is None:
            return None
        self.game.note(Timeout(due.seat, due.kind.value, clock.stand_in_name))
        return self.decision_of(due.seat)  # the same decision at the version after the note

    def next_deadline(self) -> float | None:
        """The earliest deadline of the pending decisions (the clock's time), if any."""
        deadlines = [d.deadline for d in self.pending() if d.deadline is not None]
        return min(deadlines) if deadlines else None

    # ------------------------------------------------------------------ events

    def events_since(self, seat: int | None, since: int) -> list[dict[str, Any]]:
        """The game's events from index *since* on (1: the first deal), redacted for *seat*."""
        events = self.game.events
        return [redact(e, seat) for e in events[max(since, 1) :]]

    def cursor(self, seat: int | None, position: int | None = None) -> EventCursor:
        """A cursor for *seat* at *position* (default: the start of the game)."""
        return EventCursor(self, seat, 1 if position is None else position)

    def round_start(self) -> int:
        """The index of the current round's deal event (where a fresh view's story starts)."""
        events = self.game.events
        for i in range(len(events) - 1, 0, -1):
            if events[i]["type"] == "deal":
                return i
        return 1

    def __repr__(self) -> str:
        """A short summary."""
        kinds = ", ".join(str(d) for d in self.pending()) or ("over" if self.game.over else "stalled")
        return f"<Table {self.game.rules} players={self.game.n} round {self.game.round_no}: {kinds}>"
