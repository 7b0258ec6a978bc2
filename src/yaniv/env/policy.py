"""A trained policy seated as a bot: from a seat's view, through the environment's encoding.

:class:`PolicyBot` is a :class:`~yaniv.bots.Bot` like any other, so a policy trained on
:mod:`yaniv.env` plays in :func:`yaniv.match.play_game`, the arena, or against people.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..bots import Bot
from ..table import DecisionKind
from .spaces import ActionTable, ObservationEncoder, action_table

if TYPE_CHECKING:
    from .. import SeatView

__all__ = ["Policy", "PolicyBot", "decision_kind"]

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8], random.Random], int]
"""A policy: (observation, action mask, the bot's random generator) to an action index."""


def decision_kind(view: SeatView) -> DecisionKind:
    """The decision a bot is asked for, read from its view (a slap window lists only the slap)."""
    legal = view.legal
    if legal and legal[0].type == "slap":
        return DecisionKind.SLAP
    return DecisionKind.TAKE if view.phase == "after_discard" else DecisionKind.TURN


class PolicyBot(Bot):
    """Plays *policy* on the observation and mask the environments would give its seat."""

    name = "policy"

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        """Seat *policy* (the encodings follow each game's rules and player count)."""
        self.policy = policy
        self.name = name
        self._codes: dict[tuple[object, int], tuple[ObservationEncoder, ActionTable]] = {}

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        """The policy's action; ``ValueError`` if it picks a masked-out one."""
        key = (view.rules, view.players)
        codes = self._codes.get(key)
        if codes is None:
            encoder = ObservationEncoder(view.rules, view.players)
            codes = self._codes[key] = (encoder, action_table(view.rules, encoder.decks))
        encoder, actions = codes
        kind = decision_kind(view)
        mask = actions.mask(view.legal, kind)
        index = int(self.policy(encoder.encode(view, kind), mask, rng))
        if not 0 <= index < actions.size or not mask[index]:
            raise ValueError(f"the policy chose action {index}, which is not legal now")
        return actions.action(index, None if view.drawn is None else int(view.drawn))
