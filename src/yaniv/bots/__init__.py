"""Computer players. A bot sees only its seat's view and returns a legal action.

Every bot gets an injected ``random.Random`` and is deterministic for a given seed.
``make_bot(name)`` builds one by name (see :data:`BOTS`).
"""

from __future__ import annotations

from .base import Bot
from .heuristic import HeuristicBot
from .search import ExpertBot, OracleBot
from .simple import GreedyBot, RandomBot

__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "HeuristicBot",
    "OracleBot",
    "RandomBot",
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


def make_bot(spec: str) -> Bot:
    """A new bot from a spec; ``ValueError`` naming the choices for a bad one.

    A spec is a bot name (``heuristic``), a name with a search level
    (``expert:strong``), a difficulty level (``hard``), or ``cmd:COMMAND`` for a
    program speaking the bot protocol (``docs/bot-protocol.md``).
    """
    if spec.startswith("cmd:"):
        from .external import ExternalBot

        return ExternalBot(spec[4:])
    spec = spec.strip()
    if spec not in BOTS:  # a bot name wins over the difficulty of the same name
        spec = LEVELS.get(spec, spec)
    name, _, level = spec.partition(":")
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(
            f"unknown bot {name!r}; bots are: {', '.join(BOTS)}; levels are: {', '.join(LEVELS)}"
        )
    if not level:
        return cls()
    if not issubclass(cls, ExpertBot):
        raise ValueError(f"bot {name!r} has no levels (only expert and oracle do)")
    return cls(level=level)
