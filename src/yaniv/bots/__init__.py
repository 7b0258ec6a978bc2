"""Computer players. A bot sees only its seat's view and returns a legal action.

Every bot gets an injected ``random.Random`` and is deterministic for a given seed.
``make_bot(name)`` builds one by name (see :data:`BOTS`).
"""

from __future__ import annotations

from .base import Bot
from .heuristic import HeuristicBot
from .search import ExpertBot, OracleBot
from .simple import GreedyBot, RandomBot

__all__ = ["BOTS", "Bot", "ExpertBot", "GreedyBot", "HeuristicBot", "OracleBot", "RandomBot", "make_bot"]

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "expert": ExpertBot,
    "oracle": OracleBot,
}
"""Built-in bots by name."""


def make_bot(name: str) -> Bot:
    """A new bot by name; ``ValueError`` naming the choices for an unknown name.

    ``"cmd:COMMAND"`` starts a program speaking the bot protocol (``docs/bot-protocol.md``).
    """
    if name.startswith("cmd:"):
        from .external import ExternalBot

        return ExternalBot(name[4:])
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(BOTS)}") from None
