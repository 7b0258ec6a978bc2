"""Computer players. A bot sees only its seat's view and returns a legal action.

Every bot gets an injected ``random.Random`` and is deterministic for a given seed.
``make_bot(name)`` builds one by name (see :data:`BOTS`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from .base import Bot
from .heuristic import HeuristicBot
from .search import ExpertBot, OracleBot
from .simple import GreedyBot, RandomBot

__all__ = [
    "BOTS",
    "EXTERNAL_OPTIONS_ENV",
    "LEVELS",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "HeuristicBot",
    "OracleBot",
    "RandomBot",
    "external_bot_options",
    "make_bot",
]

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "expert": ExpertBot,
    "oracle": OracleBot,
}
"""Built-in bots by name."""


LEVELS: dict[str, str] = {
    "beginner": "random",
    "easy": "greedy",
    "medium": "heuristic",
    "hard": "expert",
    "expert": "expert:strong",
}
"""Difficulty levels offered to players, and the bot spec behind each."""


EXTERNAL_OPTIONS_ENV = {"time_limit_ms": "YANIV_BOT_TIME_LIMIT_MS", "stderr": "YANIV_BOT_STDERR"}
"""The environment variables that give ``cmd:`` bots their options when
:func:`make_bot` is not given them (set by :func:`external_bot_options`)."""


@contextlib.contextmanager
def external_bot_options(
    *, time_limit_ms: int | None = None, stderr: str | Path | None = None
) -> Iterator[None]:
    """Give every ``cmd:`` bot made inside these options (``--bot-time-limit``, ``--bot-stderr``).

    They travel in the environment (:data:`EXTERNAL_OPTIONS_ENV`), so that they reach
    the bots built by code that only passes a spec along (a person's session) and by
    worker processes started inside (the arena's), whatever their start method. The
    environment is restored on leaving.
    """
    values = {"time_limit_ms": time_limit_ms, "stderr": None if stderr is None else os.path.abspath(stderr)}
    saved = {name: os.environ.get(name) for name in EXTERNAL_OPTIONS_ENV.values()}
    try:
        for key, name in EXTERNAL_OPTIONS_ENV.items():
            if values[key] is not None:
                os.environ[name] = str(values[key])
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _env_time_limit() -> int | None:
    text = os.environ.get(EXTERNAL_OPTIONS_ENV["time_limit_ms"])
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise ValueError(
            f"{EXTERNAL_OPTIONS_ENV['time_limit_ms']} must be a positive whole number, got {text!r}"
        )
    return value


def make_bot(spec: str, *, time_limit_ms: int | None = None, stderr: str | Path | None = None) -> Bot:
    """A new bot from a spec; ``ValueError`` naming the choices for a bad one.

    A spec is a bot name (``heuristic``), a name with a search level
    (``expert:strong``), a difficulty level (``hard``), ``cmd:COMMAND`` for a
    program speaking the bot protocol (``docs/bot-protocol.md``), or ``policy:FILE``
    for a trained policy in a Python file (:mod:`yaniv.bots.policy`). *time_limit_ms* (per
    decision) and *stderr* (a file the program's stderr is appended to) are for a
    ``cmd:`` bot only; left out, they come from :func:`external_bot_options`, else the
    protocol's defaults.
    """
    if not isinstance(spec, str):
        raise ValueError(
            f"a bot spec is text such as 'heuristic' or 'cmd:PROGRAM', got {type(spec).__name__}"
        )
    if spec.startswith("policy:"):
        try:
            from .policy import policy_bot
        except ImportError:
            raise ValueError("a policy: bot needs numpy: pip install 'yaniv[rl]'") from None
        return policy_bot(spec[len("policy:") :].strip())
    if spec.startswith("cmd:"):
        from .external import ExternalBot

        limit = time_limit_ms if time_limit_ms is not None else _env_time_limit()
        err = stderr if stderr is not None else os.environ.get(EXTERNAL_OPTIONS_ENV["stderr"]) or None
        if limit is None:
            return ExternalBot(spec[4:], stderr=err)
        return ExternalBot(spec[4:], time_limit_ms=limit, stderr=err)
    spec = spec.strip()
    if spec not in BOTS:  # a bot name wins over the difficulty of the same name
        spec = LEVELS.get(spec, spec)
    name, colon, level = spec.partition(":")
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(
            f"unknown bot {name[:40]!r}; bots are: {', '.join(BOTS)}; levels are: {', '.join(LEVELS)}"
        )
    if colon and not level.strip():  # 'expert:' meant a level and named none
        raise ValueError(f"bot spec {spec[:40]!r}: name a level after ':' or leave the ':' out")
    if not level:
        return cls()
    if not issubclass(cls, ExpertBot):
        raise ValueError(f"bot {name!r} has no levels (only expert and oracle do)")
    return cls(level=level)
