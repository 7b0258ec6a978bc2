"""The card table: a game against the computer, and the step-through replay viewer.

Both screens draw a :class:`~yaniv.state.RoundState` the same way (:class:`TableBase`):
the previous discard with its takeable cards marked and the stock, one hand at the
bottom, the other players on the right with their card counts, the cards they were
seen taking and their totals, and a move log in plain words. :class:`TableScreen` is a
thin adapter: every move goes through ``Game.apply`` and an illegal one is explained
with the engine's own sentence; the computer players move through
:meth:`yaniv.session.Session.bot_action`, one move per ``delay`` seconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, RichLog, Static

from ..actions import Action
from ..bots import Bot
from ..bots.model import call_success_probability, stage_of
from ..cards import CARDS, Card
from ..errors import YanivError
from ..events import redact
from ..game import Game
from ..match import DEFAULT_TURN_CAP
from ..session import Session, make_opponent
from ..state import RoundState, SeatView
from .screens import ChoiceScreen, HelpScreen, RoundEndScreen, round_report
from .widgets import CardRow, CardSlot, CardView, card_face, card_text, cards_text, event_line

__all__ = ["ReplayScreen", "ReplayStep", "TableBase", "TableScreen", "describe_action", "yaniv_odds"]

HAND_SLOTS = 8
PILE_SLOTS = 8
_SUIT_ORDER = "SHDC"


def _faces(cards: Sequence[Card]) -> str:
    return " ".join(card_face(c) for c in cards)


def describe_action(action: Action | None) -> str:
    """An action in plain words, as a hint gives it."""
    if action is None:
        return "let the drawn card go"
    kind = action.type
    if kind == "yaniv":
        return "call Yaniv"
    if kind == "asef":
        return "call Asef"
    if kind == "draw":
        return "draw from the stock"
    if kind == "discard":
        return f"discard {_faces(action.cards)}"
    if kind == "turn":
        then = "draw from the stock" if action.card is None else f"take {card_face(action.card)}"
        return f"discard {_faces(action.cards)}, then {then}"
    card = card_face(action.card) if action.card is not None else "?"
    if kind == "take":
        return f"take {card}"
    if kind == "swap":
        return f"give your {card} for the joker that stands for it"
    return f"slap {card} onto your discard"


def yaniv_odds(view: SeatView) -> float:
    """The chance that a Yaniv call by the viewing seat succeeds now (the bots' opponent model)."""
    assert view.seat is not None and view.hand_value is not None
    values = view.rules.card_values
    opponents = [
        (view.hand_counts[p], sum(values[c] for c in view.seen[p]), len(view.seen[p]))
        for p in view.active
        if p != view.seat
    ]
    stage = stage_of(view.turns, len(view.active))
    return call_success_probability(view.hand_value, opponents, stage, assaf_on_tie=view.rules.assaf_on_tie)


def _rank_key(card: Card) -> tuple[int, int]:
    if card.is_joker:
        return 14, 0
    return card.rank, _SUIT_ORDER.index(card.suit or "S")


class TableBase(Screen[None]):
    """The table layout and how a round state is drawn on it."""

    DEFAULT_CSS = """
    TableBase { layout: vertical; }
    #main { height: 1fr; }
    #left { width: 1fr; min-width: 46; }
    #right { width: 40%; max-width: 60; }
    #status { height: 1; padding: 0 1; background: $primary 40%; text-style: bold; }
    #table { height: 5; border: round $success; padding: 0 1; background: $success 10%; }
    #stock { margin-right: 2; }
    #pile-note { height: 1; padding: 0 1; }
    #hand-box { height: 5; border: round $warning; padding: 0 1; background: $success 10%; }
    #message { height: 1fr; padding: 0 1; }
    #opponents { height: auto; border: round $secondary; padding: 0 1; }
    #log { height: 1fr; min-height: 4; border: round $secondary; background: $surface; }
    #actions { height: 1; }
    #actions Button { margin-right: 1; min-width: 0; }
    """

    def __init__(self) -> None:
        """An empty table."""
        super().__init__()
        self.hand_cards: list[Card] = []

    def compose(self) -> ComposeResult:
        """The table, the hand, the other players, the log."""
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with Horizontal(id="table"):
                    yield CardRow(1, id="stock")
                    yield CardRow(PILE_SLOTS, id="pile")
                yield Static(id="pile-note")
                with Horizontal(id="hand-box"):
                    yield CardRow(HAND_SLOTS, spaced=True, id="hand")
                yield Static(id="message")
            with Vertical(id="right"):
                yield Static(id="opponents")
                log = RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=10)
                log.can_focus = False
                log.border_title = "Moves"
                yield log
        yield from self.compose_bottom()
        yield Footer()

    def compose_bottom(self) -> ComposeResult:
        """Widgets between the table and the footer (none here)."""
        yield from ()

    # ----- drawing

    def show_table(
        self,
        state: RoundState,
        seat: int,
        labels: Sequence[str],
        *,
        round_no: int,
        reveal: bool = False,
        selected: Sequence[Card] = (),
        cursor: int | None = None,
        by_rank: bool = False,
    ) -> list[Card]:
        """Draw *state* as *seat* sees it (every hand if *reveal*); returns the hand as shown."""
        over = state.is_over
        table = self.query_one("#table", Horizontal)
        table.border_title = f"Round {round_no} · {state.rules}"
        table.border_subtitle = f"stock {len(state.stock)} · previous discard"
        self.query_one("#stock", CardRow).show([CardSlot(None, str(len(state.stock)), "back")])
        group = state.previous_group()
        previous = [CARDS[c] for c in group] if group is not None else []
        takeable = {str(c) for c in state.takeable()} if not over else set()
        self.query_one("#pile", CardRow).show(
            [
                CardSlot(c, "▲", "takeable") if str(c) in takeable else CardSlot(c)
                for c in previous[:PILE_SLOTS]
            ]
        )
        note = Text()
        if over:
            last = state.pile[-1] if state.pile else ()
            note.append("last discard: ")
            note.append_text(cards_text([CARDS[c] for c in last]))
        elif group is None:
            note.append("no discard to take from: draw from the stock")
        else:
            if len(previous) > PILE_SLOTS:
                note.append(f"(+{len(previous) - PILE_SLOTS} more) ")
            note.append("▲ may be taken: ", style="bold green")
            note.append_text(cards_text(state.takeable(), empty="nothing"))
            if state.phase_name == "after_discard":
                note.append(f" · {labels[state.current]} laid ")
                note.append_text(cards_text([CARDS[c] for c in state.pile[-1]]))
        self.query_one("#pile-note", Static).update(note)

        hand = state.hand(seat)
        if by_rank:
            hand.sort(key=_rank_key)
        chosen = set(selected)
        slots = [
            CardSlot(c, str(i + 1), "selected" if c in chosen else "plain", cursor == i)
            for i, c in enumerate(hand)
        ]
        self.query_one("#hand", CardRow).show(slots)
        box = self.query_one("#hand-box", Horizontal)
        if seat in state.active:
            box.border_title = f"{labels[seat]}: {state.hand_value(seat)} points"
        else:
            box.border_title = f"{labels[seat]}: out of the game"
        total = state.result.totals[seat] if state.result is not None else state.totals[seat]
        box.border_subtitle = (
            f"total {total} (out over {state.rules.score_limit}) · Yaniv at ≤ {state.rules.threshold}"
        )

        self.query_one("#opponents", Static).update(self._opponents(state, seat, labels, reveal))
        return hand

    def _opponents(self, state: RoundState, seat: int, labels: Sequence[str], reveal: bool) -> Text:
        public = state.view(None)  # what anyone at the table knows
        shown = public.hands_shown
        result = state.result
        totals = result.totals if result is not None else state.totals
        text = Text(no_wrap=True, overflow="ellipsis")
        order = [(seat + k) % state.n for k in range(1, state.n)]
        for i, p in enumerate(order):
            if i:
                text.append("\n")
            turn = p == state.current and not state.is_over
            text.append("▶ " if turn else "  ", style="bold yellow")
            text.append(labels[p], style="bold" if turn else "")
            text.append(f"  {totals[p]} pts", style="cyan")
            text.append("\n    ")
            if p not in state.active:
                text.append("out of the game", style="dim")
                continue
            if reveal or shown is not None:
                text.append_text(cards_text(state.hand(p)))
                text.append(f" = {state.hand_value(p)}")
                continue
            count = public.hand_counts[p]
            text.append(f"{count} card{'s' if count != 1 else ''}")
            seen = public.seen[p]
            if seen:
                text.append(" · took ")
                text.append_text(cards_text(seen))
                values = state.rules.card_values
                text.append(f" ({sum(values[c] for c in seen)})")
        return text

    def say(self, text: str | Text, style: str = "") -> None:
        """Show a message under the hand."""
        self.query_one("#message", Static).update(Text(text, style=style) if isinstance(text, str) else text)

    def set_status(self, text: str | Text) -> None:
        """The line at the top: whose turn, what to do."""
        self.query_one("#status", Static).update(text)


# ----------------------------------------------------------------- playing


class TableScreen(TableBase):
    """A game against the computer: keys and clicks become engine actions."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(i), f"pick({i})", show=False) for i in range(1, HAND_SLOTS + 1)),
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("space", "pick_cursor", show=False),
        Binding("d", "discard", "Discard", show=False),
        Binding("enter", "confirm", show=False),
        Binding("s", "draw", "Stock", show=False),
        Binding("t", "take", "Take", show=False),
        Binding("y", "yaniv", "Yaniv", show=False),
        Binding("w", "swap", "Swap", show=False),
        Binding("x", "slap", "Slap", show=False),
        Binding("a", "asef", "Asef", show=False),
        Binding("escape", "clear", "Clear", show=False),
        Binding("h", "hint", "Hint"),
        Binding("o", "sort", "Sort"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "leave('quit')", "Quit (saved)"),
    ]

    def __init__(self, session: Session, *, delay: float = 0.8, leave: Callable[[str], None]) -> None:
        """Play *session*; *leave* is told ``rematch``, ``new`` or ``quit``."""
        super().__init__()
        self.session = session
        self.game: Game = session.game
        self.seat = session.seat
        self.delay = max(0.0, delay)
        self._leave = leave
        self.labels = [session.label(p) for p in range(self.game.n)]
        self.selected: list[Card] = []
        self.cursor = 0
        self.by_rank = False
        self.logged = 1
        self._timer: Timer | None = None
        self._slap_done: tuple[int, int] | None = None
        self._reported: int | None = None
        self._hinter: Bot | None = None

    def compose_bottom(self) -> ComposeResult:
        """The action buttons."""
        rules = self.game.rules
        buttons = [
            ("discard", "d Discard", True),
            ("draw", "s Stock", True),
            ("take", "t Take", True),
            ("yaniv", "y Yaniv!", True),
            ("swap", "w Swap", rules.joker_swap != "off"),
            ("slap", "x Slap", rules.quick_discard != "off"),
            ("asef", "a Asef", rules.asef),
        ]
        with Horizontal(id="actions"):
            for name, label, shown in buttons:
                button = Button(label, id=f"act-{name}", compact=True)
                button.can_focus = False
                button.display = shown
                yield button

    def on_mount(self) -> None:
        """Draw the table and let the computer play until it is the person's turn."""
        self.log_new_events()
        self.advance()

    def on_unmount(self) -> None:
        """Stop the computer's pending move."""
        if self._timer is not None:
            self._timer.stop()

    # ----- drawing

    def refresh_view(self) -> None:
        """Draw the current state, the prompt and which buttons work now."""
        state = self.game.round
        hand = state.hand(self.seat)
        self.selected = [c for c in self.selected if c in hand]
        self.cursor = min(self.cursor, max(len(hand) - 1, 0))
        self.hand_cards = self.show_table(
            state,
            self.seat,
            self.labels,
            round_no=self.game.round_no,
            selected=self.selected,
            cursor=self.cursor,
            by_rank=self.by_rank,
        )
        self.set_status(self.prompt())
        legal = {a.type for a in state.legal_actions(self.seat)} if self.seat in state.active else set()
        enabled = {
            "discard": "discard" in legal,
            "draw": "draw" in legal,
            "take": "take" in legal,
            "yaniv": "yaniv" in legal,
            "swap": "swap" in legal,
            "slap": self.slap_pending(),
            "asef": "asef" in legal,
        }
        for name, on in enabled.items():
            self.query_one(f"#act-{name}", Button).disabled = not on
        self.log_new_events()

    def log_new_events(self) -> None:
        """Write the events not yet in the log, as this seat may see them."""
        log = self.query_one("#log", RichLog)
        events = self.game.events
        while self.logged < len(events):
            line = event_line(redact(events[self.logged], self.seat), self.game.names)
            if line is not None:
                log.write(line)
            self.logged += 1

    def prompt(self) -> Text:
        """What the person should do now, in a few words."""
        state = self.game.round
        text = Text()
        if self.game.over:
            text.append("Game over.")
        elif state.is_over:
            text.append("The round is over.")
        elif self.slap_pending():
            drawn = state.slap_card(self.seat)
            assert drawn is not None
            text.append("You drew ")
            text.append_text(card_text(drawn))
            text.append(": x slaps it onto your discard, Enter lets it go")
        elif self.seat not in state.active:
            text.append(f"You are out; {self.labels[state.current]} is playing")
        elif state.current != self.seat:
            text.append(f"{self.labels[state.current]} is playing…")
        else:
            legal = {a.type for a in state.legal_actions(self.seat)}
            if state.phase_name == "after_discard":
                text.append("Take a card: s the stock, t the pile", style="bold")
                if "swap" in legal:
                    text.append(", w the joker")
                if "asef" in legal:
                    text.append(", a Asef")
            else:
                text.append("Your turn: pick cards (1-8 or click), d discards", style="bold")
                if "swap" in legal:
                    text.append(" · w swaps a joker")
                if "yaniv" in legal:
                    text.append(" · y calls Yaniv!", style="bold green")
        return text

    # ----- the computer's moves

    def slap_pending(self) -> bool:
        """Whether the person may slap the card just drawn and has not decided yet."""
        state = self.game.round
        return (
            state.slapper == self.seat
            and state.slap_card(self.seat) is not None
            and self._slap_done != (self.game.round_no, state.turns)
        )

    def _bot_step(self) -> bool:
        """One computer move if one is due; False when the person (or the round's end) is next."""
        game = self.game
        state = game.round
        if game.over or state.is_over:
            return False
        slapper = state.slapper
        if slapper is not None and state.slap_card(slapper) is not None:
            window = (game.round_no, state.turns)
            if self._slap_done != window:
                if slapper == self.seat:
                    return False  # the person decides: x or Enter
                self._slap_done = window
                action = self.session.bot_action(slapper)
                if action is not None:
                    game.apply(slapper, action)
                    return True
        if state.current == self.seat:
            return False
        if state.turns >= DEFAULT_TURN_CAP:
            raise YanivError(f"this round has gone on for {state.turns} turns without an end")
        action = self.session.bot_action(state.current)
        if action is None:
            raise YanivError(f"{self.labels[state.current]} passed its turn")
        game.apply(state.current, action)
        return True

    def advance(self) -> None:
        """Let the computer move until the person must act (one move per ``delay`` seconds)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        while True:
            try:
                acted = self._bot_step()
            except YanivError as e:  # a bot broke a rule: show it rather than crash
                self.refresh_view()
                self.say(f"The computer player made an illegal move: {e}", "bold red")
                return
            self.refresh_view()
            if not acted:
                if self.game.round.is_over:
                    self._report()
                return
            if self.delay > 0:
                self._schedule()
                return

    def _schedule(self) -> None:
        """The computer's next move in ``delay`` seconds (one pending move at most)."""
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(self.delay, self.advance)

    def _after_person(self) -> None:
        state = self.game.round
        if state.is_over or state.current == self.seat or self.slap_pending() or self.delay <= 0:
            self.advance()
        else:
            self.refresh_view()
            self._schedule()

    def _report(self) -> None:
        if self._reported == self.game.round_no:
            return
        self._reported = self.game.round_no
        report = round_report(self.game, self.seat, self.labels)
        self.app.push_screen(RoundEndScreen(report, over=self.game.over), self._after_report)

    def _after_report(self, choice: str | None) -> None:
        if choice == "next" and not self.game.over:
            self.game.next_round()
            self.selected.clear()
            self.say("")
            self.log_new_events()
            self.advance()
        elif choice in ("rematch", "new", "quit"):
            self._leave(choice)

    # ----- the person's moves

    def play(self, action: Action) -> bool:
        """Apply the person's action; an illegal one is explained and changes nothing."""
        try:
            self.game.apply(self.seat, action)
        except YanivError as e:
            self.explain(str(e))
            return False
        self.selected.clear()
        self.say("")
        self._after_person()
        return True

    def explain(self, reason: str) -> None:
        """Say in one sentence why a choice is not allowed."""
        sentence = reason[:1].upper() + reason[1:]
        if not sentence.endswith((".", "!", "?")):
            sentence += "."
        self.say(Text.assemble(("Not allowed: ", "bold red"), sentence))

    def _discard_action(self, cards: Sequence[Card]) -> Action:
        """The discard of the selected cards, laid in a legal order when there is one.

        The selection order is kept if it is legal; otherwise the first legal discard of
        the same cards (a run selected out of order is laid ascending). If none is legal,
        the selection as it is, so the engine explains why.
        """
        chosen = Action.discard(list(cards))
        wanted = sorted(str(c) for c in cards)
        same = [
            a
            for a in self.game.round.legal_actions(self.seat)
            if a.type == "discard" and sorted(str(c) for c in a.cards) == wanted
        ]
        if not same or any([str(c) for c in a.cards] == [str(c) for c in cards] for a in same):
            return chosen
        return same[0]

    def action_pick(self, number: int) -> None:
        """Select or unselect the *number*-th card of the hand."""
        index = number - 1
        if 0 <= index < len(self.hand_cards):
            self.cursor = index
            card = self.hand_cards[index]
            if card in self.selected:
                self.selected.remove(card)
            else:
                self.selected.append(card)
            self.refresh_view()

    def action_cursor(self, delta: int) -> None:
        """Move the cursor along the hand."""
        if self.hand_cards:
            self.cursor = (self.cursor + delta) % len(self.hand_cards)
            self.refresh_view()

    def action_pick_cursor(self) -> None:
        """Select or unselect the card under the cursor."""
        self.action_pick(self.cursor + 1)

    def action_clear(self) -> None:
        """Unselect every card."""
        self.selected.clear()
        self.refresh_view()

    def action_sort(self) -> None:
        """Sort the hand by suit (runs side by side) or by rank (sets side by side)."""
        self.by_rank = not self.by_rank
        self.refresh_view()

    def action_discard(self) -> None:
        """Discard the selected cards."""
        if not self.selected:
            self.explain("select the cards to discard first: press their numbers or click them")
            return
        self.play(self._discard_action(self.selected))

    def action_confirm(self) -> None:
        """Enter: let a drawn card go in the slap window, else discard the selection."""
        if self.slap_pending():
            self._slap_done = (self.game.round_no, self.game.round.turns)
            self.advance()
        elif self.selected:
            self.action_discard()

    def action_draw(self) -> None:
        """Take the top card of the stock."""
        self.play(Action.draw())

    def action_take(self, card: Card | None = None) -> None:
        """Take a card of the previous discard (asks which when several may be taken)."""
        state = self.game.round
        takeable = state.takeable() if state.current == self.seat else []
        if card is None and len(takeable) > 1 and state.phase_name == "after_discard":
            self.app.push_screen(ChoiceScreen("Take which card?", takeable), self._take_chosen)
            return
        if card is None:
            group = state.previous_group()
            fallback = CARDS[group[-1]] if group else Card.parse("AS")
            card = takeable[0] if takeable else fallback
        self.play(Action("take", card=card))

    def _take_chosen(self, card: Card | None) -> None:
        if card is not None:
            self.play(Action("take", card=card))

    def action_yaniv(self) -> None:
        """Call Yaniv (a call out of turn is refused here even where it is only penalised)."""
        state = self.game.round
        penalty = state.rules.false_yaniv_penalty
        if state.current != self.seat and penalty is not None and not state.is_over:
            self.explain(
                f"it is not your turn: {self.labels[state.current]} is to play "
                f"(a Yaniv call out of turn costs {penalty} points under these rules)"
            )
            return
        self.play(Action.yaniv())

    def action_swap(self) -> None:
        """Give a card of the hand for the joker standing for it (asks which when several)."""
        state = self.game.round
        options = state.swappable() if state.current == self.seat else []
        picked = [c for c in self.selected if str(c) in {str(o) for o in options}]
        if len(picked) == 1:
            self.play(Action("swap", card=picked[0]))
        elif len(options) > 1:
            self.app.push_screen(ChoiceScreen("Swap which card for the joker?", options), self._swap_chosen)
        elif options:
            self.play(Action("swap", card=options[0]))
        else:
            hand = self.selected or self.hand_cards or [Card.parse("AS")]
            self.play(Action("swap", card=hand[0]))

    def _swap_chosen(self, card: Card | None) -> None:
        if card is not None:
            self.play(Action("swap", card=card))

    def action_slap(self) -> None:
        """Slap the card just drawn onto one's discard."""
        state = self.game.round
        card = state.slap_card(self.seat)
        if card is None:
            drawn = state.drawn
            card = CARDS[drawn] if drawn is not None else (self.hand_cards or [Card.parse("AS")])[0]
        self.play(Action("slap", card=card))

    def action_asef(self) -> None:
        """Call Asef."""
        self.play(Action.asef())

    def action_hint(self) -> None:
        """The expert's suggestion for this turn and, when Yaniv is allowed, its odds."""
        state = self.game.round
        if (
            state.is_over
            or self.seat not in state.active
            or (state.current != self.seat and not self.slap_pending())
        ):
            self.say("Hints are for your turn.")
            return
        view = state.view(self.seat)
        if self._hinter is None:
            self._hinter = make_opponent("expert")
        rng = random.Random(f"hint-{self.game.seed}-{self.game.round_no}-{state.turns}")
        action = self._hinter.act(view, rng)
        text = Text.assemble(("Hint: ", "bold cyan"), describe_action(action) + ".")
        if any(a.type == "yaniv" for a in view.legal):
            text.append(f"\nA Yaniv call now succeeds with probability {yaniv_odds(view):.0%}.")
        self.say(text)
        if action is not None and action.type in ("discard", "turn"):
            pool = list(self.hand_cards)
            self.selected = []
            for card in action.cards:
                match = next((c for c in pool if str(c) == str(card)), None)
                if match is not None:
                    pool.remove(match)
                    self.selected.append(match)
            self.refresh_view()

    def action_help(self) -> None:
        """The rules in plain words and the keys."""
        self.app.push_screen(HelpScreen(self.game.rules))

    def action_leave(self, what: str) -> None:
        """Leave the table (the game is recorded as it goes)."""
        self._leave(what)

    # ----- mouse

    def on_card_view_clicked(self, message: CardView.Clicked) -> None:
        """A click on a card of the hand selects it, on a marked card takes it, on the stock draws."""
        row = message.view.parent
        row_id = row.id if row is not None else None
        if row_id == "hand":
            self.action_pick(message.view.index + 1)
        elif row_id == "stock":
            self.action_draw()
        elif row_id == "pile" and message.view.card is not None:
            self.action_take(message.view.card)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The action buttons."""
        event.stop()
        name = (event.button.id or "").removeprefix("act-")
        handlers: dict[str, Callable[[], Any]] = {
            "discard": self.action_discard,
            "draw": self.action_draw,
            "take": self.action_take,
            "yaniv": self.action_yaniv,
            "swap": self.action_swap,
            "slap": self.action_slap,
            "asef": self.action_asef,
        }
        if name in handlers:
            handlers[name]()


# ----------------------------------------------------------------- replaying


@dataclass(frozen=True)
class ReplayStep:
    """One line of a record and the round as it stood right after it."""

    event: dict[str, Any]
    state: RoundState
    round_no: int


class ReplayScreen(TableBase):
    """Step through a recorded game: every hand face up (or as one seat saw it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "step(1)", "Next"),
        Binding("left,backspace,p", "step(-1)", "Back"),
        Binding("pagedown,right_square_bracket", "round(1)", "Next round"),
        Binding("pageup,left_square_bracket", "round(-1)", "Round back"),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        Binding("tab", "next_seat", "Seat"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q,escape", "app.quit", "Quit"),
    ]
    REPLAY_KEYS = (
        ("→, space, n", "next line of the record"),
        ("←, p", "back one line"),
        ("PgDn / PgUp, ] / [", "next / previous round"),
        ("Home / End", "the start / the end"),
        ("Tab", "whose hand is at the bottom"),
        ("q, Esc", "leave"),
    )

    def __init__(
        self, steps: Sequence[ReplayStep], names: Sequence[str], *, seat: int | None, problem: str | None
    ) -> None:
        """*steps* from :func:`replay_steps`; *seat*: show only what that seat saw."""
        super().__init__()
        self.steps = list(steps)
        self.names = list(names)
        self.fixed = seat
        self.seat = seat if seat is not None else 0
        self.problem = problem
        self.index = 0

    def on_mount(self) -> None:
        """Show the first step."""
        self.show_step()

    def show_step(self) -> None:
        """Draw the table after the current line and the round's log so far."""
        step = self.steps[self.index]
        state = step.state
        if self.fixed is None and self.seat not in state.active:
            self.seat = next((p for p in state.active), self.seat)
        self.hand_cards = self.show_table(
            state, self.seat, self.names, round_no=step.round_no, reveal=self.fixed is None
        )
        line = event_line(self._seen(step.event), self.names) or Text("")
        whose = "every hand shown" if self.fixed is None else f"as {self.names[self.fixed]} saw it"
        self.set_status(f"Replay: line {self.index + 1} of {len(self.steps)} · {whose}")
        log = self.query_one("#log", RichLog)
        log.clear()
        start = self.index
        while start > 0 and self.steps[start].event.get("type") != "deal":
            start -= 1
        for s in self.steps[start : self.index + 1]:
            text = event_line(self._seen(s.event), self.names)
            if text is not None:
                log.write(text)
        message = Text.assemble(line, "\n\n")
        if self.index == len(self.steps) - 1:
            if self.problem:
                message.append(f"The record stops here: {self.problem}", style="bold red")
            elif step.event.get("type") == "game_end":
                winners = ", ".join(self.names[p] for p in step.event.get("winners", []))
                message.append(f"The end: {winners} won.", style="bold green")
            else:
                message.append("The record ends here: the game was not finished.", style="bold")
        else:
            message.append("→ next · ← back · PgDn/PgUp round · Tab seat · ? help · q quit", style="dim")
        self.say(message)

    def _seen(self, event: dict[str, Any]) -> dict[str, Any]:
        return redact(event, self.fixed) if self.fixed is not None else event

    def action_step(self, delta: int) -> None:
        """One line forward or back."""
        self.index = max(0, min(len(self.steps) - 1, self.index + delta))
        self.show_step()

    def action_round(self, delta: int) -> None:
        """To the next round's deal, or back to this (or the previous) round's deal."""
        current = self.steps[self.index].round_no
        if delta > 0:
            later = [i for i, s in enumerate(self.steps) if s.round_no > current]
            self.index = later[0] if later else len(self.steps) - 1
        else:
            target = current - 1 if self.steps[self.index].event.get("type") == "deal" else current
            earlier = [i for i, s in enumerate(self.steps) if s.round_no == max(target, 1)]
            self.index = earlier[0] if earlier else 0
        self.show_step()

    def action_jump(self, index: int) -> None:
        """To the first (0) or the last (-1) line."""
        self.index = index % len(self.steps)
        self.show_step()

    def action_next_seat(self) -> None:
        """Put the next player's hand at the bottom (only when every hand is shown)."""
        if self.fixed is not None:
            self.say("This replay shows what one seat saw: its hand stays at the bottom.")
            return
        state = self.steps[self.index].state
        seats = [p for p in range(state.n) if p in state.active] or list(range(state.n))
        later = [p for p in seats if p > self.seat]
        self.seat = later[0] if later else seats[0]
        self.show_step()

    def action_help(self) -> None:
        """The rules of the recorded game and the keys."""
        self.app.push_screen(HelpScreen(self.steps[0].state.rules, self.REPLAY_KEYS))
