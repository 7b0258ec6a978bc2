"""The arena (seat-rotated duplicate matches and their statistics), `yaniv arena` and `yaniv odds`."""

from __future__ import annotations

import io
import itertools
import json
import math
import multiprocessing
import os
import signal
from pathlib import Path

import pytest

from yaniv.arena import (
    Report,
    elo_ratings,
    make_arena_bot,
    percentile,
    plot,
    run_arena,
    wilson_interval,
)
from yaniv.arena.run import _DealTask, _play_deal
from yaniv.bots import ExpertBot, GreedyBot
from yaniv.bots.model import STAGES, call_success_probability, stage_of
from yaniv.bots.search import LEVELS
from yaniv.cli import main
from yaniv.rules import Rules


@pytest.fixture(scope="module")
def tiny() -> Report:
    return run_arena("standard", ["random", "greedy"], games=8, seed=1, players=2, workers=1)


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


# ----------------------------------------------------------------- statistics


def test_tiny_run_is_deterministic(tiny: Report) -> None:
    again = run_arena("standard", ["random", "greedy"], games=8, seed=1, players=2, workers=1)
    assert again.to_dict(timing=False) == tiny.to_dict(timing=False)
    other = run_arena("standard", ["random", "greedy"], games=8, seed=2, players=2, workers=1)
    assert other.to_dict(timing=False) != tiny.to_dict(timing=False)


def test_tiny_run_sums_are_consistent(tiny: Report) -> None:
    assert tiny.deals == 4 and tiny.games == 8 and tiny.players == 2
    assert [b.bot for b in tiny.bots] == ["random", "greedy"]
    assert all(b.games == tiny.games for b in tiny.bots)
    assert sum(b.wins for b in tiny.bots) == pytest.approx(tiny.games)
    assert sum(b.calls for b in tiny.bots) <= tiny.rounds
    for b in tiny.bots:
        assert b.rounds == tiny.rounds  # heads-up: both seats play every round
        assert 0 <= b.rounds_won <= b.rounds
        assert 0 <= b.assafed <= b.calls
        assert len(b.decision_ms) > 0
        assert all(t >= 0 for t in b.decision_ms)
        assert b.curve_counts[0] == b.games and b.curve_counts == sorted(b.curve_counts, reverse=True)
    # a round has at most one winner heads-up, and a decided round has one
    assert sum(b.rounds_won for b in tiny.bots) <= tiny.rounds
    data = tiny.to_dict()
    json.dumps(data)
    assert data["bots"][1]["decision_ms"]["p95"] >= data["bots"][1]["decision_ms"]["p50"]
    assert "decision_ms" not in tiny.to_dict(timing=False)["bots"][0]
    text = tiny.table()
    assert "random" in text and "greedy" in text and "95% CI" in text


def test_an_interrupt_ends_the_workers_and_raises() -> None:
    """Ctrl-C during a parallel run: KeyboardInterrupt at once, no worker left, the handler restored.

    The interrupt is only noted while the pool's own code runs (raised there it could
    leave a lock held and hang the shutdown: a CI run hung so).
    """
    before = signal.getsignal(signal.SIGINT)
    seen: list[int] = []

    def progress(done: int) -> None:
        seen.append(done)
        if len(seen) == 1:
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        run_arena("standard", ["greedy", "random"], 4000, 1, players=2, workers=2, progress=progress)
    assert len(seen) < 20, "stopped at once, not after the deals already handed out"
    assert multiprocessing.active_children() == []
    assert signal.getsignal(signal.SIGINT) is before


def test_workers_do_not_change_the_report(tiny: Report) -> None:
    parallel = run_arena("standard", ["random", "greedy"], games=8, seed=1, players=2, workers=2)
    assert parallel.to_dict(timing=False) == tiny.to_dict(timing=False)
    assert parallel.workers == 2


def test_ci_is_in_range_and_contains_the_win_rate(tiny: Report) -> None:
    for b in tiny.bots:
        lo, hi = b.ci
        assert 0.0 <= lo <= b.win_rate <= hi <= 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    for wins, games in ((0, 10), (10, 10), (3.5, 7), (1, 1000)):
        lo, hi = wilson_interval(wins, games)
        assert 0.0 <= lo <= wins / games <= hi <= 1.0
    narrow, wide = wilson_interval(500, 1000), wilson_interval(5, 10)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_every_slot_meets_the_same_deal_from_every_seat() -> None:
    task = _DealTask(Rules.from_spec("standard"), ("greedy", "random", "random"), 5, 0, 2000, False)
    records = _play_deal(task)
    assert [r.rotation for r in records] == [0, 1, 2]
    assert all(r.seed == 5 for r in records)
    for slot in range(3):
        assert sorted(r.slot_seats[slot] for r in records) == [0, 1, 2]


def test_a_short_lineup_fills_the_table_with_its_last_bot() -> None:
    report = run_arena("standard", ["greedy", "random"], games=3, seed=3, players=4)
    assert report.lineup == ["greedy", "random", "random", "random"]
    assert report.games == 4 and report.deals == 1
    greedy, random_ = report.bot("greedy"), report.bot("random")
    assert (greedy.seats, greedy.games, random_.seats, random_.games) == (1, 4, 3, 12)
    assert greedy.wins + random_.wins == pytest.approx(report.games)
    assert "rounded up" in report.table()


def test_capped_games_are_counted_and_still_won() -> None:
    report = run_arena("standard", ["random", "greedy"], games=4, seed=1, players=2, turn_cap=3)
    assert report.capped == report.games
    assert all(b.capped == report.games for b in report.bots)
    assert sum(b.wins for b in report.bots) == pytest.approx(report.games)


def test_elo_favours_greedy_over_random() -> None:
    report = run_arena("standard", ["random", "greedy"], games=40, seed=11, players=2)
    greedy, random_ = report.bot("greedy"), report.bot("random")
    assert greedy.win_rate > 0.8
    assert greedy.elo > random_.elo + 200
    assert (greedy.elo + random_.elo) / 2 == pytest.approx(1500)


def test_elo_fit() -> None:
    even = elo_ratings({("a", "b"): 10.0, ("b", "a"): 10.0}, ["a", "b"])
    assert even["a"] == pytest.approx(1500) and even["b"] == pytest.approx(1500)
    # 75 : 25 (plus one virtual draw) is odds of 3:1, about 191 Elo points
    r = elo_ratings({("a", "b"): 75.0, ("b", "a"): 25.0}, ["a", "b"], prior_draws=0.0)
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(3))
    three = elo_ratings(
        {
            ("a", "b"): 8.0,
            ("b", "a"): 2.0,
            ("b", "c"): 8.0,
            ("c", "b"): 2.0,
            ("a", "c"): 9.0,
            ("c", "a"): 1.0,
        },
        ["a", "b", "c"],
    )
    assert three["a"] > three["b"] > three["c"]
    assert sum(three.values()) / 3 == pytest.approx(1500)
    assert elo_ratings({}, ["solo"]) == {"solo": pytest.approx(1500)}


def test_percentile() -> None:
    assert percentile([], 50) == 0.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == pytest.approx(2.5)
    assert percentile([1.0, 2.0, 3.0], 100) == 3.0
    assert percentile([7.0], 95) == 7.0


def test_bot_specs() -> None:
    assert isinstance(make_arena_bot("greedy"), GreedyBot)
    strong = make_arena_bot("expert:strong")
    assert isinstance(strong, ExpertBot) and strong.level == LEVELS["strong"]
    untimed = make_arena_bot("expert:fast", untimed=True)
    assert isinstance(untimed, ExpertBot) and untimed.level.max_seconds == math.inf
    for bad in ("wizard", "greedy:strong", "expert:godlike"):
        with pytest.raises(ValueError):
            make_arena_bot(bad)
    for empty in ("expert:", "heuristic:", "oracle: "):  # a level meant and none named: not the default
        with pytest.raises(ValueError, match="name a level after ':'"):
            make_arena_bot(empty)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"lineup": []}, "at least one bot"),
        ({"lineup": ["random", "greedy", "greedy"], "players": 2}, "do not fit"),
        ({"lineup": ["random"], "players": 9}, "players"),
        ({"games": 0}, "at least one game"),
        ({"workers": 0}, "worker"),
        ({"lineup": ["wizard"]}, "unknown bot"),
    ],
)
def test_bad_arena_arguments(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"rules": "standard", "lineup": ["random", "greedy"], "games": 2}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        run_arena(**args)  # type: ignore[arg-type]


def test_plot(tiny: Report, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "arena.png"
    plot(tiny, str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ----------------------------------------------------------------- the opponent model


def test_call_success_probability_is_monotone() -> None:
    for stage in (0, 3, STAGES - 1):
        by_value = [call_success_probability(v, [(3, 0, 0), (4, 0, 0)], stage) for v in range(0, 16)]
        assert all(0.0 <= p <= 1.0 for p in by_value)
        assert all(a >= b for a, b in itertools.pairwise(by_value))
        assert by_value[0] > by_value[-1]
        by_cards = [call_success_probability(5, [(c, 0, 0)], stage) for c in range(1, 8)]
        assert all(a <= b for a, b in itertools.pairwise(by_cards))
        assert by_cards[0] < by_cards[-1]
    # a tie is safe when ties do not Assaf; more opponents is never safer
    assert call_success_probability(5, [(2, 0, 0)], 2, assaf_on_tie=False) >= call_success_probability(
        5, [(2, 0, 0)], 2
    )
    assert call_success_probability(5, [(2, 0, 0), (2, 0, 0)], 2) <= call_success_probability(
        5, [(2, 0, 0)], 2
    )
    assert stage_of(0, 3) == 0 and stage_of(7, 3) == 2 and stage_of(1000, 3) == STAGES - 1


# ----------------------------------------------------------------- command line


def test_cli_arena_writes_json_and_the_table(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    code, text = run(
        "arena",
        "--bots",
        "random,greedy",
        "--players",
        "2",
        "--games",
        "3",
        "--seed",
        "4",
        "--json",
        str(path),
    )
    assert code == 0
    assert "4 games of standard, 2 players: 2 deals x 2 seat rotations (3 requested" in text
    assert "greedy" in text and f"wrote {path}" in text
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["games"] == 4 and [b["bot"] for b in data["bots"]] == ["random", "greedy"]
    direct = run_arena("standard", ["random", "greedy"], games=3, seed=4, players=2)
    data.pop("workers"), data.pop("seconds")
    for b in data["bots"]:
        b.pop("decision_ms")
    assert data == direct.to_dict(timing=False)


def test_cli_arena_json_to_stdout() -> None:
    code, text = run("arena", "--bots", "greedy,random", "--games", "2", "--json", "-")
    assert code == 0
    data = json.loads(text)
    assert data["players"] == 2 and data["lineup"] == ["greedy", "random"]


def test_cli_odds_json() -> None:
    code, text = run("odds", "--value", "5", "--cards", "3,5", "--turn", "6", "--players", "3", "--json")
    assert code == 0
    data = json.loads(text)
    expected = call_success_probability(5, [(3, 0, 0), (5, 0, 0)], stage_of(6, 3))
    assert data["success"] == pytest.approx(expected, abs=1e-6)
    assert data["stage"] == 2 and data["callable"] is True
    code, text = run(
        "odds",
        "--value",
        "5",
        "--cards",
        "3,5",
        "--seen-values",
        "0,2",
        "--seen-counts",
        "0,1",
        "--turn",
        "6",
    )
    assert code == 0 and "succeeds with probability" in text
    code, text = run("odds", "--value", "9", "--cards", "2")
    assert "may not call" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["arena", "--bots", "wizard"], "unknown bot"),
        (["arena", "--bots", "greedy:strong"], "no levels"),
        (["arena", "--bots", "random,greedy,random", "--players", "2"], "do not fit"),
        (["arena", "--games", "0"], "--games"),
        (["arena", "--workers", "0"], "--workers"),
        (["arena", "--rules", "nope"], "unknown preset"),
        (["arena", "--players", "9"], "2 to 5 players"),
        (["odds", "--value", "5", "--cards", "3,x"], "--cards"),
        (["odds", "--value", "5", "--cards", "3,4", "--seen-counts", "1"], "one number per opponent"),
        (["odds", "--value", "5", "--cards", "3", "--seen-counts", "4"], "cannot be seen"),
        (["odds", "--value", "5", "--cards", "3", "--seen-values", "5"], "not a possible value"),
        (["odds", "--value", "-1", "--cards", "3"], "--value"),
        (["odds", "--value", "5", "--cards", "0"], "at least 1 card"),
        (["odds", "--value", "5", "--cards", "3,3,3", "--players", "3"], "do not fit"),
        (["odds", "--value", "5", "--cards", "3", "--turn", "-2"], "--turn"),
    ],
)
def test_bad_arguments_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv, out=io.StringIO())
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_help_of_the_new_commands(capsys: pytest.CaptureFixture[str]) -> None:
    for cmd in ("arena", "odds"):
        with pytest.raises(SystemExit) as exc:
            main([cmd, "--help"], out=io.StringIO())
        assert exc.value.code == 0
        assert "usage: yaniv" in capsys.readouterr().out
