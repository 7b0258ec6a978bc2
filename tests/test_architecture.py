"""The architecture as contracts (DESIGN.md §3, docs/architecture.md).

* The core uses only the standard library, and is layered: cards and rules at the
  bottom, the table driver at the top; a module imports only from lower layers (or its
  own small group), lazily or not. Imports for type checking only do not count.
* Bots import only the core; the arena and the shared game services (match, session)
  import the core and the bots; front ends (cli, tui, web, env) import all of those
  but never each other, never ``yaniv.state``, and never another module's private name.
  The one exception is the command line as the launcher: ``yaniv play`` and ``yaniv
  serve`` start the terminal app and the web server through the one entry each package
  exports (``yaniv.tui.run_game``, ``yaniv.web.serve``), never their insides.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).parent.parent / "src" / "yaniv"

# The core's layers, bottom first. Modules of one group may import each other (lazily).
CORE_LAYERS: list[set[str]] = [
    {"errors", "events", "narrate", "jsonio", "urls"},  # urls: how the cli and web show a URL
    {"cards"},
    {"rules", "describe"},  # describe explains a rule set; Rules.base asks it for the preset name
    {"melds", "actions", "scoring"},
    {"state", "position"},  # position reads and writes states (RoundState.from_position)
    {"deal", "game"},
    {"record", "intent"},
    {"table"},
]
CORE = set().union(*CORE_LAYERS) | {"__init__"}
SERVICES = {"match", "session"}
FRONT_ENDS = {"cli", "tui", "web", "env"}
ALLOWED: dict[str, set[str]] = {
    "bots": CORE | {"bots"},
    "arena": CORE | {"bots", "match", "arena"},
    "match": CORE | {"bots", "match"},
    "session": CORE | {"bots", "match", "session"},
}
for front in FRONT_ENDS:
    ALLOWED[front] = CORE | {"bots", "arena"} | SERVICES | {front}
ALLOWED["cli"] |= {"tui", "web"}  # the launcher: package entries only (see the test below)
LAUNCHED = {
    "yaniv.tui": {"run_game", "run_replay"},
    # yaniv serve (its settings and database checked before it starts: a file name read as the
    # server reads it), yaniv db
    "yaniv.web": {"serve", "WebConfig", "default_db_url", "file_url", "copy_database", "migrate_database"},
}


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports_of(path: Path) -> list[tuple[str, list[str]]]:
    """(module imported, names imported) for every import outside ``if TYPE_CHECKING``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.relative_to(SRC.parent).with_suffix("").parts[:-1]  # ("yaniv", "web") ...
    found: list[tuple[str, list[str]]] = []

    def visit(node: ast.AST) -> None:
        if _type_checking_only(node):
            return
        if isinstance(node, ast.ImportFrom):
            names = [a.name for a in node.names]
            if node.level == 0:
                found.append((node.module or "", names))
            else:
                base = list(package[: len(package) - node.level + 1])
                module = ".".join([*base, *([node.module] if node.module else [])])
                if node.module:
                    found.append((module, names))
                else:  # from . import x: x is a module of that package, or a name it exports
                    folder = SRC.parent.joinpath(*module.split("."))
                    for n in names:
                        if (folder / f"{n}.py").exists() or (folder / n).is_dir():
                            found.append((f"{module}.{n}", []))
                        else:
                            found.append((module, [n]))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def top_module(path: Path) -> str:
    """The module or package of src/yaniv a file belongs to (``web`` for web/room.py)."""
    return path.relative_to(SRC).parts[0].removesuffix(".py")


def yaniv_imports(path: Path) -> list[tuple[str, list[str]]]:
    return [(m, n) for m, n in imports_of(path) if m == "yaniv" or m.startswith("yaniv.")]


def all_files() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def level_of(module: str) -> int:
    return next(i for i, group in enumerate(CORE_LAYERS) if module in group)


def test_every_module_belongs_to_a_known_part() -> None:
    for path in all_files():
        top = top_module(path)
        assert top in CORE or top in ALLOWED, f"{path} is in no part of the architecture"


def test_the_core_uses_only_the_standard_library_and_the_core() -> None:
    for path in all_files():
        if top_module(path) not in CORE:
            continue
        for module, _ in imports_of(path):
            top = module.split(".")[0]
            if top == "yaniv":
                inner = module.split(".")[1] if "." in module else "__init__"
                assert inner in CORE, f"{path.name} imports {module}"
            else:
                assert top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {module}"


def test_the_core_is_layered_cards_and_rules_at_the_bottom_the_driver_on_top() -> None:
    for path in all_files():
        me = top_module(path)
        if me not in CORE or me == "__init__":
            continue
        for module, _ in yaniv_imports(path):
            other = module.split(".")[1] if "." in module else "__init__"
            assert other != "__init__", f"{me} imports the package itself"
            assert level_of(other) < level_of(me) or other in next(g for g in CORE_LAYERS if me in g), (
                f"{me} (layer {level_of(me)}) imports {other} (layer {level_of(other)})"
            )
    assert level_of("table") == len(CORE_LAYERS) - 1
    assert level_of("cards") <= 1 and level_of("rules") <= 2


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_each_part_imports_only_downwards(part: str) -> None:
    files = [p for p in all_files() if top_module(p) == part]
    if part == "env" and not files:
        pytest.skip("no RL environment yet")
    assert files
    for path in files:
        for module, _ in yaniv_imports(path):
            other = module.split(".")[1] if "." in module else "__init__"
            assert other in ALLOWED[part], f"{path.relative_to(SRC)} imports {module}"


def test_front_ends_never_import_each_other_nor_the_round_state() -> None:
    for path in all_files():
        me = top_module(path)
        if me not in FRONT_ENDS:
            continue
        for module, names in yaniv_imports(path):
            other = module.split(".")[1] if "." in module else ""
            where = path.relative_to(SRC)
            if me == "cli" and module in LAUNCHED:
                assert set(names) <= LAUNCHED[module], f"{where} imports {names} from {module}"
            else:
                assert other == me or other not in FRONT_ENDS, f"{where} imports {module}"
            assert module != "yaniv.state", f"{where} imports yaniv.state"


def test_no_module_imports_another_modules_private_names() -> None:
    for path in all_files():
        for module, names in yaniv_imports(path):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            assert not private, f"{path.relative_to(SRC)} imports {private} from {module}"


def test_nothing_imports_the_cli() -> None:
    for path in all_files():
        if top_module(path) != "cli":
            assert not any(m.startswith("yaniv.cli") for m, _ in imports_of(path)), path


def test_development_tools_do_not_ship_in_the_package() -> None:
    assert not (SRC / "bots" / "calibrate.py").exists()
    assert (SRC.parent.parent / "tools" / "calibrate.py").exists()
