"""The arena: seat-rotated matches between bots on duplicate deals, and their statistics.

``run`` plays a match (:func:`run_arena`, worker processes), ``measure`` one measured
game at a :class:`~yaniv.table.Table` (:func:`play_measured`), ``stats`` the
statistics (Wilson intervals, percentiles, Elo), ``report`` the :class:`Report` and
its text and JSON, ``plot`` its picture (matplotlib). The names below are the
arena's public interface: import them from ``yaniv.arena``.
"""

from __future__ import annotations

from .measure import GameRecord, SeatRecord, play_measured
from .plot import plot
from .report import BotStats, Report
from .run import make_arena_bot, run_arena
from .stats import elo_ratings, percentile, wilson_interval

__all__ = [
    "BotStats",
    "GameRecord",
    "Report",
    "SeatRecord",
    "elo_ratings",
    "make_arena_bot",
    "percentile",
    "play_measured",
    "plot",
    "run_arena",
    "wilson_interval",
]
