"""``yaniv rules`` (the presets, or one rule set explained) and ``yaniv odds`` (a Yaniv call's chance)."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from ..rules import PRESETS
from .common import UsageError, int_list, player_count, rules_arg

__all__ = ["cmd_odds", "cmd_rules"]


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
    rules = rules_arg(args.spec, "spec")
    if args.json:
        out.write(json.dumps(rules.to_dict(), indent=2) + "\n")
        return 0
    out.write(f"{rules}\n\n")
    for line in rules.describe():
        out.write(f"- {line}\n")
    # docs/formats.md §2.3: a rule set is refused only if its smallest table cannot be
    # dealt; larger tables that need more cards are refused when such a game starts
    undealt = [n for n in range(rules.min_players, rules.max_players + 1) if rules.deal_problem(n)]
    if undealt:
        counts = f"{undealt[0]}" if len(undealt) == 1 else f"{undealt[0]} to {undealt[-1]}"
        out.write(
            f"\nNote: {counts} players cannot be dealt under these rules: {rules.deal_problem(undealt[0])}.\n"
        )
    return 0


def cmd_odds(args: argparse.Namespace, out: TextIO) -> int:
    """The chance that a Yaniv call succeeds, from the bots' calibrated opponent model."""
    from ..bots.model import call_success_probability, stage_of

    rules = rules_arg(args.rules)
    cards = int_list(args.cards, "--cards")
    if not cards:
        raise UsageError("--cards: give the card count of at least one opponent")
    seen_values = int_list(args.seen_values, "--seen-values") if args.seen_values else [0] * len(cards)
    seen_counts = int_list(args.seen_counts, "--seen-counts") if args.seen_counts else [0] * len(cards)
    for flag, values in (("--seen-values", seen_values), ("--seen-counts", seen_counts)):
        if len(values) != len(cards):
            raise UsageError(f"{flag}: give one number per opponent ({len(cards)}, like --cards)")
    top = max(rules.card_values)
    most = top * rules.hand_size  # no hand holds more than the cards dealt
    if not 0 <= args.value <= most:
        raise UsageError(
            f"--value: a hand of at most {rules.hand_size} cards is worth 0 to {most}, not {args.value}"
        )
    if args.turn < 0:
        raise UsageError(f"--turn must be 0 or more, got {args.turn}")
    players = player_count(rules, args.players, len(cards) + 1, "--cards")
    if len(cards) > players - 1:
        raise UsageError(f"--cards: {len(cards)} opponents do not fit in a game of {players} players")
    for i, (held, value, count) in enumerate(zip(cards, seen_values, seen_counts, strict=True)):
        if held < 1:
            raise UsageError(f"--cards: opponent {i + 1} must hold at least 1 card, not {held}")
        if held > rules.hand_size:  # no hand holds more than the cards dealt
            raise UsageError(
                f"--cards: opponent {i + 1} holds at most {rules.hand_size} cards (hand_size), not {held}"
            )
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
