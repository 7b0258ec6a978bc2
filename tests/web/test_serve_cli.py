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
