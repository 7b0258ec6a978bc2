"""Events in plain words, for move logs, replays and golden playthroughs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["event_text", "seat_name"]


def seat_name(seat: int, names: Sequence[str] | None) -> str:
    """A seat's display name: its player's name or ``P<seat>``."""
    return names[seat] if names else f"P{seat}"


def _cards(cards: Sequence[str]) -> str:
    return " ".join(cards)


_SECOND_PERSON = {"is": "are"}
"""Verbs whose second person is not the third person less its final ``s``."""


def _verb(name: str, verb: str) -> str:
    """*verb* (given in the third person singular) in the person that agrees with *name*.

    A seat is called "You" when a person plays (the plain game names him so by
    default), and "You discards" reads wrong: for that name the verb takes the second
    person ("You discard", "You are penalised"); any other name keeps the third person.
    """
    if name.lower() != "you":
        return verb
    second = _SECOND_PERSON.get(verb)
    if second is not None:
        return second
    return verb[:-1] if verb.endswith("s") else verb


def _says(name: str, verb: str) -> str:
    """*name* and *verb* agreeing with it: ``P1 draws``, ``You draw``."""
    return f"{name} {_verb(name, verb)}"


def event_text(event: dict[str, Any], names: Sequence[str] | None = None) -> str | None:
    """One line describing *event* (``None`` for the header)."""
    kind = event["type"]
    who = seat_name(event["seat"], names) if "seat" in event else ""

    def act(verb: str) -> str:
        return _says(who, verb)

    if kind == "header":
        return None
    if kind == "deal":
        tb = " (tie-break)" if event.get("tiebreak") else ""
        top = event["discard_pile"][-1] if event["discard_pile"] else None
        lines = [
            f"Round {event['round']}{tb}: {_says(seat_name(event['dealer'], names), 'deals')}; "
            f"{_says(seat_name(event['starter'], names), 'starts')}"
            + (f"; the start card is {_cards(top)}" if top else "")
        ]
        for p, hand in enumerate(event["hands"]):
            if p in event["players"]:
                shown = _cards(hand) if hand is not None else f"{event['hand_counts'][p]} cards"
                lines.append(f"  {seat_name(p, names)}: {shown}")
        return "\n".join(lines)
    if kind == "discard":
        return f"{act('discards')} {_cards(event['cards'])}"
    if kind == "draw":
        return f"{act('draws')} {event['card']}" if "card" in event else f"{act('draws')} from the stock"
    if kind == "take":
        return f"{act('takes')} {event['card']}"
    if kind == "swap":
        return f"{act('swaps')} {event['card']} for the joker"
    if kind == "slap":
        return f"{act('slaps')} {event['card']} onto the discard"
    if kind == "reshuffle":
        count = len(event["stock"]) if event.get("stock") is not None else event.get("count", 0)
        return f"The stock is empty: {count} cards of the pile are shuffled into a new stock"
    if kind == "yaniv":
        return f"{act('calls')} Yaniv!"
    if kind == "false_yaniv":
        return f"{act('calls')} Yaniv out of turn and {_verb(who, 'is')} penalised"
    if kind == "asef":
        return f"{act('calls')} Asef! The blind card is {event['card']}"
    if kind == "showdown":
        hands = [
            f"{seat_name(p, names)} {_cards(h) or '-'}" for p, h in enumerate(event["hands"]) if h is not None
        ]
        return "Showdown: " + "; ".join(hands)
    if kind == "round_end":
        return _round_end(event, names)
    if kind == "game_end":
        winners = ", ".join(seat_name(p, names) for p in event["winners"])
        return f"Game over. Winner: {winners}. Final totals: {event['totals']}"
    return f"{kind}: {event}"


def _round_end(event: dict[str, Any], names: Sequence[str] | None) -> str:
    caller = seat_name(event["caller"], names)
    if event["kind"] == "false_yaniv":
        head = f"{_says(caller, 'is')} penalised {event['round_scores'][event['caller']]} for a false Yaniv"
    elif event["assaf"]:
        by = ", ".join(seat_name(p, names) for p in event["assafers"])
        head = f"Assaf! {_says(caller, 'is')} caught by {by}"
    else:
        head = f"{_says(caller, 'wins')} the round"
    scores = ", ".join(
        f"{seat_name(p, names)} +{s}" if s >= 0 else f"{seat_name(p, names)} {s}"
        for p, s in enumerate(event["round_scores"])
        if event["values"][p] is not None or s
    )
    parts = [f"{head}. Scores: {scores}. Totals: {event['totals']}"]
    if event["landed"]:
        parts.append("landed on a halving score: " + ", ".join(seat_name(p, names) for p in event["landed"]))
    if event["eliminated"]:
        parts.append("out: " + ", ".join(seat_name(p, names) for p in event["eliminated"]))
    if event["tiebreak"]:
        parts.append("tie-break between " + ", ".join(seat_name(p, names) for p in event["tiebreak"]))
    return "; ".join(parts)
