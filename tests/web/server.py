"""A real ``yaniv serve`` in a subprocess on a free loopback port (for restart and browser tests)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``yaniv serve --host 127.0.0.1 --port PORT --db FILE`` started and stopped on demand."""

    def __init__(
        self,
        db: Path,
        port: int | None = None,
        *extra: str,
        env: dict[str, str] | None = None,
        db_arg: str | None = None,
    ) -> None:
        self.db = db
        self.db_arg = db_arg or str(db)
        self.port = port or free_port()
        self.extra = list(extra)
        self.env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        args = [sys.executable, "-m", "yaniv.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        args += ["--db", self.db_arg, "--bot-delay", "0", "--log-level", "warning", *self.extra]
        env = dict(os.environ, PYTHONUNBUFFERED="1", **self.env)
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env)
        end = time.monotonic() + 30
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"yaniv serve exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/api/presets", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("yaniv serve did not come up")

    def kill(self) -> None:
        """Kill it hard (SIGKILL), as a crash would."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = httpx.post(self.url + path, json=body, timeout=10)
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data


FAST_ENV = {"YANIV_WEB_MESSAGE_RATE": "0", "YANIV_WEB_SYNC_RATE": "0", "YANIV_WEB_TABLES_PER_CLIENT": "0"}
"""A real server for scripted clients that play at machine speed (no rate limits)."""


class SyncWs:
    """The websockets sync client shaped like Starlette's test session."""

    def __init__(self, url: str, **options: Any) -> None:
        from websockets.sync.client import connect

        self.conn = connect(url, open_timeout=10, max_size=2**22, **options).__enter__()

    def receive_text(self) -> str:
        data = self.conn.recv()
        return data if isinstance(data, str) else data.decode()

    def send_text(self, text: str) -> None:
        self.conn.send(text)

    def send_bytes(self, data: bytes) -> None:
        self.conn.send(data)

    def close(self) -> None:
        self.conn.close()
