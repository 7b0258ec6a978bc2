"""Every ```python block of README.md runs as written (README examples stay true)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
_BLOCK = re.compile(r"^```python[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line number of the opening fence, code) of each ```python block of *text*."""
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in _BLOCK.finditer(text)]


BLOCKS = python_blocks(README.read_text(encoding="utf-8"))


def test_readme_has_python_examples() -> None:
    assert BLOCKS, "README.md has no ```python block: the library example went missing"


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"README.md:{line}" for line, _ in BLOCKS])
def test_readme_python_block_runs(line: int, code: str) -> None:
    # Each block is a fresh module; compile with the README's name and line so a
    # traceback points at the README line that broke.
    source = "\n" * (line) + code
    exec(compile(source, str(README), "exec"), {"__name__": f"readme_{line}"})
