"""The table leases of several server processes (issue 18), on the store alone (SQLite here;
the same statements run on PostgreSQL in test_processes)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from yaniv.web.store import SCHEMA_VERSION, LineRow, Store


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


def test_taking_a_dead_processs_tables_at_once_takes_only_the_expired_leases(tmp_path: Path) -> None:
    async def body(store: Store) -> None:
        await store.acquire("d1", "A", 0.2)
        await store.acquire("d2", "A", 0.2)
        await store.acquire("live", "C", 30.0)
        assert await store.next_expiry("B") == (await store.lease("d1")).expires  # type: ignore[union-attr]
        await asyncio.sleep(0.25)
        assert await store.next_expiry("B") == (await store.lease("live")).expires  # type: ignore[union-attr]
        taken = await store.take(["d1", "d2", "live", "unknown"], "B", 5.0)
        assert taken == {"d1", "d2"}  # never a lease that still runs, nor one nobody holds
        leases = await store.leases(["d1", "d2", "live", "unknown"])
        assert {t: (le.owner, le.epoch) for t, le in leases.items()} == {
            "d1": ("B", 2),
            "d2": ("B", 2),
            "live": ("C", 1),
        }
        assert await store.take(["d1", "d2"], "D", 5.0) == set()  # B holds them now
        assert await store.next_expiry("C") == leases["d1"].expires  # B's, for C
        assert await store.renew("A", 5.0) == set()  # A, had it lived, learns it lost them

    run(tmp_path, body)


def test_racing_takers_never_both_win(tmp_path: Path) -> None:
    async def body(store: Store) -> None:
        ids = [f"t{k}" for k in range(40)]
        for t in ids:
            await store.acquire(t, "A", 0.1)
        await asyncio.sleep(0.15)
        results = await asyncio.gather(
            *(store.take(ids[k:] + ids[:k], f"P{k}", 5.0) for k in range(0, 40, 10))
        )
        assert sorted(t for taken in results for t in taken) == sorted(ids)  # each taken once

    run(tmp_path, body)


def test_many_tables_are_read_at_once(tmp_path: Path) -> None:
    async def body(store: Store) -> None:
        for k in range(3):
            await store.create_table(f"m{k}", "playing", {"k": k})
            await store.append(
                f"m{k}", [LineRow(i, f'{{"n":{i},"k":{k}}}', None, None) for i in range(k + 1)]
            )
        found = await store.load_many(["m2", "m0", "nope", "m1"])
        assert sorted(found) == ["m0", "m1", "m2"]
        for k in range(3):
            assert found[f"m{k}"].meta == {"k": k}
            assert [row.seq for row in found[f"m{k}"].lines] == list(range(k + 1))
            assert found[f"m{k}"] == await store.load(f"m{k}")
        assert await store.load_many([]) == {}
        assert await store.load("nope") is None

    run(tmp_path, body)


def test_the_schema_has_the_leases_step() -> None:
    assert SCHEMA_VERSION == 2
