"""``yaniv serve``: its options and their errors (the server itself runs in test_restart)."""

from __future__ import annotations

import io

import pytest

from yaniv.cli import main
from yaniv.web import default_db_url


@pytest.mark.parametrize(
    ("argv", "word"),
    [
        (["serve", "--port", "70000"], "--port"),
        (["serve", "--bot-delay", "-1"], "--bot-delay"),
        (["serve", "--round-pause", "-2"], "--round-pause"),
    ],
)
def test_bad_options(argv: list[str], word: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv, io.StringIO())
    assert e.value.code == 2
    assert word in capsys.readouterr().err


def test_help_names_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = capsys.readouterr().out
    for option in ("--host", "--port", "--db", "--bot-delay", "--round-pause"):
        assert option in out


def test_default_database_is_in_the_data_dir() -> None:
    assert default_db_url({"XDG_DATA_HOME": "/data"}) == "sqlite+aiosqlite:////data/yaniv/yaniv.db"
    assert default_db_url({"XDG_DATA_HOME": "relative"}).endswith("/.local/share/yaniv/yaniv.db")


@pytest.mark.parametrize(
    ("redis", "words"),
    [
        ("localhost:6379", "is not a Redis URL"),
        ("redis://127.0.0.1:1/0", "does not answer"),
        ("redis://u:hunter2@127.0.0.1:1/0", "does not answer"),
    ],
)
def test_a_bad_or_silent_redis_is_one_line(
    redis: str, words: str, tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 18: ``--redis`` is checked before the server starts (exit 2, no password shown)."""
    pytest.importorskip("redis")
    with pytest.raises(SystemExit) as e:
        main(["serve", "--port", "0", "--db", f"{tmp_path}/t.db", "--redis", redis], io.StringIO())
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert "--redis" in err and words in err
    assert "hunter2" not in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_ctrl_c_ends_the_server_with_130(tmp_path: object) -> None:
    """As every other command: Ctrl-C (SIGINT) is exit 130 (after a clean shutdown)."""
    import signal
    from pathlib import Path

    from .server import Server

    for sig, code in ((signal.SIGINT, 130),):
        server = Server(Path(str(tmp_path)) / f"s{code}.db").start()
        assert server.proc is not None
        server.proc.send_signal(sig)
        assert server.proc.wait(20) == code
        server.proc = None


def test_port_0_serves_on_the_port_the_banner_shows(tmp_path: object) -> None:
    """``--port 0`` printed port 0; the server now listens on the port it prints (a real server)."""
    import os
    import re
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    import httpx

    db = Path(str(tmp_path)) / "t.db"
    argv = [
        sys.executable,
        "-m",
        "yaniv.cli",
        "serve",
        "--port",
        "0",
        "--db",
        str(db),
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        assert proc.stdout is not None
        banner = proc.stdout.readline()
        found = re.match(r"Yaniv on http://127\.0\.0\.1:(\d+)/ ", banner)
        assert found and int(found[1]) != 0, banner
        end = time.monotonic() + 30
        while True:
            try:
                assert httpx.get(f"http://127.0.0.1:{found[1]}/healthz", timeout=1).json() == {"status": "ok"}
                break
            except httpx.HTTPError:
                assert proc.poll() is None and time.monotonic() < end, "the server did not come up"
                time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(20) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
