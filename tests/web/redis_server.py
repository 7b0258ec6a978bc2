"""A private Redis server for the tests of several server processes (issue 18).

``YANIV_TEST_REDIS_URL`` names a server to use as it is (``.ci/run`` starts one). Otherwise
Debian's ``redis-server`` starts a throw-away one: loopback only, a free port, no
persistence (no RDB snapshots, no append-only file). A test that restarts Redis always
starts its own. Without the binary or without redis-py the tests are skipped with the
reason.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

import pytest

ENV = "YANIV_TEST_REDIS_URL"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivateRedis:
    """``redis-server`` on a loopback port, started, stopped and restarted on demand."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip(f"no redis-server binary (apt-get install redis-server) and no {ENV}")
        self.binary = binary
        self.port = _free_port()
        self.dir = tempfile.mkdtemp(prefix="yaniv-redis-")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        argv = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        argv += ["--appendonly", "no", "--dir", self.dir, "--protected-mode", "no"]
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 20
        while time.monotonic() < end:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.5) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return self
            time.sleep(0.05)
        raise RuntimeError("redis-server did not come up")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def private_redis(own: bool = False) -> Iterator[PrivateRedis | str]:
    """A running Redis: the URL of ``YANIV_TEST_REDIS_URL`` or, with *own* or without it, a server here."""
    pytest.importorskip("redis", reason="several server processes need redis-py (the scale extra)")
    given = os.environ.get(ENV)
    if given and not own:
        yield given
        return
    server = PrivateRedis().start()
    try:
        yield server
    finally:
        server.remove()
