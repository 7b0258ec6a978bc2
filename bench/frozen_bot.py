"""Serve a bot of whatever ``yaniv`` package is first on the path, over the bot protocol.

For matches against an older checkout that has no ``yaniv bot`` command (the frozen
expert of commit ca9ed9c, issue 20): this script uses only API that existed then
(``make_bot``, ``SeatView``, ``Rules.from_dict``, ``Action.from_json``, ``CARDS``,
``KIND``, ``parse_card``, ``SearchLevel``), so the arena can seat the old bot:

    yaniv arena --bots 'expert,cmd:env PYTHONPATH=/tmp/frozen/src /work/main/.venv/bin/python \
        /work/main/bench/frozen_bot.py expert' --players 2 --games 200

    python bench/frozen_bot.py SPEC [--seed N] [--untimed] [--set NAME=VALUE ...] [--level C/D/S]

It is a self-contained twin of ``yaniv.bots.program`` (which serves the current
package's bots and uses newer API): the view's card names get physical ids (hand,
pile and seen cards each their own copy; the takeable and drawn cards and the legal
actions the ids of the cards they name), the bot answers each ``decide``, one
``random.Random(seed)`` serves the whole process. A decide that cannot be read is
answered with an ``error`` message (the engine's fallback plays at once) and named
on stderr; other bad lines are named on stderr and skipped.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
from collections.abc import Sequence
from typing import Any

from yaniv.actions import Action
from yaniv.bots import make_bot
from yaniv.cards import CARDS, KIND, parse_card
from yaniv.rules import Rules
from yaniv.state import SeatView

try:
    from yaniv.state import Phase as _PHASE
except ImportError:  # commit ca9ed9c: the phase is a plain string
    _PHASE = None  # type: ignore[assignment,misc]


def _pick(kind: int, pools: Sequence[list[Any]]) -> Any:
    for pool in pools:
        for i, c in enumerate(pool):
            if KIND[c] == kind:
                return pool.pop(i)
    return CARDS[kind]


def _group(groups: Sequence[Sequence[Any]], kinds: list[int]) -> list[Any] | None:
    for g in reversed(groups):
        if [KIND[c] for c in g] == kinds:
            return list(g)
    return None


def view_from_dict(data: dict[str, Any], rules: Rules) -> SeatView:
    """The seat's view from its JSON, every card in sight with a physical id of its own."""
    players = int(data["players"])
    decks = rules.decks_for(players)
    used: set[int] = set()

    def take(name: str) -> Any:
        kind = parse_card(name)
        choices = (52, 53, 106, 107)[: 2 * decks] if kind == 52 else (kind, kind + 54)[:decks]
        for p in choices:
            if p not in used:
                used.add(p)
                return CARDS[p]
        raise ValueError(f"card {name!r} appears more often than the deck has it")

    seat = int(data["seat"])
    hand = [take(c) for c in data["hand"]]
    pile = [[take(c) for c in g] for g in data["discard_pile"]]
    own = list(hand)
    seen = [
        [_pick(parse_card(c), [own]) for c in cards] if p == seat else [take(c) for c in cards]
        for p, cards in enumerate(data["seen"])
    ]
    previous = None
    if data.get("previous_group") is not None:
        kinds = [parse_card(c) for c in data["previous_group"]]
        previous = _group(pile, kinds) or [CARDS[k] for k in kinds]
    takeable = [_pick(parse_card(c), [list(previous or [])]) for c in data["takeable"]]
    last: list[list[Any] | None] = []
    for g in data.get("last_discards") or [None] * players:
        if g is None:
            last.append(None)
        else:
            kinds = [parse_card(c) for c in g]
            last.append(_group(pile, kinds) or [CARDS[k] for k in kinds])
    drawn = None if data.get("drawn") is None else _pick(parse_card(data["drawn"]), [list(hand)])
    legal = []
    for a in data["legal"]:
        action = Action.from_json(a)
        mine = list(hand)
        cards = tuple(_pick(KIND[c], [mine]) for c in action.cards)
        card = None if action.card is None else _pick(KIND[action.card], [list(takeable), list(hand)])
        legal.append(Action(action.type, cards, card))
    return SeatView(
        seat=seat,
        rules=rules,
        players=players,
        names=data.get("names"),
        # a compiled SeatView checks its phase's type: newer packages have a Phase enum
        phase=_PHASE(data["phase"]) if _PHASE is not None else data["phase"],
        current=int(data["current"]),
        active=tuple(int(p) for p in data["active"]),
        hand=hand,
        hand_value=sum(rules.card_values[c] for c in hand),
        hand_counts=[int(n) for n in data["hand_counts"]],
        seen=seen,
        hands_shown=None,
        discard_pile=pile,
        last_discards=last,
        previous_group=previous,
        takeable=takeable,
        stock_count=int(data["stock_count"]),
        totals=[int(t) for t in data["totals"]],
        eliminated=[int(p) for p in data["eliminated"]],
        drawn=drawn,
        legal=legal,
        result=None,
        turns=int(data["turns"]),
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("spec", help="the bot, NAME or NAME:LEVEL")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bot's random choices (default 0)")
    parser.add_argument("--untimed", action="store_true", help="lift the expert's time limit")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="for experiments: set a constant of yaniv.bots.search (a Python literal) before the bot "
        "is made, e.g. DRAWN_LIKE_STOCK=True",
    )
    parser.add_argument(
        "--level",
        metavar="C/D/S",
        help="for experiments: the expert's candidates/determinizations/seconds (no commas)",
    )
    args = parser.parse_args()
    if args.set or args.level:
        import ast

        from yaniv.bots import search

        for item in args.set:
            name, _, value = item.partition("=")
            if not hasattr(search, name):
                parser.error(f"--set {item}: yaniv.bots.search has no {name}")
            try:
                setattr(search, name, ast.literal_eval(value))
            except (ValueError, SyntaxError):
                parser.error(f"--set {item}: {value!r} is not a Python literal")

    def make() -> Any:
        bot = make_bot(args.spec)
        if args.level and hasattr(bot, "level"):
            c, d, t = args.level.split("/")
            bot.level = dataclasses.replace(
                bot.level, candidates=int(c), determinizations=int(d), max_seconds=float(t)
            )
        if args.untimed and hasattr(bot, "level"):
            bot.level = dataclasses.replace(bot.level, max_seconds=math.inf)
        return bot

    try:
        bot = make()
    except ValueError as e:
        print(f"frozen_bot: {e}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    rules_key: str | None = None
    rules: Rules | None = None
    hello: str | None = None
    out = sys.stdout

    def write(message: dict[str, Any]) -> None:
        out.write(json.dumps(message, separators=(",", ":")) + "\n")
        out.flush()

    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as e:
            print(f"frozen_bot: line {number}: not JSON ({e}); skipped", file=sys.stderr)
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "bye":
            break
        if kind == "hello":
            key = json.dumps([message.get(k) for k in ("seat", "players", "rules", "names")], sort_keys=True)
            if key != hello:
                bot, hello = make(), key
            write({"type": "ready", "name": f"frozen {args.spec}"})
        elif kind == "decide":
            k = message.get("id")
            try:
                view_data = message["view"]
                key = json.dumps(view_data["rules"], sort_keys=True)
                if key != rules_key or rules is None:
                    rules, rules_key = Rules.from_dict(view_data["rules"]), key
                view = view_from_dict(view_data, rules)
                action = bot.act(view, rng)
            except Exception as e:  # a view it cannot read, or a bug: the engine's fallback plays
                text = f"decide {k}: {type(e).__name__}: {str(e)[:200]}"
                print(f"frozen_bot: line {number}: {text}", file=sys.stderr)
                write({"type": "error", "id": k, "message": text})
                continue
            write({"type": "action", "id": k, "action": None if action is None else action.to_json()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
