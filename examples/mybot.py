#!/usr/bin/env python3
"""A tiny Yaniv bot speaking the bot protocol: a template for writing your own.

The engine starts this program and talks to it with JSON Lines: one JSON object per
line on stdin (engine -> bot) and on stdout (bot -> engine). See docs/bot-protocol.md.

    yaniv simulate --bots 'cmd:python examples/mybot.py,heuristic'

Strategy (deliberately simple):
  * call Yaniv whenever it is legal;
  * otherwise throw the discard that sheds the most points;
  * otherwise (after discarding: draw or take) play the first legal action.

Only the standard library is used, and nothing from the yaniv package: a bot in any
other language works the same way.
"""

import json
import sys


def send(message):
    """Write one message as one line, and flush so the engine sees it at once."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(text):
    """Debug output goes to stderr: stdout is reserved for protocol messages."""
    print(text, file=sys.stderr, flush=True)


def card_value(card, rules):
    """Points of a card in canonical notation ('AH', '10S', 'QD', 'JK')."""
    if card == "JK":
        return 0
    if card == "KH" and rules.get("king_of_hearts_zero"):
        return 0
    rank = card[:-1]  # everything but the suit letter
    if rank == "A":
        return 1
    if rank in ("J", "Q", "K"):
        return 10
    return int(rank)


def choose(view, legal):
    """Pick one of the legal actions (JSON objects, exactly as the engine listed them)."""
    rules = view["rules"]

    # 1. Call Yaniv when allowed (the hand is worth little enough).
    for action in legal:
        if action["type"] == "yaniv":
            return action

    # 2. At the start of a turn: throw the discard worth the most points;
    #    among equal values, the one with more cards.
    discards = [a for a in legal if a["type"] == "discard"]
    if discards:
        return max(
            discards,
            key=lambda a: (sum(card_value(c, rules) for c in a["cards"]), len(a["cards"])),
        )

    # 3. Anything else (draw / take after discarding, or a slap): the first choice.
    #    A compound answer is possible too: {"type": "turn", "discard": [...], "take": "stock"}.
    return legal[0]


def main():
    """Read the engine's messages one line at a time and answer each as it comes."""
    seat = None
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message["type"]

        if kind == "hello":
            # Sent before the first decision: our seat, the players, the rules.
            seat = message["seat"]
            send({"type": "ready", "name": "mybot"})

        elif kind == "decide":
            # One decision: answer with the same id, within hello's time_limit_ms.
            # message["legal"] lists every legal action; message["view"] is all we may know.
            action = choose(message["view"], message["legal"])
            send({"type": "action", "id": message["id"], "action": action})

        elif kind == "event":
            pass  # something happened in the game (already hidden as our seat must see it)

        elif kind == "error":
            # Our last answer was refused (or late); the engine played a fallback move.
            log(f"mybot (seat {seat}): engine says: {message['message']}")

        elif kind == "bye":
            break  # the engine is done with us


if __name__ == "__main__":
    main()
