"""Running arena matches: seat-rotated line-ups on duplicate deals, in worker processes.

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
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, InvalidStateError, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from types import FrameType

from ..bots import Bot, ExpertBot, make_bot
from ..game import Game
from ..rules import Rules
from ..table import DEFAULT_TURN_CAP, player_rngs
from .measure import GameRecord, play_measured
from .report import BotStats, Report
from .stats import elo_ratings

__all__ = ["make_arena_bot", "run_arena"]


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
        slot_rngs = player_rngs(task.seed, n)
        rngs = [slot_rngs[by_seat[seat]] for seat in range(n)]
        game = Game(task.rules, players=n, seed=task.seed, dealer=0)
        try:
            record = play_measured(game, bots, rngs, task.turn_cap)
        finally:
            for bot in bots:  # an external program ends with its game, not when collected
                close = getattr(bot, "close", None)
                if close is not None:
                    close()
        out.append(replace(record, deal=task.deal, rotation=rotation, slot_seats=slot_seats))
    return out


def _tasks(
    rules: Rules, lineup: tuple[str, ...], seed: int, deals: int, turn_cap: int, untimed: bool
) -> list[_DealTask]:
    return [_DealTask(rules, lineup, seed + d, d, turn_cap, untimed) for d in range(deals)]


def _results(tasks: list[_DealTask], workers: int) -> Iterator[list[GameRecord]]:
    """Each deal's games, in deal order whatever the number of workers.

    With several workers the deals go to a process pool a few at a time (never all
    at once: the pool's queues stay small). A Ctrl-C (SIGINT) in the main thread is
    only noted while the pool runs, and acted on here, between two waits: raised
    from inside the pool's code it could leave one of its locks held and hang the
    shutdown. The workers are then ended at once (a long run would otherwise play
    every deal already handed out first) and ``KeyboardInterrupt`` is raised.
    """
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield _play_deal(task)
        return
    n = min(workers, len(tasks))
    todo = iter(tasks)
    window: deque[Future[list[GameRecord]]] = deque()
    with _interrupt_noted() as interrupted:
        before = set(multiprocessing.active_children())
        pool = ProcessPoolExecutor(max_workers=n)
        stopped = True
        try:
            for task in todo:
                window.append(pool.submit(_play_deal, task))
                if len(window) >= 2 * n:
                    break
            while window:
                wait([window[0]], timeout=0.1, return_when=FIRST_COMPLETED)
                if interrupted.is_set():
                    raise KeyboardInterrupt
                if window[0].done():
                    records = window.popleft().result()
                    task_left = next(todo, None)
                    if task_left is not None:
                        window.append(pool.submit(_play_deal, task_left))
                    yield records
            stopped = False
        finally:
            if stopped:  # interrupted, a failing game or an abandoned iteration: end the workers now
                for worker in set(multiprocessing.active_children()) - before:
                    worker.terminate()
            pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _interrupt_noted() -> Iterator[threading.Event]:
    """SIGINT sets the yielded event instead of raising (main thread only; restored after).

    Worker processes forked meanwhile inherit the handler, so a terminal's Ctrl-C,
    which reaches the whole process group, leaves them to the parent, which ends
    them. Python 3.11's pool, its workers ended so, may fail to mark a deal it had
    already cancelled (``InvalidStateError`` in its manager thread): that noise is not
    printed.
    """
    noted = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return

    def note(signum: int, frame: FrameType | None) -> None:
        noted.set()

    previous_hook = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if not (noted.is_set() and isinstance(args.exc_value, InvalidStateError)):
            previous_hook(args)

    previous = signal.signal(signal.SIGINT, note)
    threading.excepthook = hook
    try:
        yield noted
    finally:
        signal.signal(signal.SIGINT, previous)
        threading.excepthook = previous_hook


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
    ray: str | None = None,
) -> Report:
    """Play a seat-rotated match and return its :class:`Report`.

    *lineup* lists bot specs (``"expert"``, ``"expert:strong"``, ``"heuristic"``);
    with fewer specs than *players* the last one fills the remaining seats
    (``["expert", "heuristic"]`` with 4 players: the expert against three heuristic
    bots). *games* is rounded up to a whole number of deals, each played in every
    rotation; deal ``d`` uses the game seed ``seed + d``. *progress* is called with
    the number of games done. ``ValueError`` for a bad argument.

    *ray* runs the deals on a Ray cluster instead of *workers* local processes (its
    address: ``""`` a private local one, ``"auto"``, ``"ray://HOST:PORT"``;
    :mod:`yaniv.arena.on_ray`), with the same games, game for game.
    """
    rules = Rules.from_spec(rules)
    specs = [s.strip() for s in lineup if s.strip()]
    if not specs:
        raise ValueError("name at least one bot")
    n = players if players is not None else max(len(specs), rules.min_players)
    problem = rules.players_problem(n)
    if problem:
        raise ValueError(problem)
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
    tasks = _tasks(rules, seats, seed, deals, turn_cap, untimed)
    if ray is not None:
        from .on_ray import ray_results

        results = ray_results(_play_deal, tasks, ray)
    else:
        results = _results(tasks, workers)
    for records in results:
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
