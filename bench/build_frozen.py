"""Compile the frozen expert's checkout (commit ca9ed9c) with mypyc, so its matches run faster.

Issue 20 measures the expert against the expert of commit ca9ed9c, seated through the
bot protocol by ``bench/frozen_bot.py`` from a checkout of that commit. That commit has
no compiled build, so its seats ran pure Python: three of them at a four-player table
take most of a match's time. This script builds the engine and the search of such a
checkout in place with mypyc (that commit's engine modules and its search: ``cards`` stays
interpreted, its ``Card`` subclasses ``int``):

    git worktree add /tmp/frozen ca9ed9c          # or: git archive ca9ed9c | tar -x -C /tmp/frozen
    python bench/build_frozen.py /tmp/frozen
    python bench/strength.py --frozen /tmp/frozen/src --untimed --matches expert-vs-3-frozen ...

One method of the checkout is changed first, and nothing that decides a move:
``RoundState.copy`` walks ``RoundState.__slots__`` (a compiled class has none to walk)
and calls ``RoundState.__new__`` bare (a compiled class asks for ``__init__``'s
arguments); the patch names the fields one by one, as today's ``state.py`` does. The
compiled seats play the same games as the pure ones: untimed, 8 four-player games of
seed 7050 and 10 heads-up games each on ``jdross`` and ``finnish`` gave the same JSON line
to the last digit but the decision times (docs/strength.md, session 34). It prints one
JSON object: the modules compiled and whether the patch was applied now or before.

    python bench/build_frozen.py CHECKOUT [--check]

``--check`` only says whether the checkout is patched and built, changing nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

# ca9ed9c's own modules (not today's setup.py list: that commit has no bots/playout, its
# search is bots/search); cards stays interpreted (Card subclasses int: a native class cannot)
MODULES = (
    "melds",
    "actions",
    "state",
    "scoring",
    "game",
    "position",
    "deal",
    "record",
    "bots/model",
    "bots/simple",
    "bots/search",
)

# the one loop of commit ca9ed9c's RoundState.copy that a compiled class cannot run
LOOP = (
    "        new = RoundState.__new__(RoundState)\n"
    "        for name in RoundState.__slots__:\n"
    "            setattr(new, name, getattr(self, name))\n"
)

# the patch's first line: a compiled class's __new__ asks for __init__'s arguments (and
# does not run __init__); its presence says the checkout is patched
BARE = "        new = RoundState.__new__(RoundState, self.rules, (), (), (), 0)  # type: ignore[call-arg]\n"


def patched_copy(source: str) -> str:
    """The state module's text with ``copy`` naming each slot (raises if the loop is not there)."""
    _, sep, rest = source.partition("    __slots__ = (\n")
    if not sep:
        raise ValueError("RoundState has no __slots__ tuple: not a checkout of ca9ed9c")
    slots = [line.strip().strip('",') for line in rest.split("    )\n", 1)[0].splitlines()]
    if not slots or LOOP not in source:
        raise ValueError("RoundState.copy is not the slot loop of ca9ed9c")
    named = "".join(f"        new.{slot} = self.{slot}\n" for slot in slots)
    return source.replace(LOOP, BARE + named)


def built(src: Path) -> bool:
    """Whether every module of MODULES has a compiled file beside its source."""
    return all(list((src / "yaniv").glob(f"{m}.cpython-*.so")) for m in MODULES)


def main(argv: list[str] | None = None) -> int:
    """Patch and build the checkout; print what was done."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout of commit ca9ed9c (with src/yaniv)")
    parser.add_argument("--check", action="store_true", help="only report; change nothing")
    args = parser.parse_args(argv)
    src = args.checkout / "src"
    state = src / "yaniv" / "state.py"
    if not state.is_file():
        parser.error(f"{args.checkout}: no src/yaniv/state.py: not a checkout of the package")
    text = state.read_text()
    already = BARE in text
    if not already and LOOP not in text:
        parser.error(f"{state}: RoundState.copy is neither ca9ed9c's slot loop nor patched")
    if args.check:
        print(json.dumps({"checkout": str(args.checkout), "patched": already, "built": built(src)}))
        return 0
    if not already:
        try:
            state.write_text(patched_copy(text))
        except ValueError as e:
            parser.error(f"{state}: {e}")
    setup = (
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        f"paths = {[f'yaniv/{m}.py' for m in MODULES]!r}\n"
        "setup(name='yaniv-frozen', packages=[], ext_modules=mypycify(paths, opt_level='3'))\n"
    )
    # build in the checkout's src: mypyc names each extension after its path from there
    done = subprocess.run(
        [sys.executable, "-c", setup, "--quiet", "build_ext", "--inplace"],
        cwd=src,
        env=dict(os.environ, PYTHONPATH=str(src)),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        tail = "\n".join(done.stdout.splitlines()[-5:] + done.stderr.splitlines()[-5:])
        print(f"build_frozen.py: mypyc failed:\n{tail}", file=sys.stderr)
        return 1
    report = {"checkout": str(args.checkout), "patched_now": not already, "modules": list(MODULES)}
    print(json.dumps({**report, "built": built(src)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
