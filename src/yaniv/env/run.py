"""One episode on the table driver: deals the next round, pays rewards, knows when it ends.

Both environments (the PettingZoo AEC one and the Gymnasium wrapper) keep a
:class:`TableRun`: they submit or step moves on its :class:`~yaniv.table.Table` and
hand every :class:`~yaniv.table.Move` to :meth:`TableRun.after`, which settles what the
move led to. The table has no automatic deal: a round that ends either ends the
episode or is followed by the next deal here.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Game
from ..rules import Rules
from ..scoring import RoundResult
from ..table import Decision, Move, Player, Table
from .rewards import Episode, Reward, final_rewards, round_rewards

__all__ = ["TableRun"]


class TableRun:
    """A game (or one round of it) seeded by *seed*, with *players* at the table's seats.

    ``None`` seats are the learners (actions submitted from outside), other seats bots.
    :attr:`decision` is the decision the game waits for (``None`` once the episode is
    over: :attr:`terminated`, or :attr:`truncated` when a round reached the turn cap).
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[Player | None],
        seed: int,
        *,
        episode: Episode,
        reward: Reward,
        turn_cap: int,
    ) -> None:
        """Deal the first round."""
        game = Game(rules, len(players), seed=seed)
        self.table = Table(game, players, turn_cap=turn_cap, auto_deal=False)
        self.game = game
        self.episode: Episode = episode
        self.reward: Reward = reward
        n = game.n
        self.rewards = [0.0] * n
        """Rewards earned since they were last taken (:meth:`take_rewards`)."""
        self.terminated = False
        self.truncated = False
        self.result: RoundResult | None = None
        """The last round's result."""
        self._before = list(game.totals)
        self._seats = list(self.table.view(None).active)
        self._out_round: list[int | None] = [None] * n
        self.decision: Decision | None = None
        self._refresh()

    def take_rewards(self) -> list[float]:
        """The rewards earned since the last call (and zero them)."""
        out = self.rewards
        self.rewards = [0.0] * len(out)
        return out

    def after(self, move: Move) -> None:
        """Settle *move*: the end of its round (rewards, the next deal) and the next decision."""
        result = move.result
        if result is not None:
            self._round_over(result)
        self._refresh()

    def _round_over(self, result: RoundResult) -> None:
        self.result = result
        rewards = self.rewards
        if self.reward == "round":
            for p, r in enumerate(round_rewards(result, self._before)):
                rewards[p] += r
        game = self.game
        for p in result.eliminated:
            self._out_round[p] = game.round_no
        self._before = list(result.totals)
        if game.over or self.episode == "round":
            for p, r in enumerate(
                final_rewards(self.reward, self.episode, result, self._seats, self._out_round)
            ):
                rewards[p] += r
            self.terminated = True
            return
        self.table.next_round()
        self._seats = list(self.table.view(None).active)

    def _refresh(self) -> None:
        if self.terminated:
            self.decision = None
            return
        pending = self.table.pending()
        if pending:
            self.decision = pending[0]
        else:  # not over, nothing pending: the round reached the turn cap
            self.decision = None
            self.truncated = True
