"""The arena's statistics: Wilson score intervals, percentiles and Bradley–Terry (Elo) ratings."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Z95", "elo_ratings", "percentile", "wilson_interval"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) without trials.

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = min(max(successes / trials, 0.0), 1.0)
    z2 = z * z
    denom = 1.0 + z2 / trials
    center = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4 * trials * trials)) / denom
    return max(0.0, min(center - half, p)), min(1.0, max(center + half, p))  # rounding at 0 and 1


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The *q*-th percentile (0–100) of sorted values, linearly interpolated; 0 if empty."""
    if not sorted_values:
        return 0.0
    pos = (len(sorted_values) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def elo_ratings(
    scores: dict[tuple[str, str], float],
    labels: Sequence[str],
    *,
    prior_draws: float = 1.0,
    mean: float = 1500.0,
) -> dict[str, float]:
    """Bradley–Terry ratings on the Elo scale from pairwise results.

    *scores*[(a, b)] is the score of *a* against *b* summed over their pairings (1 a
    win, 0.5 a draw); ``scores[(a, b)] + scores[(b, a)]`` is the number of pairings.
    Every pair that met also gets *prior_draws* virtual draws, so a bot that never
    won keeps a finite rating. Fitted by the minorization–maximization iteration
    (Hunter 2004) to convergence and shifted to a mean of *mean*.

    >>> r = elo_ratings({("a", "b"): 76.0, ("b", "a"): 24.0}, ["a", "b"])
    >>> round(r["a"] - r["b"])
    198
    """
    names = list(dict.fromkeys(labels))
    k = len(names)
    index = {name: i for i, name in enumerate(names)}
    wins = [0.0] * k
    meets = [[0.0] * k for _ in range(k)]
    for (a, b), s in scores.items():
        if a == b:
            continue
        i, j = index[a], index[b]
        wins[i] += s
        meets[i][j] += s
        meets[j][i] += s
    for i in range(k):
        for j in range(i + 1, k):
            if meets[i][j] > 0:
                meets[i][j] += prior_draws
                meets[j][i] += prior_draws
                wins[i] += prior_draws / 2
                wins[j] += prior_draws / 2
    gamma = [1.0] * k
    for _ in range(100_000):
        new = []
        for i in range(k):
            denom = sum(meets[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i and meets[i][j] > 0)
            new.append(wins[i] / denom if denom > 0 else gamma[i])
        geo = math.exp(sum(math.log(g) for g in new) / k) if k else 1.0
        new = [g / geo for g in new]
        change = max((abs(math.log(n / g)) for n, g in zip(new, gamma, strict=True)), default=0.0)
        gamma = new
        if change < 1e-12:
            break
    elo = [400.0 * math.log10(g) for g in gamma]
    shift = mean - (sum(elo) / k if k else 0.0)
    return {name: elo[i] + shift for i, name in enumerate(names)}
