"""Events: everything that happens, as JSON-ready dicts, and their redaction per seat.

Event types (``seat`` is the acting seat; cards in canonical notation):

==============  ===============================================================
``deal``        ``round``, ``dealer``, ``starter``, ``players`` (seats in the round), ``tiebreak``,
                ``hands`` (per seat), ``stock`` (top first), ``discard_pile``
``discard``     ``seat``, ``cards``
``draw``        ``seat``, ``card`` (only the drawer and full records see it)
``take``        ``seat``, ``card``
``swap``        ``seat``, ``card`` (natural card given), ``position``
``slap``        ``seat``, ``card``
``reshuffle``   ``stock`` (top first; redacted to ``count``)
``yaniv``       ``seat``
``false_yaniv`` ``seat``
``asef``        ``seat``, ``card`` (the blind card, shown at the showdown)
``showdown``    ``hands`` (per seat, ``null`` for seats not in the round)
``round_end``   the round result (``RoundResult.to_dict()``)
``game_end``    ``winners``, ``totals``
==============  ===============================================================
"""

from __future__ import annotations

from typing import Any

__all__ = ["HIDDEN_FROM_OTHERS", "redact"]

HIDDEN_FROM_OTHERS = frozenset({"draw"})
"""Event types whose card only the acting seat may see."""


def redact(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The event as *seat* may see it (``None``: a spectator, who sees no hand)."""
    kind = event["type"]
    if kind == "deal":
        if event.get("stock") is None:
            return event  # already redacted
        out = dict(event)
        hands = event["hands"]
        out["hands"] = [h if p == seat else None for p, h in enumerate(hands)]
        out["hand_counts"] = [len(h) for h in hands]
        out["stock"] = None
        out["stock_count"] = len(event["stock"])
        return out
    if kind in HIDDEN_FROM_OTHERS and event.get("seat") != seat:
        return {k: v for k, v in event.items() if k != "card"}
    if kind == "reshuffle" and "stock" in event:
        return {"type": "reshuffle", "count": len(event["stock"])}
    return event
