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

A bad answer never stops the game: an answer that is not JSON, not the awaited
message, not a legal action, or later than the time limit, and a process that dies,
are each recorded in :attr:`ExternalBot.failures`, told to the bot (while it lives)
and the decision is made by a built-in fallback bot instead. A bot that dies, or does
not answer ``hello`` with ``ready`` in time, is stopped for good: every later decision
is the fallback's.

Pipes are read and written by daemon threads through queues, so a silent or stuck
program can never block the engine (and nothing needs ``select`` on pipes).
"""

from __future__ import annotations

import contextlib
import json
import queue
import random
import shlex
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from ..actions import Action
from ..errors import InvalidNotationError
from ..events import redact
from ..intent import legal_match
from ..rules import Rules
from ..state import SeatView
from . import BOTS
from .base import Bot

__all__ = ["PROTOCOL_VERSION", "ExternalBot"]

PROTOCOL_VERSION = 1
"""The ``protocol`` field of ``hello``."""

_SHOW = 120
"""Characters of a bad line quoted in a failure message."""


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _key(action: Action) -> str:
    """An action's identity by notation (two decks' copies of a card are the same)."""
    return json.dumps(action.to_json(), sort_keys=True)


def _quote(line: str) -> str:
    line = line.rstrip("\r\n")
    return repr(line if len(line) <= _SHOW else line[:_SHOW] + "...")


class _Pipe:
    """The running program: its process, a reader thread and a writer thread.

    Holds no reference to the bot, so a finalizer can stop it when the bot is gone.
    """

    def __init__(self, argv: list[str], stderr: str | Path | None, cwd: str | Path | None) -> None:
        self.err_file: IO[bytes] | None = open(stderr, "ab") if stderr is not None else None  # noqa: SIM115
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.err_file if self.err_file is not None else subprocess.DEVNULL,
                cwd=cwd,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except BaseException:
            if self.err_file is not None:
                self.err_file.close()
            raise
        self.lines: queue.Queue[str | None] = queue.Queue()  # None: end of output
        self.outbox: queue.Queue[str | None] = queue.Queue()  # None: close stdin
        self.closed = False
        self.reader = threading.Thread(target=self._read, name="yaniv-bot-reader", daemon=True)
        self.writer = threading.Thread(target=self._write, name="yaniv-bot-writer", daemon=True)
        self.reader.start()
        self.writer.start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        try:
            for line in stream:
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self.lines.put(None)

    def _write(self) -> None:
        stream = self.proc.stdin
        assert stream is not None
        while True:
            text = self.outbox.get()
            if text is None:
                break
            try:
                stream.write(text + "\n")
                stream.flush()
            except (OSError, ValueError):
                break  # the program is gone; the reader sees the end of its output
        with contextlib.suppress(OSError, ValueError):
            stream.close()

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message; never blocks."""
        if not self.closed:
            self.outbox.put(_dumps(message))

    def exit_code(self, wait: float = 0.5) -> int | None:
        """The exit code, waiting a little for the process to finish; None if it runs on."""
        try:
            return self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def shutdown(self, bye: bool = True, grace: float = 1.0) -> None:
        """Say bye, close stdin, give the program *grace* seconds, then kill it."""
        if not self.closed:
            if bye:
                self.send({"type": "bye"})
            self.outbox.put(None)
            self.closed = True
        if self.proc.poll() is None:
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.writer.join(timeout=1.0)
        self.reader.join(timeout=1.0)
        if self.proc.stdout is not None and not self.reader.is_alive():
            # (a grandchild may still hold the pipe: then leave it to the daemon reader)
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
        """What went wrong, one message per failure, oldest first."""
        self.decisions = 0
        """Decisions asked of this seat (answered by the program or the fallback)."""
        self.fallback_decisions = 0
        """Decisions the fallback bot made."""
        self.name = Path(argv[-1]).stem or "external"
        self._next_id = 0
        self._hello: tuple[Any, ...] | None = None  # what the last hello said
        self._seat: int | None = None
        self._pending: list[dict[str, Any]] = []  # events observed before the hello
        self._dead = False
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

    def close(self) -> None:
        """Send ``bye`` and stop the program (it gets a second to exit, then is killed)."""
        self._dead = True
        self._finalizer()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _fail(self, message: str, decision: int | None = None) -> None:
        """Record a failure and tell the program, if it still listens."""
        self.failures.append(message)
        if not self._dead:
            note: dict[str, Any] = {"type": "error", "message": message}
            if decision is not None:
                note["id"] = decision
            self._pipe.send(note)

    def _stop(self, message: str) -> None:
        """Record a failure and stop consulting the program for good."""
        self._fail(message)
        self._dead = True
        self._pipe.shutdown(bye=False, grace=0.0)

    def _crashed(self, what: str) -> None:
        code = self._pipe.exit_code()
        how = "closed its output" if code is None else f"exited with code {code}"
        self.failures.append(f"{what}: the bot process crashed ({how}); the fallback bot plays on")
        self._dead = True
        self._pipe.shutdown(bye=False, grace=0.0)

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
        if self._dead:
            return False
        self._pipe.send(
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
        line = self._next_line(time.monotonic() + self.startup_ms / 1000, self._next_id + 1)
        if line is None:
            self._crashed("hello")
            return False
        if line == "":
            self._stop(f"hello: timeout: no ready answer within {self.startup_ms} ms; bot stopped")
            return False
        message = self._parse_line(line)
        if not isinstance(message, dict) or message.get("type") != "ready":
            self._stop(f'hello: garbage answer {_quote(line)}, expected {{"type": "ready"}}; bot stopped')
            return False
        name = message.get("name")
        if isinstance(name, str) and name.strip():
            self.name = name.strip()[:40]
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
        self._pipe.send({"type": "event", "event": redact(event, self._seat)})

    def _drain(self) -> None:
        """Drop output left over from earlier decisions (late answers); notice a crash."""
        while True:
            try:
                line = self._pipe.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._pipe.lines.put(None)  # keep the end mark for the next read
                return

    def _next_line(self, deadline: float, current: int) -> str | None:
        """The next answer line before *deadline* (``time.monotonic``).

        ``""`` on timeout, ``None`` at the end of the output. Blank lines and late
        ``action`` answers to decisions before *current* are skipped.
        """
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return ""
            try:
                line = self._pipe.lines.get(timeout=remaining)
            except queue.Empty:
                return ""
            if line is None:
                self._pipe.lines.put(None)  # keep the end mark for later reads
                return None
            if not line.strip():
                continue
            message = self._parse_line(line)
            if isinstance(message, dict) and message.get("type") == "action":
                old = message.get("id")
                if isinstance(old, int) and not isinstance(old, bool) and old < current:
                    continue  # a late answer to an earlier decision, already replaced
            return line

    @staticmethod
    def _parse_line(line: str) -> Any:
        try:
            return json.loads(line)
        except ValueError:
            return _NOT_JSON

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
        if self._dead:
            return self._fall_back(view, rng)
        self._next_id += 1
        k = self._next_id
        legal = [a.to_json() for a in view.legal]
        self._pipe.send({"type": "decide", "id": k, "view": view.to_dict(), "legal": legal})
        line = self._next_line(time.monotonic() + self.time_limit_ms / 1000, k)
        if line is None:
            self._crashed(f"decision {k}")
            return self._fall_back(view, rng)
        if line == "":
            self._fail(f"decision {k}: timeout: no answer within {self.time_limit_ms} ms", k)
            return self._fall_back(view, rng)
        try:
            return self._answer(view, self._parse_line(line), k, line)
        except _BadAnswer as e:
            self._fail(f"decision {k}: {e}", k)
            return self._fall_back(view, rng)

    def _fall_back(self, view: SeatView, rng: random.Random) -> Action | None:
        self.fallback_decisions += 1
        return self.fallback.act(view, rng)

    def _answer(self, view: SeatView, message: Any, k: int, line: str) -> Action | None:
        """The legal action an ``action`` message names; ``_BadAnswer`` says why not."""
        if message is _NOT_JSON:
            raise _BadAnswer(f"garbage answer (not JSON): {_quote(line)}")
        if not isinstance(message, dict) or message.get("type") != "action":
            raise _BadAnswer(f"garbage answer {_quote(line)}: expected an action message")
        if message.get("id") != k:
            raise _BadAnswer(f"garbage answer: id {message.get('id')!r}, expected {k}")
        if "action" not in message:
            raise _BadAnswer("malformed answer: the action message has no 'action' field")
        data = message["action"]
        if data is None:
            if all(a.type == "slap" for a in view.legal):
                return None
            raise _BadAnswer("illegal action: null (a pass) is only allowed in a slap window")
        try:
            action = Action.from_json(data)
        except InvalidNotationError as e:
            raise _BadAnswer(f"malformed action {json.dumps(data)[:_SHOW]}: {e}") from None
        found = legal_match(view, action)
        if found is None:
            raise _BadAnswer(f"illegal action {str(action)!r}: not one of the legal actions")
        return found


class _BadAnswer(Exception):
    """An answer that cannot be played; the message says why."""


_NOT_JSON = object()
