"""The screens around the table: the start screen, help, a card choice, the round's end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, Static

from ..cards import Card
from ..errors import RulesError
from ..rules import PRESETS, Rules
from ..session import DEFAULT_LEVEL, LEVELS
from .widgets import Chooser, card_face, cards_text

__all__ = [
    "KEYS",
    "ChoiceScreen",
    "HelpScreen",
    "RoundEndScreen",
    "Settings",
    "SetupScreen",
    "round_report",
]

if TYPE_CHECKING:  # a front end reads views, never the state module itself
    from .. import SeatView

KEYS: tuple[tuple[str, str], ...] = (
    ("1-8, click", "select or unselect a card of your hand"),
    ("←/→, space", "move along your hand, select the card under the cursor"),
    ("d, Enter", "discard the selected cards (a single, a set, or a run)"),
    ("s, click the stock", "take the top card of the stock"),
    ("t, click a marked card", "take a card of the previous discard (marked ▲)"),
    ("y", "call Yaniv (offered when your hand is low enough)"),
    ("w", "swap a card of your hand for the joker it stands for"),
    ("x / Enter", "slap the card you just drew onto your discard / let it go"),
    ("a", "call Asef after discarding your last card"),
    ("h", "hint: the expert's move, and the odds of a Yaniv call"),
    ("o", "sort your hand by suit or by rank"),
    ("Esc", "clear the selection"),
    ("?, F1", "this help"),
    ("q", "quit (the game is saved: yaniv play --resume)"),
)
"""The keys of the table, as the help screen lists them."""

LEVEL_OPTIONS = [(f"{level} ({spec})", level) for level, spec in LEVELS.items()]
SLAP_OPTIONS = [("off", "off"), ("same rank", "same_rank"), ("fits a meld", "fits_meld")]
LIMITS = (50, 100, 150, 200, 250, 300, 500)


@dataclass(frozen=True)
class Settings:
    """A new game as chosen on the start screen."""

    rules: Rules
    levels: tuple[str, ...]
    """One difficulty (or bot spec) per opponent."""
    name: str = "You"
    seed: int | None = None

    @property
    def players(self) -> int:
        """Players at the table, the person included."""
        return len(self.levels) + 1


class SetupScreen(Screen[Settings]):
    """Choose the rules, the players, each opponent's difficulty and your name."""

    DEFAULT_CSS = """
    SetupScreen { align: center middle; }
    #setup { width: 76; max-width: 100%; height: auto; max-height: 100%;
             border: round $accent; padding: 0 1; }
    #setup-intro { color: $text-muted; margin-bottom: 1; }
    #name-row { height: 1; padding: 0 1; }
    #name-row Label { width: 20; }
    #name { width: 24; height: 1; border: none; padding: 0; }
    #setup-summary { height: auto; margin-top: 1; }
    #start { margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "app.focus_next", "next line", show=False, priority=True),
        Binding("up", "app.focus_previous", "previous line", show=False, priority=True),
        Binding("enter", "start", "Start"),
        Binding("escape", "app.quit", "Quit"),
    ]
    MAX_OPPONENTS = 7

    def __init__(self, defaults: Settings | None = None) -> None:
        """Start from *defaults* (the last game's settings) if given."""
        super().__init__()
        self.defaults = defaults or Settings(PRESETS["standard"], (DEFAULT_LEVEL,) * 2)

    def compose(self) -> ComposeResult:
        """The form."""
        d = self.defaults
        base = PRESETS[d.rules.base] if d.rules.base in PRESETS else PRESETS["standard"]
        with VerticalScroll(id="setup", can_focus=False) as box:
            box.border_title = "Yaniv: a new game"
            yield Static(
                "↑/↓ move between lines, ←/→ (or a click) change a value, Enter starts.", id="setup-intro"
            )
            yield Chooser("Rules", [(n, n) for n in PRESETS], d.rules.base or "standard", id="rules")
            yield Chooser("Players", self._player_options(base), str(d.players), id="players")
            yield Chooser("Yaniv at or below", self._threshold_options(base, d.rules.yaniv_threshold),
                          str(d.rules.yaniv_threshold), id="threshold")  # fmt: skip
            yield Chooser("Out over", self._limit_options(base, d.rules.score_limit),
                          str(d.rules.score_limit), id="limit")  # fmt: skip
            yield Chooser("Slap a drawn card", SLAP_OPTIONS, d.rules.quick_discard, id="slap")
            for i in range(1, self.MAX_OPPONENTS + 1):
                level = d.levels[i - 1] if i - 1 < len(d.levels) else DEFAULT_LEVEL
                yield Chooser(f"Opponent {i}", LEVEL_OPTIONS, level, id=f"opponent-{i}")
            with Horizontal(id="name-row"):
                yield Label("Your name")
                yield Input(d.name, id="name", max_length=20)
            yield Static(id="setup-summary")
            yield Button("Start the game", id="start", variant="success", compact=True)

    def on_mount(self) -> None:
        """Show the opponents the player count asks for."""
        self._sync()
        self.query_one("#rules", Chooser).focus()

    @staticmethod
    def _player_options(rules: Rules) -> list[tuple[str, str]]:
        return [(str(n), str(n)) for n in range(rules.min_players, rules.max_players + 1)]

    @staticmethod
    def _threshold_options(rules: Rules, *also: int) -> list[tuple[str, str]]:
        values = sorted(set(range(16)) | {rules.yaniv_threshold, *also})
        return [(str(v), str(v)) for v in values]

    @staticmethod
    def _limit_options(rules: Rules, *also: int) -> list[tuple[str, str]]:
        values = sorted(set(LIMITS) | {rules.score_limit, *also})
        return [(str(v), str(v)) for v in values]

    def _chooser(self, name: str) -> Chooser:
        return self.query_one(f"#{name}", Chooser)

    def on_chooser_changed(self, message: Chooser.Changed) -> None:
        """A new preset resets the knobs to its values; any change updates the summary."""
        if message.chooser.id == "rules":
            preset = PRESETS[message.chooser.value]
            self._chooser("players").set_options(self._player_options(preset))
            self._chooser("threshold").set_options(self._threshold_options(preset))
            self._chooser("threshold").select(str(preset.yaniv_threshold))
            self._chooser("limit").set_options(self._limit_options(preset))
            self._chooser("limit").select(str(preset.score_limit))
            self._chooser("slap").select(preset.quick_discard)
        self._sync()

    def _sync(self) -> None:
        players = int(self._chooser("players").value)
        for i in range(1, self.MAX_OPPONENTS + 1):
            self._chooser(f"opponent-{i}").display = i < players
        summary = self.query_one("#setup-summary", Static)
        try:
            rules = self.rules()
            problem = rules.deal_problem(players)
        except RulesError as e:
            problem = str(e)
        if problem:
            summary.update(Text(f"Not possible: {problem}", style="bold red"))
        else:
            text = Text()
            text.append("Rules: ", style="bold")
            text.append(str(rules))
            text.append(
                f": Yaniv at {rules.threshold} or less, out over {rules.score_limit}. "
                "On the table, ? shows every rule in plain words."
            )
            summary.update(text)

    def rules(self) -> Rules:
        """The rules chosen: the preset with the knobs changed on this screen."""
        preset = PRESETS[self._chooser("rules").value]
        knobs = {
            "yaniv_threshold": int(self._chooser("threshold").value),
            "score_limit": int(self._chooser("limit").value),
            "quick_discard": self._chooser("slap").value,
        }
        changed = {k: v for k, v in knobs.items() if getattr(preset, k) != v}
        return preset.replace(**changed) if changed else preset

    def settings(self) -> Settings:
        """What the form says; :class:`RulesError` if the table cannot be played."""
        rules = self.rules()
        players = int(self._chooser("players").value)
        problem = rules.deal_problem(players)
        if problem:
            raise RulesError(problem)
        levels = tuple(self._chooser(f"opponent-{i}").value for i in range(1, players))
        name = self.query_one("#name", Input).value.strip() or "You"
        return Settings(rules, levels, name, self.defaults.seed)

    def action_start(self) -> None:
        """Start the game if the choices make one."""
        try:
            settings = self.settings()
        except RulesError as e:
            self.query_one("#setup-summary", Static).update(Text(f"Not possible: {e}", style="bold red"))
            return
        self.dismiss(settings)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The start button."""
        event.stop()
        self.action_start()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the name field starts too."""
        event.stop()
        self.action_start()


class HelpScreen(ModalScreen[None]):
    """The active rules in plain words and the keys."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help { width: 90%; max-width: 100; height: 90%; border: round $accent; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1,enter", "close", "Close"),
    ]

    def __init__(self, rules: Rules, keys: Sequence[tuple[str, str]] = KEYS) -> None:
        """Help for *rules*, listing *keys*."""
        super().__init__()
        self.rules = rules
        self.keys = keys

    def compose(self) -> ComposeResult:
        """The text, scrollable."""
        keys = Table(box=None, show_header=False, padding=(0, 1), expand=True)
        keys.add_column(style="bold", no_wrap=True)
        keys.add_column(ratio=1)
        for key, what in self.keys:
            keys.add_row(key, what)
        rules = Text()
        rules.append("The rules: ", style="bold underline")
        rules.append(f"{self.rules}\n", style="bold")
        for line in self.rules.describe():
            rules.append(f"  • {line}\n")
        body = Group(
            Text("Keys", style="bold underline"),
            keys,
            Text(""),
            rules,
            Text("Esc closes this help.", style="italic"),
        )
        with VerticalScroll(id="help") as box:
            box.border_title = "Help"
            yield Static(body)

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class ChoiceScreen(ModalScreen[Card | None]):
    """Pick one of a few cards (which card to take, which to swap)."""

    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    #choice { width: auto; min-width: 30; height: auto; border: round $accent; padding: 0 1; }
    #choice Horizontal { height: auto; width: auto; }
    #choice Button { margin-right: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        *(Binding(str(i), f"choose({i - 1})", show=False) for i in range(1, 10)),
    ]

    def __init__(self, question: str, cards: Sequence[Card]) -> None:
        """Ask *question* with one button per card."""
        super().__init__()
        self.question = question
        self.cards = list(cards)

    def compose(self) -> ComposeResult:
        """The question and the cards."""
        with Vertical(id="choice"):
            yield Static(f"{self.question} (press its number, Esc cancels)")
            with Horizontal():
                for i, card in enumerate(self.cards):
                    yield Button(f"{i + 1}: {card_face(card)}", id=f"choice-{i}", compact=True)

    def action_choose(self, index: int) -> None:
        """Choose the *index*-th card."""
        if 0 <= index < len(self.cards):
            self.dismiss(self.cards[index])

    def action_cancel(self) -> None:
        """Choose nothing."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A card button."""
        event.stop()
        self.action_choose(int((event.button.id or "choice-0").split("-")[1]))


def round_report(view: SeatView, labels: Sequence[str], *, round_no: int) -> RenderableType:
    """The end of the round from *view*: who called, every hand, the scores, landings, eliminations."""
    seat = view.seat
    result = view.result
    if result is None:
        return Text("The round is still being played.")
    caller = labels[result.caller]
    values = result.values
    if result.kind == "false_yaniv":
        head = f"{caller} called Yaniv out of turn and scores {result.round_scores[result.caller]}."
    else:
        blind = " (the blind card)" if result.kind == "asef" else ""
        what = "Yaniv" if result.kind == "yaniv" else "Asef"
        head = f"{caller} called {what} with {values[result.caller]}{blind}: "
        if result.assaf:
            head += "Assaf by " + ", ".join(labels[p] for p in result.assafers) + "!"
        else:
            head += "it succeeds."
    title = Text(f"Round {round_no}: ", style="bold")
    title.append(head, style="bold yellow" if result.assaf else "bold")
    hands = view.hands_shown
    table = Table(box=None, padding=(0, 1), show_edge=False, expand=False)
    for column, justify in (("Player", "left"), ("Hand", "left"), ("Value", "right"), ("Round", "right"),
                            ("Total", "right"), ("", "left")):  # fmt: skip
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for p in range(view.players):
        in_round = values[p] is not None or p in view.active
        hand = cards_text(hands[p]) if hands is not None and in_round else Text("-")
        value = "" if values[p] is None else str(values[p])
        score = result.round_scores[p]
        notes = []
        if p == result.caller:
            notes.append("called")
        if p in result.assafers:
            notes.append("Assaf")
        if p in result.landed:
            raw = view.totals[p] + score  # the view's totals are those before this round
            notes.append(f"{raw} landed: {result.totals[p]}")
        if p in result.eliminated:
            notes.append("out!")
        elif not in_round:
            notes.append("out")
        if p in result.winners:
            notes.append("WINNER")
        if p in result.tiebreak:
            notes.append("tie-break")
        name = Text(labels[p], style="bold" if p == seat else "")
        round_score = (f"+{score}" if score >= 0 else str(score)) if in_round else ""
        table.add_row(name, hand, value, round_score, str(result.totals[p]), ", ".join(notes))
    parts: list[RenderableType] = [title, Text(""), table]
    if result.game_over:
        winners = ", ".join(labels[p] for p in result.winners)
        verdict = "You win!" if seat is not None and seat in result.winners else f"{winners} wins."
        parts += [Text(""), Text(f"Game over. {verdict}", style="bold green")]
    elif result.tiebreak:
        parts += [Text(""), Text("A tie for the win: the tied players play another round.")]
    return Group(*parts)


class RoundEndScreen(ModalScreen[str]):
    """The round's end (and the game's): dismissed with next, rematch, new or quit."""

    DEFAULT_CSS = """
    RoundEndScreen { align: center middle; }
    #round-end { width: 96%; max-width: 110; height: auto; max-height: 96%;
                 border: round $accent; padding: 0 1; }
    #round-end Horizontal { height: 1; margin-top: 1; }
    #round-end Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "default", "Go on"),
        Binding("r", "choose('rematch')", "Rematch", show=False),
        Binding("n", "choose('new')", "New game", show=False),
        Binding("q,escape", "choose('quit')", "Quit", show=False),
    ]

    def __init__(self, report: RenderableType, *, over: bool) -> None:
        """Show *report*; *over*: the game has ended."""
        super().__init__()
        self.report = report
        self.over = over

    def compose(self) -> ComposeResult:
        """The report and the buttons."""
        with VerticalScroll(id="round-end", can_focus=False) as box:
            box.border_title = "Game over" if self.over else "Round over"
            yield Static(self.report, id="report")
            with Horizontal():
                if self.over:
                    yield Button("Rematch (Enter, r)", id="rematch", variant="success", compact=True)
                    yield Button("New game (n)", id="new", compact=True)
                    yield Button("Quit (q)", id="quit", compact=True)
                else:
                    yield Button("Next round (Enter)", id="next", variant="success", compact=True)
                    yield Button("Quit (q)", id="quit", compact=True)

    def action_default(self) -> None:
        """Enter: the next round, or a rematch when the game is over."""
        self.dismiss("rematch" if self.over else "next")

    def action_choose(self, what: str) -> None:
        """Leave with *what* (rematch and new only once the game is over)."""
        if what in ("rematch", "new") and not self.over:
            return
        self.dismiss(what)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button."""
        event.stop()
        self.dismiss(event.button.id or "next")
