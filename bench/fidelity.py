"""How faithfully the expert's playouts play: their policy against a bot's own turns.

The expert's strength has moved most when its playouts played more like the players
they stand for (docs/bots.md §2: calling like the heuristic, then at the expert's own
risk). This script measures that fidelity. It plays self-play games of a bot (default:
the expert, untimed) and at every turn start compares the bot's turn with the turn the
playout policy (:func:`yaniv.bots.playout.playout`, one turn of it, on a copy of the
true state) plays there:

* **the Yaniv call**, where one is allowed: the playouts call when the model's Assaf
  estimate (``HeuristicBot.assaf_probability``, which the playouts compute inline) is at
  most the score-aware level ``call_risk(..., RISK)``. For each RISK of ``--risks``:
  the share of those turn starts where that rule and the bot agree, and how often each
  called. The best-agreeing RISK is the fit of the playouts' level for the rules
  (``playout.playout_risk``: ``PLAYOUT_RISK`` or the family's own heads-up). Where a learned
  call is fitted for the rules and player count (``yaniv.bots.calls``,
  ``tools/fit_calls.py``), ``learned_call`` gives the same figures for it (the rule the
  expert's playouts then call by). ``read_call_agreement_by_risk`` gives the same for the
  rule that also reads each opponent's last discard as the expert's deals do
  (``HeuristicBot.assaf_probability(..., read=True)``: the playouts' callers heads-up in
  the families of ``playout.READ_RISK_BY_FAMILY`` when ``search.READ_DISCARDS`` is on, at
  ``read_risk``); ``best_read_risk`` is its fit;
* **the discard** (compared by card values), where neither called;
* **the take**, where both threw the same values: the pile card taken (by value) or the
  draw. The pile cards the bot takes where the playouts draw, and the other way round,
  are counted by value.

Prints one JSON object.

    python bench/fidelity.py [--bot expert] [--rules standard] [--players 2] [--games 40]
                             [--seed 30000] [--risks 0.05,0.1,0.15,0.2,0.25,0.3]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from yaniv.arena.run import make_arena_bot
from yaniv.bots.calls import call_features, call_logit, call_weights_for
from yaniv.bots.heuristic import HeuristicBot, Knowledge, call_risk
from yaniv.bots.model import model_for
from yaniv.bots.playout import playout, playout_risk, read_risk
from yaniv.bots.search import READ_DISCARDS
from yaniv.game import Game
from yaniv.rules import Rules
from yaniv.state import RoundState
from yaniv.table import DecisionKind, Table, player_rngs

TURN_CAP = 2001
"""A round that runs this long stops the game (as in the arena)."""


def playout_turn(
    state: RoundState, seat: int, risk: float, reads: bool = False
) -> tuple[str, tuple[int, ...], int | None]:
    """The playout policy's turn at *state*: ("yaniv"|"turn", discard values, taken pile value or None).

    With *reads* the seat's call reads the others' last discards (``read_seats``).
    """
    values = state.rules.card_values
    before = state.hands[seat]
    stock = len(state.stock)
    trial = state.copy()
    playout(trial, model_for(state.rules), risk=risk, cap=1, read_seats=(1 << seat) if reads else 0)
    if trial.hands[seat] == before and trial.is_over:
        return "yaniv", (), None
    after = trial.hands[seat]
    thrown = tuple(
        sorted(values[c] for c in range(before.bit_length()) if before >> c & 1 and not after >> c & 1)
    )
    new = [c for c in range(after.bit_length()) if after >> c & 1 and not before >> c & 1]
    took = values[new[0]] if new and len(trial.stock) == stock else None
    return "turn", thrown, took


def measure(bot: str, spec: str, players: int, games: int, seed: int, risks: list[float]) -> dict[str, Any]:
    """The fidelity figures of *games* self-play games of *bot* on rules *spec* (module docstring)."""
    rules = Rules.from_spec(spec)
    reading = read_risk(rules) if players == 2 else None
    reads = reading is not None and READ_DISCARDS  # the expert's playouts read discards here
    shipped = reading if reads and reading is not None else playout_risk(rules, players)
    judge = HeuristicBot(model=model_for(rules))
    agree = Counter[float]()
    rule_calls = Counter[float]()
    read_agree = Counter[float]()
    read_calls = Counter[float]()
    n: Counter[str] = Counter()
    bot_only: Counter[int] = Counter()
    playout_only: Counter[int] = Counter()
    values = rules.card_values
    model = model_for(rules)
    learned_weights = call_weights_for(rules, players)
    for g in range(games):
        game = Game(rules, players=players, seed=seed + g)
        seats = [make_arena_bot(bot, untimed=True) for _ in range(players)]
        table = Table(game, seats, rngs=player_rngs(seed + g, players), turn_cap=TURN_CAP, auto_deal=False)
        while (decision := table.waiting_for()) is not None:
            if decision.kind == DecisionKind.NEXT_ROUND:
                table.next_round()
                continue
            if decision.kind != DecisionKind.TURN or decision.seat is None:
                table.step()
                continue
            seat = decision.seat
            state = table.round
            view = table.view(seat)
            estimate: float | None = None
            read_estimate = 1.0
            if any(a.type == "yaniv" for a in view.legal):
                assert view.hand_value is not None
                know = Knowledge(view)
                estimate = judge.assaf_probability(view.hand_value, know)
                read_estimate = judge.assaf_probability(view.hand_value, know, read=True)
                levels = {
                    r: call_risk(rules, view.totals, view.active, seat, view.hand_value, r) for r in risks
                }
                learned = (
                    call_logit(learned_weights, call_features(state, model)) > 0.0
                    if learned_weights is not None and state.phase_name == "turn_start"
                    else None
                )
            kind, thrown, took = playout_turn(state, seat, shipped, reads)
            move = table.step()
            if move is None or move.action is None:
                continue
            action = move.action
            called = action.type == "yaniv"
            if estimate is not None:
                n["call_decisions"] += 1
                n["bot_calls"] += called
                for r in risks:
                    calls = estimate <= levels[r]
                    rule_calls[r] += calls
                    agree[r] += calls == called
                    calls = read_estimate <= levels[r]
                    read_calls[r] += calls
                    read_agree[r] += calls == called
                if learned is not None:
                    n["learned_decisions"] += 1
                    n["learned_calls"] += learned
                    n["learned_agree"] += learned == called
            if called or kind == "yaniv" or action.type != "turn":
                continue
            n["turns"] += 1
            bot_thrown = tuple(sorted(values[int(c)] for c in action.cards))
            if bot_thrown != thrown:
                continue
            n["same_discard"] += 1
            bot_took = None if action.card is None else values[int(action.card)]
            n["same_take"] += bot_took == took
            n["bot_pile_takes"] += bot_took is not None
            n["playout_pile_takes"] += took is not None
            if bot_took is not None and took is None:
                bot_only[bot_took] += 1
            elif took is not None and bot_took is None:
                playout_only[took] += 1
        print(f"game {g + 1}/{games}", end="\r", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    decisions = n["call_decisions"] or 1
    by_risk = {
        str(r): {"agreement": round(agree[r] / decisions, 4), "rule_calls": rule_calls[r]} for r in risks
    }
    by_read_risk = {
        str(r): {"agreement": round(read_agree[r] / decisions, 4), "rule_calls": read_calls[r]} for r in risks
    }
    same = n["same_discard"] or 1
    return {
        "bot": bot,
        "rules": spec,
        "players": players,
        "games": games,
        "seed": seed,
        "playout_risk": shipped,
        "call_decisions": n["call_decisions"],
        "bot_calls": n["bot_calls"],
        "call_agreement_by_risk": by_risk,
        "best_risk": max(risks, key=lambda r: (agree[r], -abs(r - shipped))),
        "read_risk": reading,
        "read_call_agreement_by_risk": by_read_risk,
        "best_read_risk": max(risks, key=lambda r: (read_agree[r], -abs(r - shipped))),
        "learned_call": (
            None
            if learned_weights is None
            else {
                "decisions": n["learned_decisions"],
                "agreement": round(n["learned_agree"] / (n["learned_decisions"] or 1), 4),
                "rule_calls": n["learned_calls"],
            }
        ),
        "turns": n["turns"],
        "discard_agreement": round(n["same_discard"] / (n["turns"] or 1), 4),
        "take_agreement": round(n["same_take"] / same, 4),
        "bot_pile_take_rate": round(n["bot_pile_takes"] / same, 4),
        "playout_pile_take_rate": round(n["playout_pile_takes"] / same, 4),
        "bot_takes_where_playout_draws": dict(sorted(bot_only.items())),
        "playout_takes_where_bot_draws": dict(sorted(playout_only.items())),
    }


def main() -> None:
    """Parse the arguments, play the games, print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bot", default="expert", help="the bot whose turns are compared (default expert)")
    parser.add_argument("--rules", default="standard", help="a preset or rules spec (default standard)")
    parser.add_argument("--players", type=int, default=2, help="seats (default 2)")
    parser.add_argument("--games", type=int, default=40, help="self-play games (default 40)")
    parser.add_argument("--seed", type=int, default=30000, help="seed of the first game (default 30000)")
    parser.add_argument(
        "--risks", default="0.05,0.1,0.15,0.2,0.25,0.3", help="call levels to fit, comma-separated"
    )
    args = parser.parse_args()
    try:
        rules = Rules.from_spec(args.rules)
        risks = [float(r) for r in args.risks.split(",") if r.strip()]
        make_arena_bot(args.bot)
    except ValueError as e:
        parser.error(str(e))
    if not risks or not all(0.0 <= r <= 1.0 for r in risks):
        parser.error(f"--risks {args.risks!r}: give Assaf levels between 0 and 1, comma-separated")
    if not rules.min_players <= args.players <= rules.max_players:
        parser.error(f"--players {args.players}: these rules seat {rules.min_players} to {rules.max_players}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    print(json.dumps(measure(args.bot, args.rules, args.players, args.games, args.seed, risks)))


if __name__ == "__main__":
    main()
