"""The dependency direction of DESIGN.md §3: the core imports no front end, bot or
optional dependency; bots import only the core; nothing imports the CLI."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).parent.parent / "src" / "yaniv"
CORE = {
    "errors", "cards", "rules", "melds", "actions", "state", "position", "scoring",
    "game", "events", "record", "deal", "narrate", "describe", "__init__",
}  # fmt: skip
LAYERS = {
    "bots": CORE | {"bots"},
    "match": CORE | {"bots", "match"},
    "session": CORE | {"bots", "match", "arena", "session"},
    "tui": CORE | {"bots", "match", "arena", "session", "tui"},
    "web": CORE | {"bots", "match", "web"},
}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                found.add(node.module)
            elif node.level >= 1:
                inside_package = path.parent.name != "yaniv"
                base = (node.module or "").split(".")[0]
                if inside_package and node.level == 1:
                    base = path.parent.name
                if inside_package and node.level == 2 and not base:
                    base = node.names[0].name
                found.add("yaniv." + base if base else "yaniv")
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def module_files() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_core_uses_only_the_standard_library_and_the_core() -> None:
    for path in module_files():
        if path.parent != SRC or path.stem not in CORE:
            continue
        for name in imports_of(path):
            top = name.split(".")[0]
            if top == "yaniv":
                assert name == "yaniv" or name.split(".")[1] in CORE, f"{path.name} imports {name}"
            else:
                assert top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {name}"


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_layers_import_only_downwards(layer: str) -> None:
    files = [SRC / f"{layer}.py"] if (SRC / f"{layer}.py").exists() else list((SRC / layer).rglob("*.py"))
    assert files
    for path in files:
        for name in imports_of(path):
            if name.startswith("yaniv."):
                assert name.split(".")[1] in LAYERS[layer], f"{path} imports {name}"


def test_nothing_imports_the_cli() -> None:
    for path in module_files():
        if path.stem != "cli":
            assert "yaniv.cli" not in imports_of(path), path
