"""A private PostgreSQL server for the tests that need one (issue 18).

``YANIV_TEST_POSTGRES_URL`` names a server to use as it is. Otherwise the server
binaries on the machine (``/usr/lib/postgresql/*/bin``) start a throw-away cluster:
``initdb`` into a temporary folder (as the ``postgres`` user when run as root, since
the server refuses to run as root), trust authentication on loopback only, a free
port, fsync off (the data dies with the test run). Without binaries or without psycopg
the tests are skipped with the reason.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import pytest

ENV = "YANIV_TEST_POSTGRES_URL"


def _binaries() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    if shutil.which("runuser"):
        return ["runuser", "-u", "postgres", "--", *argv]
    return ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(argv)]


@contextlib.contextmanager
def private_postgres() -> Iterator[str]:
    """A running server's URL (``postgresql://…/yaniv``), stopped and removed on leaving."""
    given = os.environ.get(ENV)
    if given:
        yield given
        return
    pytest.importorskip("psycopg", reason="PostgreSQL tests need psycopg (the scale extra)")
    bin_dir = _binaries()
    if bin_dir is None:
        pytest.skip(f"no PostgreSQL server binaries (/usr/lib/postgresql/*/bin) and no {ENV}")
    root = tempfile.mkdtemp(prefix="yaniv-pg-")
    os.chmod(root, 0o777)  # the postgres user writes its cluster and socket here
    data, sock = os.path.join(root, "data"), os.path.join(root, "sock")
    os.mkdir(sock)
    os.chmod(sock, 0o777)
    port = _free_port()
    run: dict[str, Any] = {"check": True, "capture_output": True, "text": True, "timeout": 120}
    try:
        init = [f"{bin_dir}/initdb", "-D", data, "-A", "trust", "-U", "postgres"]
        subprocess.run(_as_postgres(init), **run)
        options = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
        log = os.path.join(root, "log")
        start = [f"{bin_dir}/pg_ctl", "-D", data, "-w", "-l", log, "-o", options, "start"]
        subprocess.run(_as_postgres(start), **run)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
        shutil.rmtree(root, ignore_errors=True)
        detail = getattr(e, "stderr", "") or str(e)
        pytest.skip(f"could not start a private PostgreSQL: {detail.strip()[:300]}")
    try:
        import psycopg

        deadline = time.monotonic() + 30
        admin = f"host=127.0.0.1 port={port} user=postgres dbname=postgres"
        while True:
            try:
                with psycopg.connect(admin, autocommit=True) as c:
                    c.execute("CREATE DATABASE yaniv")
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield f"postgresql://postgres@127.0.0.1:{port}/yaniv"
    finally:
        subprocess.run(_as_postgres([f"{bin_dir}/pg_ctl", "-D", data, "-m", "immediate", "stop"]),
                       capture_output=True, timeout=60, check=False)  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)
