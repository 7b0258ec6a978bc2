"""The web server's store: tables and their record lines in SQL (SQLAlchemy 2, async).

Three tables:

``tables``
    one row per table: its id, when it was made and last changed (``updated``, for the
    clean-up of old tables: :meth:`Store.prune`), and ``meta`` (JSON: the settings,
    the seats with their names, bots and *hashed* seat tokens, the status).
``lines``
    the table's game record, one row per line (DESIGN.md §4 records: the header, then
    one event per line), numbered from 0, with the seat and the client's action id on
    the first line an accepted action produced (so a resent action stays idempotent
    across a restart).
``leases``
    with several server processes on one database, which process plays each table now
    and until when (:meth:`Store.acquire`; see "leases" below).

Writes go through one writer task that commits everything queued in one transaction
(group commit): :meth:`Store.append` returns once the lines are durable, so the
server persists every accepted action before it announces it. The default database is
a SQLite file (WAL journal); any SQLAlchemy URL works (:func:`async_url` maps the
plain ones, ``sqlite:///file.db``, ``postgresql://…``, to their async drivers;
``postgresql+psycopg://…`` for several processes, DESIGN.md §8).

Durability: SQLite runs with ``synchronous=NORMAL`` by default, which in WAL mode keeps
every commit through a crash or a kill -9 of the server but may lose the last commits
on a power cut or a crash of the machine; ``durable=True`` sets ``synchronous=FULL``,
which keeps them through that too (each commit waits for the disk).

>>> async_url("sqlite:///games.db")
'sqlite+aiosqlite:///games.db'
>>> async_url("postgresql://u@db/yaniv")
'postgresql+psycopg://u@db/yaniv'
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Float,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import StaticPool

__all__ = [
    "SCHEMA_VERSION",
    "Lease",
    "LeaseRenewer",
    "LineRow",
    "Store",
    "StoredTable",
    "async_url",
    "copy_store",
    "file_url",
    "in_memory",
    "schema_version",
]

log = logging.getLogger("yaniv.web")

_ASYNC_DRIVERS = {"sqlite": "aiosqlite", "postgresql": "psycopg", "mysql": "aiomysql", "mariadb": "aiomysql"}
_SYNC_DRIVERS = {"pysqlite", "psycopg2", "pg8000", "pymysql", "mysqldb", "mysqlconnector", ""}


def file_url(db: str) -> str:
    """*db* as a URL: a file name becomes its SQLite file's absolute URL (``~`` expanded), a URL stays.

    The one reading of a file name for ``yaniv serve --db``, ``yaniv db`` and :func:`create_app`.
    """
    return db if "://" in db else f"sqlite+aiosqlite:///{Path(db).expanduser().resolve()}"


def async_url(url: str) -> str:
    """*url* with an async driver: plain SQLAlchemy URLs (``sqlite:///f.db``) get the async one.

    A URL that already names an async driver, or a database this does not know, is
    returned as it is; ``ValueError`` if *url* is not a database URL at all.
    """
    if "://" not in url:
        raise ValueError(f"not a database URL: {url[:80]!r} (say sqlite:///FILE or a file name)")
    try:
        parsed = make_url(url)
    except ArgumentError as e:
        raise ValueError(f"not a database URL: {e}") from None
    backend = "postgresql" if parsed.get_backend_name() == "postgres" else parsed.get_backend_name()
    driver = parsed.drivername.partition("+")[2]
    if backend in _ASYNC_DRIVERS and driver in _SYNC_DRIVERS:
        scheme = f"{backend}+{_ASYNC_DRIVERS[backend]}"
        return scheme + url[url.index("://") :]
    return url


class _Base(DeclarativeBase):
    pass


class _TableRow(_Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    status: Mapped[str] = mapped_column(String(16))
    meta: Mapped[str] = mapped_column(Text)


class _LineRow(_Base):
    __tablename__ = "lines"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    line: Mapped[str] = mapped_column(Text)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action_id: Mapped[str | None] = mapped_column(String(80), nullable=True)


class _LeaseRow(_Base):
    """Which server process plays a table now (several processes on one database, DESIGN.md §8)."""

    __tablename__ = "leases"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(120))
    expires: Mapped[float] = mapped_column(Float, index=True)
    epoch: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True)
class Lease:
    """A table's lease: its owner process, until when (seconds since the epoch), how often taken."""

    table_id: str
    owner: str
    expires: float
    epoch: int


@dataclass(frozen=True)
class LineRow:
    """One stored record line with the seat and action id that produced it (if any)."""

    seq: int
    line: str
    seat: int | None
    action_id: str | None


@dataclass(frozen=True)
class StoredTable:
    """A table as stored: its meta dict and its record lines in order."""

    id: str
    created: float
    meta: dict[str, Any]
    lines: list[LineRow]


@dataclass
class _Job:
    kind: str  # "lines" | "meta" | "create"
    table_id: str
    payload: Any
    done: asyncio.Future[None]


class Store:
    """Async persistence of tables; open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, url: str, *, durable: bool = False) -> None:
        """A store on the SQLAlchemy URL *url* (``sqlite:///path.db``: see :func:`async_url`).

        *durable*: SQLite commits wait for the disk (``synchronous=FULL``; see the module docstring).
        """
        self.url = async_url(url)
        self.durable = durable
        self._touched: dict[str, float] = {}
        """When each table's ``updated`` was last set (table id -> seconds since the epoch)."""
        self.engine: AsyncEngine | None = None
        self._queue: asyncio.Queue[_Job] | None = None
        self._writer: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Connect, create the schema if missing and start the writer."""
        if self.url.startswith("sqlite") and not in_memory(self.url):
            # looked at first without the pragmas: a file this server cannot use keeps its journal mode
            probe = create_async_engine(self.url)
            try:
                async with probe.connect() as conn:
                    await conn.run_sync(_usable_schema)
            finally:
                await probe.dispose()
        self.engine = _make_engine(self.url, self.durable)
        try:
            async with self.engine.begin() as conn:
                await conn.run_sync(_migrate)
        except BaseException:  # let the file go: no connection, nor its -wal and -shm, is left behind
            await self.engine.dispose()
            self.engine = None
            raise
        self._queue = asyncio.Queue()
        self._writer = asyncio.create_task(self._write_loop())

    async def close(self) -> None:
        """Finish queued writes, stop the writer and dispose of the engine."""
        if self._queue is not None and self._writer is not None:
            await self._queue.join()
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        if self.engine is not None:
            await self.engine.dispose()
        self.engine = None

    # ----------------------------------------------------------------- writes

    async def _submit(self, kind: str, table_id: str, payload: Any) -> None:
        if self._queue is None:
            raise RuntimeError("the store is not open")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self._queue.put(_Job(kind, table_id, payload, done))
        await done

    async def create_table(self, table_id: str, status: str, meta: dict[str, Any]) -> None:
        """Store a new table."""
        await self._submit("create", table_id, (status, json.dumps(meta)))

    async def save_meta(self, table_id: str, status: str, meta: dict[str, Any]) -> None:
        """Replace a table's meta (seats, status)."""
        await self._submit("meta", table_id, (status, json.dumps(meta)))

    async def append(self, table_id: str, rows: list[LineRow]) -> None:
        """Store record lines; returns once they are committed."""
        if rows:
            await self._submit("lines", table_id, rows)

    async def _write_loop(self) -> None:
        assert self._queue is not None and self.engine is not None
        queue = self._queue
        while True:
            jobs = [await queue.get()]
            while not queue.empty() and len(jobs) < 500:
                jobs.append(queue.get_nowait())
            try:
                await self._commit(jobs)
            except Exception as err:  # a failed batch fails each of its jobs alone
                if len(jobs) == 1:
                    _settle(jobs[0].done, err)
                else:
                    for job in jobs:
                        try:
                            await self._commit([job])
                        except Exception as one:
                            _settle(job.done, one)
                        else:
                            _settle(job.done, None)
            else:
                for job in jobs:
                    _settle(job.done, None)
            finally:
                for _ in jobs:
                    queue.task_done()

    async def _commit(self, jobs: list[_Job]) -> None:
        """One transaction for a batch: tables made and changed in order, then every line at once."""
        assert self.engine is not None
        lines = [
            {"table_id": job.table_id, "seq": r.seq, "line": r.line, "seat": r.seat, "action_id": r.action_id}
            for job in jobs
            if job.kind == "lines"
            for r in job.payload
        ]
        now = time.time()
        # a table's last change is for the clean-up, counted in hours: kept to the minute, so
        # that a move costs one statement (its lines), not two
        stale = {
            j.table_id for j in jobs if j.kind == "lines" and now - self._touched.get(j.table_id, 0) > 60
        }
        async with self.engine.begin() as conn:
            for job in jobs:
                if job.kind == "create":
                    status, meta = job.payload
                    await conn.execute(
                        insert(_TableRow).values(
                            id=job.table_id, created=now, updated=now, status=status, meta=meta
                        )
                    )
                elif job.kind == "meta":
                    status, meta = job.payload
                    await conn.execute(
                        update(_TableRow)
                        .where(_TableRow.id == job.table_id)
                        .values(status=status, meta=meta, updated=now)
                    )
            if lines:
                await conn.execute(insert(_LineRow), lines)
            if stale:
                await conn.execute(
                    update(_TableRow).where(_TableRow.id.in_(sorted(stale))).values(updated=now)
                )
        for table_id in stale | {j.table_id for j in jobs if j.kind != "lines"}:
            self._touched[table_id] = now
        if len(self._touched) > 50_000:
            self._touched = {k: v for k, v in self._touched.items() if now - v <= 60}

    async def ping(self) -> None:
        """Run a trivial query (``SELECT 1``), the server's readiness check.

        ``RuntimeError`` if the store is not open or its writer has stopped; the driver's
        error if the database does not answer.
        """
        if self.engine is None or self._writer is None:
            raise RuntimeError("the store is not open")
        if self._writer.done():
            raise RuntimeError("the store's writer has stopped")
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    # ----------------------------------------------------------------- reads

    async def load(self, table_id: str) -> StoredTable | None:
        """A stored table with its lines, or ``None`` if there is none by that id."""
        return (await self.load_many([table_id])).get(table_id)

    async def load_many(self, table_ids: list[str]) -> dict[str, StoredTable]:
        """The stored tables among *table_ids* with their lines, by id (in two queries).

        A process taking over the tables of one that died reads them so, not one by one.
        """
        if self.engine is None:
            raise RuntimeError("the store is not open")
        if not table_ids:
            return {}
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(_TableRow.id, _TableRow.created, _TableRow.meta).where(_TableRow.id.in_(table_ids))
                )
            ).all()
            if not rows:
                return {}
            lines = (
                await conn.execute(
                    select(_LineRow.table_id, _LineRow.seq, _LineRow.line, _LineRow.seat, _LineRow.action_id)
                    .where(_LineRow.table_id.in_([row.id for row in rows]))
                    .order_by(_LineRow.table_id, _LineRow.seq)
                )
            ).all()
        found = {
            row.id: StoredTable(id=row.id, created=row.created, meta=json.loads(row.meta), lines=[])
            for row in rows
        }
        for r in lines:
            found[r.table_id].lines.append(LineRow(r.seq, r.line, r.seat, r.action_id))
        return found

    async def table_ids(self, status: str | None = None) -> list[str]:
        """Ids of the stored tables (optionally only those with *status*), oldest first."""
        if self.engine is None:
            raise RuntimeError("the store is not open")
        query = select(_TableRow.id).order_by(_TableRow.created)
        if status is not None:
            query = query.where(_TableRow.status == status)
        async with self.engine.connect() as conn:
            return [r.id for r in (await conn.execute(query)).all()]

    async def prune(
        self, older: dict[str, float], keep: set[str] | frozenset[str] = frozenset()
    ) -> list[str]:
        """Delete the tables of each status untouched for its number of seconds in *older*.

        *older* maps a status (``lobby``, ``playing``, ``over``) to an age in seconds
        (statuses not in it are kept); tables in *keep* (open now) stay. Returns the ids
        deleted, with their record lines.
        """
        if self.engine is None:
            raise RuntimeError("the store is not open")
        now = time.time()
        gone: list[str] = []
        async with self.engine.begin() as conn:
            for status, age in older.items():
                rows = await conn.execute(
                    select(_TableRow.id)
                    .where(_TableRow.status == status, _TableRow.updated < now - age)
                    .limit(500)
                )
                ids = [r.id for r in rows if r.id not in keep]
                if ids:
                    await conn.execute(delete(_LineRow).where(_LineRow.table_id.in_(ids)))
                    await conn.execute(delete(_LeaseRow).where(_LeaseRow.table_id.in_(ids)))
                    await conn.execute(delete(_TableRow).where(_TableRow.id.in_(ids)))
                    gone.extend(ids)
        return gone

    async def touch(self, table_id: str, when: float) -> None:
        """Set a table's last change to *when* (seconds since the epoch: tests of the clean-up)."""
        if self.engine is None:
            raise RuntimeError("the store is not open")
        async with self.engine.begin() as conn:
            await conn.execute(update(_TableRow).where(_TableRow.id == table_id).values(updated=when))

    # ----------------------------------------------------------------- leases
    #
    # With several server processes on one database, one process at a time plays a table:
    # the owner of its lease. A lease lasts *ttl* seconds and its owner renews all of its
    # leases in one statement several times a lease; a process that dies stops renewing, and
    # another takes the table over once the lease has expired (:meth:`take`, all of a dead
    # process's tables in one statement). Each statement is atomic
    # in the database (an UPDATE with its condition, an INSERT on the primary key), so
    # two processes racing for a table never both win. Times are the processes' clocks
    # (keep the machines on NTP); the record lines' unique (table, seq) stops a former
    # owner that has not noticed yet from writing over the new one's lines.

    async def acquire(self, table_id: str, owner: str, ttl: float) -> tuple[Lease, bool]:
        """Take or renew *table_id*'s lease for *owner* if it is free, expired or his already.

        Returns the lease as it is now (``lease.owner != owner``: another process has it)
        and whether it changed hands just now (taken over after it expired, or new).
        """
        engine = self._engine()
        now = time.time()
        async with engine.begin() as conn:
            mine = await conn.execute(
                update(_LeaseRow)
                .where(_LeaseRow.table_id == table_id, _LeaseRow.owner == owner)
                .values(expires=now + ttl)
                .returning(_LeaseRow.epoch)
            )
            row = mine.first()
            if row is not None:
                return Lease(table_id, owner, now + ttl, int(row.epoch)), False
            taken = await conn.execute(
                update(_LeaseRow)
                .where(_LeaseRow.table_id == table_id, _LeaseRow.expires < now)
                .values(owner=owner, expires=now + ttl, epoch=_LeaseRow.epoch + 1)
                .returning(_LeaseRow.epoch)
            )
            row = taken.first()
            if row is not None:
                return Lease(table_id, owner, now + ttl, int(row.epoch)), True
        try:
            async with engine.begin() as conn:
                await conn.execute(
                    insert(_LeaseRow).values(table_id=table_id, owner=owner, expires=now + ttl, epoch=1)
                )
            return Lease(table_id, owner, now + ttl, 1), True
        except IntegrityError:
            pass  # another process holds it (or took it a moment ago)
        held = await self.lease(table_id)
        if held is None:  # released in between: try once more
            return await self.acquire(table_id, owner, ttl)
        return held, False

    async def lease(self, table_id: str) -> Lease | None:
        """The lease of *table_id*, if any process holds one (expired or not)."""
        engine = self._engine()
        async with engine.connect() as conn:
            row = (
                await conn.execute(
                    select(_LeaseRow.owner, _LeaseRow.expires, _LeaseRow.epoch).where(
                        _LeaseRow.table_id == table_id
                    )
                )
            ).first()
        return None if row is None else Lease(table_id, row.owner, row.expires, row.epoch)

    async def renew(self, owner: str, ttl: float) -> set[str]:
        """Renew every lease *owner* holds; returns the ids of the tables still his.

        A server process renews from a thread of its own (:class:`LeaseRenewer`).
        """
        return await _renew(self._engine(), owner, ttl)

    async def release(self, owner: str, table_id: str | None = None) -> None:
        """Give up *owner*'s lease of *table_id* (every lease he holds if ``None``)."""
        engine = self._engine()
        query = delete(_LeaseRow).where(_LeaseRow.owner == owner)
        if table_id is not None:
            query = query.where(_LeaseRow.table_id == table_id)
        async with engine.begin() as conn:
            await conn.execute(query)

    async def expire_leases(self, owner: str) -> None:
        """Mark every lease of *owner* expired (it stops): the other processes take its tables over."""
        engine = self._engine()
        async with engine.begin() as conn:
            await conn.execute(update(_LeaseRow).where(_LeaseRow.owner == owner).values(expires=0.0))

    async def orphans(self, limit: int = 50) -> list[str]:
        """Tables whose lease has expired: their process died without giving them up."""
        engine = self._engine()
        async with engine.connect() as conn:
            rows = await conn.execute(
                select(_LeaseRow.table_id)
                .where(_LeaseRow.expires < time.time())
                .order_by(_LeaseRow.expires)
                .limit(limit)
            )
            return [r.table_id for r in rows]

    async def take(self, table_ids: list[str], owner: str, ttl: float) -> set[str]:
        """Take for *owner* the leases among *table_ids* that have expired; returns the ids taken.

        One statement for them all (the tables of a process that died, at once), atomic as
        :meth:`acquire` is: a lease renewed or taken by another process in between is not.
        """
        engine = self._engine()
        now = time.time()
        async with engine.begin() as conn:
            rows = await conn.execute(
                update(_LeaseRow)
                .where(_LeaseRow.table_id.in_(table_ids), _LeaseRow.expires < now)
                .values(owner=owner, expires=now + ttl, epoch=_LeaseRow.epoch + 1)
                .returning(_LeaseRow.table_id)
            )
            return {r.table_id for r in rows}

    async def leases(self, table_ids: list[str]) -> dict[str, Lease]:
        """The leases of *table_ids* that some process holds (expired or not), by table id."""
        engine = self._engine()
        async with engine.connect() as conn:
            rows = await conn.execute(
                select(_LeaseRow.table_id, _LeaseRow.owner, _LeaseRow.expires, _LeaseRow.epoch).where(
                    _LeaseRow.table_id.in_(table_ids)
                )
            )
            return {r.table_id: Lease(r.table_id, r.owner, r.expires, r.epoch) for r in rows}

    async def next_expiry(self, owner: str) -> float | None:
        """When the first lease of a process other than *owner* expires, of those not yet expired.

        A live process keeps pushing its leases' expiry away; one that has died lets it
        come, and the others wake then to take its tables over (not a watch round later).
        """
        engine = self._engine()
        async with engine.connect() as conn:
            first = await conn.scalar(
                select(func.min(_LeaseRow.expires)).where(
                    _LeaseRow.owner != owner, _LeaseRow.expires >= time.time()
                )
            )
        return None if first is None else float(first)

    def _engine(self) -> AsyncEngine:
        if self.engine is None:
            raise RuntimeError("the store is not open")
        return self.engine


class LeaseRenewer:
    """Renews every lease of *owner* every *every* seconds, from a thread of its own.

    The thread has its own event loop and its own database connection: a process whose
    event loop is busy (a failover's rebuilds, hundreds of websockets, a machine short
    of CPU) or whose connections are all taken still renews on time, so that its leases
    do not lapse while it lives. After each renewal, *renewed* is called on the event
    loop that called :meth:`start` with when the renewal began (seconds since the epoch)
    and the ids of the tables still *owner*'s. (An in-memory database cannot be opened
    twice: its store's own engine renews from a task of that loop.)
    """

    def __init__(
        self,
        store: Store,
        owner: str,
        ttl: float,
        every: float,
        renewed: Callable[[float, set[str]], None],
    ) -> None:
        """Not started yet: :meth:`start`, from the running event loop, once *store* is open."""
        self.store = store
        self.owner = owner
        self.ttl = ttl
        self.every = every
        self.renewed = renewed
        self._caller: asyncio.AbstractEventLoop | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._wake: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None
        """The renewing loop and the event that ends its wait between two renewals."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start renewing (the first renewal at once)."""
        self._caller = asyncio.get_running_loop()
        if in_memory(self.store.url):
            self._task = self._caller.create_task(self._renewing(self.store._engine()))
            return
        self._thread = threading.Thread(target=self._run, name=f"leases-{self.owner}"[:40], daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        """Stop renewing; once this returns, no renewal runs any more (the leases may be expired).

        A renewal under way is let finish, never cancelled: cancelled between its UPDATE
        and its COMMIT, it would leave SQLite's write lock held by a connection nobody
        closes, and every other process's writes would wait on it (CI, stop 42).
        """
        self._stopping.set()
        wake = self._wake
        if wake is not None:
            with contextlib.suppress(RuntimeError):  # its loop has just finished
                wake[0].call_soon_threadsafe(wake[1].set)
        if self._task is not None:
            await self._task
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join)

    def _run(self) -> None:
        async def main() -> None:
            engine = _make_engine(self.store.url, self.store.durable, pool_size=1, max_overflow=0)
            try:
                await self._renewing(engine)
            finally:
                await engine.dispose()

        asyncio.run(main())

    async def _renewing(self, engine: AsyncEngine) -> None:
        wake = asyncio.Event()
        self._wake = (asyncio.get_running_loop(), wake)
        while not self._stopping.is_set():
            began = time.time()
            try:
                mine = await _renew(engine, self.owner, self.ttl)
            except Exception:
                log.exception("renewing the table leases failed")
            else:
                caller = self._caller
                if caller is not None and not self._stopping.is_set():
                    with contextlib.suppress(RuntimeError):  # the caller's loop has closed
                        caller.call_soon_threadsafe(self.renewed, began, mine)
            with contextlib.suppress(TimeoutError):
                # stop() sets the event: the wait ends at once, never a renewal
                await asyncio.wait_for(wake.wait(), self.every)


async def _renew(engine: AsyncEngine, owner: str, ttl: float) -> set[str]:
    now = time.time()
    async with engine.begin() as conn:
        rows = await conn.execute(
            update(_LeaseRow)
            .where(_LeaseRow.owner == owner)
            .values(expires=now + ttl)
            .returning(_LeaseRow.table_id)
        )
        return {r.table_id for r in rows}


def in_memory(url: str) -> bool:
    """Whether the async *url* names a SQLite database in memory (gone with its last connection)."""
    return url.startswith("sqlite") and (":memory:" in url or url.rstrip("/").endswith("sqlite+aiosqlite:"))


def _make_engine(url: str, durable: bool, **pool: Any) -> AsyncEngine:
    """An engine on the async *url*: SQLite with its pragmas (*durable*: ``synchronous=FULL``)."""
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": 30}
        if in_memory(url):
            kwargs["poolclass"] = StaticPool
            pool = {}  # one connection, shared, whatever is asked
    engine = create_async_engine(url, **kwargs, **pool)
    if url.startswith("sqlite"):
        sync = "FULL" if durable else "NORMAL"
        event.listen(engine.sync_engine, "connect", lambda c, r: _sqlite_pragmas(c, sync))
    return engine


class _SchemaRow(_Base):
    __tablename__ = "schema_version"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)


def _add_updated(conn: Connection) -> None:
    """1: tables get ``updated`` (the clean-up of old tables), set to when they were made."""
    columns = {c["name"] for c in inspect(conn).get_columns("tables")}
    if "updated" not in columns:
        conn.execute(text("ALTER TABLE tables ADD COLUMN updated FLOAT"))
        conn.execute(text("CREATE INDEX IF NOT EXISTS ix_tables_updated ON tables (updated)"))
    conn.execute(text("UPDATE tables SET updated = created WHERE updated IS NULL"))


def _add_leases(conn: Connection) -> None:
    """2: ``leases``, which process plays each table (several processes on one database)."""
    table = _LeaseRow.__table__
    assert isinstance(table, Table)
    table.create(conn, checkfirst=True)


MIGRATIONS: tuple[Callable[[Connection], None], ...] = (_add_updated, _add_leases)
"""The schema's steps, in order: a database at version *v* has had the first *v* applied."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this server writes (``schema_version`` in the database)."""


def schema_version(conn: Connection) -> int | None:
    """The database's schema version (0: made before versions were kept; None: no schema yet)."""
    names = set(inspect(conn).get_table_names())
    if "tables" not in names:
        return None
    if "schema_version" not in names:
        return 0
    row = conn.execute(select(_SchemaRow.version).where(_SchemaRow.id == 1)).first()
    return 0 if row is None else int(row.version)


def _usable_schema(conn: Connection) -> int | None:
    """The schema version found (:func:`schema_version`), changing nothing.

    ``RuntimeError`` for a schema this server cannot use: a newer server's, or a ``tables``
    table of another program.
    """
    found = schema_version(conn)
    if found is not None and not {"id", "created", "status", "meta"} <= {
        c["name"] for c in inspect(conn).get_columns("tables")
    }:
        raise RuntimeError("the database has a table named 'tables' that is not a yaniv server's")
    if found is not None and found > SCHEMA_VERSION:
        raise RuntimeError(
            f"the database has schema version {found}, newer than this server's {SCHEMA_VERSION}: "
            "upgrade yaniv to use it"
        )
    return found


def _migrate(conn: Connection) -> None:
    """Make the schema, or bring an older one up to :data:`SCHEMA_VERSION`, step by step.

    Refuses a database of a newer server (its schema is not known here): nothing is changed.
    All or nothing: a step that fails leaves the database as it was.
    """
    if conn.dialect.name == "sqlite":  # Python's sqlite3 runs DDL outside a transaction unless begun
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    found = _usable_schema(conn)
    _Base.metadata.create_all(conn)
    start = 0 if found is None else found
    for step in MIGRATIONS[start:]:
        step(conn)
    if conn.execute(select(_SchemaRow.id)).first() is None:
        conn.execute(insert(_SchemaRow).values(id=1, version=SCHEMA_VERSION))
    else:
        conn.execute(update(_SchemaRow).where(_SchemaRow.id == 1).values(version=SCHEMA_VERSION))


async def copy_store(source: str, target: str, *, batch: int = 2000) -> tuple[int, int]:
    """Copy every table and record line from the database *source* to *target*; (tables, lines).

    For moving a server from its SQLite file to PostgreSQL (``yaniv db copy``). Both
    are brought to the current schema first. *target* must hold no table: nothing is
    ever overwritten or merged (``ValueError`` otherwise). Every row is copied as it is
    (ids, times, seats' hashed tokens, action ids) in one transaction on *target*, so a
    failed copy leaves it empty. A *source* that holds no schema of this program (an empty
    or foreign database) is refused unchanged.
    """
    probe = create_async_engine(source)  # a plain engine: looking changes nothing
    try:
        async with probe.connect() as conn:
            found = await conn.run_sync(schema_version)
    finally:
        await probe.dispose()
    if found is None:
        raise ValueError("the source holds no yaniv tables (not a yaniv server's database): nothing to copy")
    src, dst = Store(source), Store(target)
    await src.open()
    try:
        await dst.open()
        try:
            assert src.engine is not None and dst.engine is not None
            async with dst.engine.begin() as out:
                if (await out.execute(select(_TableRow.id).limit(1))).first() is not None:
                    raise ValueError("the target already holds tables: copy into an empty database")
                counts = [0, 0]
                async with src.engine.connect() as inp:
                    for k, table in enumerate((_TableRow.__table__, _LineRow.__table__)):
                        assert isinstance(table, Table)
                        columns = [c.name for c in table.columns]
                        result = await inp.stream(select(table).order_by(*table.primary_key))
                        async for part in result.partitions(batch):
                            rows = [dict(zip(columns, r, strict=True)) for r in part]
                            await out.execute(insert(table), rows)
                            counts[k] += len(rows)
            return counts[0], counts[1]
        finally:
            await dst.close()
    finally:
        await src.close()


def _settle(future: asyncio.Future[None], err: BaseException | None) -> None:
    if future.done():
        return
    if err is None:
        future.set_result(None)
    else:
        future.set_exception(err)


def _sqlite_pragmas(dbapi_connection: Any, synchronous: str) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={synchronous}")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()
