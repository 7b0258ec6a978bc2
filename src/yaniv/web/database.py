"""The server's database from the command line: ``yaniv db migrate`` and ``yaniv db copy``.

``migrate`` brings a database to this server's schema version (a server does it too
when it starts; this does it ahead, e.g. before several processes start on it) and
says what it found. ``copy`` moves a server's tables and records from one database to
an empty other one, the upgrade path from the embedded SQLite file to PostgreSQL:

    yaniv db copy ~/.local/share/yaniv/yaniv.db postgresql://yaniv@db/yaniv

Both take SQLAlchemy URLs or SQLite file names, as ``yaniv serve --db`` does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.ext.asyncio import create_async_engine

from .store import SCHEMA_VERSION, Store, async_url, copy_store, file_url, in_memory, schema_version

__all__ = ["Migrated", "copy_database", "migrate_database"]

T = TypeVar("T")

_SQLITE = "sqlite+aiosqlite:///"


def _url(db: str, *, existing: bool) -> str:
    """*db* as an async SQLAlchemy URL; a SQLite file must exist if *existing* (never made empty)."""
    if not isinstance(db, str) or not db.strip():
        raise ValueError("name a database: a SQLAlchemy URL or a SQLite file")
    url = async_url(file_url(db))
    if url.startswith(_SQLITE) and ":memory:" not in url:
        path = Path(url.removeprefix(_SQLITE))
        if existing and not path.is_file():
            raise ValueError(f"there is no database file {str(path)[:200]}")
        if not path.parent.is_dir():
            raise ValueError(f"there is no folder {str(path.parent)[:200]} for the database file")
    return url


def _named(db: str, role: str, *, existing: bool) -> str:
    """:func:`_url` of *db*, its error naming the argument (*role*: the source, the target)."""
    try:
        return _url(db, existing=existing)
    except ValueError as e:
        raise ValueError(f"{role}: {e}") from None


@dataclass(frozen=True)
class Migrated:
    """What :func:`migrate_database` found and left."""

    url: str
    before: int | None
    """The schema version found (0: made before versions were kept; None: an empty database)."""
    after: int
    """The schema version now (this server's)."""


def migrate_database(db: str) -> Migrated:
    """Bring the database *db* (a URL or a SQLite file) to this server's schema.

    ``ValueError`` naming the problem for a bad URL, an unreachable database, or one
    made by a newer server (left unchanged).
    """
    url = _url(db, existing=False)

    async def run() -> Migrated:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                before = await conn.run_sync(schema_version)
        finally:
            await engine.dispose()
        store = Store(url)
        await store.open()  # makes or upgrades the schema
        await store.close()
        return Migrated(url, before, SCHEMA_VERSION)

    return _run(run(), _shown(db))


def copy_database(source: str, target: str) -> tuple[int, int]:
    """Copy every table and record from *source* into the empty database *target*; (tables, lines).

    ``ValueError`` naming the problem (a bad URL, an unreachable database, a *target*
    that already holds tables: nothing is overwritten or merged).
    """
    src, dst = _named(source, "the source", existing=True), _named(target, "the target", existing=False)
    if src == dst:
        raise ValueError("the source and the target are the same database")
    if in_memory(dst):
        raise ValueError("the target is a database in memory, gone when the copy ends: name a file or server")
    return _run(copy_store(src, dst), f"{_shown(source)} -> {_shown(target)}")


def _shown(db: str) -> str:
    """*db* for a message: a URL without its password."""
    if "://" not in db:
        return db[:200]
    try:
        return make_url(db).render_as_string(hide_password=True)[:200]
    except ArgumentError:
        return db[:80]


def _run(work: Coroutine[Any, Any, T], what: str) -> T:
    try:
        return asyncio.run(work)
    except ImportError as e:  # the URL's driver, say mysql://'s aiomysql, is not installed
        raise ValueError(f"{str(what)[:200]}: its database driver is not installed ({e})") from None
    except (SQLAlchemyError, OSError, RuntimeError) as e:
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise ValueError(f"{str(what)[:200]}: {first[:300]}") from None
