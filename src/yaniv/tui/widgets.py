"""Widgets of the card table: cards, rows of cards, the opponents, option choosers.

Cards are drawn as small boxes with their suit symbol; the shape of the box also says
what colour says (a heavy box is selected, a double box may be taken), so the table
reads the same on a terminal without colours.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget

from ..cards import Card
from ..narrate import event_text

__all__ = [
    "CardRow",
    "CardSlot",
    "CardView",
    "Chooser",
    "card_face",
    "card_text",
    "cards_text",
    "event_line",
]

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""The suit letters of the notation and the symbols shown on the table."""
_RED = ("H", "D")


def card_face(card: Card) -> str:
    """A card as shown on the table: ``10♥``, ``Q♠``, ``JK``."""
    if card.is_joker:
        return "JK"
    name = str(card)
    return name[:-1] + SUIT_SYMBOLS[name[-1]]


def card_style(card: Card) -> str:
    """The colour of a card's face: red hearts and diamonds, magenta jokers.

    Under ``NO_COLOR`` (https://no-color.org) every face is bold in the text colour, a
    joker also italic: the terminal would draw red as a dim grey, barely readable, and
    the suit symbols already tell the suits apart.
    """
    if os.environ.get("NO_COLOR"):
        return "bold italic" if card.is_joker else "bold"
    if card.is_joker:
        return "bold magenta"
    return "bold red" if card.suit in _RED else "bold"


def card_text(card: Card) -> Text:
    """A card's face as coloured text."""
    return Text(card_face(card), style=card_style(card))


def cards_text(cards: Sequence[Card], empty: str = "-") -> Text:
    """Cards as coloured text, separated by spaces."""
    if not cards:
        return Text(empty)
    return Text(" ").join(card_text(c) for c in cards)


_TOKENS = re.compile(r"\x00(\d+)\x01|\b(10|[2-9AJQK])([SHDC])\b|\bJK\b")


_SECOND_PERSON = {"discards": "discard", "draws": "draw", "takes": "take", "swaps": "swap",
                  "slaps": "slap", "calls": "call", "wins": "win", "is": "are", "deals": "deal",
                  "starts": "start"}  # fmt: skip


def event_line(event: dict[str, object], names: Sequence[str] | None) -> Text | None:
    """An event in plain words (:func:`yaniv.narrate.event_text`) with coloured cards.

    A deal is its first line (the round, the dealer, the start card). A player named
    "You" gets the verb that goes with it ("You discard", not "You discards").
    """
    count = len(names) if names else 0
    marks = [f"\x00{i}\x01" for i in range(count)] if names else None
    raw = event_text(dict(event), marks)
    if raw is None:
        return None
    raw = raw.split("\n")[0]
    out = Text()
    pos = 0
    for m in _TOKENS.finditer(raw):
        out.append(raw[pos : m.start()])
        if m.group(1) is not None:
            assert names is not None
            name = names[int(m.group(1))]
            out.append(name, style="bold")
            if name.lower() == "you":
                verb = re.match(r" (\w+)", raw[m.end() :])
                if verb is not None and verb.group(1) in _SECOND_PERSON:
                    out.append(" " + _SECOND_PERSON[verb.group(1)])
                    pos = m.end() + verb.end()
                    continue
        else:
            out.append_text(card_text(Card.parse(m.group(0))))
        pos = m.end()
    out.append(raw[pos:])
    return out


# ----------------------------------------------------------------- cards


_BOXES = {
    # top-left, horizontal, top-right, vertical, bottom-left, bottom-right
    "plain": "╭─╮│╰╯",
    "selected": "┏━┓┃┗┛",
    "takeable": "╔═╗║╚╝",
    "back": "╭─╮│╰╯",
}
_BORDER_STYLES = {"plain": "grey62", "selected": "bold yellow", "takeable": "bold green", "back": "blue"}


@dataclass(frozen=True)
class CardSlot:
    """What one card box shows: a card (``None``: a card back), a caption, a look."""

    card: Card | None
    caption: str = ""
    look: str = "plain"
    """``plain``, ``selected`` (heavy box), ``takeable`` (double box) or ``back``."""
    cursor: bool = False
    """The keyboard cursor is on it (caption shown reversed)."""


class CardView(Widget):
    """One card as a 5×3 box: face in the middle, a caption in the bottom edge."""

    DEFAULT_CSS = """
    CardView { width: 5; height: 3; }
    """

    class Clicked(Message):
        """A card box was clicked."""

        def __init__(self, view: CardView) -> None:
            """The clicked *view*."""
            super().__init__()
            self.view = view

    def __init__(self, index: int, *, id: str | None = None) -> None:
        """The *index*-th box of its row."""
        super().__init__(id=id)
        self.index = index
        self.slot: CardSlot | None = None

    def show(self, slot: CardSlot | None) -> None:
        """Show *slot* (``None`` hides the box)."""
        self.slot = slot
        self.display = slot is not None
        self.refresh()

    @property
    def card(self) -> Card | None:
        """The card shown (``None`` for a back or an empty box)."""
        return self.slot.card if self.slot is not None else None

    def render(self) -> Text:
        """The three lines of the box."""
        slot = self.slot
        if slot is None:
            return Text("")
        tl, h, tr, v, bl, br = list(_BOXES.get(slot.look, _BOXES["plain"]))
        border = _BORDER_STYLES.get(slot.look, "grey62")
        text = Text(no_wrap=True, overflow="crop")
        text.append(tl + h * 3 + tr + "\n", style=border)
        text.append(v, style=border)
        if slot.card is None:
            text.append("▒▒▒", style="blue")
        else:
            face = card_face(slot.card)
            text.append(f"{face:^3}", style=card_style(slot.card))
        text.append(v + "\n", style=border)
        caption = slot.caption[:3]
        left = (3 - len(caption)) // 2
        text.append(bl + h * left, style=border)
        text.append(caption, style="reverse bold" if slot.cursor else border)
        text.append(h * (3 - len(caption) - left) + br, style=border)
        return text

    def on_click(self, event: events.Click) -> None:
        """Tell the row's owner which card was clicked."""
        event.stop()
        if self.slot is not None:
            self.post_message(self.Clicked(self))


class CardRow(Horizontal):
    """A row of card boxes (a hand, a discard) with a fixed number of slots."""

    DEFAULT_CSS = """
    CardRow { height: 3; width: auto; }
    CardRow.-spaced CardView { margin-right: 1; }
    """

    def __init__(self, slots: int, *, spaced: bool = False, id: str | None = None) -> None:
        """A row of *slots* boxes; *spaced* puts a column between the cards."""
        super().__init__(id=id, classes="-spaced" if spaced else "")
        self.views = [CardView(i) for i in range(slots)]

    def compose(self) -> ComposeResult:
        """The boxes."""
        yield from self.views

    def show(self, slots: Sequence[CardSlot]) -> None:
        """Show these cards (the first ones if there are more than the row holds)."""
        for i, view in enumerate(self.views):
            view.show(slots[i] if i < len(slots) else None)


# ----------------------------------------------------------------- options


class Chooser(Widget, can_focus=True):
    """One line ``Label  ◀ value ▶``: ←/→ or a click change the value."""

    DEFAULT_CSS = """
    Chooser { height: 1; width: 1fr; padding: 0 1; }
    Chooser:focus { background: $accent 30%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "previous", show=False),
        Binding("right", "step(1)", "next", show=False),
    ]
    LABEL_WIDTH = 20

    class Changed(Message):
        """The value of a chooser changed."""

        def __init__(self, chooser: Chooser) -> None:
            """The *chooser* that changed."""
            super().__init__()
            self.chooser = chooser

    def __init__(
        self,
        label: str,
        options: Sequence[tuple[str, str]],
        value: str | None = None,
        *,
        id: str | None = None,
    ) -> None:
        """*options*: (text shown, value) pairs; *value* the one chosen first."""
        super().__init__(id=id)
        self.label = label
        self.options: list[tuple[str, str]] = list(options)
        self.index = 0
        if value is not None:
            self.select(value)

    @property
    def value(self) -> str:
        """The chosen value."""
        return self.options[self.index][1]

    def select(self, value: str) -> None:
        """Choose *value* if it is one of the options."""
        for i, (_, v) in enumerate(self.options):
            if v == value:
                self.index = i
                self.refresh()
                return

    def set_options(self, options: Sequence[tuple[str, str]], value: str | None = None) -> None:
        """Replace the options, keeping the value if still offered (else *value*, else the first)."""
        keep = self.value if self.options else None
        self.options = list(options)
        self.index = 0
        for wanted in (keep, value):
            if wanted is not None and any(v == wanted for _, v in self.options):
                self.select(wanted)
        self.refresh()

    def action_step(self, delta: int) -> None:
        """Choose the previous (-1) or next (+1) option, wrapping round."""
        if not self.options:
            return
        self.index = (self.index + delta) % len(self.options)
        self.refresh()
        self.post_message(self.Changed(self))

    def render(self) -> Text:
        """``Label  ◀ value ▶``."""
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{self.label:<{self.LABEL_WIDTH}}")
        text.append("◀ ", style="bold")
        text.append(self.options[self.index][0] if self.options else "-", style="bold")
        text.append(" ▶", style="bold")
        return text

    def on_click(self, event: events.Click) -> None:
        """A click left of the value goes back, elsewhere forward."""
        event.stop()
        self.focus()
        self.action_step(-1 if event.x < self.LABEL_WIDTH + 3 else 1)
