"""A player's share of the win from the totals: the win model's formula (Bradley-Terry).

The expert's playouts score every finished round with it, so it has a module of its own
that the compiled build compiles (:mod:`.value` holds the model and its fitting, and
checks its arguments in interpreted code); :mod:`.value` re-exports it.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["win_share"]


def win_share(table: Sequence[float], totals: Sequence[int], active: Sequence[int], seat: int) -> float:
    """P(*seat* wins) among *active* from the totals, *table* = :meth:`WinModel.table`.

    A seat above the limit (the table's last index) has no strength; if nobody has
    any, the active seats share evenly.
    """
    limit = len(table) - 1
    mine = 0.0
    everyone = 0.0
    for p in active:
        t = totals[p]
        if t <= limit:
            s = table[t] if t > 0 else table[0]
            everyone += s
            if p == seat:
                mine = s
    return mine / everyone if everyone > 0 else 1.0 / len(active)
