"""The card table drawn from a seat's view: the layout shared by the play and replay screens.

:class:`BoardScreen` lays out the previous discard with its takeable cards marked and
the stock, one hand at the bottom, the other players on the right (card counts, the
cards they were seen taking, totals) and a move log, and draws a
:class:`~yaniv.SeatView` on it (:meth:`BoardScreen.show_view`). It never sees more than
the view it is given: every hand face up (the replay) is the views of every seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from ..cards import Card
from .widgets import CardRow, CardSlot, cards_text

__all__ = ["HAND_SLOTS", "PILE_SLOTS", "BoardScreen"]

if TYPE_CHECKING:  # a front end reads views, never the state module itself
    from .. import SeatView

HAND_SLOTS = 8
"""Card boxes of the hand row (the keys 1-8)."""
PILE_SLOTS = 8
"""Card boxes of the previous discard."""
_SUIT_ORDER = "SHDC"


def _rank_key(card: Card) -> tuple[int, int]:
    if card.is_joker:
        return 14, 0
    return card.rank, _SUIT_ORDER.index(card.suit or "S")


def _value(cards: Sequence[Card], view: SeatView) -> int:
    values = view.rules.card_values
    return sum(values[c] for c in cards)


class BoardScreen(Screen[None]):
    """The table layout and how a seat's view is drawn on it."""

    DEFAULT_CSS = """
    BoardScreen { layout: vertical; }
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
        """The hand at the bottom, in the order shown (the keys 1-8 pick from it)."""

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

    def show_view(
        self,
        view: SeatView,
        labels: Sequence[str],
        *,
        round_no: int,
        takeable: Sequence[Card],
        revealed: Sequence[SeatView] | None = None,
        selected: Sequence[Card] = (),
        cursor: int | None = None,
        by_rank: bool = False,
    ) -> list[Card]:
        """Draw *view* (its seat's hand at the bottom); returns the hand as shown.

        *takeable*: the cards of the previous discard the current player may take (marked
        for every viewer, as anyone at the table can tell). *revealed*: every seat's view,
        to show every hand face up (the replay).
        """
        assert view.seat is not None
        seat = view.seat
        over = view.phase == "round_over"
        table = self.query_one("#table", Horizontal)
        table.border_title = f"Round {round_no} · {view.rules}"
        table.border_subtitle = f"stock {view.stock_count} · previous discard"
        self.query_one("#stock", CardRow).show([CardSlot(None, str(view.stock_count), "back")])
        previous = list(view.previous_group) if view.previous_group is not None else []
        marked = {str(c) for c in takeable} if not over else set()
        self.query_one("#pile", CardRow).show(
            [CardSlot(c, "▲", "takeable") if str(c) in marked else CardSlot(c) for c in previous[:PILE_SLOTS]]
        )
        note = Text()
        if over:
            note.append("last discard: ")
            note.append_text(cards_text(view.discard_pile[-1] if view.discard_pile else []))
        elif view.previous_group is None:
            note.append("no discard to take from: draw from the stock")
        else:
            if len(previous) > PILE_SLOTS:
                note.append(f"(+{len(previous) - PILE_SLOTS} more) ")
            note.append("▲ may be taken: ", style="bold green")
            note.append_text(cards_text(takeable, empty="nothing"))
            if view.phase == "after_discard":
                note.append(f" · {labels[view.current]} laid ")
                note.append_text(cards_text(view.discard_pile[-1]))
        self.query_one("#pile-note", Static).update(note)

        hand = list(view.hand)
        if by_rank:
            hand.sort(key=_rank_key)
        chosen = set(selected)
        slots = [
            CardSlot(c, str(i + 1), "selected" if c in chosen else "plain", cursor == i)
            for i, c in enumerate(hand)
        ]
        self.query_one("#hand", CardRow).show(slots)
        box = self.query_one("#hand-box", Horizontal)
        if seat in view.active:
            box.border_title = f"{labels[seat]}: {view.hand_value} points"
        else:
            box.border_title = f"{labels[seat]}: out of the game"
        total = view.result.totals[seat] if view.result is not None else view.totals[seat]
        box.border_subtitle = (
            f"total {total} (out over {view.rules.score_limit}) · Yaniv at ≤ {view.rules.threshold}"
        )

        self.query_one("#opponents", Static).update(self._opponents(view, labels, revealed))
        return hand

    def _opponents(self, view: SeatView, labels: Sequence[str], revealed: Sequence[SeatView] | None) -> Text:
        assert view.seat is not None
        seat, n = view.seat, view.players
        over = view.phase == "round_over"
        shown = view.hands_shown
        totals = view.result.totals if view.result is not None else view.totals
        text = Text(no_wrap=True, overflow="ellipsis")
        order = [(seat + k) % n for k in range(1, n)]
        for i, p in enumerate(order):
            if i:
                text.append("\n")
            turn = p == view.current and not over
            text.append("▶ " if turn else "  ", style="bold yellow")
            text.append(labels[p], style="bold" if turn else "")
            text.append(f"  {totals[p]} pts", style="cyan")
            text.append("\n    ")
            if p not in view.active:
                text.append("out of the game", style="dim")
                continue
            if revealed is not None:
                text.append_text(cards_text(revealed[p].hand))
                text.append(f" = {revealed[p].hand_value}")
                continue
            if shown is not None:
                text.append_text(cards_text(shown[p]))
                text.append(f" = {_value(shown[p], view)}")
                continue
            count = view.hand_counts[p]
            text.append(f"{count} card{'s' if count != 1 else ''}")
            seen = view.seen[p]
            if seen:
                text.append(" · took ")
                text.append_text(cards_text(seen))
                text.append(f" ({_value(seen, view)})")
        return text

    def say(self, text: str | Text, style: str = "") -> None:
        """Show a message under the hand."""
        self.query_one("#message", Static).update(Text(text, style=style) if isinstance(text, str) else text)

    def set_status(self, text: str | Text) -> None:
        """The line at the top: whose turn, what to do."""
        self.query_one("#status", Static).update(text)
