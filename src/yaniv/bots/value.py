"""The game value: each player's chance to win the game from the totals.

A round is won or lost in points, but a game is won by outlasting everyone (or by the
lowest total when the game ends). Ten points matter little to a player far behind and
a lot to one near the limit; the same ten points given to the leader matter more than
given to a player about to be knocked out. The expert scores its playouts by the
change of its chance to win, which captures all of this.

The model is a Bradley-Terry one: every active player has a *strength* that depends
only on his total, and a player wins the game with probability his strength over the
sum of the active players' strengths. Strengths are tabulated per band of the total
(5% of the score limit, so the table serves every limit) and fitted, by the MM
algorithm for Bradley-Terry models, to who won heuristic self-play games from each
round's totals (``python tools/calibrate.py``). On other self-play games than
those it was fitted to, it is well calibrated with 2, 3 and 4 players left (predicted
and observed win rates agree within a few points per decile; see docs/bots.md). It is
fitted on the standard rules only and carried to other score limits by the bands.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..rules import Rules
from .share import win_share

__all__ = ["BANDS", "WinModel", "band_of", "fit_strengths", "win_share"]

BANDS = 21
"""Bands of the total: 0-5%, 5-10%, ... of the score limit, and the limit itself."""


def band_of(total: int, limit: int) -> int:
    """The band of a total under a score limit (negative totals count as band 0)."""
    return min(max(total * (BANDS - 1) // limit, 0), BANDS - 1)


class WinModel:
    """P(win the game) for each active player, from the totals (Bradley-Terry)."""

    def __init__(self, strengths: Sequence[float]) -> None:
        """*strengths*[k]: the strength of a total in band k (k * 5% of the limit and up)."""
        if len(strengths) != BANDS:
            raise ValueError(f"a win model has {BANDS} strengths, got {len(strengths)}")
        for k, s in enumerate(strengths):
            if isinstance(s, bool) or not isinstance(s, (int, float)):
                raise ValueError(f"strength {k} is not a number: {s!r}")
            if not math.isfinite(s) or s <= 0:
                raise ValueError(f"strength {k} must be positive and finite, got {s!r}")
        self.strengths = [float(s) for s in strengths]
        self._per_limit: dict[int, list[float]] = {}

    def table(self, limit: int) -> list[float]:
        """Strength of every total 0..limit for a score limit (log-linear between bands)."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"a score limit is a positive integer, got {limit!r}")
        table = self._per_limit.get(limit)
        if table is None:
            logs = [math.log(s) for s in self.strengths]
            table = []
            for t in range(limit + 1):
                # band k covers [k, k+1) * limit / 20; its strength sits at the band's middle
                x = t * (BANDS - 1) / limit - 0.5
                k = min(max(math.floor(x), 0), BANDS - 2)
                f = min(max(x - k, 0.0), 1.0)
                table.append(math.exp(logs[k] * (1 - f) + logs[k + 1] * f))
            self._per_limit[limit] = table
        return table

    def win_probabilities(
        self, totals: Sequence[int], active: Sequence[int], rules: Rules
    ) -> dict[int, float]:
        """P(win) for each seat of *active* (seats above the limit have none)."""
        table = self.table(rules.score_limit)
        return {p: win_share(table, totals, active, p) for p in active}


def fit_strengths(
    observations: Sequence[tuple[Sequence[int], Sequence[float]]], iterations: int = 200
) -> list[float]:
    """Band strengths fitted to (bands of the active players, each one's share of the win).

    Hunter's MM algorithm for the Bradley-Terry "first place" model; a share is 1 for
    the winner, 1/k for each of k tied winners, 0 otherwise. A band nobody was seen in
    takes the strength of the band below it, and strengths never rise with the total
    (a running minimum: a lower total is never worse, whatever the sampling noise
    says). Scaled to strength 1 for band 0.
    """
    seen = [False] * BANDS
    for bands, _ in observations:
        for k in bands:
            seen[k] = True
    strengths = [1.0] * BANDS
    for _ in range(iterations):
        wins = [1e-3] * BANDS
        exposure = [1e-3] * BANDS
        for bands, shares in observations:
            inverse = 1.0 / sum(strengths[k] for k in bands)
            for k, share in zip(bands, shares, strict=True):
                wins[k] += share
                exposure[k] += inverse
        strengths = [w / e for w, e in zip(wins, exposure, strict=True)]
        first = strengths[0]
        strengths = [s / first for s in strengths]
    for k in range(1, BANDS):
        if not seen[k] or strengths[k] > strengths[k - 1]:
            strengths[k] = strengths[k - 1]
    return strengths
