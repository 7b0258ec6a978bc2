"""The arena on Ray (issue 18): the same games, game for game, as the local pool; cmd: bots on the workers.

A private local cluster (two CPUs, no dashboard) is started once for the module.
Skipped with a reason where Ray is not installed (the ``ray`` extra; CI installs it).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from yaniv.arena import run_arena
from yaniv.bots import external_bot_options
from yaniv.cli import main

ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'yaniv[ray]')")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "mybot.py"


def test_an_unreachable_cluster_is_one_clear_line(tmp_path: Path) -> None:
    """No cluster to join ('auto' with none running): exit 2, one line naming --ray, no traceback.

    First in the module: before its local cluster is up (which 'auto' would find).
    """
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    run = subprocess.run(
        [sys.executable, "-m", "yaniv.cli", "arena", "--games", "2", "--bots", "greedy", "--ray", "auto"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.startswith("yaniv arena: error: --ray: cannot reach the Ray cluster 'auto'")
    assert len(run.stderr.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="error")
    try:
        yield
    finally:
        ray.shutdown()


def test_a_match_on_ray_plays_the_games_of_the_local_pool(cluster: None) -> None:
    # the expert at its fast level: the games, not its strength, are what is compared here
    # (its default level, untimed and pure, made this test the suite's slowest under load)
    lineup = ["expert:fast", "heuristic", "greedy"]
    local = run_arena("finnish", lineup, 9, 5, players=3, workers=2, untimed=True)
    done: list[int] = []
    on_ray = run_arena("finnish", lineup, 9, 5, players=3, untimed=True, ray="", progress=done.append)
    assert on_ray.to_dict(timing=False) == local.to_dict(timing=False)  # every figure, game for game
    assert done == [3, 6, 9]  # the progress bar moves deal by deal


def test_external_bots_start_on_the_workers_with_their_options(cluster: None, tmp_path: Path) -> None:
    log = tmp_path / "stderr.log"
    spec = f"cmd:{sys.executable} {EXAMPLE}"
    with external_bot_options(time_limit_ms=3000, stderr=log):
        report = run_arena("standard", [spec, "greedy"], 4, 1, players=2, ray="")
    (mine,) = [b for b in report.bots if b.bot == spec]
    assert mine.games == 4 and mine.failures == 0
    assert log.exists()  # the option reached the workers: the programs' stderr went to this file


def test_yaniv_arena_ray_runs_on_the_cluster_already_up(cluster: None, tmp_path: Path) -> None:
    out = io.StringIO()
    code = main(["arena", "--games", "4", "--bots", "greedy,random", "--ray", "--json", "-"], out=out)
    assert code == 0
    assert '"games": 4' in out.getvalue()
