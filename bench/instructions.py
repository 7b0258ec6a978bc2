"""Instruction counts of fixed workloads, for before/after comparisons on a busy machine.

Seconds on a shared 2-core machine vary by tens of percent from one run to the next;
the instructions a fixed piece of work executes do not. This script runs fixed,
seeded workloads under ``valgrind --tool=callgrind`` and prints one JSON line per
workload and source tree with the instruction count (``Ir``) and, with two trees,
their ``ratio`` (after / before: below 1 is faster). The interpreter's start and the
imports (``startup``, measured alone) are subtracted: ``Ir`` is the work itself.

Workloads (each uses only API every version since the first driver commit has):

* ``engine``: 300 seeded random rounds through the engine's fast path (as bench/engine.py);
* ``checked``: 40 seeded games of checked ``Game.apply`` with the first legal action;
* ``bots``: 8 seeded games of greedy vs random vs heuristic through ``yaniv.match.play_game``
  (the table driver in new trees, the old loop in old ones);
* ``env``: 5,000 steps of the PettingZoo environment (``yaniv.env.raw_env``, standard, 2
  players) with seeded random masked actions, as bench/env.py (trees with ``yaniv.env``;
  its imports and the first reset are subtracted instead).

    python bench/instructions.py [--src PATH ...] [--work engine,checked,bots]

``--src`` names each tree's ``src`` folder (default: this checkout's); give two to
compare, e.g. ``--src /tmp/before/src src``. ``--inner NAME`` runs one workload
directly (what valgrind runs).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WORK = ("engine", "checked", "bots", "env")


def startup() -> None:
    """Only the imports the workloads make: subtracted from each count (newer trees import more)."""
    import yaniv
    import yaniv.bots
    import yaniv.match  # noqa: F401


def engine() -> None:
    from yaniv import Game

    rng = random.Random(1)
    rounds, seed = 0, 1
    while rounds < 300:
        game = Game("standard", players=3, seed=seed)
        seed += 1
        state = game.round
        state.log = None
        while not state.is_over:
            if state.can_yaniv():
                state.fast_yaniv()
                break
            state.fast_discard(rng.choice(state.discards()))
            takeable = state.takeable_cards()
            if takeable and (rng.random() < 0.5 or not state.stock):
                state.fast_take(rng.choice(takeable))
            else:
                state.fast_draw()
        rounds += 1


def checked() -> None:
    from yaniv import Game

    for seed in range(40):
        game = Game("standard", players=3, seed=seed)
        for _ in range(3000):
            if game.over:
                break
            state = game.round
            if state.is_over:
                game.next_round()
                continue
            seat = state.current
            legal = state.legal_actions(seat)
            game.apply(seat, legal[-1] if state.can_yaniv() else legal[0])


def bots() -> None:
    from yaniv import Game
    from yaniv.bots import make_bot
    from yaniv.match import play_game

    for seed in range(8):
        game = Game("standard", players=3, seed=seed)
        play_game(game, [make_bot("greedy"), make_bot("random"), make_bot("heuristic")])


def startup_env() -> None:
    """The imports of the ``env`` workload and its first reset (subtracted from it)."""
    from yaniv.env import raw_env

    raw_env(rules="standard", players=2).reset(seed=1)


def env() -> None:
    from yaniv.env import raw_env

    e = raw_env(rules="standard", players=2)
    e.reset(seed=1)
    pick = random.Random(1).randrange
    for _ in range(5000):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.reset()
            continue
        legal = obs["action_mask"].nonzero()[0]
        e.step(int(legal[pick(len(legal))]))


def count(src: str, work: str) -> int:
    """Instructions of one workload in the tree at *src*, under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = dict(os.environ, PYTHONPATH=src, PYTHONHASHSEED="0")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
             "--inner", work],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if run.returncode != 0:
            raise SystemExit(f"valgrind failed on {work} in {src}: {run.stderr.strip()[-400:]}")
        m = re.search(r"^summary:\s+(\d+)", out.read_text(), re.M)
        if m is None:
            raise SystemExit(f"no callgrind summary for {work} in {src}")
        return int(m.group(1))


_STARTUP = {"env": "startup_env"}
"""The start-up each workload's count is taken after (default ``startup``)."""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--src", action="append", help="a source tree's src folder (repeat to compare)")
    parser.add_argument("--work", default=",".join(WORK), help=f"workloads (default {','.join(WORK)})")
    parser.add_argument("--inner", choices=(*WORK, "startup", "startup_env"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        inner = {"engine": engine, "checked": checked, "bots": bots, "env": env}
        {**inner, "startup": startup, "startup_env": startup_env}[args.inner]()
        return
    trees = args.src or [str(Path(__file__).resolve().parent.parent / "src")]
    works = args.work.split(",")
    for work in works:
        if work not in WORK:
            parser.error(f"--work: unknown workload {work!r}; workloads are: {', '.join(WORK)}")
    for src in trees:
        # Checked before valgrind starts: a folder without the package would silently run
        # the installed yaniv instead, for minutes, and report it as that tree's count.
        if not (Path(src) / "yaniv" / "__init__.py").is_file():
            parser.error(f"--src {src!r}: not a source tree's src folder (no yaniv/__init__.py in it)")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (apt-get install valgrind)")
    firsts = {_STARTUP.get(w, "startup") for w in works}
    base = {first: [count(src, first) for src in trees] for first in firsts}
    for work in works:
        start = base[_STARTUP.get(work, "startup")]
        counts = [count(src, work) - b for src, b in zip(trees, start, strict=True)]
        line: dict[str, object] = {"work": work, "Ir": dict(zip(trees, counts, strict=True))}
        if len(counts) == 2:
            line["ratio"] = round(counts[1] / counts[0], 4)
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
