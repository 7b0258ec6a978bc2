"""A bot that is another program: the Yaniv bot protocol over stdin/stdout.

The engine starts the program (a command line) and speaks JSON Lines with it — one
JSON object per line, UTF-8, in both directions (``docs/bot-protocol.md``)::

    engine -> bot   {"type": "hello", "protocol": 1, "seat": 0, "players": 2, ...}
    bot -> engine   {"type": "ready", "name": "mybot"}
    engine -> bot   {"type": "decide", "id": 1, "view": {...}, "legal": [...]}
    bot -> engine   {"type": "action", "id": 1, "action": {"type": "discard", ...}}
    engine -> bot   {"type": "event", "event": {...}}          (via observe())
    engine -> bot   {"type": "error", "id": 1, "message": "..."} (a bad answer)
    engine -> bot   {"type": "bye"}                            (close())

A bad answer never stops the game: an answer that is not JSON (or too long, or nested
too deeply), not the awaited message, not a legal action, or later than the time
limit, and a process that dies, are each recorded in :attr:`ExternalBot.failures`,
told to the bot (while it lives) and the decision is made by a built-in fallback bot
instead. A bot that dies, does not answer ``hello`` with ``ready`` in time, fails
:data:`MAX_FAILURES_IN_A_ROW` decisions in a row or stops reading its input is
stopped for good: every later decision is the fallback's.

Nothing the program does can hurt the engine (``docs/bot-protocol.md`` §5, "Limits"):

* pipes are read and written by daemon threads through queues, so a silent or stuck
  program never blocks the engine (and nothing needs ``select`` on pipes); the
  reader reads in chunks and keeps at most :data:`MAX_LINE_BYTES` of a line, and at
  most a few dozen lines, so a flood costs no memory;
* answers are parsed with the bounded :func:`yaniv.jsonio.loads`;
* a process that exits is noticed by polling it, even while a child of it holds its
  stdout open; the program runs in a session of its own, and stopping it kills its
  whole process group, children included;
* everything of the program's that may be printed (its name, the excerpts of its
  output quoted in failure messages) is cut short and has its control characters
  escaped or removed;
* stderr goes to a file or to ``/dev/null``: it is never a pipe that could fill.
"""

from __future__ import annotations

import contextlib
import enum
import json
import os
import queue
import random
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..actions import Action
from ..events import redact
from ..intent import legal_match
from ..jsonio import JSONInputError, loads
from ..rules import Rules
from ..state import SeatView
from . import BOTS
from .base import Bot

__all__ = [
    "GRACE_SECONDS",
    "KEPT_FAILURES",
    "MAX_DEPTH",
    "MAX_FAILURES_IN_A_ROW",
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "ExternalBot",
    "printable",
]

PROTOCOL_VERSION = 1
"""The ``protocol`` field of ``hello``."""

MAX_LINE_BYTES = 64 * 1024
"""The longest line read from a bot, newline excluded: a longer one is a garbage answer."""
MAX_DEPTH = 32
"""The deepest nesting of arrays and objects in a bot's line (an action needs 3)."""
MAX_FAILURES_IN_A_ROW = 5
"""A bot that fails this many decisions in a row is stopped (a stuck bot costs a time limit each)."""
KEPT_FAILURES = 1000
"""Failure messages kept in :attr:`ExternalBot.failures`; later ones are only counted."""
GRACE_SECONDS = 1.0
"""How long a bot may take to exit after ``bye`` before it is killed."""

_SHOW = 120
"""Characters of a bad line quoted in a failure message."""
_MESSAGE = 400
"""The longest failure message kept (they quote the bot's output)."""
_NAME = 40
"""The longest name taken from ``ready``."""
_QUEUED_LINES = 64
"""Lines read ahead of the engine; then the reader waits (and so does a flooding bot)."""
_OUTBOX = 1000
"""Messages waiting to be written; more means the bot stopped reading its input."""
_CHUNK = 64 * 1024
_POLL = 0.05
"""Seconds between looks at the process while waiting for an answer."""


def printable(text: str, limit: int | None = None) -> str:
    r"""*text* safe to print on a terminal: control characters escaped, at most *limit* characters.

    >>> printable("red \x1b[31mflag\n")
    'red \\x1b[31mflag\\n'
    >>> printable("x" * 10, 5)
    'xxxxx...'
    """
    if limit is not None and len(text) > limit:
        text = text[:limit] + "..."
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def _clean_name(text: str) -> str:
    """A bot's name for summaries: printable characters only, spaces collapsed, at most 40."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text[: _NAME * 4]).split())[:_NAME]


def _dumps(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


def _quote(line: str) -> str:
    """An excerpt of a bad line, quoted (``repr`` escapes its control characters)."""
    line = line.rstrip("\r\n")
    return repr(line if len(line) <= _SHOW else line[:_SHOW] + "...")


@dataclass(frozen=True)
class _Overlong:
    """A line longer than :data:`MAX_LINE_BYTES`: only its start is kept."""

    head: str


class _End(enum.Enum):
    """Why no answer line came."""

    TIMEOUT = "timeout"
    CLOSED = "closed"  # the process exited or closed its output


@dataclass(frozen=True)
class _Line:
    """One answer line: its text (for excerpts) and its JSON, or why it is not JSON."""

    text: str
    message: Any = None
    error: str | None = None


class _Pipe:
    """The running program: its process, a reader thread and a writer thread.

    Holds no reference to the bot, so a finalizer can stop it when the bot is gone.
    """

    def __init__(self, argv: list[str], stderr: str | Path | None, cwd: str | Path | None) -> None:
        self.err_file: IO[bytes] | None = open(stderr, "ab") if stderr is not None else None  # noqa: SIM115
        # Its own session (POSIX), so that stopping it can kill the children it started.
        self.group = os.name == "posix"
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.err_file if self.err_file is not None else subprocess.DEVNULL,
                cwd=cwd,
                start_new_session=self.group,
            )
        except BaseException:
            if self.err_file is not None:
                self.err_file.close()
            raise
        self.lines: queue.Queue[str | _Overlong] = queue.Queue(maxsize=_QUEUED_LINES)
        self.eof = threading.Event()  # set after the last line is queued
        self.outbox: queue.Queue[bytes | None] = queue.Queue()  # None: close stdin
        self.stopping = threading.Event()
        self.closed = False  # no more messages are sent
        self._done = False
        self._lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, name="yaniv-bot-reader", daemon=True)
        self.writer = threading.Thread(target=self._write, name="yaniv-bot-writer", daemon=True)
        self.reader.start()
        self.writer.start()

    # ------------------------------------------------------------------ threads

    def _put(self, item: str | _Overlong) -> bool:
        """Queue a line, waiting while the queue is full; False once the bot is being stopped."""
        while not self.stopping.is_set():
            try:
                self.lines.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _read(self) -> None:
        """Split stdout into lines, keeping at most MAX_LINE_BYTES of each."""
        stream = self.proc.stdout
        assert stream is not None
        fd = stream.fileno()
        buf = bytearray()
        skipping = False  # in the rest of an overlong line, already reported
        try:
            while True:
                chunk = os.read(fd, _CHUNK)
                if not chunk:
                    break
                start = 0
                while start < len(chunk):
                    end = chunk.find(b"\n", start)
                    stop = len(chunk) if end < 0 else end
                    if not skipping:
                        buf += chunk[start : min(stop, start + MAX_LINE_BYTES + 1 - len(buf))]
                        if len(buf) > MAX_LINE_BYTES:
                            head = bytes(buf[: _SHOW * 4]).decode("utf-8", errors="replace")
                            buf.clear()
                            skipping = True
                            if not self._put(_Overlong(head)):
                                return
                    if end < 0:
                        break
                    if skipping:
                        skipping = False
                    else:
                        line = bytes(buf).decode("utf-8", errors="replace")
                        buf.clear()
                        if not self._put(line):
                            return
                    start = end + 1
            if buf and not skipping:  # a last line without its newline
                self._put(bytes(buf).decode("utf-8", errors="replace"))
        except (OSError, ValueError):
            pass
        finally:
            self.eof.set()

    def _write(self) -> None:
        stream = self.proc.stdin
        assert stream is not None
        while True:
            data = self.outbox.get()
            if data is None:
                break
            try:
                stream.write(data)
                stream.flush()
            except (OSError, ValueError):
                break  # the program is gone; the reader sees the end of its output
        with contextlib.suppress(OSError, ValueError):
            stream.close()

    # ------------------------------------------------------------------ the engine's side

    def send(self, message: dict[str, Any]) -> bool:
        """Queue one message; never blocks. False if the program has stopped reading its input."""
        if self.closed:
            return True
        if self.outbox.qsize() >= _OUTBOX:
            return False
        self.outbox.put(_dumps(message))
        return True

    def status(self) -> int | None:
        """The exit code (``-N``: killed by signal N) if the process has ended, else None.

        Where it can, it looks without reaping the process: while its zombie remains,
        its process group id cannot be taken by another process, so killing the group
        later hits only the bot's children.
        """
        if self.proc.returncode is not None:
            return self.proc.returncode
        waitid = getattr(os, "waitid", None)
        if waitid is None:
            return self.proc.poll()
        try:
            info = waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self.proc.poll()
        if info is None:
            return None
        return int(info.si_status) if info.si_code == os.CLD_EXITED else -int(info.si_status)

    def exit_code(self, wait: float = 0.5) -> int | None:
        """The exit code, waiting up to *wait* seconds for the process to end; None if it runs on."""
        deadline = time.monotonic() + wait
        while (code := self.status()) is None and time.monotonic() < deadline:
            time.sleep(0.01)
        return code

    def _kill(self) -> None:
        """Kill the process and its group (its children), then reap it."""
        if self.group:
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        if self.proc.returncode is None:
            with contextlib.suppress(OSError):
                self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5.0)

    def shutdown(self, bye: bool = True, grace: float = GRACE_SECONDS) -> None:
        """Say bye, close stdin, give the program *grace* seconds, then kill its process group.

        Idempotent; the group is killed even after a clean exit, so nothing the bot
        started is left behind.
        """
        with self._lock:
            if self._done:
                return
            self._done = True
        if not self.closed:
            if bye:
                self.outbox.put(_dumps({"type": "bye"}))
            self.outbox.put(None)
            self.closed = True
        self.exit_code(wait=grace)
        self._kill()
        self.stopping.set()
        here = threading.current_thread()  # (a finalizer may run on any thread, even these)
        for thread in (self.writer, self.reader):
            if thread is not here:
                thread.join(timeout=1.0)
        if self.proc.stdout is not None and not self.reader.is_alive():
            # (a process outside the group may still hold the pipe: then leave it to the daemon reader)
            with contextlib.suppress(OSError, ValueError):
                self.proc.stdout.close()
        if self.err_file is not None:
            self.err_file.close()
            self.err_file = None


class ExternalBot(Bot):
    """A seat played by another program speaking the bot protocol on stdin/stdout.

    *command* is a command line (split with :func:`shlex.split`) or an argv list. The
    program starts at once; ``ValueError`` if it cannot. *time_limit_ms* bounds every
    decision, *startup_ms* the answer to ``hello``. *fallback* names the built-in bot
    that decides when the program fails. The program's stderr is appended to the file
    *stderr*, or discarded. Call :meth:`close` (or use ``with``) when done; a bot that
    is garbage-collected or alive at interpreter exit is closed then.
    """

    name = "external"
    thinks_long = True  # a decision may take up to its time limit

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        time_limit_ms: int = 1000,
        fallback: str = "heuristic",
        stderr: str | Path | None = None,
        startup_ms: int = 5000,
        cwd: str | Path | None = None,
    ) -> None:
        """Start the program; the ``hello`` is sent before its first decision."""
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not argv:
            raise ValueError("an external bot needs a command line, e.g. 'cmd:python examples/mybot.py'")
        if time_limit_ms <= 0 or startup_ms <= 0:
            raise ValueError("time limits must be positive numbers of milliseconds")
        if fallback not in BOTS:
            raise ValueError(f"unknown fallback bot {fallback!r}; bots are: {', '.join(BOTS)}")
        self.command = shlex.join(argv)
        self.time_limit_ms = time_limit_ms
        self.startup_ms = startup_ms
        self.fallback_name = fallback
        self.fallback: Bot = BOTS[fallback]()
        self.failures: list[str] = []
        """What went wrong, one message per failure, oldest first (the first KEPT_FAILURES)."""
        self.failure_count = 0
        """Failures so far, including those beyond the messages kept."""
        self.decisions = 0
        """Decisions asked of this seat (answered by the program or the fallback)."""
        self.fallback_decisions = 0
        """Decisions the fallback bot made."""
        self.name = _clean_name(Path(argv[-1]).stem) or "external"
        self._next_id = 0
        self._hello: tuple[Any, ...] | None = None  # what the last hello said
        self._seat: int | None = None
        self._pending: list[dict[str, Any]] = []  # events observed before the hello
        self._dead = False
        self._in_a_row = 0  # failed decisions since the last good answer
        try:
            self._pipe = _Pipe(argv, stderr, cwd)
        except OSError as e:
            raise ValueError(f"cannot start bot command {self.command!r}: {e}") from None
        self._finalizer = weakref.finalize(self, self._pipe.shutdown)

    # ------------------------------------------------------------------ state

    @property
    def alive(self) -> bool:
        """Whether the program is still consulted (not crashed, not stopped, not closed)."""
        return not self._dead

    @property
    def pid(self) -> int:
        """The program's process id (also its process group id on POSIX)."""
        return self._pipe.proc.pid

    def close(self) -> None:
        """Send ``bye`` and stop the program (it gets a second to exit, then its group is killed)."""
        self._dead = True
        self._finalizer()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _record(self, message: str) -> str:
        message = printable(message, _MESSAGE)
        self.failure_count += 1
        if len(self.failures) < KEPT_FAILURES:
            self.failures.append(message)
        return message

    def _tell(self, message: str, decision: int | None) -> None:
        """Send an ``error`` note; a bot that no longer reads its input is stopped."""
        note: dict[str, Any] = {"type": "error", "message": message}
        if decision is not None:
            note["id"] = decision
        self._send(note)

    def _send(self, message: dict[str, Any]) -> None:
        if self._dead:
            return
        if not self._pipe.send(message):
            self._record(f"the bot does not read its input ({_OUTBOX} messages unread); bot stopped")
            self._halt()

    def _fail(self, message: str, decision: int | None = None) -> None:
        """Record a failure and tell the program, if it still listens."""
        message = self._record(message)
        self._tell(message, decision)

    def _halt(self) -> None:
        self._dead = True
        self._pipe.shutdown(bye=False, grace=0.0)

    def _stop(self, message: str, decision: int | None = None) -> None:
        """Record a failure, tell the program and stop consulting it for good."""
        self._fail(message, decision)
        self._halt()

    def _crashed(self, what: str) -> None:
        code = self._pipe.exit_code()
        if code is None:
            how = "closed its output"
        elif code < 0:
            how = f"killed by signal {-code}"
        else:
            how = f"exited with code {code}"
        self._record(f"{what}: the bot process crashed ({how}); the fallback bot plays on")
        self._halt()

    def _failed_decision(self, message: str, decision: int) -> None:
        """A failed decision: recorded and told; too many in a row stop the bot."""
        self._in_a_row += 1
        if self._in_a_row >= MAX_FAILURES_IN_A_ROW:
            self._stop(f"{message}; bot stopped after {self._in_a_row} failed decisions in a row", decision)
        else:
            self._fail(message, decision)

    # ------------------------------------------------------------------ messages

    def start(self, seat: int, players: int, rules: Rules, names: Sequence[str] | None = None) -> bool:
        """Send ``hello`` and wait for ``ready``; whether the program is ready.

        Called by :meth:`act` before the first decision (and again if the seat, players,
        rules or names change); a runner may call it earlier to send events sooner.
        """
        if self._dead:
            return False
        shown = list(names) if names else [f"P{p}" for p in range(players)]
        key = (seat, players, rules, tuple(shown))
        if key == self._hello:
            return True
        self._hello = key
        self._seat = seat
        self._drain()
        self._send(
            {
                "type": "hello",
                "protocol": PROTOCOL_VERSION,
                "seat": seat,
                "players": players,
                "rules": rules.to_dict(),
                "names": shown,
                "time_limit_ms": self.time_limit_ms,
            }
        )
        if self._dead:
            return False
        line = self._next_line(time.monotonic() + self.startup_ms / 1000, self._next_id + 1)
        if line is _End.CLOSED:
            self._crashed("hello")
            return False
        if line is _End.TIMEOUT:
            self._stop(f"hello: timeout: no ready answer within {self.startup_ms} ms; bot stopped")
            return False
        assert isinstance(line, _Line)
        message = line.message
        if line.error is not None or not isinstance(message, dict) or message.get("type") != "ready":
            why = f": {line.error}:" if line.error is not None else ""
            self._stop(
                f'hello: garbage answer{why} {_quote(line.text)}, expected {{"type": "ready"}}; bot stopped'
            )
            return False
        name = message.get("name")
        if isinstance(name, str):
            self.name = _clean_name(name) or self.name
        pending, self._pending = self._pending, []
        for event in pending:
            self.observe(event)
        return True

    def observe(self, event: dict[str, Any]) -> None:
        """Send an event (redacted for this seat first) as ``{"type": "event", ...}``.

        Optional: a runner that never calls it just sends no events. Events observed
        before the ``hello`` are held and sent right after it.
        """
        if self._dead:
            return
        if self._hello is None:
            self._pending.append(event)
            return
        self._send({"type": "event", "event": redact(event, self._seat)})

    def _drain(self) -> None:
        """Drop output left over from earlier decisions (late answers, a flood)."""
        for _ in range(2 * _QUEUED_LINES):  # bounded: a flooding bot refills the queue
            try:
                self._pipe.lines.get_nowait()
            except queue.Empty:
                return

    def _next_line(self, deadline: float, current: int) -> _Line | _End:
        """The next answer line before *deadline* (``time.monotonic``), or why there is none.

        Blank lines and late ``action`` answers to decisions before *current* are
        skipped. A process that has exited is noticed within a fraction of a second
        even when a child of it holds its output open.
        """
        pipe = self._pipe
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return _End.TIMEOUT
            try:
                item = pipe.lines.get(timeout=min(remaining, _POLL))
            except queue.Empty:
                if not pipe.eof.is_set():
                    if pipe.status() is None:
                        continue
                    pipe.eof.wait(_POLL)  # the rest of its output, unless a child holds the pipe
                try:  # (a last line may have come with the end mark)
                    item = pipe.lines.get_nowait()
                except queue.Empty:
                    return _End.CLOSED
            if isinstance(item, _Overlong):
                return _Line(item.head, error=f"line too long (more than {MAX_LINE_BYTES:,} bytes)")
            if not item.strip():
                continue
            line = self._parse(item)
            message = line.message
            if isinstance(message, dict) and message.get("type") == "action":
                old = message.get("id")
                if isinstance(old, int) and not isinstance(old, bool) and old < current:
                    continue  # a late answer to an earlier decision, already replaced
            return line

    @staticmethod
    def _parse(text: str) -> _Line:
        try:
            return _Line(text, loads(text, "answer", max_depth=MAX_DEPTH, max_bytes=MAX_LINE_BYTES))
        except JSONInputError as e:
            return _Line(text, error=e.reason)

    # ------------------------------------------------------------------ deciding

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        """Ask the program; on any failure the fallback bot's choice (see the module doc)."""
        if not view.legal:
            return None
        self.decisions += 1
        if not self._dead and view.seat is not None:
            self.start(view.seat, view.players, view.rules, view.names)
        if self._dead:
            return self._fall_back(view, rng)
        self._drain()
        self._next_id += 1
        k = self._next_id
        legal = [a.to_json() for a in view.legal]
        self._send({"type": "decide", "id": k, "view": view.to_dict(), "legal": legal})
        if self._dead:
            return self._fall_back(view, rng)
        line = self._next_line(time.monotonic() + self.time_limit_ms / 1000, k)
        if line is _End.CLOSED:
            self._crashed(f"decision {k}")
            return self._fall_back(view, rng)
        if line is _End.TIMEOUT:
            self._failed_decision(f"decision {k}: timeout: no answer within {self.time_limit_ms} ms", k)
            return self._fall_back(view, rng)
        assert isinstance(line, _Line)
        try:
            action = self._answer(view, line, k)
        except _BadAnswer as e:
            self._failed_decision(f"decision {k}: {e}", k)
            return self._fall_back(view, rng)
        self._in_a_row = 0
        return action

    def _fall_back(self, view: SeatView, rng: random.Random) -> Action | None:
        self.fallback_decisions += 1
        return self.fallback.act(view, rng)

    def _answer(self, view: SeatView, line: _Line, k: int) -> Action | None:
        """The legal action an ``action`` line names; ``_BadAnswer`` says why not."""
        if line.error is not None:
            raise _BadAnswer(f"garbage answer: {line.error}: {_quote(line.text)}")
        message = line.message
        if not isinstance(message, dict) or message.get("type") != "action":
            raise _BadAnswer(f"garbage answer {_quote(line.text)}: expected an action message")
        if message.get("id") != k:
            raise _BadAnswer(f"garbage answer: id {printable(repr(message.get('id')), _SHOW)}, expected {k}")
        if "action" not in message:
            raise _BadAnswer("malformed answer: the action message has no 'action' field")
        data = message["action"]
        if data is None:
            if all(a.type == "slap" for a in view.legal):
                return None
            raise _BadAnswer("illegal action: null (a pass) is only allowed in a slap window")
        try:
            action = Action.from_json(data)
            found = legal_match(view, action)
        except ValueError as e:  # InvalidNotationError and its kin: the bot's text, not our bug
            raise _BadAnswer(f"malformed action {json.dumps(data)[:_SHOW]}: {e}") from None
        except Exception as e:  # whatever else a strange answer trips: still only a bad answer
            raise _BadAnswer(f"malformed action {json.dumps(data)[:_SHOW]}: {type(e).__name__}") from None
        if found is None:
            raise _BadAnswer(f"illegal action {str(action)!r}: not one of the legal actions")
        return found


class _BadAnswer(Exception):
    """An answer that cannot be played; the message says why."""
