"""The PettingZoo AEC environment: every seat a learning agent, on the table driver.

``raw_env`` raises :class:`~yaniv.IllegalActionError` on an illegal action; ``env``
wraps it as PettingZoo's own card games are wrapped (an illegal action ends the game
with a penalty, out-of-range actions are caught, the call order is enforced).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..bots.encoding import ActionTable, ObservationEncoder, action_table
from ..errors import IllegalActionError
from ..rules import Rules
from ..table import DEFAULT_TURN_CAP, Decision, DecisionKind, Table
from .checks import action_index, check_options
from .rewards import Episode, Reward
from .run import TableRun

__all__ = ["ILLEGAL_REWARD", "env", "raw_env"]

ILLEGAL_REWARD = -1.0
"""What the wrapped environment pays an agent whose action was illegal (the game ends)."""

Observation = dict[str, npt.NDArray[Any]]


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the unwrapped class
    """Yaniv as a PettingZoo AEC game: agents ``player_0 … player_{n-1}`` (seat order).

    *rules*: any rule spec of the engine (preset, game string, ``{"preset", "overrides"}``
    or knobs); *players*: 2–8 within the rules' range; *episode*: ``"game"`` (whole
    games) or ``"round"``; *reward*: ``"game"``, ``"rank"`` or ``"round"``
    (:mod:`yaniv.env.rewards`); *turn_cap*: a round longer than this many turns is
    truncated. Observations are ``{"observation": Box, "action_mask": Box(int8)}``
    (layout: :mod:`yaniv.env`); actions are indices of :attr:`actions`. The same agent
    acts several times in a turn (the discard, then the take; its slap window).
    Eliminated agents stay until the game ends but are never selected.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "yaniv_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str | dict[str, Any] = "standard",
        players: int = 2,
        *,
        episode: Episode = "game",
        reward: Reward = "game",
        turn_cap: int = DEFAULT_TURN_CAP,
        render_mode: str | None = None,
    ) -> None:
        """Check the keywords and build the spaces; :meth:`reset` deals."""
        super().__init__()
        self.rules = check_options(rules, players, episode, reward, turn_cap)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.players = players
        self.episode: Episode = episode
        self.reward: Reward = reward
        self.turn_cap = turn_cap
        self.actions: ActionTable = action_table(self.rules, self.rules.decks_for(players))
        """The action space's table: index to engine action and back."""
        self.encoder = ObservationEncoder(self.rules, players)
        """The observation layout (``encoder.slices`` names every block)."""
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        # one space object per agent, so seeding one agent's space does not seed another's
        self.observation_spaces = {
            a: _observation_space(self.encoder, self.actions) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.actions.size) for a in self.possible_agents}
        self._seeds = random.Random()
        self._run: TableRun | None = None
        self._cache: dict[str, Observation] = {}

    # ----- spaces -----

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of *agent* (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of *agent* (the same object every call)."""
        return self.action_spaces[agent]

    # ----- the episode -----

    @property
    def table(self) -> Table:
        """The :class:`yaniv.table.Table` of the current episode (after :meth:`reset`)."""
        return self._current().table

    @property
    def decision(self) -> Decision | None:
        """The decision :attr:`agent_selection` makes now (turn, take or slap), if any."""
        return self._current().decision

    def _current(self) -> TableRun:
        if self._run is None:
            raise RuntimeError("call reset() before using the environment")
        return self._run

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; *seed* fixes every deal (and the seeds of later resets)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        self._run = TableRun(
            self.rules,
            [None] * self.players,
            game_seed,
            episode=self.episode,
            reward=self.reward,
            turn_cap=self.turn_cap,
        )
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cache = {}
        self._select()

    def _select(self) -> None:
        run = self._current()
        decision = run.decision
        if decision is not None and decision.seat is not None:
            self.agent_selection = self.possible_agents[decision.seat]
        elif run.terminated or run.truncated:
            flags = self.terminations if run.terminated else self.truncations
            for a in self.agents:
                flags[a] = True

    def observe(self, agent: str) -> Observation:
        """*agent*'s observation and action mask (zeros unless it is the agent to act)."""
        cached = self._cache.get(agent)
        if cached is not None:
            return cached
        run = self._current()
        seat = self._seat_of[agent]
        decision = run.decision
        kind: DecisionKind | None = None
        if decision is not None and decision.seat == seat and agent == self.agent_selection:
            kind = decision.kind
        view = run.table.raw_view(seat)
        out: Observation = {
            "observation": self.encoder.encode(view, kind),
            "action_mask": self.actions.mask_raw(view, kind),
        }
        self._cache[agent] = out
        return out

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to act: its observation, reward, termination, truncation and info."""
        self._current()  # before reset() there is no agent: say so, not a missing attribute
        last: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return last

    def step(self, action: Any) -> None:
        """Play *action* (an index) for the agent to act; ``IllegalActionError`` if illegal."""
        run = self._current()  # before reset() there is no agent to select
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = run.decision
        assert decision is not None and decision.seat is not None
        seat = decision.seat
        index = action_index(action, self.actions.size)
        drawn = None
        if index == self.actions.slap:
            drawn = run.table.raw_view(seat).drawn
        try:
            if drawn is None and index == self.actions.slap:
                raise IllegalActionError("there is no card to slap now")
            move = run.table.submit(seat, self.actions.action(index, drawn), expect=decision)
        except IllegalActionError as e:
            raise IllegalActionError(
                f"{agent} may not play action {index} ({self.actions.describe(index)}) at its "
                f"{decision.kind.value} decision: {e}"
            ) from None
        self._cache = {}
        self._cumulative_rewards[agent] = 0.0
        run.after(move)
        rewards = run.take_rewards()
        for a in self.agents:
            self.rewards[a] = rewards[self._seat_of[a]]
        self._select()
        self._accumulate_rewards()

    # ----- text -----

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table as a spectator sees it, in one short text."""
        if self.render_mode is None:
            return None
        view = self.table.view(None)
        top = " ".join(str(c) for c in view.discard_pile[-1]) if view.discard_pile else "-"
        hands = ", ".join(f"P{p}: {view.hand_counts[p]} cards" for p in view.active)
        return (
            f"{view.rules} | turn {view.turns} | P{view.current} to play ({view.phase}) | "
            f"pile top: {top} | stock {view.stock_count} | {hands} | totals {view.totals}"
        )

    def close(self) -> None:
        """Nothing to release (no window, no files)."""


def _observation_space(encoder: ObservationEncoder, actions: ActionTable) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(encoder.low, encoder.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (actions.size,), dtype=np.int8),
        }
    )


def env(**kwargs: Any) -> Any:
    """``raw_env(**kwargs)`` in PettingZoo's wrappers: an illegal action ends the game.

    The agent that played it gets :data:`ILLEGAL_REWARD` (PettingZoo's
    ``TerminateIllegalWrapper``), out-of-range actions are refused
    (``AssertOutOfBoundsWrapper``) and the API's call order is enforced
    (``OrderEnforcingWrapper``).
    """
    wrapped = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
