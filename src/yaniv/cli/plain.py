"""``yaniv play --plain``: a line-based game against bots, an adapter over the table driver.

The plain game keeps no game loop of its own: it asks the :class:`~yaniv.table.Table`
what is pending, asks the person when the decision is his (a line of text matched
leniently by :func:`yaniv.intent.legal_match`, or y/N in a slap window), lets the bots
play with :meth:`Table.step`, deals with :meth:`Table.next_round`, and prints the new
events through the person's :meth:`Table.cursor`, worded by :mod:`yaniv.narrate`.
"""

from __future__ import annotations

from typing import TextIO

from ..actions import Action
from ..errors import IllegalActionError, YanivError
from ..jsonio import JSONInputError, read_line
from ..narrate import event_text, seat_name
from ..table import Decision, DecisionKind, Table

__all__ = ["MAX_LINE_CHARS", "PLAIN_HELP", "PlainGame"]

MAX_LINE_CHARS = 10_000
"""The longest line of input read (a whole turn is a few dozen characters); a longer one
is skipped without being held whole."""

PLAIN_HELP = """Type an action and press Enter:
  discard 7H 8H 9H     lay cards (a single, a set, or a run in ascending order)
  draw                 take the top card of the stock (after discarding)
  take 9H              take a takeable card of the previous discard
  7H 8H 9H; take 9H    a whole turn on one line
  yaniv                call Yaniv (start of your turn, hand low enough)
  swap 7S / slap 4C / asef   when the rules allow them
  hand  shows the table again, help  this text, quit  leaves the game"""

_QUIT = ("quit", "exit", "q")


class PlainGame:
    """A person on *seat* of *table* (whose seat holds no bot), on text streams.

    *since*: the first event to print (default: the whole game; a resumed game shows
    the current round's moves so far, :meth:`Table.round_start`).
    """

    def __init__(
        self, table: Table, seat: int, out: TextIO, inp: TextIO, *, since: int | None = None
    ) -> None:
        """Seat the person at *seat*."""
        if table.is_bot(seat):
            raise ValueError(f"seat {seat} is played by a bot, not by the person")
        self.table, self.seat, self.out, self.inp = table, seat, out, inp
        self.cursor = table.cursor(seat, since)
        self.faults_told = len(table.faults)

    # ------------------------------------------------------------------ output

    def say(self, text: str) -> None:
        """Print a line."""
        self.out.write(text + "\n")
        self.out.flush()

    def show_events(self) -> None:
        """Print every event the person has not seen yet (as his seat may see it)."""
        names = self.table.game.names
        for event in self.cursor.new():
            text = event_text(event, names)
            if text:
                self.say(text)
        faults = self.table.faults
        for fault in faults[self.faults_told :]:  # a bot's failure is played over, but not hidden
            self.say(f"  (a computer player failed and made a simple move instead: {fault})")
        self.faults_told = len(faults)

    def show_table(self) -> None:
        """Print what the person may see."""
        view = self.table.view(self.seat)
        names = self.table.game.names
        others = ", ".join(
            f"{seat_name(p, names)} {view.hand_counts[p]} cards"
            + (f" (took {' '.join(map(str, view.seen[p]))})" if view.seen[p] else "")
            + f" [{view.totals[p]}]"
            for p in view.active
            if p != self.seat
        )
        prev = " ".join(map(str, view.previous_group)) if view.previous_group else "nothing"
        self.say(f"  Others: {others}")
        self.say(f"  Previous discard: {prev}; stock: {view.stock_count} cards")
        hand = " ".join(map(str, view.hand))
        self.say(f"  Your hand: {hand} (worth {view.hand_value}) [{view.totals[self.seat]}]")
        if view.takeable:
            self.say(f"  You may take: {' '.join(map(str, view.takeable))}")

    # ------------------------------------------------------------------ input

    def ask(self, prompt: str) -> str | None:
        """Read one line; ``None`` at the end of input, ``""`` for a line too long (said why)."""
        self.out.write(prompt)
        self.out.flush()
        try:
            line = read_line(self.inp, "your line", MAX_LINE_CHARS)
        except JSONInputError as e:
            self.say(f"  Not read: {e}")
            return ""
        if not line:
            return None
        return line.strip()

    def play_turn(self, decision: Decision) -> bool:
        """Ask until the person's turn (or take) is played; False when he quits."""
        self.show_table()
        view = self.table.view(self.seat)
        if any(a.type == "yaniv" for a in view.legal):
            self.say(f"  You may call Yaniv (your hand is worth {view.hand_value}).")
        prompt = "take a card> " if decision.kind == DecisionKind.TAKE else "your turn> "
        while True:
            line = self.ask(prompt)
            if line is None or line.lower() in _QUIT:
                return False
            if not line:
                continue
            if line.lower() in ("help", "?"):
                self.say(PLAIN_HELP)
                continue
            if line.lower() in ("hand", "table"):
                self.show_table()
                continue
            try:
                # loose: the legal action the line names (cards in any order); else the
                # line as written, so that the engine says why it is not allowed
                self.table.submit(self.seat, Action.parse(line), expect=decision, loose=True)
            except (IllegalActionError, YanivError) as e:
                self.say(f"  Not allowed: {e}")
                continue
            return True

    def offer_slap(self, decision: Decision) -> bool:
        """Ask whether to slap the card just drawn (anything but y passes); False at the end of input."""
        slap = next((a for a in self.table.view(self.seat).legal if a.type == "slap"), None)
        line = self.ask(f"You drew {slap.card}: slap it onto your discard? [y/N] ") if slap else "n"
        if line is None:
            return False
        self.table.submit(self.seat, slap if slap and line.lower().startswith("y") else None, expect=decision)
        return True

    # ------------------------------------------------------------------ the game

    def run(self) -> int:
        """Play to the end of the game (or until the person quits); the exit code."""
        table, game = self.table, self.table.game
        self.say(f"Yaniv: {game.rules} with {game.n} players. Type 'help' for the commands.")
        while True:
            self.show_events()
            decision = table.waiting_for()
            if decision is None:  # the game is over, or the table stopped
                break
            if decision.kind == DecisionKind.NEXT_ROUND:
                table.next_round()
            elif decision.seat != self.seat:
                if table.step() is None:  # cannot happen: a bot sits on every other seat
                    raise RuntimeError(f"nobody plays {decision}")
            elif decision.kind == DecisionKind.SLAP:
                if not self.offer_slap(decision):
                    return self.quit()
            elif not self.play_turn(decision):
                return self.quit()
        if table.stalled is not None:
            self.say(f"This round has gone on too long ({table.stalled}); stopping the game.")
            return 1
        self.say("You win!" if self.seat in game.winners else "You lose. Better luck next time.")
        return 0

    def quit(self) -> int:
        """Leave the game."""
        self.say("Bye! The game is recorded; nothing else was lost.")
        return 0
