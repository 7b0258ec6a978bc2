"""``yaniv bot NAME[:LEVEL]``: a built-in bot served over the bot protocol (docs/bot-protocol.md).

Tested like any external bot: through the arena, against the same bot in-process.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from yaniv.arena import run_arena
from yaniv.bots.program import view_from_dict
from yaniv.game import Game

SERVED = f"cmd:{shlex.quote(sys.executable)} -m yaniv.cli bot"
FROZEN = Path(__file__).resolve().parent.parent / "bench" / "frozen_bot.py"
RULES = "standard(score_limit=60)"


def _run(args: list[str], text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "yaniv.cli", "bot", *args],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("players", [2, 4])
def test_served_heuristic_plays_as_the_heuristic_in_process(players: int) -> None:
    """The served heuristic makes the same moves as the in-process one, two decks included.

    The heuristic is deterministic, so a table where some seats are served through the
    protocol plays exactly the games of the all in-process table (same rounds and
    turns): the view rebuilt from JSON (physical ids of the two decks' copies, the
    takeable cards, the legal actions) is the view the bot sees in-process.
    """
    served = run_arena(RULES, ["heuristic", f"{SERVED} heuristic"], 2 * players, 3, players=players)
    local = run_arena(RULES, ["heuristic"], 2 * players, 3, players=players)
    assert (served.rounds, served.turns) == (local.rounds, local.turns)
    external = served.bots[1]
    assert external.external and external.games == 2 * players * (players - 1)
    assert external.fallback_decisions == 0 and external.failures == 0


def test_served_expert_through_the_arena() -> None:
    """`yaniv arena --bots 'expert,cmd:yaniv bot expert'`: every decision is the program's."""
    report = run_arena(RULES, ["expert", f"{SERVED} expert:fast --untimed"], 2, 5, players=2)
    external = report.bots[1]
    assert report.games == 2 and external.games == 2
    assert external.external and external.fallback_decisions == 0 and external.failures == 0


def test_frozen_bot_script_serves_the_current_package() -> None:
    """bench/frozen_bot.py (for old checkouts) also serves the package first on the path."""
    command = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(FROZEN))}"
    served = run_arena(RULES, ["heuristic", f"{command} heuristic"], 4, 3, players=4)
    local = run_arena(RULES, ["heuristic"], 4, 3, players=4)
    assert (served.rounds, served.turns) == (local.rounds, local.turns)
    assert served.bots[1].fallback_decisions == 0


def _decide(view: dict[str, object], k: int = 1) -> str:
    return json.dumps({"type": "decide", "id": k, "view": view, "legal": view["legal"]})


def test_bad_input_is_named_on_stderr_and_a_bad_view_answered_with_an_error() -> None:
    """Garbage lines are skipped with one stderr line each; a bad view gets an error answer."""
    first = Game(RULES, players=2, seed=1).round
    view = first.view(first.current).to_dict()
    broken = dict(view, hand=["ZZ"])
    lines = [
        "I am not JSON",
        "[1, 2]",
        json.dumps({"type": "event", "event": [1]}),  # before hello too: named, as §7 says
        json.dumps(
            {"type": "hello", "protocol": 1, "seat": view["seat"], "players": 2, "rules": view["rules"]}
        ),
        json.dumps({"type": "decide", "id": "x", "view": view}),
        _decide(broken, 2),
        _decide(dict(view, players=1), 3),
        _decide(view, 4),
        json.dumps({"type": "bye"}),
        _decide(view, 5),  # after bye: never read
    ]
    done = _run(["heuristic"], "\n".join(lines) + "\n")
    assert done.returncode == 0
    assert "Traceback" not in done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert out[0] == {"type": "ready", "name": "heuristic"}
    assert [m["type"] for m in out[1:]] == ["error", "error", "action"]
    assert out[1]["id"] == 2 and "'hand'" in out[1]["message"]
    assert out[2]["id"] == 3 and "'players'" in out[2]["message"]
    assert out[3]["id"] == 4 and out[3]["action"]["type"] in ("discard", "turn")
    err = done.stderr.splitlines()
    assert len(err) == 6 and all(line.startswith("yaniv bot heuristic: line ") for line in err)
    assert "line 3" in err[2] and "event object" in err[2]


def test_a_bad_spec_is_one_line_and_exit_2() -> None:
    """A bot that is not built in is refused before any input is read."""
    for spec in ("nosuch", "cmd:python x.py", "heuristic:strong"):
        done = _run([spec], "")
        assert done.returncode == 2, spec
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_view_round_trip_keeps_what_the_bots_read() -> None:
    """The rebuilt view has the same cards (by name), counts and legal actions as the original."""
    game = Game("standard", players=4, seed=11)  # two decks
    for _ in range(12):
        seat = game.round.current
        view = game.round.view(seat)
        again = view_from_dict(view.to_dict())
        assert again.to_dict() == view.to_dict()
        ids = [int(c) for c in again.hand] + [int(c) for g in again.discard_pile for c in g]
        assert len(ids) == len(set(ids))  # every card in sight its own physical id
        game.apply(seat, view.legal[-1])


def test_a_served_expert_follows_the_events_it_is_sent() -> None:
    """``event`` messages reach a served bot that follows the game: the expert reads the
    opponents' Yaniv calls from them (bots/reading.py); a malformed event is skipped."""
    from yaniv.bots import make_bot
    from yaniv.bots.base import bot_rngs
    from yaniv.bots.program import ProtocolServer
    from yaniv.events import redact

    game = Game(RULES, players=2, seed=4)
    bots = [make_bot("heuristic") for _ in range(2)]
    rngs = bot_rngs(4, 2)
    while not game.over:
        state = game.round
        if state.is_over:
            game.next_round()
            continue
        action = bots[state.current].act(state.view(state.current), rngs[state.current])
        assert action is not None
        game.apply(state.current, action)
    import io

    out, err = io.StringIO(), io.StringIO()
    server = ProtocolServer("expert", lambda: make_bot("expert:fast"), out, err)
    first = Game(RULES, players=2, seed=4).round
    view = first.view(0).to_dict()
    hello = {"type": "hello", "protocol": 1, "seat": 0, "players": 2, "rules": view["rules"]}
    server.handle(json.dumps(hello))
    server.handle(_decide(view, 1))  # a decision first: the expert learns the rules
    server.handle(json.dumps({"type": "event", "event": "not an event"}))
    server.handle(json.dumps({"type": "event", "event": {"type": "discard", "seat": "x"}}))
    for event in game.events[1:]:
        assert server.handle(json.dumps({"type": "event", "event": redact(event, 0)}))
    reader = server.bot.reader  # type: ignore[union-attr]
    assert reader.calls_read == sum(r.kind == "yaniv" for r in game.results) > 0
    assert "Traceback" not in err.getvalue() and err.getvalue().count("\n") == 1
