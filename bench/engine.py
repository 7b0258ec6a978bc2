"""Engine speed: seeded random games with the standard rules (issue: >= 150,000 turns/s).

Policy: call Yaniv whenever allowed; otherwise a discard uniformly among the legal
discards, then the stock or the pile with equal chance, a takeable card uniformly.
A turn is one discard+take or one call. Prints one JSON line per configuration (player
count and decks): ``turns_per_s`` through the fast path (the loop in this script),
``playout_turns_per_s`` the same policy looped inside the engine
(``RoundState.random_playout``), ``checked_turns_per_s``
through the checked API (``legal_actions()`` and ``Game.apply``, events logged),
``legal_actions_per_s`` (legal discard generation) and ``legal_action_objects_per_s``
(``legal_actions()`` as Action values).

``--compare`` measures the pure-Python and the compiled build (mypyc) in the same run,
each in its own process, and prints both figures and their ``ratio`` (compiled / pure).
The compiled build is made in ``build/compiled`` (a copy of the sources, rebuilt when
they change), so the working tree's own modules stay pure.

``--repeat N`` lets the two builds take turns N times per configuration (a pure run, then a
compiled one): each pair runs under the same load, and the line gives the medians, the
median of the pairs' ratios and their range, so a busy machine skews the ratio less.

    python bench/engine.py [--seconds S] [--players 2,4] [--decks 1] [--rules SPEC] [--compare [--repeat N]]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from yaniv import COMPILED, Game, RoundState, Rules

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "compiled"


def play_rounds(rules: Rules, players: int, seconds: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    game_seed = seed
    turns = rounds = legal_calls = 0
    elapsed = 0.0
    while elapsed < seconds:
        t0 = time.perf_counter()
        game = Game(rules, players=players, seed=game_seed)
        game_seed += 1
        while True:
            state = game.round
            state.log = None  # the benchmark measures the engine, not event logging
            choice = rng.choice
            rand = rng.random
            while True:
                if state.can_yaniv():
                    state.fast_yaniv()
                    turns += 1
                    break
                discards = state.discards()
                legal_calls += 1
                state.fast_discard(choice(discards))
                takeable = state.takeable_cards()
                if takeable and (rand() < 0.5 or not state.stock):
                    state.fast_take(choice(takeable))
                else:
                    state.fast_draw()
                turns += 1
            rounds += 1
            game._end_round(state.result)  # type: ignore[arg-type]
            if game.over:
                break
            game.next_round()
        elapsed += time.perf_counter() - t0
    return {"turns": turns, "rounds": rounds, "legal": legal_calls, "seconds": elapsed}


def legal_rate(rules: Rules, players: int, seconds: float, seed: int) -> float:
    """legal_actions_per_s: full legal discard generation on positions met in play."""
    game = Game(rules, players=players, seed=seed)
    states: list[RoundState] = []
    rng = random.Random(seed)
    state = game.round
    state.log = None
    while len(states) < 2000:
        if state.is_over or state.can_yaniv():
            game = Game(rules, players=players, seed=rng.randrange(1 << 30))
            state = game.round
            state.log = None
            continue
        states.append(state.copy())
        state.fast_discard(rng.choice(state.discards()))
        state.fast_draw()
    count = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for s in states:
            s.discards()
        count += len(states)
    return count / (time.perf_counter() - t0)


def legal_action_objects_rate(rules: Rules, players: int, seconds: float, seed: int) -> float:
    """The checked API: state.legal_actions() as Action values, per second."""
    game = Game(rules, players=players, seed=seed)
    count = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(1000):
            game.round.legal_actions()
        count += 1000
    return count / (time.perf_counter() - t0)


def checked_rate(rules: Rules, players: int, seconds: float, seed: int) -> float:
    """checked_turns_per_s: random play through legal_actions() and Game.apply (events on)."""
    rng = random.Random(seed)
    # the harness's own work kept small (it runs interpreted in both builds): one random
    # number a choice, and Yaniv, when allowed, is the first action listed
    rand = rng.random
    turns = 0
    elapsed = 0.0
    game_seed = seed
    while elapsed < seconds:
        t0 = time.perf_counter()
        game = Game(rules, players=players, seed=game_seed)
        game_seed += 1
        while not game.over:
            state = game.round
            if state.is_over:
                game.next_round()
                continue
            actions = state.legal_actions()
            first = actions[0]
            pick = first if first.type == "yaniv" else actions[int(rand() * len(actions))]
            game.apply(state.current, pick)
            if state.phase_name != "after_discard":
                turns += 1
        elapsed += time.perf_counter() - t0
    return turns / elapsed


def playout_rate(rules: Rules, players: int, seconds: float, seed: int) -> float:
    """playout_turns_per_s: the same policy played by RoundState.random_playout (the loop in the engine)."""
    rng = random.Random(seed)
    turns = 0
    elapsed = 0.0
    game_seed = seed
    while elapsed < seconds:
        t0 = time.perf_counter()
        game = Game(rules, players=players, seed=game_seed)
        game_seed += 1
        while True:
            state = game.round
            state.log = None
            turns += state.random_playout(rng)
            game._end_round(state.result)  # type: ignore[arg-type]
            if game.over:
                break
            game.next_round()
        elapsed += time.perf_counter() - t0
    return turns / elapsed


def measure(rules: Rules, players: int, seconds: float, seed: int) -> dict[str, object]:
    r = play_rounds(rules, players, seconds, seed)
    return {
        "rules": str(rules),
        "players": players,
        "build": "compiled" if COMPILED else "pure",
        "turns_per_s": round(r["turns"] / r["seconds"]),
        "rounds_per_s": round(r["rounds"] / r["seconds"], 1),
        "playout_turns_per_s": round(playout_rate(rules, players, seconds / 2, seed)),
        "checked_turns_per_s": round(checked_rate(rules, players, seconds / 2, seed)),
        "legal_actions_per_s": round(legal_rate(rules, players, seconds / 2, seed)),
        "legal_action_objects_per_s": round(legal_action_objects_rate(rules, players, seconds / 4, seed)),
        "turns": r["turns"],
        "rounds": r["rounds"],
    }


def _sources() -> list[Path]:
    package = sorted(
        p
        for p in (ROOT / "src" / "yaniv").rglob("*")
        if p.is_file() and p.suffix != ".so" and "__pycache__" not in p.parts
    )
    return [ROOT / "setup.py", ROOT / "pyproject.toml", ROOT / "README.md", *package]


def build_compiled() -> Path:
    """The ``src`` folder of a compiled build of this checkout, rebuilt when the engine changes.

    Every file is copied afresh; the modules are compiled again only when the build
    script or a module of the core or the bots (what setup.py compiles and type-checks
    with) has changed since the last build.
    """
    files = _sources()
    digest = hashlib.sha256()
    for f in files:
        rel = f.relative_to(ROOT)
        if rel.parts[:2] != ("src", "yaniv") or len(rel.parts) == 3 or rel.parts[2] == "bots":
            digest.update(str(rel).encode() + b"\0" + f.read_bytes())
    stamp = BUILD / "SOURCES.sha256"
    fresh = stamp.exists() and stamp.read_text() == digest.hexdigest()
    if not fresh:
        print(f"building the compiled modules in {BUILD.relative_to(ROOT)} ...", file=sys.stderr, flush=True)
        shutil.rmtree(BUILD, ignore_errors=True)
    for f in files:
        dest = BUILD / f.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, dest)
    if fresh:
        return BUILD / "src"
    env = os.environ | {"YANIV_COMPILE": "1"}
    done = subprocess.run(
        [sys.executable, "setup.py", "--quiet", "build_ext", "--inplace"],
        cwd=BUILD,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(f"bench/engine.py: the compiled build failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    stamp.write_text(digest.hexdigest())
    return BUILD / "src"


def run_in_build(script: str, src: Path, pure: bool, argv: list[str]) -> dict[str, object]:
    """Run the benchmark *script* with *argv* in a new process on the build in *src*.

    Returns its last JSON line, after checking that it ran the build asked for (its
    ``build`` field): a compiled build that fails to import would otherwise be measured
    as pure Python without a word.
    """
    env = {k: v for k, v in os.environ.items() if k != "YANIV_PURE"} | {"PYTHONPATH": str(src)}
    if pure:
        env["YANIV_PURE"] = "1"
    cmd = [sys.executable, script, *argv]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    expected = "pure" if pure else "compiled"
    if result["build"] != expected:
        sys.exit(f"{Path(script).name}: expected the {expected} build in {src}, got {result['build']}")
    return result


def run_build(src: Path, pure: bool, args: argparse.Namespace, rules: str, players: int) -> dict[str, object]:
    """One configuration measured in a new process on the build in *src*."""
    argv = ["--seconds", str(args.seconds), "--players", str(players)]
    argv += ["--rules", rules, "--seed", str(args.seed), "--decks", "0"]
    return run_in_build(__file__, src, pure, argv)


def _rate(result: dict[str, object], key: str) -> int:
    """The figure *key* of one run's JSON line (a whole number of turns or calls a second)."""
    value = result.get(key)
    if not isinstance(value, int):
        sys.exit(f"bench/engine.py: a run's {key} is {value!r}, not a whole number")
    return value


def compare(args: argparse.Namespace, configs: list[tuple[Rules, int]]) -> None:
    compiled_src = build_compiled()
    pure_src = ROOT / "src"
    keys = (
        "turns_per_s",
        "playout_turns_per_s",
        "checked_turns_per_s",
        "legal_actions_per_s",
        "legal_action_objects_per_s",
    )
    for rules, players in configs:
        # the builds take turns, a pure run and then a compiled one, --repeat times: each
        # pair ran under the same load, so a pair's ratio is fair even on a busy machine
        spec = str(rules)
        pairs = []
        for _ in range(args.repeat):
            pure = run_build(pure_src, True, args, spec, players)
            pairs.append((pure, run_build(compiled_src, False, args, spec, players)))
        line: dict[str, object] = {"rules": str(rules), "players": players, "repeat": args.repeat}
        for key in keys:
            pure_figures = [_rate(pure, key) for pure, _ in pairs]
            fast_figures = [_rate(fast, key) for _, fast in pairs]
            ratios = sorted(c / p for p, c in zip(pure_figures, fast_figures, strict=True))
            line[key] = {
                "pure": round(statistics.median(pure_figures)),
                "compiled": round(statistics.median(fast_figures)),
                "ratio": round(statistics.median(ratios), 2),
                "ratio_range": [round(ratios[0], 2), round(ratios[-1], 2)],
            }
        print(json.dumps(line), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="time per setting (default 5)")
    parser.add_argument("--players", default="2,4", help="player counts (default 2,4)")
    parser.add_argument("--rules", default="standard", help="rule set (default standard)")
    parser.add_argument("--decks", default="1", help="decks, e.g. 1,2 (default 1; 0: as the rule set says)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", action="store_true", help="pure and compiled build, side by side")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="with --compare: pure and compiled runs taking turns this many times; the figures are"
        " medians, ratio the median of the pairs' ratios, ratio_range their extremes (default 1)",
    )
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, not {args.repeat}")
    if not (math.isfinite(args.seconds) and 0 < args.seconds <= 86_400):
        parser.error(f"--seconds must be more than 0 and at most 86400, not {args.seconds}")
    configs = []
    try:
        base = Rules.from_spec(args.rules)
        for decks in (int(d) for d in args.decks.split(",")):
            rules = base if decks == 0 or decks == base.num_decks else base.replace(num_decks=decks)
            for players in (int(p) for p in args.players.split(",")):
                problem = rules.players_problem(players)
                if problem:
                    parser.error(f"--players {players}: {problem}")
                configs.append((rules, players))
    except ValueError as e:  # a rule set, a deck count or a number that cannot be read
        parser.error(f"--rules {args.rules!r}, --decks {args.decks!r}, --players {args.players!r}: {e}")
    if args.compare:
        compare(args, configs)
        return
    for rules, players in configs:
        print(json.dumps(measure(rules, players, args.seconds, args.seed)), flush=True)


if __name__ == "__main__":
    main()
