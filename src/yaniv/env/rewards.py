"""Rewards: per game (+1 / −1, or by rank) or per round (minus the score change).

Every function takes plain numbers from :class:`~yaniv.RoundResult` values and
returns one reward per seat, so the PettingZoo and the Gymnasium environment pay
exactly the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

from ..scoring import RoundResult

__all__ = ["EPISODES", "REWARDS", "Episode", "Reward", "final_rewards", "round_rewards"]

Reward = Literal["game", "rank", "round"]
"""``game``: +1 for each winner, −1 for the others at the end; ``rank``: from +1 (first)
to −1 (last) by the final standing, ties sharing; ``round``: after every round, minus
the change of the seat's total (halving included)."""
REWARDS: tuple[Reward, ...] = get_args(Reward)
Episode = Literal["game", "round"]
"""``game``: the whole game (rounds, halving, eliminations, tie-breaks); ``round``: one deal."""
EPISODES: tuple[Episode, ...] = get_args(Episode)


def round_rewards(result: RoundResult, before: Sequence[int]) -> list[float]:
    """Minus each seat's change of total in the round that gave *result* (``round``)."""
    return [float(b - a) for a, b in zip(result.totals, before, strict=True)]


def final_rewards(
    mode: Reward,
    episode: Episode,
    result: RoundResult,
    seats: Sequence[int],
    out_round: Sequence[int | None],
) -> list[float]:
    """The end-of-episode rewards of the ``game`` and ``rank`` modes (zeros for ``round``).

    *result* is the last round's; *seats* the seats that played it; *out_round* the
    round in which each seat was eliminated (``None``: never). A whole game ranks the
    winners first, then the later eliminated before the earlier, then lower totals; a
    single round ranks by round score among its players (lowest first). Seats outside
    the ranking (not in the round) get 0.
    """
    n = len(result.totals)
    out = [0.0] * n
    if mode == "round":
        return out
    if episode == "game":
        ranked = list(range(n))
        winners = set(result.winners)
        never = 1 << 30

        def key(p: int) -> tuple[int, int, int]:
            r = out_round[p]
            return (0 if p in winners else 1, -(never if r is None else r), result.totals[p])

    else:
        ranked = list(seats)
        best = min(result.round_scores[p] for p in seats)
        winners = {p for p in seats if result.round_scores[p] == best}

        def key(p: int) -> tuple[int, int, int]:
            return (0 if p in winners else 1, 0, result.round_scores[p])

    if mode == "game":
        for p in ranked:
            out[p] = 1.0 if p in winners else -1.0
        return out
    m = len(ranked)
    if m < 2:
        return out
    ordered = sorted(ranked, key=key)
    i = 0
    while i < m:  # ties share the mean of the places they span
        j = i
        while j + 1 < m and key(ordered[j + 1]) == key(ordered[i]):
            j += 1
        place = (i + j) / 2
        for p in ordered[i : j + 1]:
            out[p] = 1.0 - 2.0 * place / (m - 1)
        i = j + 1
    return out
