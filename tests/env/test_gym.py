"""The Gymnasium wrapper: one learner against bots, masks, rewards, the vector form."""

from __future__ import annotations

import numpy as np
import pytest

from yaniv import IllegalActionError
from yaniv.bots import make_bot
from yaniv.env import ILLEGAL_REWARD, SingleAgentEnv, make_vector


def run_episode(e: SingleAgentEnv, seed: int) -> tuple[float, int, bool]:
    rng = np.random.default_rng(seed)
    _, info = e.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        assert (e.action_masks() == info["action_mask"].astype(bool)).all()
        _, reward, terminated, truncated, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, terminated


@pytest.mark.parametrize("opponents", ["random", "greedy", ["heuristic", "random"]])
def test_a_game_against_bots_pays_plus_or_minus_one(opponents: object) -> None:
    e = SingleAgentEnv(rules="spanish-zone-out100", players=3, opponents=opponents)  # type: ignore[arg-type]
    total, steps, terminated = run_episode(e, 4)
    game = e.table.game
    assert terminated and game.over and steps > 10
    assert total == (1.0 if e.learner in game.winners else -1.0)
    assert not e.table.faults


def test_the_learner_sits_where_asked_and_bots_play_the_other_seats() -> None:
    e = SingleAgentEnv(rules="standard", players=4, opponents="greedy", seat=None, episode="round")
    seats = set()
    for seed in range(12):
        e.reset(seed=seed)
        seats.add(e.learner)
        assert e.table.waiting_for().seat == e.learner  # type: ignore[union-attr]
        assert sum(p is None for p in e.table.players) == 1
    assert len(seats) > 1
    assert SingleAgentEnv(players=3, seat=2).reset(seed=1) is not None


def test_round_rewards_and_the_same_seed_the_same_episode() -> None:
    a = SingleAgentEnv(rules="jdross", players=2, opponents="greedy", reward="round")
    b = SingleAgentEnv(rules="jdross", players=2, opponents="greedy", reward="round")
    ra = run_episode(a, 6)
    assert ra == run_episode(b, 6)
    assert ra[0] == -a.table.game.totals[a.learner]


def test_illegal_actions_end_the_episode_or_raise() -> None:
    e = SingleAgentEnv()
    _, info = e.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = e.step(bad)
    assert (reward, terminated, truncated, info["illegal"]) == (ILLEGAL_REWARD, True, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    strict = SingleAgentEnv(illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match=f"action {bad}"):
        strict.step(bad)
    with pytest.raises(IllegalActionError, match="no action"):
        strict.step(-1)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"opponents": ["greedy", "greedy"]}, "need 1 opponents"),
        ({"opponents": "nobody"}, "unknown bot"),
        ({"seat": 2}, "seat"),
        ({"illegal": "ignore"}, "illegal"),
    ],
)
def test_bad_keywords(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        SingleAgentEnv(**kwargs)  # type: ignore[arg-type]


def test_bot_instances_are_accepted() -> None:
    e = SingleAgentEnv(players=3, opponents=[make_bot("greedy"), make_bot("random")])
    assert run_episode(e, 3)[2]


def test_vector_env_steps_many_games() -> None:
    v = make_vector(3, rules="standard", players=2, opponents="random", episode="round")
    obs, infos = v.reset(seed=1)
    assert obs.shape == (3, *v.single_observation_space.shape)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(300):  # episodes end and reset themselves on the way (the step after the end)
        masks = infos["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rewards, terminated, _, infos = v.step(actions)
        assert rewards.shape == (3,)
        ended += int(terminated.sum())
    assert ended > 3
    v.close()
