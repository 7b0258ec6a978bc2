"""``yaniv db migrate`` / ``yaniv db copy`` (issue 18): SQLite to SQLite and to PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from yaniv.cli import main
from yaniv.record import check
from yaniv.web.database import copy_database, migrate_database
from yaniv.web.store import SCHEMA_VERSION, LineRow, Store

from .postgres import private_postgres


def _fill(url: str, tables: int = 3) -> list[str]:
    """A store with *tables* tables, each with a header line and two events."""

    async def run() -> list[str]:
        store = Store(url)
        await store.open()
        ids = []
        for i in range(tables):
            table_id = f"t{i}"
            await store.create_table(table_id, "playing", {"seats": [{"name": f"P{i}", "token": "h"}]})
            await store.append(table_id, [LineRow(0, '{"type":"header"}', None, None),
                                          LineRow(1, '{"type":"deal"}', None, None),
                                          LineRow(2, '{"type":"draw","seat":0}', 0, f"act-{i}")])  # fmt: skip
            ids.append(table_id)
        await store.close()
        return ids

    return asyncio.run(run())


def _dump(url: str) -> list[tuple[str, dict[str, object], list[LineRow]]]:
    async def run() -> list[tuple[str, dict[str, object], list[LineRow]]]:
        store = Store(url)
        await store.open()
        out = []
        for table_id in await store.table_ids():
            table = await store.load(table_id)
            assert table is not None
            out.append((table.id, table.meta, table.lines))
        await store.close()
        return out

    return asyncio.run(run())


def test_copy_moves_every_table_and_line_and_never_overwrites(tmp_path: Path) -> None:
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    _fill(f"sqlite:///{source}")
    assert copy_database(str(source), str(target)) == (3, 9)
    assert _dump(f"sqlite:///{target}") == _dump(f"sqlite:///{source}")
    with pytest.raises(ValueError, match="already holds tables"):
        copy_database(str(source), str(target))
    assert _dump(f"sqlite:///{target}") == _dump(f"sqlite:///{source}")  # nothing merged or doubled


def test_a_missing_source_is_refused_and_not_made(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"^the source: there is no database file"):
        copy_database(str(tmp_path / "none.db"), str(tmp_path / "b.db"))
    assert not (tmp_path / "none.db").exists() and not (tmp_path / "b.db").exists()
    with pytest.raises(ValueError, match="same database"):
        _fill(f"sqlite:///{tmp_path / 'a.db'}", 1)
        copy_database(str(tmp_path / "a.db"), f"sqlite:///{tmp_path / 'a.db'}")


def test_migrate_versions_an_old_database_step_by_step(tmp_path: Path) -> None:
    """A database from before versions were kept (no ``updated`` column) is upgraded in place."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE tables (id VARCHAR(32) PRIMARY KEY, created FLOAT, status VARCHAR(16), meta TEXT)"
        )
        db.execute(
            "CREATE TABLE lines (id INTEGER PRIMARY KEY, table_id VARCHAR(32), seq INTEGER, line TEXT, "
            "seat INTEGER, action_id VARCHAR(80), UNIQUE (table_id, seq))"
        )
        db.execute("INSERT INTO tables VALUES ('old', 5.0, 'over', '{}')")
    done = migrate_database(str(path))
    assert (done.before, done.after) == (0, SCHEMA_VERSION)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT updated FROM tables WHERE id = 'old'").fetchone() == (5.0,)
        assert db.execute("SELECT version FROM schema_version").fetchone() == (SCHEMA_VERSION,)
    again = migrate_database(str(path))
    assert (again.before, again.after) == (SCHEMA_VERSION, SCHEMA_VERSION)
    assert migrate_database(str(tmp_path / "new.db")).before is None  # an empty one is made


def test_a_migration_that_fails_leaves_the_database_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite ran each step's DDL outside the transaction: a failed migration was left half done."""
    import yaniv.web.store as store

    path = tmp_path / "old.db"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(
            "CREATE TABLE tables (id VARCHAR(32) PRIMARY KEY, created FLOAT, status VARCHAR(16), meta TEXT)"
        )
        db.execute("INSERT INTO tables VALUES ('old', 5.0, 'over', '{}')")
        db.commit()

    def broken(conn: object) -> None:
        raise OSError("the disk is full")

    monkeypatch.setattr(store, "MIGRATIONS", (store.MIGRATIONS[0], broken))
    with contextlib.closing(sqlite3.connect(path)) as db:
        schema = db.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
    with pytest.raises(ValueError, match="the disk is full"):
        migrate_database(str(path))
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall() == schema
        assert db.execute("SELECT * FROM tables").fetchall() == [("old", 5.0, "over", "{}")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.db"], "no -wal or -shm left behind"


def test_a_database_of_a_newer_server_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    migrate_database(str(path))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(ValueError, match="schema version 99, newer than this server's"):
        migrate_database(str(path))
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchone() == (99,)


def test_a_copy_error_names_the_argument_at_fault(tmp_path: Path) -> None:
    """Which of the two databases is wrong was left to guess: each error now names it."""
    _fill(f"sqlite:///{tmp_path / 'a.db'}", 1)
    with pytest.raises(ValueError, match=r"^the target: there is no folder"):
        copy_database(str(tmp_path / "a.db"), str(tmp_path / "missing" / "b.db"))
    with pytest.raises(ValueError, match=r"^the source: there is no database file"):
        copy_database(str(tmp_path / "missing" / "a.db"), str(tmp_path / "b.db"))
    assert not (tmp_path / "missing").exists() and not (tmp_path / "b.db").exists()


def test_yaniv_db_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "a.db"
    _fill(f"sqlite:///{source}", 2)
    out = io.StringIO()
    assert main(["db", "copy", str(source), str(tmp_path / "b.db"), "--json"], out=out) == 0
    assert json.loads(out.getvalue()) == {"tables": 2, "lines": 6}
    out = io.StringIO()
    assert main(["db", "migrate", "--db", str(tmp_path / "b.db")], out=out) == 0
    assert f"now at schema version {SCHEMA_VERSION}" in out.getvalue()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["db", "copy", str(source), str(tmp_path / "b.db")], out=io.StringIO())
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "already holds tables" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit) as exc:
        main(["db", "copy", str(source), "postgresql://u:secret@127.0.0.1:9/none"], out=io.StringIO())
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "secret" not in err and "Traceback" not in err


def test_db_migrate_makes_the_default_databases_folder_as_serve_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a fresh machine ``yaniv db migrate`` (no ``--db``) refused: the data dir's yaniv folder
    did not exist, which ``yaniv serve`` makes. Both make it now (common.server_db); a ``--db``
    whose folder is missing is refused by both, and no folder is made for it."""
    import yaniv.web

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "fresh"))
    out = io.StringIO()
    assert main(["db", "migrate", "--json"], out=out) == 0
    assert json.loads(out.getvalue()) == {"before": None, "after": SCHEMA_VERSION}
    with sqlite3.connect(tmp_path / "fresh" / "yaniv" / "yaniv.db") as db:
        assert db.execute("SELECT version FROM schema_version").fetchone() == (SCHEMA_VERSION,)
    monkeypatch.setattr(yaniv.web, "serve", lambda *a, **kw: 0)  # the server finds it made
    assert main(["serve", "--port", "0"], out=io.StringIO()) == 0
    missing = tmp_path / "missing" / "x.db"
    for argv in (["db", "migrate", "--db", str(missing)], ["serve", "--port", "0", "--db", str(missing)]):
        capsys.readouterr()
        with pytest.raises(SystemExit) as exc:
            main(argv, out=io.StringIO())
        err = capsys.readouterr().err
        assert exc.value.code == 2 and "--db: " in err and str(missing.parent) in err, err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not missing.parent.exists()


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with private_postgres() as url:
        yield url


def test_the_upgrade_path_from_sqlite_to_postgresql(tmp_path: Path, pg_url: str) -> None:
    """A served game's SQLite file copied into PostgreSQL: every record checks there."""
    from fastapi.testclient import TestClient

    from yaniv.web import create_app

    from .conftest import FAST, Site
    from .helpers import game_over, play_until
    from .test_play import start_table

    source = f"sqlite+aiosqlite:///{tmp_path / 'served.db'}"
    with TestClient(create_app(source, bot_delay=0, round_pause=None, config=FAST)) as client:
        from contextlib import ExitStack

        with ExitStack() as stack:
            site = Site(client, stack)
            table, players = start_table(site, 1, 1, rules="standard(score_limit=30)", level="easy")
            play_until(players, game_over(players), timeout=120)
            for p in players:
                p.close()
    target = pg_url.replace("/yaniv", "/yaniv_copy")
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as c:
        c.execute("DROP DATABASE IF EXISTS yaniv_copy")
        c.execute("CREATE DATABASE yaniv_copy")
    served = _dump(source)
    tables, lines = copy_database(str(tmp_path / "served.db"), target)
    # Every line of the one game moved; a short game (one round can end it at 30
    # points) has as few as ten, so the count is compared with the source's.
    assert tables == 1 and lines == len(served[0][2]) >= 5
    copied = {t: rows for t, _, rows in _dump(target)}
    assert check([row.line for row in copied[table]]).over
    assert _dump(target) == served
