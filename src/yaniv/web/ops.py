"""What an operator watches: liveness and readiness, Prometheus metrics, structured logs.

* :class:`Health` answers ``GET /readyz``: ready when the store is open and the database
  answers ``SELECT 1`` within ``WebConfig.ready_timeout``, not while the server shuts down.
  One check at a time, its answer shared for half a second, so that probes (or a flood of
  requests) cost the database at most a couple of queries a second.
* :class:`Metrics` holds one app's metrics in its own ``CollectorRegistry`` (apps made side
  by side, as in the tests, never share or collide). What can be counted at scrape time
  (tables in memory, websockets open) is counted then; the hot path pays one counter
  increment and one histogram observation per action.
* :class:`MeteredStore` is the store that times its commits; :class:`JsonFormatter` and
  :func:`log_config` make the server's log lines JSON objects (``YANIV_WEB_LOG_FORMAT=json``).
"""

from __future__ import annotations

import asyncio
import copy
import datetime as dt
import json
import logging
import time
from collections import Counter as Tally
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric

from .config import LogFormat
from .store import Store

__all__ = [
    "PROBES",
    "STATUSES",
    "Health",
    "JsonFormatter",
    "MeteredStore",
    "Metrics",
    "QuietProbes",
    "log_config",
]

STATUSES = ("lobby", "playing", "over")
"""A table's statuses, each a series of ``yaniv_tables`` (zero when no table has it)."""

PROBES = frozenset({"/healthz", "/readyz", "/metrics"})
"""The paths a load balancer or Prometheus asks every few seconds: not in the access log when answered."""

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class _Live:
    """The gauges counted when Prometheus asks: tables in memory by status, websockets open."""

    def __init__(self, statuses: Callable[[], Iterable[str]], sockets: Callable[[], int]) -> None:
        self.statuses = statuses
        self.sockets = sockets

    def collect(self) -> Iterator[Metric]:
        tally = Tally(self.statuses())
        tables = GaugeMetricFamily(
            "yaniv_tables", "Tables in this process's memory, by status", labels=["status"]
        )
        for status in (*STATUSES, *sorted(set(tally) - set(STATUSES))):
            tables.add_metric([status], tally.get(status, 0))
        yield tables
        yield GaugeMetricFamily(
            "yaniv_websockets",
            "Websocket connections open now (said hello or not, on any table)",
            value=self.sockets(),
        )


class Metrics:
    """One app's metrics, in a registry of its own (:attr:`registry`)."""

    def __init__(self) -> None:
        """The counters and histograms, at zero; :meth:`watch` adds the gauges counted at scrape time."""
        self.registry = CollectorRegistry()
        r = self.registry
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        actions = Counter(
            "yaniv_actions",
            "Game actions applied and stored, by who chose them: person (a websocket's action "
            "message), computer (a computer player's or stand-in's move), clock (a stand-in's "
            "move when a turn clock ran out)",
            ["by"],
            registry=r,
        )
        self.by_person = actions.labels(by="person")
        """People's actions (the bound child: one ``inc`` on the hot path)."""
        self.by_computer = actions.labels(by="computer")
        """Computer players' and stand-ins' moves."""
        self.by_clock = actions.labels(by="clock")
        """Moves a stand-in made because a turn clock ran out."""
        self.action_seconds = Histogram(
            "yaniv_action_seconds",
            "Seconds from a person's action message reaching its table (before waiting for the "
            "table's lock) to its ack and updates being queued for every connection: the checks, "
            "the engine, the store commit and the fan-out; applied actions only (refused, stale "
            "and duplicate ones are not observed), and not the network on either side",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        commits = Counter(
            "yaniv_store_commits",
            "Store transactions (each a group commit of every write queued), by result",
            ["result"],
            registry=r,
        )
        self.commits_ok = commits.labels(result="ok")
        """Transactions committed."""
        self.commits_failed = commits.labels(result="error")
        """Transactions that failed (their writes were refused, so their moves did not count)."""
        self.commit_seconds = Histogram(
            "yaniv_store_commit_seconds",
            "Seconds one store transaction took, from its first statement to its commit returning",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.lease_changes = Counter(
            "yaniv_lease_changes",
            "Times this process took a table's lease over from another process (it had died or "
            "stopped) or lost one to another (several processes: yaniv serve --redis)",
            registry=r,
        )

    def watch(self, statuses: Callable[[], Iterable[str]], sockets: Callable[[], int]) -> None:
        """Count, at each scrape, the tables in memory (*statuses*: one per table) and *sockets* open."""
        self.registry.register(_Live(statuses, sockets))

    def render(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)


class MeteredStore(Store):
    """The store, counting and timing each of its transactions in :class:`Metrics`."""

    def __init__(self, url: str, metrics: Metrics, *, durable: bool = False) -> None:
        """A :class:`~yaniv.web.store.Store` on *url* whose commits *metrics* count."""
        super().__init__(url, durable=durable)
        self.metrics = metrics

    async def _commit(self, jobs: list[Any]) -> None:
        # the writer's one transaction per batch is what is timed: wrapping it here keeps the
        # store's own code free of metrics
        started = time.perf_counter()
        try:
            await super()._commit(jobs)
        except BaseException:
            self.metrics.commits_failed.inc()
            raise
        self.metrics.commit_seconds.observe(time.perf_counter() - started)
        self.metrics.commits_ok.inc()


class Health:
    """The readiness of one server: its store answers, and it is not shutting down."""

    def __init__(self, store: Store, timeout: float) -> None:
        """Readiness of *store*, whose trivial query must answer within *timeout* seconds."""
        self.store = store
        self.timeout = timeout
        self.draining = False
        """Set when the server begins to shut down: from then on it is not ready."""
        self.ttl = 0.5
        """Seconds an answer is shared with the probes that follow (shorter than any probe's period)."""
        self._answer: tuple[float, str | None] | None = None
        self._pending: asyncio.Future[str | None] | None = None

    async def problem(self) -> str | None:
        """Why the server is not ready (``None``: it is); never the database's URL or its error text."""
        if self.draining:
            return "the server is shutting down"
        now = time.monotonic()
        if self._answer is not None and now - self._answer[0] < self.ttl:
            return self._answer[1]
        if self._pending is None or self._pending.done():
            self._pending = asyncio.ensure_future(self._check())
        pending = self._pending
        try:
            return await asyncio.shield(pending)
        finally:
            if pending.done() and self._pending is pending:
                self._pending = None

    async def _check(self) -> str | None:
        try:
            await asyncio.wait_for(self.store.ping(), self.timeout)
            found = None
        except TimeoutError:
            found = f"the database did not answer within {self.timeout:g} s"
        except RuntimeError as e:  # the store's own words: not open, writer stopped
            found = str(e)[:200]
        except Exception as e:  # the driver's text may name the host and user: only its kind
            found = f"the database query failed ({type(e).__name__})"
        self._answer = (time.monotonic(), found)
        return found


class JsonFormatter(logging.Formatter):
    """A log record as one JSON object a line: time (UTC), level, logger, event, table if any."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line (ASCII only: any text survives any terminal or collector)."""
        out: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        table = getattr(record, "table", None)
        if table is not None:
            out["table"] = str(table)[:40]
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            client, method, path, _version, status = record.args
            out.update(client=client, method=method, path=path, status=status)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=True, default=str)


class QuietProbes(logging.Filter):
    """Leaves out of the access log the probes answered well (:data:`PROBES`, status below 400)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether *record* is kept."""
        args = record.args
        if isinstance(args, tuple) and len(args) == 5:
            path, status = args[2], args[4]
            if isinstance(status, int) and status < 400 and str(path).split("?")[0] in PROBES:
                return False
        return True


def log_config(log_format: LogFormat, level: str) -> dict[str, Any]:
    """The ``log_config`` of uvicorn (``logging.config.dictConfig``) for *log_format* at *level*.

    ``text`` is uvicorn's own, ``json`` one :class:`JsonFormatter` object a line (the same
    streams: the access log on stdout, the rest on stderr);
    either way the server's own logger (``yaniv``) writes at *level* through the same
    handler, and the access log leaves out the probes answered well (:class:`QuietProbes`).
    """
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    if log_format == "json":
        config["formatters"] = {"json": {"()": f"{__name__}.JsonFormatter"}}
        for handler in config["handlers"].values():
            handler["formatter"] = "json"
    config.setdefault("filters", {})["probes"] = {"()": f"{__name__}.QuietProbes"}
    config["handlers"]["access"].setdefault("filters", []).append("probes")
    config["loggers"]["yaniv"] = {"handlers": ["default"], "level": level.upper(), "propagate": False}
    return config
