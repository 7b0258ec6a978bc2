"""The arena: seat-rotated matches between bots on duplicate deals, and their statistics.

A match plays a *line-up* of bots (one per seat) on a series of deal seeds. For every
deal seed, every rotation of the line-up around the seats plays the same seed: slot
``k`` of the line-up sits at seat ``(k + r) % players`` in rotation ``r``. So every bot
meets the same deals from every seat, which removes most of the luck of the cards
from the comparison ("duplicate" play, as in duplicate bridge). A match of ``games``
games is rounded up to whole rotation sets: ``deals = ceil(games / players)``.

Games run in worker processes (``workers``); results are merged in (deal, rotation)
order, so a report does not depend on the number of workers. Bots are built afresh
for each game from their *spec* (``"heuristic"``, ``"expert:strong"``), and each
line-up slot gets the same RNG seed in every rotation of a deal. Two things are not
reproducible: decision times, and the choices of a bot that stops thinking at a time
limit (the expert's levels); ``untimed=True`` lifts the expert's time limits (it then
always runs its full number of determinizations) to make its results reproducible.

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
* **decision_ms**: time of each decision (one ``decide`` call) in milliseconds:
  mean, p50, p95, p99.
* **capped**: the bot's games stopped because a round reached the turn cap.
* **elo**: a Bradley–Terry rating on the Elo scale (400 points = 10:1 odds), fitted
  to every pair of seats with different bots within every game, the better final rank
  winning the pair (a draw for an equal rank), anchored at a mean of 1500. The final
  rank orders winners first, then seats eliminated later before seats eliminated
  earlier, then lower totals.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from .bots import Bot, ExpertBot, make_bot
from .game import Game
from .match import DEFAULT_TURN_CAP, bot_rngs, decide, drive
from .rules import Rules

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

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


# ----------------------------------------------------------------- statistics


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


# ----------------------------------------------------------------- one measured game


def make_arena_bot(spec: str, *, untimed: bool = False) -> Bot:
    """A bot from a spec ``NAME`` or ``NAME:LEVEL`` (``expert:strong``); ``ValueError`` if bad.

    With *untimed* an expert (or oracle) searches without its time limit, so its
    choices depend only on its seed.
    """
    bot = make_bot(spec)
    if untimed and isinstance(bot, ExpertBot):
        bot.level = replace(bot.level, max_seconds=math.inf)
    return bot


@dataclass(frozen=True)
class SeatRecord:
    """What one seat did in one game."""

    win: float
    """1 for a sole winner, 1/k for a k-way shared win, else 0."""
    total: int
    """Final total."""
    rank_key: tuple[int, int, int]
    """Sorts the seats best first: (not a winner, -rounds survived, total)."""
    rounds: int
    """Rounds the seat took part in."""
    rounds_won: int
    calls: int
    assafed: int
    assafs_made: int
    landings: int
    totals_by_round: tuple[int, ...]
    """The seat's total after each round of the game."""
    decision_ms: tuple[float, ...]
    """The time of each of the seat's decisions, in milliseconds."""


@dataclass(frozen=True)
class GameRecord:
    """One measured game: per-seat records and the game's own figures."""

    seed: int | None
    rounds: int
    turns: int
    capped: bool
    seats: tuple[SeatRecord, ...]
    """Indexed by seat."""
    deal: int = 0
    rotation: int = 0
    slot_seats: tuple[int, ...] = ()
    """The seat of each line-up slot (arena games only)."""


def _round_winners(scores: Sequence[int], active: Sequence[int]) -> list[int]:
    """The seats with the lowest round score, if some other seat scored more."""
    if not active:
        return []
    low = min(scores[p] for p in active)
    if max(scores[p] for p in active) == low:
        return []
    return [p for p in active if scores[p] == low]


def play_measured(
    game: Game,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random] | None = None,
    turn_cap: int = DEFAULT_TURN_CAP,
    timed: Sequence[bool] | None = None,
) -> GameRecord:
    """Play *game* to its end like :func:`yaniv.match.play_game`, measuring every seat.

    Every ``decide`` call of a seat in *timed* (default: every seat) is timed.
    """
    n = game.n
    rngs = list(rngs) if rngs is not None else bot_rngs(game.seed, n)
    timing = list(timed) if timed is not None else [True] * n
    times: list[list[float]] = [[] for _ in range(n)]
    clock = time.perf_counter

    def ask(seat: int) -> Any:
        if not timing[seat]:
            return decide(bots[seat], game.round, seat, rngs[seat])
        t0 = clock()
        action = decide(bots[seat], game.round, seat, rngs[seat])
        times[seat].append((clock() - t0) * 1000.0)
        return action

    rounds_in = [0] * n
    won = [0] * n
    calls = [0] * n
    assafed = [0] * n
    assafs = [0] * n
    landings = [0] * n
    out_round = [0] * n  # round in which the seat was eliminated (0: never)
    curve: list[list[int]] = [[] for _ in range(n)]
    turns = 0
    capped = False
    for state, result in drive(game, ask, turn_cap):
        if result is not None:
            active = state.active
            turns += state.turns
            number = len(game.results)
            for p in active:
                rounds_in[p] += 1
            for p in _round_winners(result.round_scores, active):
                won[p] += 1
            if result.kind in ("yaniv", "asef"):
                calls[result.caller] += 1
                assafed[result.caller] += result.assaf
            for p in result.assafers:
                assafs[p] += 1
            for p in result.landed:
                landings[p] += 1
            for p in result.eliminated:
                if not out_round[p]:
                    out_round[p] = number
            for p in range(n):
                curve[p].append(result.totals[p])
        elif state.turns >= turn_cap:
            capped = True
            turns += state.turns
    totals = list(game.totals)
    if game.over:
        winners = list(game.winners)
    else:  # stopped by the turn cap: the lowest total still in the game wins
        alive = [p for p in range(n) if p not in game.out] or list(range(n))
        low = min(totals[p] for p in alive)
        winners = [p for p in alive if totals[p] == low]
    rounds = len(game.results)
    seats = tuple(
        SeatRecord(
            win=1.0 / len(winners) if p in winners else 0.0,
            total=totals[p],
            rank_key=(0 if p in winners else 1, -(out_round[p] or rounds + 1), totals[p]),
            rounds=rounds_in[p],
            rounds_won=won[p],
            calls=calls[p],
            assafed=assafed[p],
            assafs_made=assafs[p],
            landings=landings[p],
            totals_by_round=tuple(curve[p]),
            decision_ms=tuple(times[p]),
        )
        for p in range(n)
    )
    return GameRecord(seed=game.seed, rounds=rounds, turns=turns, capped=capped, seats=seats)


# ----------------------------------------------------------------- the arena


@dataclass(frozen=True)
class _DealTask:
    rules: Rules
    lineup: tuple[str, ...]
    seed: int
    deal: int
    turn_cap: int
    untimed: bool


def _play_deal(task: _DealTask) -> list[GameRecord]:
    """Every rotation of the line-up on one deal seed (runs in a worker process)."""
    n = len(task.lineup)
    out = []
    for rotation in range(n):
        slot_seats = tuple((slot + rotation) % n for slot in range(n))
        by_seat = [0] * n
        for slot, seat in enumerate(slot_seats):
            by_seat[seat] = slot
        bots = [make_arena_bot(task.lineup[by_seat[seat]], untimed=task.untimed) for seat in range(n)]
        slot_rngs = bot_rngs(task.seed, n)
        rngs = [slot_rngs[by_seat[seat]] for seat in range(n)]
        game = Game(task.rules, players=n, seed=task.seed, dealer=0)
        record = play_measured(game, bots, rngs, task.turn_cap)
        out.append(replace(record, deal=task.deal, rotation=rotation, slot_seats=slot_seats))
    return out


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
        lines += [
            "",
            f"rounds {self.rounds}, turns {self.turns}, capped games {self.capped}; "
            f"{self.seconds:.1f} s with {self.workers} worker(s)",
        ]
        return "\n".join(lines)

    def __str__(self) -> str:
        """The text table."""
        return self.table()


def _tasks(
    rules: Rules, lineup: tuple[str, ...], seed: int, deals: int, turn_cap: int, untimed: bool
) -> list[_DealTask]:
    return [_DealTask(rules, lineup, seed + d, d, turn_cap, untimed) for d in range(deals)]


def _results(tasks: list[_DealTask], workers: int) -> Iterator[list[GameRecord]]:
    """Each deal's games, in deal order whatever the number of workers."""
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield _play_deal(task)
        return
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
        yield from pool.map(_play_deal, tasks)


def run_arena(
    rules: Rules | str,
    lineup: Sequence[str],
    games: int,
    seed: int = 1,
    *,
    players: int | None = None,
    workers: int = 1,
    turn_cap: int = DEFAULT_TURN_CAP,
    untimed: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Play a seat-rotated match and return its :class:`Report`.

    *lineup* lists bot specs (``"expert"``, ``"expert:strong"``, ``"heuristic"``);
    with fewer specs than *players* the last one fills the remaining seats
    (``["expert", "heuristic"]`` with 4 players: the expert against three heuristic
    bots). *games* is rounded up to a whole number of deals, each played in every
    rotation; deal ``d`` uses the game seed ``seed + d``. *progress* is called with
    the number of games done. ``ValueError`` for a bad argument.
    """
    rules = Rules.from_spec(rules)
    specs = [s.strip() for s in lineup if s.strip()]
    if not specs:
        raise ValueError("name at least one bot")
    n = players if players is not None else max(len(specs), rules.min_players)
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(f"these rules allow {rules.min_players} to {rules.max_players} players, not {n}")
    if len(specs) > n:
        raise ValueError(f"{len(specs)} bots do not fit in {n} seats")
    if games < 1:
        raise ValueError("play at least one game")
    if workers < 1:
        raise ValueError("use at least one worker")
    if turn_cap < 1:
        raise ValueError("the turn cap must be at least 1")
    specs += [specs[-1]] * (n - len(specs))
    for spec in dict.fromkeys(specs):
        make_arena_bot(spec)  # fail here, not in a worker
    seats = tuple(specs)
    deals = -(-games // n)
    labels = list(dict.fromkeys(seats))
    stats = {label: BotStats(label, seats=seats.count(label)) for label in labels}
    report = Report(
        rules=str(rules),
        players=n,
        lineup=list(seats),
        seed=seed,
        games_requested=games,
        deals=deals,
        turn_cap=turn_cap,
        untimed=untimed,
        bots=[stats[label] for label in labels],
        workers=workers,
    )
    pairs: dict[tuple[str, str], float] = {}
    t0 = time.perf_counter()
    for records in _results(_tasks(rules, seats, seed, deals, turn_cap, untimed), workers):
        for record in records:
            report.games += 1
            report.rounds += record.rounds
            report.turns += record.turns
            report.capped += record.capped
            by_slot = [record.seats[record.slot_seats[k]] for k in range(n)]
            for k, seat_record in enumerate(by_slot):
                stats[seats[k]].add(seat_record, record.capped)
            for a in range(n):
                for b in range(a + 1, n):
                    if seats[a] == seats[b]:
                        continue
                    ka, kb = by_slot[a].rank_key, by_slot[b].rank_key
                    sa = 1.0 if ka < kb else 0.0 if ka > kb else 0.5
                    pairs[seats[a], seats[b]] = pairs.get((seats[a], seats[b]), 0.0) + sa
                    pairs[seats[b], seats[a]] = pairs.get((seats[b], seats[a]), 0.0) + 1.0 - sa
        if progress is not None:
            progress(report.games)
    report.seconds = time.perf_counter() - t0
    for label, rating in elo_ratings(pairs, labels).items():
        stats[label].elo = rating
    return report


# ----------------------------------------------------------------- plots


def plot(report: Report, path: str) -> None:
    """Draw win rates with 95% error bars and mean score curves into a PNG at *path*.

    Needs matplotlib (the ``plots`` extra); ``ImportError`` naming it otherwise.
    """
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("plots need matplotlib: pip install 'yaniv[plots]'") from e

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    names = [b.bot for b in report.bots]
    rates = [b.win_rate for b in report.bots]
    errors = [[b.win_rate - b.ci[0] for b in report.bots], [b.ci[1] - b.win_rate for b in report.bots]]
    left.bar(names, rates, yerr=errors, capsize=6, color="#4c72b0")
    left.axhline(1 / report.players, color="grey", linestyle="--", linewidth=1, label="even share")
    left.set_ylim(0, 1)
    left.set_ylabel("games won per seat-game (95% CI)")
    left.set_title("Win rate")
    left.legend()
    for b in report.bots:
        enough = max(1, b.games // 10)
        curve = [v for v, c in zip(b.score_curve, b.curve_counts, strict=True) if c >= enough]
        right.plot(range(1, len(curve) + 1), curve, marker=".", label=b.bot)
    right.set_xlabel("round")
    right.set_ylabel("mean total after the round")
    right.set_title("Mean score")
    right.legend()
    fig.suptitle(f"{report.rules}, {report.players} players, {report.games} games")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
