"""The Gymnasium single-agent environment: one learner against the engine's bots.

The learner sits at one seat of a :class:`~yaniv.table.Table`; every other seat is a
bot (any spec of :func:`yaniv.bots.make_bot`: ``random``, ``greedy``, ``heuristic``,
``expert``, a level such as ``hard``, or ``cmd:PROGRAM``), played by the table itself
(``table.step``) between the learner's decisions, so the oracle is asked with the full
state and every other bot with its view, as in the arena. Registered as
``gymnasium.make("yaniv/Yaniv-v0", ...)``; :func:`make_vector` gives Gymnasium's
vector form.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..bots.encoding import ActionTable, ObservationEncoder, action_table
from ..errors import IllegalActionError
from ..rules import Rules
from ..table import DEFAULT_TURN_CAP, DecisionKind, Table
from .aec import ILLEGAL_REWARD
from .checks import action_index, check_options
from .rewards import Episode, Reward
from .run import TableRun

__all__ = ["ENV_ID", "SingleAgentEnv", "make_vector"]

ENV_ID = "yaniv/Yaniv-v0"
"""The Gymnasium id of :class:`SingleAgentEnv`."""

Obs = npt.NDArray[np.float32]


class SingleAgentEnv(gymnasium.Env[Obs, np.int64]):
    """One learning seat against bots: observations are the flat Box, masks in ``info``.

    *opponents*: one bot spec (or :class:`~yaniv.bots.Bot`) for every other seat, or a
    list of one per other seat, clockwise from the learner. *seat*: the learner's seat
    (``None``: a random seat each episode, drawn from the episode's seed). *rules*,
    *players*, *episode*, *reward*, *turn_cap*: as :class:`yaniv.env.raw_env`.
    ``info["action_mask"]`` and :meth:`action_masks` give the legal actions (for
    masked learners such as sb3-contrib's MaskablePPO). An illegal action ends the
    episode with reward :data:`~yaniv.env.ILLEGAL_REWARD` and ``info["illegal"]`` set
    (PettingZoo's convention; ``illegal="raise"``: :class:`~yaniv.IllegalActionError`
    instead, for debugging a learner).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (declared so by gymnasium.Env)

    def __init__(
        self,
        rules: Rules | str | dict[str, Any] = "standard",
        players: int = 2,
        *,
        opponents: str | Bot | Sequence[str | Bot] = "greedy",
        seat: int | None = 0,
        episode: Episode = "game",
        reward: Reward = "game",
        turn_cap: int = DEFAULT_TURN_CAP,
        illegal: str = "end",
        render_mode: str | None = None,
    ) -> None:
        """Check the keywords, make the bots and build the spaces; :meth:`reset` deals."""
        self.rules = check_options(rules, players, episode, reward, turn_cap)
        if illegal not in ("end", "raise"):
            raise ValueError(f"illegal must be 'end' or 'raise', got {illegal!r}")
        self.illegal = illegal
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players
        ):
            raise ValueError(f"seat must be a seat 0..{players - 1} or None, got {seat!r}")
        specs = [opponents] * (players - 1) if isinstance(opponents, (str, Bot)) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents, got {len(specs)}")
        self.opponents: list[Bot] = [make_bot(s) if isinstance(s, str) else s for s in specs]
        self.render_mode = render_mode
        self.players = players
        self.seat = seat
        self.episode: Episode = episode
        self.reward: Reward = reward
        self.turn_cap = turn_cap
        self.actions: ActionTable = action_table(self.rules, self.rules.decks_for(players))
        """The action space's table: index to engine action and back."""
        self.encoder = ObservationEncoder(self.rules, players)
        """The observation layout (``encoder.slices`` names every block)."""
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.actions.size)
        self._seeds = random.Random()
        self._run: TableRun | None = None
        self._me = 0
        self._mask: npt.NDArray[np.int8] = np.zeros(self.actions.size, dtype=np.int8)

    @property
    def table(self) -> Table:
        """The table of the current episode (after :meth:`reset`)."""
        if self._run is None:
            raise RuntimeError("call reset() before using the environment")
        return self._run.table

    @property
    def learner(self) -> int:
        """The learner's seat in the current episode."""
        return self._me

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new game (bots play up to the learner's first decision)."""
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        n = self.players
        self._me = self.seat if self.seat is not None else random.Random(f"{game_seed}-seat").randrange(n)
        seats: list[Bot | None] = [None] * n
        for i, bot in enumerate(self.opponents, start=1):
            seats[(self._me + i) % n] = bot
        self._run = TableRun(
            self.rules, seats, game_seed, episode=self.episode, reward=self.reward, turn_cap=self.turn_cap
        )
        self._play_bots()
        obs, info = self._observe()
        self._run.take_rewards()  # nothing is owed before the learner's first move
        return obs, info

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Play the learner's action index; bots play until its next decision or the end."""
        run = self._run
        if run is None:
            raise RuntimeError("call reset() before step()")
        decision = run.decision
        if decision is None:
            raise RuntimeError("the episode is over: call reset()")
        index = action_index(action, self.actions.size)
        if not self._mask[index]:
            if self.illegal == "raise":
                raise IllegalActionError(f"action {index} ({self.actions.describe(index)}) is not legal now")
            obs, info = self._observe()
            run.decision = None  # the episode is over
            run.terminated = True
            return obs, ILLEGAL_REWARD, True, False, {**info, "illegal": True}
        drawn = None
        if index == self.actions.slap:
            drawn = run.table.raw_view(self._me).drawn
        run.after(run.table.submit(self._me, self.actions.action(index, drawn), expect=decision))
        self._play_bots()
        obs, info = self._observe()
        reward = run.take_rewards()[self._me]
        return obs, reward, run.terminated, run.truncated, info

    def _play_bots(self) -> None:
        """Let the bots play until the learner must decide or the episode ends."""
        run = self._run
        assert run is not None
        me = self._me
        table = run.table
        while run.decision is not None and run.decision.seat != me:
            move = table.step()
            if move is None:  # cannot happen: every other seat is a bot and rounds are dealt here
                raise RuntimeError(f"the table stopped at {run.decision}")
            run.after(move)

    def _observe(self) -> tuple[Obs, dict[str, Any]]:
        run = self._run
        assert run is not None
        decision = run.decision
        kind: DecisionKind | None = decision.kind if decision is not None else None
        view = run.table.raw_view(self._me)
        self._mask = self.actions.mask_raw(view, kind)
        return self.encoder.encode(view, kind), {"action_mask": self._mask}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (the method masked learners call)."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the learner's view in one short text."""
        if self.render_mode is None or self._run is None:
            return None
        view = self.table.view(self._me)
        hand = " ".join(str(c) for c in view.hand)
        top = " ".join(str(c) for c in view.discard_pile[-1]) if view.discard_pile else "-"
        return f"P{self._me} hand {hand} ({view.hand_value}) | pile top {top} | totals {view.totals}"


def make_vector(
    num_envs: int, *, asynchronous: bool = False, **kwargs: Any
) -> gymnasium.vector.SyncVectorEnv | gymnasium.vector.AsyncVectorEnv:
    """*num_envs* :class:`SingleAgentEnv` stepped together (Gymnasium's vector API).

    Synchronous (one process) by default; *asynchronous*: one worker process per
    environment (``AsyncVectorEnv``), to use several cores. ``infos["action_mask"]``
    stacks the masks; an episode resets itself on the step after it ends (Gymnasium's
    default autoreset; that step's action is ignored).
    """
    if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive whole number, got {num_envs!r}")
    SingleAgentEnv(**kwargs)  # bad keywords fail here, not in a worker
    fns = [lambda: SingleAgentEnv(**kwargs) for _ in range(num_envs)]
    if asynchronous:
        return gymnasium.vector.AsyncVectorEnv(fns)
    return gymnasium.vector.SyncVectorEnv(fns)
