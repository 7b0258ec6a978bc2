"""An arena match's figures: per bot (:class:`BotStats`) and for the match (:class:`Report`).

Per bot (line-up slots with the same spec are added together; ``games`` counts
seat-games, so a bot filling three seats plays three per game) the report gives:

* **wins**: games won, a tie for the win shared equally (a tie of two gives each
  0.5); a game stopped by the turn cap is won by the lowest total among the seats
  still in it. ``win_rate`` = wins / games with a 95% Wilson score interval.
* **mean_total**: mean final total (lower is better).
* **rounds_won**: rounds in which the seat had the lowest round score of the round's
  seats while at least one other seat scored more: the caller of a successful Yaniv,
  the lowest hand(s) that Assafed a caller (as the rules score them), never anyone
  in a round where every seat scored the same. ``round_win_rate`` = rounds_won /
  rounds the bot took part in.
* **calls** (Yaniv and Asef calls), **assafed** (of those, the Assafed ones) and
  ``assaf_rate`` = assafed / calls; **assafs_made**: rounds in which the seat was
  among the players who Assafed a caller.
* **landings**: halvings (or minus-50 landings) earned on the halving scores.
* **decision_ms**: time of each decision (the bot's view built and the bot asked, see
  :func:`~yaniv.arena.measure.play_measured`) in milliseconds: mean, p50, p95, p99.
* **capped**: the bot's games stopped because a round reached the turn cap.
* **elo**: a Bradley–Terry rating on the Elo scale (400 points = 10:1 odds), fitted
  to every pair of seats with different bots within every game, the better final rank
  winning the pair (a draw for an equal rank), anchored at a mean of 1500. The final
  rank orders winners first, then seats eliminated later before seats eliminated
  earlier, then lower totals.

A bot that is an external program (``cmd:...``, the bot protocol) has its failed
decisions made by a built-in fallback bot, so its figures are partly the fallback's:
for such a bot the report adds **failures** (bad answers, timeouts, a crash) and
**fallback_decisions** (the decisions its fallback made, of ``decisions``), and the
text report says them under the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .measure import SeatRecord
from .stats import percentile, wilson_interval

__all__ = ["BotStats", "Report"]


@dataclass
class BotStats:
    """One bot's figures over a match (line-up slots with the same spec added together)."""

    bot: str
    seats: int = 0
    """Seats of the line-up it fills."""
    games: int = 0
    """Seat-games played."""
    wins: float = 0.0
    total_sum: int = 0
    rounds: int = 0
    rounds_won: int = 0
    calls: int = 0
    assafed: int = 0
    assafs_made: int = 0
    landings: int = 0
    capped: int = 0
    elo: float = 1500.0
    decision_ms: list[float] = field(default_factory=list)
    curve_sums: list[int] = field(default_factory=list)
    curve_counts: list[int] = field(default_factory=list)
    external: bool = False
    """Whether the bot is an external program (then its failures are counted)."""
    failures: int = 0
    """The external program's failures (bad answers, timeouts, crashes)."""
    fallback_decisions: int = 0
    """The external program's decisions that its fallback bot made."""

    @property
    def win_rate(self) -> float:
        """Wins per seat-game."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def mean_total(self) -> float:
        """Mean final total."""
        return self.total_sum / self.games if self.games else 0.0

    @property
    def assaf_rate(self) -> float:
        """Assafed calls per call."""
        return self.assafed / self.calls if self.calls else 0.0

    @property
    def round_win_rate(self) -> float:
        """Rounds won per round played."""
        return self.rounds_won / self.rounds if self.rounds else 0.0

    @property
    def score_curve(self) -> list[float]:
        """Mean total after each round (index 0: after round 1), over the games that reached it."""
        return [s / c for s, c in zip(self.curve_sums, self.curve_counts, strict=True)]

    def timing(self) -> dict[str, float]:
        """Decision times in ms: mean, p50, p95, p99."""
        values = sorted(self.decision_ms)
        mean = sum(values) / len(values) if values else 0.0
        return {
            "mean": round(mean, 4),
            "p50": round(percentile(values, 50), 4),
            "p95": round(percentile(values, 95), 4),
            "p99": round(percentile(values, 99), 4),
        }

    def add(self, record: SeatRecord, capped: bool) -> None:
        """Add one seat-game."""
        self.games += 1
        self.wins += record.win
        self.total_sum += record.total
        self.rounds += record.rounds
        self.rounds_won += record.rounds_won
        self.calls += record.calls
        self.assafed += record.assafed
        self.assafs_made += record.assafs_made
        self.landings += record.landings
        self.capped += capped
        self.decision_ms.extend(record.decision_ms)
        if record.external:
            self.external = True
            self.failures += record.failures
            self.fallback_decisions += record.fallback_decisions
        for i, total in enumerate(record.totals_by_round):
            if i == len(self.curve_sums):
                self.curve_sums.append(0)
                self.curve_counts.append(0)
            self.curve_sums[i] += total
            self.curve_counts[i] += 1

    def to_dict(self, timing: bool = True) -> dict[str, Any]:
        """JSON-ready figures; decision times only with *timing* (they are not reproducible)."""
        lo, hi = self.ci
        out: dict[str, Any] = {
            "bot": self.bot,
            "seats": self.seats,
            "games": self.games,
            "wins": round(self.wins, 4),
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "elo": round(self.elo, 1),
            "mean_total": round(self.mean_total, 2),
            "rounds": self.rounds,
            "rounds_won": self.rounds_won,
            "round_win_rate": round(self.round_win_rate, 4),
            "calls": self.calls,
            "assafed": self.assafed,
            "assaf_rate": round(self.assaf_rate, 4),
            "assafs_made": self.assafs_made,
            "landings": self.landings,
            "capped": self.capped,
            "decisions": len(self.decision_ms),
            "score_curve": [round(v, 2) for v in self.score_curve],
            "score_curve_games": list(self.curve_counts),
        }
        if self.external:  # (built-in bots' figures stay as they were)
            out["failures"] = self.failures
            out["fallback_decisions"] = self.fallback_decisions
        if timing:
            out["decision_ms"] = self.timing()
        return out


@dataclass
class Report:
    """The figures of one arena match: per bot (in line-up order) and for the match."""

    rules: str
    players: int
    lineup: list[str]
    seed: int
    games_requested: int
    deals: int
    turn_cap: int
    untimed: bool
    bots: list[BotStats]
    games: int = 0
    rounds: int = 0
    turns: int = 0
    capped: int = 0
    workers: int = 1
    seconds: float = 0.0

    def bot(self, name: str) -> BotStats:
        """The figures of the bot with this spec; ``KeyError`` if it did not play."""
        for stats in self.bots:
            if stats.bot == name:
                return stats
        raise KeyError(name)

    def to_dict(self, timing: bool = True) -> dict[str, Any]:
        """JSON-ready report; without *timing* it is the same for the same inputs, always."""
        out: dict[str, Any] = {
            "rules": self.rules,
            "players": self.players,
            "lineup": list(self.lineup),
            "seed": self.seed,
            "games_requested": self.games_requested,
            "deals": self.deals,
            "games": self.games,
            "rounds": self.rounds,
            "turns": self.turns,
            "capped": self.capped,
            "turn_cap": self.turn_cap,
            "untimed": self.untimed,
            "bots": [b.to_dict(timing) for b in self.bots],
        }
        if timing:
            out["workers"] = self.workers
            out["seconds"] = round(self.seconds, 3)
        return out

    def table(self) -> str:
        """The report as a text table."""
        head = (
            f"{self.games} games of {self.rules}, {self.players} players: {self.deals} deals x "
            f"{self.players} seat rotations"
        )
        if self.games != self.games_requested:
            head += f" ({self.games_requested} requested, rounded up to whole rotation sets)"
        lines = [head, f"line-up: {', '.join(self.lineup)}; seed {self.seed}", ""]
        cols = (
            f"{'bot':<16} {'games':>6} {'wins':>8} {'win%':>6} {'95% CI':>13} {'Elo':>6} "
            f"{'mean tot':>8} {'rnd won%':>8} {'calls':>6} {'assaf%':>6} {'assafs':>6} "
            f"{'land':>5} {'ms mean':>8} {'p50':>7} {'p95':>7} {'capped':>6}"
        )
        lines += [cols, "-" * len(cols)]
        for b in self.bots:
            lo, hi = b.ci
            t = b.timing()
            lines.append(
                f"{b.bot:<16} {b.games:>6} {b.wins:>8.1f} {b.win_rate:>6.1%} "
                f"{f'{lo:.1%}-{hi:.1%}':>13} {b.elo:>6.0f} {b.mean_total:>8.1f} "
                f"{b.round_win_rate:>8.1%} {b.calls:>6} {b.assaf_rate:>6.1%} {b.assafs_made:>6} "
                f"{b.landings:>5} {t['mean']:>8.2f} {t['p50']:>7.2f} {t['p95']:>7.2f} {b.capped:>6}"
            )
        external = [b for b in self.bots if b.external]
        if external:
            lines += ["", "external bots (their failed decisions are made by a fallback bot):"]
            for b in external:
                decisions = len(b.decision_ms)
                share = b.fallback_decisions / decisions if decisions else 0.0
                lines.append(
                    f"  {b.bot}: {b.failures} failures; the fallback made {b.fallback_decisions} "
                    f"of {decisions} decisions ({share:.1%})"
                )
        lines += [
            "",
            f"rounds {self.rounds}, turns {self.turns}, capped games {self.capped}; "
            f"{self.seconds:.1f} s with {self.workers} worker(s)",
        ]
        return "\n".join(lines)

    def __str__(self) -> str:
        """The text table."""
        return self.table()
