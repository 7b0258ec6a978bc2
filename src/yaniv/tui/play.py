"""The play screen: a game against the computer, a thin adapter over the table driver.

:class:`TableScreen` draws ``session.table.view(seat)`` on the board and turns keys and
clicks into actions submitted with :meth:`yaniv.table.Table.submit` (an illegal one is
explained with the engine's own sentence and changes nothing). It keeps no game loop:
it asks the table whose decision the game waits for, lets a bot make it with
:meth:`~yaniv.table.Table.step` (one decision per ``delay`` seconds: the computer's
pacing is the screen's business, not the rules'), deals the next round with
:meth:`~yaniv.table.Table.next_round` once the person has seen the round's report,
and follows the game in the move log through a :meth:`~yaniv.table.Table.cursor`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Button, RichLog

from ..actions import Action
from ..bots import Bot
from ..cards import Card
from ..errors import YanivError
from ..game import Game
from ..intent import legal_match
from ..session import Session, make_opponent
from ..table import Decision, DecisionKind, Table
from .board import HAND_SLOTS, BoardScreen
from .hint import describe_action, yaniv_odds
from .screens import ChoiceScreen, HelpScreen, RoundEndScreen, round_report
from .widgets import CardView, card_text, event_line

__all__ = ["TableScreen"]

if TYPE_CHECKING:  # a front end reads views, never the state module itself
    from .. import SeatView


class TableScreen(BoardScreen):
    """A game against the computer: keys and clicks become actions at the table."""

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
        self.table: Table = session.table
        self.game: Game = session.game
        self.seat = session.seat
        self.delay = max(0.0, delay)
        self._leave = leave
        self.labels = [session.label(p) for p in range(self.game.n)]
        self.selected: list[Card] = []
        self.cursor = 0
        self.by_rank = False
        self._events = self.table.cursor(self.seat)  # the move log: the whole game, as this seat saw it
        self._faults = len(self.table.faults)
        self._timer: Timer | None = None
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

    def view(self) -> SeatView:
        """What the person may know now."""
        return self.table.view(self.seat)

    def refresh_view(self) -> None:
        """Draw the person's view, the prompt and which buttons work now."""
        view = self.view()
        self.selected = [c for c in self.selected if c in view.hand]
        self.cursor = min(self.cursor, max(len(view.hand) - 1, 0))
        self.hand_cards = self.show_view(
            view,
            self.labels,
            round_no=self.game.round_no,
            takeable=self._takeable(view),
            selected=self.selected,
            cursor=self.cursor,
            by_rank=self.by_rank,
        )
        self.set_status(self.prompt(view))
        legal = {a.type for a in view.legal}
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

    def _takeable(self, view: SeatView) -> list[Card]:
        """The cards the current player may take, which the board marks for everyone.

        A view lists them for its own seat only; they follow from the previous discard
        and the rules alone (public), so on another player's turn they are read from
        that player's view, and nothing else of it.
        """
        if view.current == view.seat or view.phase == "round_over":
            return list(view.takeable)
        return list(self.table.view(view.current).takeable)

    def log_new_events(self) -> None:
        """Write the events not yet in the log, as this seat may see them."""
        log = self.query_one("#log", RichLog)
        for event in self._events.new():
            line = event_line(event, self.game.names)
            if line is not None:
                log.write(line)

    def prompt(self, view: SeatView | None = None) -> Text:
        """What the person should do now, in a few words."""
        view = view or self.view()
        text = Text()
        if self.game.over:
            text.append("Game over.")
        elif view.phase == "round_over":
            text.append("The round is over.")
        elif self.slap_pending():
            drawn = self._slap_card(view)
            assert drawn is not None
            text.append("You drew ")
            text.append_text(card_text(drawn))
            text.append(": x slaps it onto your discard, Enter lets it go")
        elif self.seat not in view.active:
            text.append(f"You are out; {self.labels[view.current]} is playing")
        elif view.current != self.seat:
            text.append(f"{self.labels[view.current]} is playing…")
        else:
            legal = {a.type for a in view.legal}
            if view.phase == "after_discard":
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

    @staticmethod
    def _slap_card(view: SeatView) -> Card | None:
        """The card the person may slap now (else the card just drawn, if any)."""
        return next((a.card for a in view.legal if a.type == "slap" and a.card is not None), view.drawn)

    # ----- the computer's moves

    def slap_pending(self) -> bool:
        """Whether the person may slap the card just drawn and has not decided yet."""
        decision = self.table.decision_of(self.seat)
        return decision is not None and decision.kind == DecisionKind.SLAP

    def _bot_waited_for(self) -> Decision | None:
        """The decision the game waits for if a bot makes it, else ``None``."""
        decision = self.table.waiting_for()
        if decision is None or decision.seat is None or not self.table.is_bot(decision.seat):
            return None
        return decision

    def advance(self) -> None:
        """Let the computer move until the person must act (one move per ``delay`` seconds)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.delay <= 0:
            self.table.run()
        elif self._bot_waited_for() is not None:
            self.table.step()
            self.refresh_view()
            self._tell_faults()
            self._schedule()
            return
        self.refresh_view()
        self._tell_faults()
        waiting = self.table.waiting_for()
        if self.game.over or (waiting is not None and waiting.kind == DecisionKind.NEXT_ROUND):
            self._report()
        elif self.table.stalled is not None:
            self.say(f"The game has stopped: {self.table.stalled}.", "bold red")

    def _tell_faults(self) -> None:
        """Say what went wrong with a computer player (the table played a legal move for it)."""
        faults = self.table.faults
        if len(faults) > self._faults:
            self.say(
                f"The computer player made an illegal move ({faults[-1]}): a legal one was played.",
                "bold red",
            )
            self._faults = len(faults)

    def _schedule(self) -> None:
        """The computer's next move in ``delay`` seconds (one pending move at most)."""
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(self.delay, self.advance)

    def _after_person(self) -> None:
        if self._bot_waited_for() is None or self.delay <= 0:
            self.advance()
        else:
            self.refresh_view()
            self._schedule()

    def _report(self) -> None:
        if self._reported == self.game.round_no:
            return
        self._reported = self.game.round_no
        report = round_report(self.view(), self.labels, round_no=self.game.round_no)
        self.app.push_screen(RoundEndScreen(report, over=self.game.over), self._after_report)

    def _after_report(self, choice: str | None) -> None:
        if choice == "next" and not self.game.over:
            self.table.next_round()
            self.selected.clear()
            self.say("")
            self.log_new_events()
            self.advance()
        elif choice in ("rematch", "new", "quit"):
            self._leave(choice)

    # ----- the person's moves

    def play(self, action: Action) -> bool:
        """Submit the person's action; an illegal one is explained and changes nothing."""
        refusal = self._out_of_turn(action)
        if refusal is not None:
            self.explain(refusal)
            return False
        try:
            self.table.submit(self.seat, action)
        except YanivError as e:
            self.explain(str(e))
            return False
        self.selected.clear()
        self.say("")
        self._after_person()
        return True

    def _out_of_turn(self, action: Action) -> str | None:
        """In the slap window, the keys that decide it; else None (the table and engine say why).

        Out of turn the engine's own sentence explains, or the rules take a Yaniv out of
        turn as a penalised mistake (S18), as at any table.
        """
        decision = self.table.decision_of(self.seat)
        view = self.view()
        names = self.game.names
        who = names[view.current] if names else f"P{view.current}"
        if decision is not None and decision.kind == DecisionKind.SLAP and action.type != "slap":
            return f"it is not your turn: {who} is to play (x slaps the card you drew, Enter lets it go)"
        return None

    def explain(self, reason: str) -> None:
        """Say in one sentence why a choice is not allowed."""
        sentence = reason[:1].upper() + reason[1:]
        if not sentence.endswith((".", "!", "?")):
            sentence += "."
        self.say(Text.assemble(("Not allowed: ", "bold red"), sentence))

    def _discard_action(self, cards: Sequence[Card]) -> Action:
        """The legal discard the selected cards (in selection order) name, else the selection as is.

        As selected, a discard the engine refuses is explained by the engine's own sentence.
        """
        chosen = Action.discard(list(cards))
        return legal_match(self.view(), chosen) or chosen

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
            try:
                self.table.submit(self.seat, None)
            except YanivError as e:
                self.explain(str(e))
                return
            self.advance()
        elif self.selected:
            self.action_discard()

    def action_draw(self) -> None:
        """Take the top card of the stock."""
        self.play(Action.draw())

    def action_take(self, card: Card | None = None) -> None:
        """Take a card of the previous discard (asks which when several may be taken)."""
        view = self.view()
        takeable = view.takeable
        if card is None and len(takeable) > 1 and view.phase == "after_discard":
            self.app.push_screen(ChoiceScreen("Take which card?", takeable), self._take_chosen)
            return
        if card is None:
            group = view.previous_group
            fallback = group[-1] if group else Card.parse("AS")
            card = takeable[0] if takeable else fallback
        self.play(Action("take", card=card))

    def _take_chosen(self, card: Card | None) -> None:
        if card is not None:
            self.play(Action("take", card=card))

    def action_yaniv(self) -> None:
        """Call Yaniv (a call out of turn is refused here even where it is only penalised)."""
        view = self.view()
        penalty = view.rules.false_yaniv_penalty
        if view.current != self.seat and penalty is not None and view.phase != "round_over":
            self.explain(
                f"it is not your turn: {self.labels[view.current]} is to play "
                f"(a Yaniv call out of turn costs {penalty} points under these rules)"
            )
            return
        self.play(Action.yaniv())

    def action_swap(self) -> None:
        """Give a card of the hand for the joker standing for it (asks which when several)."""
        options = [a.card for a in self.view().legal if a.type == "swap" and a.card is not None]
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
        card = self._slap_card(self.view())
        if card is None:
            card = (self.hand_cards or [Card.parse("AS")])[0]
        self.play(Action("slap", card=card))

    def action_asef(self) -> None:
        """Call Asef."""
        self.play(Action.asef())

    def action_hint(self) -> None:
        """The expert's suggestion for this turn and, when Yaniv is allowed, its odds."""
        view = self.view()
        if (
            view.phase == "round_over"
            or self.seat not in view.active
            or (view.current != self.seat and not self.slap_pending())
        ):
            self.say("Hints are for your turn.")
            return
        if self._hinter is None:
            self._hinter = make_opponent("expert")
        rng = random.Random(f"hint-{self.game.seed}-{self.game.round_no}-{view.turns}")
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
