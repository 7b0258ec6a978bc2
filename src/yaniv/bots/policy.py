"""A trained policy seated as a bot: from a seat's view, through the environment's encoding.

:class:`PolicyBot` is a :class:`~yaniv.bots.Bot` like any other, so a policy trained on
:mod:`yaniv.env` plays in :func:`yaniv.match.play_game`, the arena, or against people.

A policy in a file is seated by the bot spec ``policy:FILE`` (``yaniv arena --bots
policy:my_policy.py,expert``): *FILE* is a Python file that defines
``policy(observation, action_mask, rng) -> int`` (:data:`Policy`), the function a
learner trained on :mod:`yaniv.env` plays by, or ``make_policy(rules, players)``
returning one for each rule set and player count it meets; it may load its weights
from wherever it likes (a path next to it: ``Path(__file__).with_suffix(".npz")``). The file is code
and runs with the program's rights, as a ``cmd:`` bot does. It is loaded once per
process (the arena's workers load it each).
"""

from __future__ import annotations

import hashlib
import importlib.util
import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..rules import Rules
from ..table import DecisionKind
from .base import Bot
from .encoding import ActionTable, ObservationEncoder, action_table

if TYPE_CHECKING:
    from .. import SeatView

__all__ = ["Policy", "PolicyBot", "decision_kind", "policy_bot"]

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8], random.Random], int]
"""A policy: (observation, action mask, the bot's random generator) to an action index."""


def decision_kind(view: SeatView) -> DecisionKind:
    """The decision a bot is asked for, read from its view (a slap window lists only the slap)."""
    legal = view.legal
    if legal and legal[0].type == "slap":
        return DecisionKind.SLAP
    return DecisionKind.TAKE if view.phase == "after_discard" else DecisionKind.TURN


class PolicyBot(Bot):
    """Plays *policy* on the observation and mask the environments would give its seat.

    With *factory* instead, the policy is made per rule set and player count
    (``factory(rules, players)``), for policies whose features depend on them.
    """

    name = "policy"

    def __init__(
        self,
        policy: Policy | None = None,
        name: str = "policy",
        *,
        factory: Callable[[Rules, int], Policy] | None = None,
    ) -> None:
        """Seat *policy*, or the policies *factory* makes (the encodings follow each game's rules)."""
        if (policy is None) == (factory is None):
            raise ValueError("give a PolicyBot either a policy or a factory")
        self.policy = policy
        self.factory = factory
        self.name = name
        self._codes: dict[tuple[Rules, int], tuple[ObservationEncoder, ActionTable, Policy]] = {}

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        """The policy's action; ``ValueError`` if it picks a masked-out one."""
        key = (view.rules, view.players)
        codes = self._codes.get(key)
        if codes is None:
            encoder = ObservationEncoder(view.rules, view.players)
            policy = self.policy if self.factory is None else self.factory(view.rules, view.players)
            assert policy is not None
            codes = self._codes[key] = (encoder, action_table(view.rules, encoder.decks), policy)
        encoder, actions, policy = codes
        kind = decision_kind(view)
        mask = actions.mask(view.legal, kind)
        index = int(policy(encoder.encode(view, kind), mask, rng))
        if not 0 <= index < actions.size or not mask[index]:
            raise ValueError(f"the policy chose action {index}, which is not legal now")
        return actions.action(index, None if view.drawn is None else int(view.drawn))


_LOADED: dict[tuple[str, int], PolicyBot] = {}


def policy_bot(file: str | Path) -> PolicyBot:
    """A :class:`PolicyBot` playing the policy of the Python file *file* (the spec ``policy:FILE``).

    The file defines ``policy(observation, action_mask, rng)``, or
    ``make_policy(rules, players)`` returning one (made once per rule set and player
    count). ``ValueError`` naming what is wrong. Loaded once per process and file
    version (its path and modification time); every bot gets its own policy cache.
    """
    template = _load(file)
    return PolicyBot(template.policy, template.name, factory=template.factory)


def _load(file: str | Path) -> PolicyBot:
    path = Path(file).expanduser()
    what = f"policy file {str(file)[:200]!r}"
    try:
        resolved = path.resolve(strict=True)
        stamp = resolved.stat().st_mtime_ns
    except (OSError, RuntimeError) as e:
        raise ValueError(f"{what}: {getattr(e, 'strerror', None) or e}") from None
    if not resolved.is_file():
        raise ValueError(f"{what} is not a file")
    key = (str(resolved), stamp)
    loaded = _LOADED.get(key)
    if loaded is not None:
        return loaded
    module_name = "yaniv_policy_" + hashlib.sha1(str(resolved).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(module_name, resolved)
    if spec is None or spec.loader is None:
        raise ValueError(f"{what} cannot be loaded as Python (name it *.py)")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as e:  # someone's code: whatever it raises (sys.exit too), in one line
        raise ValueError(f"{what} failed to load: {type(e).__name__}: {str(e)[:300]}") from None
    name = f"policy:{path.name}"
    factory = getattr(module, "make_policy", None)
    policy = getattr(module, "policy", None)
    if callable(factory):
        bot = PolicyBot(name=name, factory=factory)
    elif callable(policy):
        bot = PolicyBot(policy, name)
    else:
        raise ValueError(
            f"{what} defines no function policy(observation, action_mask, rng) or make_policy(rules, players)"
        )
    _LOADED[key] = bot
    return bot
