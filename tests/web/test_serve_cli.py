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
