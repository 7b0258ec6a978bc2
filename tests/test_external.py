"""The bot protocol (docs/bot-protocol.md): external programs as bots, and their failures."""

from __future__ import annotations

import json
import os
import random
import shlex
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from yaniv.actions import Action
from yaniv.arena import run_arena
from yaniv.bots import HeuristicBot, make_bot
from yaniv.bots.external import GRACE_SECONDS, MAX_FAILURES_IN_A_ROW, ExternalBot, printable
from yaniv.game import Game
from yaniv.intent import legal_match
from yaniv.match import play_game
from yaniv.state import RoundState

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "mybot.py"
RULES = "standard(score_limit=50)"

# A well-behaved bot like examples/mybot.py (first legal action, Yaniv when legal) that
# misbehaves on the decision ids in BAD as MODE says. Stays silent on stdout otherwise.
TEMPLATE = """
import json, sys, time
MODE, BAD = {mode!r}, {bad!r}

def send(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        if MODE == "mute":
            continue
        send({{"type": "ready", "name": "test-" + MODE}})
        if MODE == "crash":
            sys.exit(3)
    elif message["type"] == "decide":
        legal = message["legal"]
        action = next((a for a in legal if a["type"] == "yaniv"), legal[0])
        if MODE == "turn" and action["type"] == "discard":
            action = {{"type": "turn", "discard": action["cards"], "take": "stock"}}
        if message["id"] in BAD:
            if MODE == "garbage":
                sys.stdout.write("I think I will discard the queen\\n")
                sys.stdout.flush()
                continue
            if MODE == "illegal":
                action = {{"type": "discard", "cards": ["QS", "QH", "QD", "QC", "KS"]}}
            if MODE == "slow":
                time.sleep(0.25)
        send({{"type": "action", "id": message["id"], "action": action}})
    elif message["type"] == "bye":
        break
"""


Script = Callable[..., list[str]]


@pytest.fixture
def script(tmp_path: Path) -> Script:
    """Write a misbehaving bot; returns a function (mode, bad ids) -> its argv."""

    def write(mode: str, bad: tuple[int, ...] = ()) -> list[str]:
        path = tmp_path / f"bot_{mode}.py"
        path.write_text(textwrap.dedent(TEMPLATE.format(mode=mode, bad=list(bad))), encoding="utf-8")
        return [sys.executable, str(path)]

    return write


def finish(bot: ExternalBot, seed: int = 1) -> Game:
    """Play a whole 2-player game of the external bot (seat 0) against greedy."""
    game = Game(RULES, players=2, seed=seed)
    stats = play_game(game, [bot, make_bot("greedy")])
    assert game.over and not stats.capped
    return game


def first_view(seed: int = 1) -> RoundState:
    return Game(RULES, players=2, seed=seed).round


def assert_fallback_used(bot: ExternalBot, seed: int = 1) -> None:
    """The bot's answer to the first decision is what the fallback bot plays."""
    state = first_view(seed)
    view = state.view(state.current)
    got = bot.act(view, random.Random(5))
    assert got == HeuristicBot().act(view, random.Random(5))
    assert bot.fallback_decisions == 1


# ---------------------------------------------------------------- the example bot


def test_example_bot_plays_whole_games_without_failure() -> None:
    bot = make_bot(f"cmd:{sys.executable} {EXAMPLE}")
    assert isinstance(bot, ExternalBot)
    try:
        for seed in (1, 2):
            finish(bot, seed)
        assert bot.failures == []
        assert bot.decisions > 20 and bot.fallback_decisions == 0
        assert bot.name == "mybot"
    finally:
        bot.close()
    assert not bot.alive


def test_example_bot_calls_yaniv_and_throws_the_highest_discard() -> None:
    with ExternalBot([sys.executable, str(EXAMPLE)]) as bot:
        low = RoundState.from_position(
            {"rules": "standard", "players": 2, "current": 0, "phase": "turn_start",
             "hands": [["AH", "2S", "3D"], ["KD"]], "stock": ["5C"], "discard_pile": [["KS"]]}
        )  # fmt: skip
        assert bot.act(low.view(0), random.Random(0)) == Action.yaniv()
        high = RoundState.from_position(
            {"rules": "standard", "players": 2, "current": 0, "phase": "turn_start",
             "hands": [["QH", "5S", "5D", "9C", "AC"], ["KD"]], "stock": ["5C"], "discard_pile": [["KS"]]}
        )  # fmt: skip
        assert str(bot.act(high.view(0), random.Random(0))) == "discard 5S 5D"
        assert bot.failures == []


def test_compound_turns_and_set_orders_are_accepted(script: Script) -> None:
    with ExternalBot(script("turn")) as bot:
        finish(bot)
        assert bot.failures == []
    state = RoundState.from_position(
        {"rules": "standard", "players": 2, "current": 0, "phase": "turn_start",
         "hands": [["7H", "7S", "7D", "8H", "9H"], ["KD"]], "stock": ["5C"], "discard_pile": [["KS"]]}
    )  # fmt: skip
    view = state.view(0)
    assert str(legal_match(view, Action.parse("7D 7H 7S"))) == "discard 7D 7H 7S"
    assert str(legal_match(view, Action.parse("9H 8H 7H"))) == "discard 7H 8H 9H"  # laid ascending
    assert legal_match(view, Action.parse("9H 7H")) is None  # not a discard in any order
    assert str(legal_match(view, Action.parse("7H 8H 9H; take KS"))) == "discard 7H 8H 9H; take KS"
    assert str(legal_match(view, Action.parse("7S; draw"))) == "discard 7S; draw"
    assert legal_match(view, Action.parse("7S; take QS")) is None
    assert legal_match(view, Action.parse("draw")) is None


# ---------------------------------------------------------------- misbehaving bots


def test_garbage_output_falls_back(script: Script) -> None:
    with ExternalBot(script("garbage", (1,)), time_limit_ms=2000) as bot:
        assert_fallback_used(bot)
        assert len(bot.failures) == 1
        assert "decision 1" in bot.failures[0] and "garbage" in bot.failures[0]
        assert "I think I will discard" in bot.failures[0]
        finish(bot)
        assert len(bot.failures) == 1 and bot.alive  # it answered properly afterwards


def test_illegal_action_falls_back(script: Script) -> None:
    with ExternalBot(script("illegal", (1,)), time_limit_ms=2000) as bot:
        assert_fallback_used(bot)
        assert len(bot.failures) == 1
        assert "illegal action" in bot.failures[0] and "QS QH QD QC KS" in bot.failures[0]
        finish(bot)
        assert len(bot.failures) == 1 and bot.alive


def test_late_answer_falls_back_and_is_ignored(script: Script) -> None:
    with ExternalBot(script("slow", (1,)), time_limit_ms=200) as bot:
        assert_fallback_used(bot)
        assert bot.failures == ["decision 1: timeout: no answer within 200 ms"]
        finish(bot)
        # The late answer to decision 1 is dropped, not taken for a later decision.
        assert all("timeout" in f for f in bot.failures) and bot.alive


def test_crash_falls_back_for_the_rest_of_the_game(script: Script) -> None:
    with ExternalBot(script("crash"), time_limit_ms=2000) as bot:
        assert_fallback_used(bot)
        assert len(bot.failures) == 1
        assert "crashed" in bot.failures[0] and "exited with code 3" in bot.failures[0]
        assert not bot.alive
        finish(bot)
        assert len(bot.failures) == 1
        assert bot.fallback_decisions == bot.decisions


def test_bot_that_never_says_ready_is_stopped(script: Script) -> None:
    with ExternalBot(script("mute"), time_limit_ms=200, startup_ms=200) as bot:
        assert_fallback_used(bot)
        assert bot.failures == ["hello: timeout: no ready answer within 200 ms; bot stopped"]
        assert not bot.alive
        finish(bot)
        assert len(bot.failures) == 1 and bot.fallback_decisions == bot.decisions


def test_a_command_that_cannot_start_is_a_value_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot start bot command"):
        make_bot(f"cmd:{tmp_path / 'no-such-program'}")
    with pytest.raises(ValueError, match="unknown fallback bot"):
        ExternalBot([sys.executable, str(EXAMPLE)], fallback="nobody")
    with pytest.raises(ValueError, match="needs a command line"):
        make_bot("cmd:")


# ---------------------------------------------------------------- the messages themselves

RECORDER = """
import json, sys
log = open(sys.argv[1], "w", encoding="utf-8")
for line in sys.stdin:
    log.write(line)
    log.flush()
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "recorder"}), flush=True)
    elif message["type"] == "decide":
        legal = message["legal"]
        answer = {"type": "action", "id": message["id"], "action": legal[0]}
        print(json.dumps(answer), flush=True)
    elif message["type"] == "bye":
        break
"""


def test_messages_hello_decide_event_error_bye(tmp_path: Path) -> None:
    program = tmp_path / "recorder.py"
    program.write_text(RECORDER, encoding="utf-8")
    log = tmp_path / "log.jsonl"
    bot = ExternalBot([sys.executable, str(program), str(log)], time_limit_ms=2000)
    game = Game(RULES, players=2, seed=4, names=["Ann", "Bob"])
    other = make_bot("greedy")
    rng = random.Random(0)
    sent = 0
    for _ in range(12):  # a bounded number of decisions, each told the events before it
        for event in game.events[sent:]:
            bot.observe(event)
        sent = len(game.events)
        state = game.round
        seat = state.current
        action = bot.act(state.view(seat), rng) if seat == 0 else other.act(state.view(seat), rng)
        assert action is not None
        if game.apply(seat, action) is not None:
            break
    bot.close()
    assert bot.failures == [] and bot.name == "recorder"
    messages = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds[0] == "hello" and kinds[-1] == "bye" and kinds.count("hello") == 1
    hello = messages[0]
    assert hello == {
        "type": "hello", "protocol": 1, "seat": 0, "players": 2, "rules": game.rules.to_dict(),
        "names": ["Ann", "Bob"], "time_limit_ms": 2000,
    }  # fmt: skip
    decides = [m for m in messages if m["type"] == "decide"]
    assert [m["id"] for m in decides] == list(range(1, len(decides) + 1))
    for m in decides:
        assert m["view"]["seat"] == 0 and m["legal"] == m["view"]["legal"]
    events = [m["event"] for m in messages if m["type"] == "event"]
    assert events[0]["type"] == "header"
    deal = next(e for e in events if e["type"] == "deal")
    assert deal["hands"][1] is None and deal["stock"] is None  # redacted for seat 0
    draws = [e for e in events if e["type"] == "draw"]
    assert draws and all(("card" in e) == (e["seat"] == 0) for e in draws)


def test_error_message_is_sent_to_a_live_bot(tmp_path: Path) -> None:
    program = tmp_path / "recorder.py"
    program.write_text(RECORDER.replace('"action": legal[0]', '"action": {"type": "asef"}'), encoding="utf-8")
    log = tmp_path / "log.jsonl"
    with ExternalBot([sys.executable, str(program), str(log)], time_limit_ms=2000) as bot:
        assert_fallback_used(bot)
    messages = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    errors = [m for m in messages if m["type"] == "error"]
    assert len(errors) == 1 and errors[0]["id"] == 1
    assert errors[0]["message"] == bot.failures[0] and "illegal action 'asef'" in errors[0]["message"]


def test_stderr_goes_to_a_file_or_nowhere_and_never_blocks(tmp_path: Path) -> None:
    program = tmp_path / "chatty.py"
    chatty = 'import sys\nsys.stderr.write("x" * 300_000 + "\\nchatty says hi\\n")\nsys.stderr.flush()\n'
    program.write_text(chatty + RECORDER, encoding="utf-8")
    err = tmp_path / "err.log"
    for stderr in (None, err):
        with ExternalBot([sys.executable, str(program), str(tmp_path / "log.jsonl")], stderr=stderr) as bot:
            finish(bot)
            assert bot.failures == []
    assert "chatty says hi" in err.read_text(encoding="utf-8")


# ---------------------------------------------------------------- bots that misbehave on purpose

BADBOT = Path(__file__).resolve().parent / "external" / "badbot.py"


def _gone(pid: int) -> bool:
    """Whether the process has ended (a zombie left for a parent to reap counts as ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return not Path("/proc/self").exists()  # no /proc: os.kill said it lives
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def assert_no_process_left(pidfile: Path) -> None:
    """The bot's process and any child it noted in *pidfile* are gone (within 3 s)."""
    pids = [int(p) for p in pidfile.read_text(encoding="utf-8").split()]
    assert pids
    deadline = time.monotonic() + 3.0
    while not all(_gone(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [p for p in pids if not _gone(p)] == []


@pytest.fixture
def badbot(tmp_path: Path) -> Callable[..., tuple[list[str], Path]]:
    """(mode, bad ids) -> the argv of tests/external/badbot.py and its pid file."""

    def argv(mode: str, bad: str = "1") -> tuple[list[str], Path]:
        pidfile = tmp_path / f"{mode}.pid"
        return [sys.executable, str(BADBOT), mode, str(pidfile), bad], pidfile

    return argv


# mode, bad ids, what the first failure says, failures, whether the bot is consulted to the end
MISBEHAVIOURS = [
    ("garbage", "1", "decision 1: garbage answer: not JSON", 1, True),
    ("illegal", "1", "decision 1: illegal action 'discard QS QH QD QC KS'", 1, True),
    ("late", "1", "decision 1: timeout: no answer within 200 ms", 1, True),
    ("deep", "1", "decision 1: garbage answer: nested too deeply (more than 32 levels)", 1, True),
    ("huge", "1", "decision 1: garbage answer: line too long (more than 65,536 bytes)", 1, True),
    ("no-newline", "1", "decision 1: garbage answer: line too long", 5, False),
    ("flood-stdout", "2", "decision 2: garbage answer: not JSON (Expecting value): 'spam'", 5, False),
    ("silent", "1", "decision 1: timeout: no answer within 200 ms", 5, False),
    ("exit-at-once", "1", "hello: the bot process crashed (exited with code 4)", 1, False),
    ("exit-mid", "3", "decision 3: the bot process crashed (exited with code 3)", 1, False),
    ("fork", "2", "decision 2: the bot process crashed (exited with code 0)", 1, False),
]


@pytest.mark.parametrize(
    ("mode", "bad", "first", "count", "alive"), MISBEHAVIOURS, ids=[m[0] for m in MISBEHAVIOURS]
)
def test_a_misbehaving_bot_finishes_the_game_on_the_fallback(
    badbot: Callable[..., tuple[list[str], Path]], mode: str, bad: str, first: str, count: int, alive: bool
) -> None:
    argv, pidfile = badbot(mode, bad)
    t0 = time.monotonic()
    with ExternalBot(argv, time_limit_ms=200, startup_ms=2000) as bot:
        finish(bot)
        assert bot.failures[0].startswith(first), bot.failures
        assert bot.failure_count == len(bot.failures), bot.failures
        # (a late answer may make the next decision late too, on a busy machine)
        assert count <= len(bot.failures) <= count + (mode == "late"), bot.failures
        assert 1 <= bot.fallback_decisions <= bot.decisions
        assert bot.alive == alive
        if not alive:
            assert "crashed" in bot.failures[-1] or "in a row" in bot.failures[-1]
            assert bot.decisions - bot.fallback_decisions < int(bad) + MAX_FAILURES_IN_A_ROW
        for failure in bot.failures:  # excerpts only, nothing that drives a terminal
            assert len(failure) < 600 and failure.isprintable()
    assert time.monotonic() - t0 < 10
    assert_no_process_left(pidfile)


def test_an_exited_bot_is_noticed_at_once_though_its_child_holds_its_output(
    badbot: Callable[..., tuple[list[str], Path]],
) -> None:
    argv, pidfile = badbot("fork", "1")
    with ExternalBot(argv, time_limit_ms=5000, startup_ms=5000) as bot:
        t0 = time.monotonic()
        assert_fallback_used(bot)
        assert time.monotonic() - t0 < 2.0  # not the 5 s time limit
        assert bot.failures == [
            "decision 1: the bot process crashed (exited with code 0); the fallback bot plays on"
        ]
    assert_no_process_left(pidfile)


def test_a_bot_that_ignores_bye_is_killed_with_its_group(
    badbot: Callable[..., tuple[list[str], Path]],
) -> None:
    argv, pidfile = badbot("ignore-bye")
    bot = ExternalBot(argv, time_limit_ms=1000)
    finish(bot)
    assert bot.failures == []
    t0 = time.monotonic()
    bot.close()
    assert time.monotonic() - t0 < GRACE_SECONDS + 2
    assert_no_process_left(pidfile)


def test_a_bot_flooding_stderr_never_blocks(
    badbot: Callable[..., tuple[list[str], Path]], tmp_path: Path
) -> None:
    argv, pidfile = badbot("flood-stderr")
    with ExternalBot(argv, time_limit_ms=1000) as bot:
        finish(bot)
        assert bot.failures == [] and bot.fallback_decisions == 0
    assert_no_process_left(pidfile)


def test_escape_codes_of_a_bot_never_reach_the_terminal(
    badbot: Callable[..., tuple[list[str], Path]],
) -> None:
    argv, pidfile = badbot("escape-name")
    with ExternalBot(argv, time_limit_ms=1000) as bot:
        assert_fallback_used(bot)
        assert bot.name == "[31mevil [0m bot" and bot.name.isprintable()
        assert len(bot.failures) == 1 and bot.failures[0].isprintable()
        assert "\\x1b[2J" in bot.failures[0]  # shown escaped, not obeyed
    assert_no_process_left(pidfile)
    assert printable("a\x1b[0m\tb\u202e", 5) == "a\\x1b[0m..."
    assert printable("plain") == "plain"


def test_failure_messages_are_kept_up_to_a_bound(badbot: Callable[..., tuple[list[str], Path]]) -> None:
    argv, pidfile = badbot("huge", "all")
    with ExternalBot(argv, time_limit_ms=1000) as bot:
        for seed in range(1, 3):
            state = first_view(seed)
            bot.act(state.view(state.current), random.Random(0))
        assert len(bot.failures) == bot.failure_count == 2
        assert all(len(f) < 400 for f in bot.failures)
    assert_no_process_left(pidfile)


def test_the_arena_reports_an_external_bots_failures_and_fallback(
    badbot: Callable[..., tuple[list[str], Path]],
) -> None:
    argv, pidfile = badbot("garbage", "all")
    spec = "cmd:" + shlex.join(argv)
    report = run_arena(RULES, [spec, "greedy"], games=2, seed=3)
    external, greedy = report.bot(spec), report.bot("greedy")
    assert external.external and not greedy.external
    # every answer is garbage: five in a row stop the bot, in each of the two games
    assert external.failures == 2 * MAX_FAILURES_IN_A_ROW
    assert external.fallback_decisions == len(external.decision_ms) > 0
    data = report.to_dict(timing=False)
    assert data["bots"][0]["failures"] == external.failures
    assert data["bots"][0]["fallback_decisions"] == external.fallback_decisions
    assert "failures" not in data["bots"][1] and "fallback_decisions" not in data["bots"][1]
    text = report.table()
    assert f"{external.failures} failures" in text and "fallback" in text
    assert_no_process_left(pidfile)
