"""The two builds of one source: pure Python and compiled (mypyc, DESIGN.md §6).

``make test`` runs the suite on the pure-Python modules (``YANIV_PURE=1``);
``make test-compiled`` builds the compiled ones in place and runs it again on them.
The test that both builds play the same games needs the compiled build and is skipped
without it.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import yaniv
from yaniv import Game, RoundState

SRC = Path(__file__).parent.parent / "src"

# Seeded games between bots, every event printed as one JSON line: the whole record but
# the header's clock time. The expert searches without its time cap, so that its
# decisions depend on the seed alone, not on how fast the build is.
GAMES = r"""
import dataclasses, json, math, sys
import yaniv
from yaniv import Game
from yaniv.bots import make_bot
from yaniv.match import play_game

print(yaniv.build_name())
for rules, players, specs, seed in [
    ("standard", 2, ["random", "greedy"], 1),
    ("standard(num_decks=2)", 4, ["heuristic", "random", "greedy", "heuristic"], 2),
    ("jdross(score_limit=40)", 3, ["heuristic", "greedy", "random"], 3),
    ("slovenian-yanef(score_limit=60)", 3, ["heuristic", "random", "greedy"], 4),
    ("standard(score_limit=25)", 2, ["expert:fast", "heuristic"], 5),
]:
    bots = [make_bot(s) for s in specs]
    for bot in bots:
        if hasattr(bot, "level"):
            bot.level = dataclasses.replace(bot.level, max_seconds=math.inf)
    game = Game(rules, players=players, seed=seed)
    play_game(game, bots)
    for event in game.events:
        print(json.dumps({k: v for k, v in event.items() if k != "started"}, sort_keys=True))
"""


def _run(pure: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "YANIV_PURE"}
    if pure:
        env["YANIV_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", GAMES], capture_output=True, text=True, env=env, timeout=600, check=True
    )
    return out.stdout.splitlines()


@pytest.mark.skipif(
    not yaniv.COMPILED,
    reason="the pure-Python build is under test: `make test-compiled` compares it with the compiled one",
)
def test_the_compiled_and_the_pure_build_play_the_same_games() -> None:
    compiled, pure = _run(pure=False), _run(pure=True)
    assert compiled[0].endswith("(compiled)") and pure[0].endswith("(pure Python)")
    assert len(compiled) > 500  # five whole games
    assert compiled[1:] == pure[1:]


def test_yaniv_pure_forces_the_pure_python_modules() -> None:
    env = os.environ | {"YANIV_PURE": "1"}
    code = "import yaniv, yaniv.bots.search as s; print(yaniv.COMPILED, yaniv.state.__file__, s.__file__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    flag, state_file, search_file = out.stdout.split()
    assert flag == "False" and state_file.endswith("state.py") and search_file.endswith("search.py")


def test_version_says_which_build_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "yaniv.cli", "--version"], capture_output=True, text=True, check=True
    )
    build = "compiled" if yaniv.COMPILED else "pure Python"
    assert out.stdout.strip() == f"yaniv {yaniv.__version__} ({build})"
    assert yaniv.build_name() == out.stdout.strip()


def test_no_stale_compiled_module_sits_beside_a_newer_source() -> None:
    # an extension module wins over the .py of the same name: one built before the
    # source last changed would run old code without a word
    stale = []
    for so in SRC.rglob("*.so"):
        py = so.with_name(so.name.split(".")[0] + ".py")
        if py.exists() and py.stat().st_mtime > so.stat().st_mtime:
            stale.append(so.name)
    assert not stale, f"compiled modules older than their source: {stale}; `make compiled` or `make clean`"


def test_a_copy_has_every_field_of_the_state() -> None:
    # RoundState.copy names each field (a compiled class has no __slots__ to walk at run
    # time): a new field left out of it would be missing or shared in every copy
    game = Game("standard(quick_discard=same_rank)", players=3, seed=4)
    state = game.round
    rng = random.Random(4)
    for _ in range(7):
        state.apply(state.current, rng.choice(state.legal_actions()))
    copy = state.copy()
    names = RoundState.__slots__ if not yaniv.COMPILED else [n for n in dir(state) if not n.startswith("__")]
    for name in names:
        value = getattr(state, name)
        if callable(value):
            continue
        if name == "_undo":
            assert getattr(copy, name) == []
        elif name == "_shared_rng":
            assert getattr(copy, name) is True
        else:
            assert getattr(copy, name) == value, name
        if isinstance(value, list) and name != "_undo":
            assert getattr(copy, name) is not value, f"{name} is shared with the copy"
    assert copy == state


@pytest.mark.parametrize("rules", ["standard", "standard(num_decks=2)", "jdross", "slovenian-yanef"])
def test_a_random_playout_plays_legal_moves_to_the_end_of_the_round(rules: str) -> None:
    # RULES.md S7-S11: the record of the played-out round checks move by move
    import io

    from yaniv.record import check, write_record

    game = Game(rules, players=4, seed=9)
    state = game.round
    turns = state.random_playout(random.Random(9))
    assert state.is_over and state.result is not None
    assert turns == state.turns > 0
    game._settle()
    buffer = io.StringIO()
    write_record(game.events, buffer)
    replayed = check(buffer.getvalue().splitlines())
    assert replayed.round.result == state.result


def test_a_random_playout_stops_at_its_turn_cap() -> None:
    game = Game("standard(yaniv_threshold=0)", players=2, seed=3)
    assert game.round.random_playout(random.Random(3), max_turns=5) == 5
    assert not game.round.is_over and game.round.turns == 5


def test_the_engines_shuffle_is_random_shuffle_step_for_step() -> None:
    # deals and reshuffles (S4, S9) must stay those of the seed in either build
    from yaniv.cards import shuffle

    for seed in range(40):
        for size in (0, 1, 2, 5, 53, 54, 107, 108):
            mine, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(size)), list(range(size))
            shuffle(mine, a)
            theirs.shuffle(b)
            assert a == b
            assert mine.random() == theirs.random()  # the generators are left alike too

    class Reversing:
        def shuffle(self, x: list[int]) -> None:
            x.reverse()

    items = [1, 2, 3]
    shuffle(Reversing(), items)
    assert items == [3, 2, 1]


def test_both_shuffle_replicas_are_random_shuffle_step_for_step() -> None:
    # S4, S9: a compiled build shuffles with outputs fetched in batches, pure Python with
    # a call a draw; whichever this build runs, the other must agree too
    from yaniv.cards import _replica_batched, _replica_stepwise

    for seed in range(200):
        for size in (0, 1, 2, 3, 8, 9, 17, 54, 100, 108, 256, 257, 300):
            theirs, batched, stepwise = random.Random(seed), random.Random(seed), random.Random(seed)
            a, b, c = list(range(size)), list(range(size)), list(range(size))
            theirs.shuffle(a)
            _replica_batched(batched, b)
            _replica_stepwise(stepwise, c, size)
            assert a == b == c, (seed, size)
            after = theirs.random()
            assert batched.random() == after and stepwise.random() == after, (seed, size)
