"""``bench/build_frozen.py``: the frozen checkout's one patch, and its refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import ROOT, load_script

SCRIPT = ROOT / "bench" / "build_frozen.py"

# the shape of commit ca9ed9c's RoundState: a __slots__ tuple and a copy that walks it
OLD = """class RoundState:
    __slots__ = (
        "_meld",
        "hands",
        "n",
        "rules",
    )

    def __init__(self, rules, hands, stock, pile, current):
        self.rules = rules

    def copy(self):
        new = RoundState.__new__(RoundState)
        for name in RoundState.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = self.hands[:]
        return new
"""


def _load() -> ModuleType:
    return load_script("bench/build_frozen.py", "bench_build_frozen")


def test_the_patched_copy_names_every_slot_and_keeps_the_rest() -> None:
    """The loop becomes one assignment per slot; what follows it (the list copies) is kept."""
    module = _load()
    new = module.patched_copy(OLD)
    assert "__slots__:" not in new and "setattr" not in new
    assert "RoundState.__new__(RoundState, self.rules, (), (), (), 0)" in new
    body = new.split("def copy(self):\n", 1)[1]
    assert body.index("new._meld = self._meld") < body.index("new.hands = self.hands\n")
    assert body.index("new.n = self.n") < body.index("new.hands = self.hands[:]")
    # the patched class still copies, in plain Python, every field
    space: dict[str, object] = {}
    exec(compile(new.replace("  # type: ignore[call-arg]", ""), "state", "exec"), space)
    cls = space["RoundState"]
    state = cls("rules", [1, 2], (), (), 0)  # type: ignore[operator]
    state._meld, state.hands, state.n = "table", [1, 2], 2
    copy = state.copy()
    assert (copy._meld, copy.hands, copy.n) == ("table", [1, 2], 2) and copy.hands is not state.hands


def test_a_source_without_the_loop_is_refused_by_name() -> None:
    """Today's state.py (no slot loop) or a file with no slots is not patched."""
    module = _load()
    with pytest.raises(ValueError, match="not the slot loop of ca9ed9c"):
        module.patched_copy(OLD.replace("for name in RoundState.__slots__:", "for name in ():"))
    with pytest.raises(ValueError, match="no __slots__ tuple"):
        module.patched_copy("class RoundState:\n    pass\n")


def test_check_changes_nothing_and_a_directory_that_is_no_checkout_is_refused(tmp_path: Path) -> None:
    """``--check`` reports without building; a directory without src/yaniv/state.py exits 2."""
    state = tmp_path / "src" / "yaniv" / "state.py"
    state.parent.mkdir(parents=True)
    state.write_text(OLD)
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"checkout": str(tmp_path), "patched": False, "built": False}
    assert state.read_text() == OLD
    empty = tmp_path / "empty"
    empty.mkdir()
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(empty)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and "not a checkout of the package" in done.stderr
    assert "Traceback" not in done.stderr
    # a state.py with neither the loop nor the patch (today's, say) is refused, unchanged
    today = OLD.replace("for name in RoundState.__slots__:", "for name in ():")
    state.write_text(today)
    argv = [sys.executable, str(SCRIPT), str(tmp_path)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "neither ca9ed9c's slot loop nor patched" in done.stderr
    assert state.read_text() == today
