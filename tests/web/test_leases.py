"""The table leases of several server processes (issue 18), on the store alone (SQLite here;
the same statements run on PostgreSQL in test_processes)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from yaniv.web.store import SCHEMA_VERSION, Store


def run(tmp_path: Path, body: object) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'leases.db'}")
        await store.open()
        try:
            await body(store)  # type: ignore[operator]
        finally:
            await store.close()

    asyncio.run(main())


def test_one_owner_at_a_time_until_the_lease_expires(tmp_path: Path) -> None:
    async def body(store: Store) -> None:
        lease, changed = await store.acquire("t1", "A", 0.3)
        assert (lease.owner, lease.epoch, changed) == ("A", 1, True)
        held, changed = await store.acquire("t1", "B", 0.3)
        assert (held.owner, changed) == ("A", False)  # B may not take it while it lasts
        again, changed = await store.acquire("t1", "A", 0.3)
        assert (again.owner, again.epoch, changed) == ("A", 1, False)  # renewed, not changed hands
        assert await store.orphans() == []
        await asyncio.sleep(0.35)
        assert await store.orphans() == ["t1"]  # A stopped renewing: the table waits for a taker
        taken, changed = await store.acquire("t1", "B", 0.3)
        assert (taken.owner, taken.epoch, changed) == ("B", 2, True)
        assert await store.renew("A", 3.0) == set()  # A learns that it lost the table
        assert await store.renew("B", 3.0) == {"t1"}
        assert (await store.lease("t1")).expires > time.time() + 2  # type: ignore[union-attr]

    run(tmp_path, body)


def test_racing_processes_never_both_win(tmp_path: Path) -> None:
    async def body(store: Store) -> None:
        results = await asyncio.gather(*(store.acquire("t2", f"P{i}", 5.0) for i in range(8)))
        owners = {lease.owner for lease, _ in results}
        assert len(owners) == 1
        assert sum(changed for _, changed in results) == 1

    run(tmp_path, body)


def test_release_and_a_stopping_process(tmp_path: Path) -> None:
    async def body(store: Store) -> None:
        for table in ("a1", "a2", "a3"):
            await store.acquire(table, "A", 30.0)
        await store.release("A", "a1")  # unloaded: nobody needs to take it over
        assert await store.lease("a1") is None
        await store.expire_leases("A")  # stopping: the others take a2 and a3 over at once
        assert sorted(await store.orphans()) == ["a2", "a3"]
        await store.release("A")
        assert await store.orphans() == []

    run(tmp_path, body)


def test_the_schema_has_the_leases_step() -> None:
    assert SCHEMA_VERSION == 2
