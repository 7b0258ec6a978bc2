"""The ``yaniv`` command line: rules, simulate, play, replay, check, arena, odds.

Every subcommand has ``--help``; machine-readable output with ``--json``. Bad
arguments give a one-line error naming what is wrong and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from .actions import Action
from .bots import BOTS, Bot, make_bot
from .errors import IllegalActionError, RecordError, RulesError, YanivError
from .events import redact
from .game import Game
from .match import DEFAULT_TURN_CAP, bot_rngs, play_game
from .narrate import event_text, seat_name
from .record import check, read_record
from .rules import PRESETS, Rules
from .session import DEFAULT_LEVEL, Session, bot_spec, games_dir, new_record_path

__all__ = ["main"]


class UsageError(Exception):
    """A bad command-line argument (exit code 2)."""


def _rules(spec: str) -> Rules:
    try:
        if spec.lstrip().startswith("{"):
            return Rules.from_spec(json.loads(spec))
        return Rules.from_spec(spec)
    except (YanivError, ValueError) as e:
        raise UsageError(f"--rules: {e}") from None


def _bots(spec: str, players: int) -> list[Bot]:
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if not names:
        raise UsageError("--bots: name at least one bot")
    try:
        return [make_bot(names[i % len(names)]) for i in range(players)]
    except ValueError as e:
        raise UsageError(f"--bots: {e}") from None


def _players(rules: Rules, players: int | None) -> int:
    n = players if players is not None else min(max(rules.min_players, 3), rules.max_players)
    if not rules.min_players <= n <= rules.max_players:
        raise UsageError(
            f"--players: these rules allow {rules.min_players} to {rules.max_players} players, not {n}"
        )
    problem = rules.deal_problem(n)
    if problem:
        raise UsageError(f"--players: {problem}")
    return n


# ----------------------------------------------------------------- rules


def cmd_rules(args: argparse.Namespace, out: TextIO) -> int:
    """List presets, or explain one rule set."""
    if args.spec is None:
        if args.json:
            out.write(json.dumps({name: r.to_dict() for name, r in PRESETS.items()}, indent=2) + "\n")
            return 0
        out.write("Presets (yaniv rules NAME explains one):\n")
        for name, r in PRESETS.items():
            out.write(
                f"  {name:<24} Yaniv at {r.threshold} or less, out over {r.score_limit}, "
                f"{r.min_players}-{r.max_players} players\n"
            )
        return 0
    rules = _rules(args.spec)
    if args.json:
        out.write(json.dumps(rules.to_dict(), indent=2) + "\n")
        return 0
    out.write(f"{rules}\n\n")
    for line in rules.describe():
        out.write(f"- {line}\n")
    return 0


# ----------------------------------------------------------------- simulate


class Progress:
    """A one-line progress bar on a terminal; silent elsewhere."""

    def __init__(self, total: int, stream: TextIO, label: str) -> None:
        """Track *total* steps."""
        self.total, self.stream, self.label = total, stream, label
        self.enabled = stream.isatty()
        self.start = time.perf_counter()

    def update(self, done: int) -> None:
        """Redraw at *done* steps."""
        if not self.enabled:
            return
        width = 30
        filled = width * done // max(self.total, 1)
        rate = done / max(time.perf_counter() - self.start, 1e-9)
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} ({rate:.0f}/s)"
        )
        self.stream.flush()

    def close(self) -> None:
        """End the line."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    """Play many games between built-in bots and summarise them."""
    rules = _rules(args.rules)
    players = _players(rules, args.players)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    bots = _bots(args.bots, players)
    record_dir = Path(args.record) if args.record else None
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    totals: dict[str, Any] = {"games": 0, "rounds": 0, "turns": 0, "calls": 0, "assafs": 0}
    totals |= {"reshuffles": 0, "capped": 0}
    wins = [0.0] * players
    progress = Progress(args.games, sys.stderr, "simulating")
    t0 = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        record = str(record_dir / f"game-{seed}.jsonl") if record_dir is not None else None
        game = Game(rules, players=players, seed=seed, dealer=i % players, record=record)
        stats = play_game(game, bots, bot_rngs(seed, players), turn_cap=args.turn_cap)
        game.close()
        totals["games"] += 1
        for key in ("rounds", "turns", "calls", "assafs", "reshuffles"):
            totals[key] += getattr(stats, key)
        totals["capped"] += stats.capped
        for w in stats.winners:
            wins[w] += 1 / len(stats.winners)
        progress.update(i + 1)
    progress.close()
    elapsed = time.perf_counter() - t0
    games = totals["games"]
    summary = {
        "rules": str(rules),
        "players": players,
        "bots": [b.name for b in bots],
        "seed": args.seed,
        **totals,
        "assaf_rate": round(totals["assafs"] / totals["calls"], 4) if totals["calls"] else 0.0,
        "rounds_per_game": round(totals["rounds"] / games, 2),
        "turns_per_game": round(totals["turns"] / games, 2),
        "wins_by_seat": [round(w, 2) for w in wins],
        "seconds": round(elapsed, 3),
    }
    if args.json:
        out.write(json.dumps(summary) + "\n")
        return 0
    out.write(f"{games} games of {rules}, {players} players ({', '.join(summary['bots'])})\n")
    out.write(f"  rounds {totals['rounds']} ({summary['rounds_per_game']} per game)\n")
    out.write(f"  turns {totals['turns']} ({summary['turns_per_game']} per game)\n")
    out.write(f"  Yaniv calls {totals['calls']}, Assafed {totals['assafs']} ({summary['assaf_rate']:.1%})\n")
    out.write(f"  reshuffles {totals['reshuffles']}, capped games {totals['capped']}\n")
    seats = ", ".join(f"P{p} ({bots[p].name}) {w:g}" for p, w in enumerate(wins))
    out.write(f"  wins by seat: {seats}\n")
    out.write(f"  {elapsed:.2f} s\n")
    return 0


# ----------------------------------------------------------------- play


PLAIN_HELP = """Type an action and press Enter:
  discard 7H 8H 9H     lay cards (a single, a set, or a run in ascending order)
  draw                 take the top card of the stock (after discarding)
  take 9H              take a takeable card of the previous discard
  7H 8H 9H; take 9H    a whole turn on one line
  yaniv                call Yaniv (start of your turn, hand low enough)
  swap 7S / slap 4C / asef   when the rules allow them
  hand  shows the table again, help  this text, quit  leaves the game"""


class PlainPlay:
    """A line-based game against bots on standard input and output."""

    def __init__(self, game: Game, bots: Sequence[Bot | None], seat: int, out: TextIO, inp: TextIO) -> None:
        """Seat a person at *seat*; the others are *bots* (by seat; the person's entry is unused)."""
        self.game, self.bots, self.seat, self.out, self.inp = game, bots, seat, out, inp
        self.shown = 1
        self.rngs = bot_rngs(game.seed, game.n)

    def bot(self, seat: int) -> Bot:
        """The bot on *seat*."""
        bot = self.bots[seat]
        if bot is None:
            raise ValueError(f"no bot on seat {seat}")
        return bot

    def say(self, text: str) -> None:
        """Print a line."""
        self.out.write(text + "\n")
        self.out.flush()

    def flush_events(self) -> None:
        """Print every new event as this seat may see it."""
        events = self.game.events
        while self.shown < len(events):
            text = event_text(redact(events[self.shown], self.seat), self.game.names)
            if text:
                self.say(text)
            self.shown += 1

    def table(self) -> None:
        """Print what the person may see."""
        view = self.game.round.view(self.seat)
        names = self.game.names
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

    def ask(self, prompt: str) -> str | None:
        """Read one line; ``None`` at the end of input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            return None
        return line.strip()

    def human_turn(self) -> bool:
        """Ask until a legal action is applied; False when the person quits."""
        state = self.game.round
        self.table()
        if any(a.type == "yaniv" for a in state.legal_actions(self.seat)):
            self.say(f"  You may call Yaniv (your hand is worth {state.hand_value(self.seat)}).")
        while True:
            phase = "take a card" if state.phase_name == "after_discard" else "your turn"
            line = self.ask(f"{phase}> ")
            if line is None or line.lower() in ("quit", "exit", "q"):
                return False
            if not line:
                continue
            if line.lower() in ("help", "?"):
                self.say(PLAIN_HELP)
                continue
            if line.lower() in ("hand", "table"):
                self.table()
                continue
            try:
                self.game.apply(self.seat, Action.parse(line))
            except (IllegalActionError, YanivError) as e:
                self.say(f"  Not allowed: {e}")
                continue
            return True

    def offer_slap(self) -> bool:
        """Ask whether to slap the card just drawn; False when the person quits."""
        state = self.game.round
        card = state.slap_card(self.seat)
        if card is None:
            return True
        line = self.ask(f"You drew {card}: slap it onto your discard? [y/N] ")
        if line is None:
            return False
        if line.lower().startswith("y"):
            self.game.apply(self.seat, Action.slap(card))
        return True

    def run(self) -> int:
        """Play to the end of the game (or until the person quits)."""
        game = self.game
        self.say(f"Yaniv: {game.rules} with {game.n} players. Type 'help' for the commands.")
        while not game.over:
            self.flush_events()
            state = game.round
            if state.is_over:
                game.next_round()
                continue
            if state.slapper is not None and state.slap_card(state.slapper) is not None:
                if state.slapper == self.seat:
                    if not self.offer_slap():
                        return self.quit()
                else:
                    action = self.bot(state.slapper).act(state.view(state.slapper), self.rngs[state.slapper])
                    if action is not None:
                        game.apply(state.slapper, action)
                self.flush_events()
            seat = state.current
            if seat == self.seat:
                if not self.human_turn():
                    return self.quit()
            else:
                action = self.bot(seat).act(state.view(seat), self.rngs[seat])
                assert action is not None
                game.apply(seat, action)
            if state.turns >= DEFAULT_TURN_CAP:
                self.say("This round has gone on too long; stopping the game.")
                return 1
        self.flush_events()
        won = self.seat in game.winners
        self.say("You win!" if won else "You lose. Better luck next time.")
        return 0

    def quit(self) -> int:
        """Leave the game."""
        self.say("Bye! The game is recorded; nothing else was lost.")
        return 0


def _textual_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("textual") is not None


def _on_terminal(out: TextIO) -> bool:
    """Whether *out* is this process's own terminal (with a terminal to read keys from)."""
    return out is sys.stdout and sys.stdin.isatty() and sys.stdout.isatty()


def _opponents(args: argparse.Namespace, players: int) -> list[str]:
    """One bot spec per opponent from --level (difficulties) or --bots (bot specs), cycled."""
    flag, spec = ("--level", args.level) if args.level is not None else ("--bots", args.bots)
    if spec is None:
        flag, spec = "--level", DEFAULT_LEVEL
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if not names:
        raise UsageError(f"{flag}: name at least one opponent")
    try:
        return [bot_spec(names[i % len(names)]) for i in range(players - 1)]
    except ValueError as e:
        raise UsageError(f"{flag}: {e}") from None


def _new_session(args: argparse.Namespace, records: Path) -> Session:
    rules = _rules(args.rules or "standard")
    players = _players(rules, args.players)
    opponents = _opponents(args, players)
    seed = args.seed if args.seed is not None else int(time.time())
    record: Path | None = Path(args.record) if args.record else None
    if record is None:
        try:
            record = new_record_path(records, seed)
        except OSError:
            record = None
    try:
        return Session.start(rules, opponents, name=args.name or "You", seed=seed, record=record)
    except OSError as e:
        raise UsageError(f"--record: cannot write {record}: {e.strerror or e}") from None
    except (RulesError, ValueError) as e:
        raise UsageError(str(e)) from None


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    """Play against the computer: the terminal app on a terminal, else line-based."""
    if args.delay < 0:
        raise UsageError(f"--delay must be 0 or more seconds, got {args.delay}")
    records = games_dir()
    use_tui = not args.plain and _on_terminal(out) and _textual_available()
    chosen = any(v is not None for v in (args.rules, args.players, args.level, args.bots, args.seed))
    session: Session | None
    if args.resume:
        try:
            session = Session.resume(Path(args.record)) if args.record else Session.resume_last(records)
        except RecordError as e:
            raise UsageError(f"--resume: {e}") from None
    elif use_tui and not chosen:
        session = None  # the start screen asks
    else:
        session = _new_session(args, records)
    if use_tui:
        from .tui import run_game

        try:
            first = Path(args.record) if args.record and session is None else None
            code = run_game(session, records=records, delay=args.delay, name=args.name, record=first)
        finally:
            if session is not None:
                session.close()
        return code
    assert session is not None
    game = session.game
    play = PlainPlay(game, session.bots, session.seat, out, sys.stdin)
    try:
        if args.resume:
            out.write(f"Resuming {session.path}: round {game.round_no}, totals {game.totals}\n")
            deals = [i for i, e in enumerate(game.events) if e["type"] == "deal"]
            play.shown = deals[-1] if deals else 1  # this round's moves so far, not the whole game
        return play.run()
    finally:
        session.close()


# ----------------------------------------------------------------- replay / check


def _read(path: str) -> list[dict[str, Any]]:
    try:
        return read_record(path)
    except RecordError as e:
        raise UsageError(str(e)) from None


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    """Show a recorded game: the step-through viewer on a terminal, else turn by turn as text."""
    events = _read(args.file)
    use_tui = args.tui or (not args.text and _on_terminal(out) and _textual_available())
    if use_tui:
        if not _textual_available():
            raise UsageError("--tui needs textual: pip install 'yaniv[tui]'")
        from .tui import run_replay

        try:
            return run_replay(events, seat=args.seat)
        except RecordError as err:
            if args.tui:
                raise UsageError(str(err)) from None
    header = events[0]
    names = header.get("names")
    rules, players, seed = header.get("rules_string", "?"), header.get("players"), header.get("seed")
    out.write(f"Game of {rules}, {players} players, seed {seed}\n")
    for e in events[1:]:
        event = redact(e, args.seat) if args.seat is not None else e
        text = event_text(event, names)
        if text:
            out.write(text + "\n")
    return 0


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    """Verify a record by replaying it."""
    try:
        game = check(args.file)
    except RecordError as e:
        if args.json:
            out.write(json.dumps({"ok": False, "error": str(e)}) + "\n")
        else:
            out.write(f"{args.file}: {e}\n")
        return 1
    info = {
        "ok": True,
        "events": len(game.events),
        "rounds": game.round_no,
        "finished": game.over,
        "winners": list(game.winners),
        "totals": game.totals,
    }
    if args.json:
        out.write(json.dumps(info) + "\n")
    else:
        state = f"winners {info['winners']}" if game.over else "unfinished"
        out.write(f"{args.file}: ok ({info['events']} events, {info['rounds']} rounds, {state})\n")
    return 0


# ----------------------------------------------------------------- serve


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the web server (needs the web extra)."""
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0..65535, got {args.port}")
    if args.bot_delay < 0:
        raise UsageError(f"--bot-delay must be 0 or more seconds, got {args.bot_delay}")
    if args.round_pause is not None and args.round_pause < 0:
        raise UsageError(f"--round-pause must be 0 or more seconds, got {args.round_pause}")
    try:
        from .web import default_db_url, serve
    except ImportError as e:
        raise UsageError(f"the web server needs its extra: pip install 'yaniv[web]' ({e})") from None
    db = args.db or default_db_url()
    if "://" not in db:  # a plain file name
        db = f"sqlite+aiosqlite:///{Path(db).resolve()}"
    out.write(f"Yaniv on http://{args.host}:{args.port}/ (tables in {db})\n")
    out.flush()
    serve(
        args.host,
        args.port,
        db,
        bot_delay=args.bot_delay,
        round_pause=args.round_pause,
        log_level=args.log_level,
    )
    return 0


# ----------------------------------------------------------------- arena / odds


def _int_list(text: str, flag: str) -> list[int]:
    """Comma-separated whole numbers, or a UsageError naming *flag*."""
    try:
        return [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise UsageError(f"{flag}: expected comma-separated whole numbers, got {text!r}") from None


def cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    """Seat-rotated matches between bots on duplicate deals: statistics, Elo, plots."""
    import importlib.util

    from .arena import make_arena_bot, plot, run_arena

    rules = _rules(args.rules)
    names = [s.strip() for s in args.bots.split(",") if s.strip()]
    if not names:
        raise UsageError("--bots: name at least one bot")
    for name in dict.fromkeys(names):
        try:
            make_arena_bot(name)
        except ValueError as e:
            raise UsageError(f"--bots: {e}") from None
    default_players = max(len(names), rules.min_players)
    players = _players(rules, args.players if args.players is not None else default_players)
    if len(names) > players:
        raise UsageError(f"--bots: {len(names)} bots do not fit in {players} seats")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.turn_cap < 1:
        raise UsageError("--turn-cap must be at least 1")
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        raise UsageError("--plot needs matplotlib: pip install 'yaniv[plots]'")
    games = -(-args.games // players) * players
    progress = Progress(games, sys.stderr, "arena")
    report = run_arena(
        rules,
        names,
        args.games,
        args.seed,
        players=players,
        workers=args.workers,
        turn_cap=args.turn_cap,
        untimed=args.untimed,
        progress=progress.update,
    )
    progress.close()
    if args.plot:
        plot(report, args.plot)
    if args.json == "-":
        out.write(json.dumps(report.to_dict()) + "\n")
        return 0
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(report.to_dict(), indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            raise UsageError(f"--json: cannot write {args.json}: {e.strerror}") from None
    out.write(report.table() + "\n")
    for path in (args.json, args.plot):
        if path:
            out.write(f"wrote {path}\n")
    return 0


def cmd_odds(args: argparse.Namespace, out: TextIO) -> int:
    """The chance that a Yaniv call succeeds, from the bots' calibrated opponent model."""
    from .bots.model import call_success_probability, stage_of

    rules = _rules(args.rules)
    cards = _int_list(args.cards, "--cards")
    if not cards:
        raise UsageError("--cards: give the card count of at least one opponent")
    seen_values = _int_list(args.seen_values, "--seen-values") if args.seen_values else [0] * len(cards)
    seen_counts = _int_list(args.seen_counts, "--seen-counts") if args.seen_counts else [0] * len(cards)
    for flag, values in (("--seen-values", seen_values), ("--seen-counts", seen_counts)):
        if len(values) != len(cards):
            raise UsageError(f"{flag}: give one number per opponent ({len(cards)}, like --cards)")
    if args.value < 0:
        raise UsageError(f"--value must be 0 or more, got {args.value}")
    if args.turn < 0:
        raise UsageError(f"--turn must be 0 or more, got {args.turn}")
    players = _players(rules, args.players if args.players is not None else len(cards) + 1)
    if len(cards) > players - 1:
        raise UsageError(f"--cards: {len(cards)} opponents do not fit in a game of {players} players")
    top = max(rules.card_values)
    for i, (held, value, count) in enumerate(zip(cards, seen_values, seen_counts, strict=True)):
        if held < 1:
            raise UsageError(f"--cards: opponent {i + 1} must hold at least 1 card, not {held}")
        if not 0 <= count <= held:
            raise UsageError(f"--seen-counts: opponent {i + 1} holds {held} cards; {count} cannot be seen")
        if not 0 <= value <= top * count:
            raise UsageError(f"--seen-values: {value} is not a possible value of {count} seen card(s)")
    stage = stage_of(args.turn, players)
    opponents = list(zip(cards, seen_values, seen_counts, strict=True))
    p = call_success_probability(args.value, opponents, stage, assaf_on_tie=rules.assaf_on_tie)
    callable_now = args.value <= rules.threshold
    if args.json:
        info = {
            "rules": str(rules),
            "value": args.value,
            "opponents": [{"cards": c, "seen_value": v, "seen_count": n} for c, v, n in opponents],
            "turn": args.turn,
            "players": players,
            "stage": stage,
            "assaf_on_tie": rules.assaf_on_tie,
            "threshold": rules.threshold,
            "callable": callable_now,
            "success": round(p, 6),
            "assaf": round(1.0 - p, 6),
        }
        out.write(json.dumps(info) + "\n")
        return 0
    hands = ", ".join(
        f"{c} card{'s' if c != 1 else ''}" + (f" ({n} seen, worth {v})" if n else "") for c, v, n in opponents
    )
    out.write(
        f"A Yaniv call with {args.value} against {hands} at turn {args.turn} of {players} players "
        f"(stage {stage}, {rules}):\n"
    )
    out.write(f"  succeeds with probability {p:.4f}; Assafed with probability {1 - p:.4f}\n")
    if not callable_now:
        out.write(f"  (a hand of {args.value} may not call: these rules call at {rules.threshold} or less)\n")
    return 0


# ----------------------------------------------------------------- main


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="yaniv", description="Yaniv: the card game, every variant.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("rules", help="list presets or explain a rule set")
    p.add_argument("spec", nargs="?", help="a preset name or game string, e.g. 'finnish(score_limit=100)'")
    p.add_argument("--json", action="store_true", help="print the knob dict")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("simulate", help="play games between built-in bots and summarise")
    p.add_argument("--rules", default="standard", help="preset, game string or JSON (default standard)")
    p.add_argument("--players", type=int, help="players per game (default 3 or the preset's minimum)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    p.add_argument("--bots", default="greedy,random", help=f"bots by seat, cycled ({', '.join(BOTS)})")
    p.add_argument("--record", metavar="DIR", help="write each game's record into DIR")
    p.add_argument(
        "--turn-cap", type=int, default=DEFAULT_TURN_CAP, help="turns before a round counts as stalled"
    )
    p.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser(
        "play",
        help="play against the computer",
        description="Play against the computer: a full-screen card table on a terminal (with textual "
        "installed), else line by line. Without --rules, --players, --level, --bots or --seed the "
        "table asks for them first.",
    )
    p.add_argument("--plain", action="store_true", help="line-based play on stdin/stdout")
    p.add_argument("--rules", help="preset, game string or JSON (default standard)")
    p.add_argument("--players", type=int, help="players including you (default 3)")
    p.add_argument(
        "--level",
        help="opponents' difficulty: beginner, easy, medium, hard, expert (comma-separated: one per "
        "opponent, cycled; default medium)",
    )
    p.add_argument("--bots", help=f"opponents by bot ({', '.join(BOTS)}, NAME:LEVEL), cycled")
    p.add_argument("--seed", type=int, help="seed (default: the clock)")
    p.add_argument("--name", help="your name (default You)")
    p.add_argument(
        "--delay", type=float, default=0.8, help="seconds between the computer's moves (default 0.8)"
    )
    p.add_argument(
        "--record",
        metavar="FILE",
        help="record file (default: a new file in $XDG_DATA_HOME/yaniv/games, ~/.local/share/yaniv/games)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the last unfinished game (or the one in --record FILE)",
    )
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("replay", help="show a recorded game (step through it on a terminal)")
    p.add_argument("file", help="a JSON Lines game record")
    p.add_argument("--seat", type=int, help="show only what this seat saw")
    view = p.add_mutually_exclusive_group()
    view.add_argument("--tui", action="store_true", help="the step-through viewer (needs textual)")
    view.add_argument(
        "--text", action="store_true", help="print the game turn by turn (the default off a terminal)"
    )
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("check", help="verify a game record (exit 1 naming the first wrong line)")
    p.add_argument("file", help="a JSON Lines game record")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("serve", help="play in the browser: the web server (needs yaniv[web])")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--db",
        metavar="URL",
        help="SQLAlchemy async URL or SQLite file (default $XDG_DATA_HOME/yaniv/yaniv.db, "
        "~/.local/share/yaniv/yaniv.db)",
    )
    p.add_argument(
        "--bot-delay", type=float, default=0.8, help="seconds a computer player waits before acting (0.8)"
    )
    p.add_argument(
        "--round-pause",
        type=float,
        default=30.0,
        help="seconds after a round's end before the next deal if not everyone is ready (30)",
    )
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("arena", help="seat-rotated matches between bots: win rates, Elo, timings")
    p.add_argument("--rules", default="standard", help="preset, game string or JSON (default standard)")
    p.add_argument("--players", type=int, help="players per game (default: the number of bots)")
    p.add_argument(
        "--games",
        type=int,
        default=100,
        help="games in total, rounded up to whole rotation sets (default 100)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the first deal (default 1)")
    p.add_argument(
        "--bots",
        default="expert,heuristic",
        help="line-up by seat, NAME or NAME:LEVEL (expert:strong); the last fills the remaining seats "
        f"({', '.join(BOTS)})",
    )
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--json", metavar="FILE", help="also write the report as JSON to FILE ('-': stdout only)")
    p.add_argument("--plot", metavar="FILE.png", help="draw win rates and score curves (needs matplotlib)")
    p.add_argument(
        "--turn-cap", type=int, default=DEFAULT_TURN_CAP, help="turns before a round counts as stalled"
    )
    p.add_argument(
        "--untimed", action="store_true", help="lift the expert's time limits (reproducible, slower)"
    )
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser("odds", help="the chance that a Yaniv call succeeds (the bots' opponent model)")
    p.add_argument("--value", type=int, required=True, help="the caller's hand value")
    p.add_argument("--cards", required=True, help="cards held by each opponent, e.g. 3,5")
    p.add_argument("--seen-values", help="value of the cards seen taken by each opponent, e.g. 0,4")
    p.add_argument("--seen-counts", help="number of cards seen taken by each opponent, e.g. 0,1")
    p.add_argument("--turn", type=int, default=0, help="turns completed in the round (default 0)")
    p.add_argument("--players", type=int, help="players in the round (default: opponents + 1)")
    p.add_argument("--rules", default="standard", help="preset, game string or JSON (default standard)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON line")
    p.set_defaults(func=cmd_odds)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    stream = out if out is not None else sys.stdout
    try:
        code: int = args.func(args, stream)
    except UsageError as e:
        parser.exit(2, f"yaniv {args.command}: error: {e}\n")
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
