"""The environments' argument checks: a clear error naming the keyword or the action."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import IllegalActionError, RulesError
from ..rules import Rules
from .rewards import EPISODES, REWARDS

__all__ = ["action_index", "check_options"]


def check_options(rules: Any, players: Any, episode: Any, reward: Any, turn_cap: Any) -> Rules:
    """The rules of a spec, with every keyword checked (``RulesError``/``ValueError`` naming it)."""
    parsed = Rules.from_spec(rules)
    problem = parsed.players_problem(players)
    if problem:
        raise RulesError(problem)
    if episode not in EPISODES:
        raise ValueError(f"episode must be one of {', '.join(EPISODES)}, got {episode!r}")
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
    if not isinstance(turn_cap, int) or isinstance(turn_cap, bool) or turn_cap < 1:
        raise ValueError(f"turn_cap must be a whole number of turns of at least 1, got {turn_cap!r}")
    return parsed


def action_index(action: Any, size: int) -> int:
    """An action index from an int or a NumPy integer; ``IllegalActionError`` otherwise."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        if isinstance(action, np.ndarray) and action.shape in ((), (1,)) and action.dtype.kind in "iu":
            action = action.reshape(()).item()
        else:
            raise IllegalActionError(f"an action is an index 0..{size - 1}, got {action!r}")
    index = int(action)
    if not 0 <= index < size:
        raise IllegalActionError(f"there is no action {index}: actions are 0..{size - 1}")
    return index
