"""Seeds, episodes and rewards of the AEC environment; clear errors for bad keywords and actions."""

from __future__ import annotations

import numpy as np
import pytest

from yaniv import Game, IllegalActionError, RulesError
from yaniv.env import ILLEGAL_REWARD, env, raw_env
from yaniv.env.rewards import final_rewards, round_rewards
from yaniv.scoring import RoundResult


def play(e: raw_env, seed: int, steps: int = 10_000) -> tuple[list[np.ndarray], dict[str, float]]:
    """Random masked play (seeded); the observations seen and every agent's summed rewards."""
    rng = np.random.default_rng(seed)
    seen: list[np.ndarray] = []
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(steps):
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        seen.append(obs["observation"])
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen, total


def test_reset_seed_deals_exactly_the_game_of_that_seed() -> None:
    e = raw_env(rules="finnish", players=3)
    e.reset(seed=42)
    game = Game("finnish", players=3, seed=42)
    assert e.table.game.events[1] == game.events[1]  # the deal
    assert e.table.round.key() == game.round.key()


def test_same_seed_same_episode_and_reset_continues_the_sequence() -> None:
    runs = []
    for _ in range(2):
        e = raw_env(rules="standard", players=2, episode="round")
        e.reset(seed=9)
        first, _ = play(e, 1)
        e.reset()
        second, _ = play(e, 2)
        runs.append((first, second))
    (a1, a2), (b1, b2) = runs
    assert len(a1) == len(b1) and all((x == y).all() for x, y in zip(a1, b1, strict=True))
    assert len(a2) == len(b2) and all((x == y).all() for x, y in zip(a2, b2, strict=True))
    e = raw_env(rules="standard", players=2)
    e.reset(seed=9)
    deal = e.table.game.events[1]
    e.reset()
    assert e.table.game.events[1] != deal  # a reset without a seed deals anew


def test_a_whole_game_ends_with_one_winner_paid_plus_one() -> None:
    e = raw_env(rules="spanish-zone-y5-out100", players=3, reward="game")
    e.reset(seed=5)
    _, total = play(e, 5, steps=200_000)
    game = e.table.game
    assert game.over and not e.agents
    for seat, agent in enumerate(e.possible_agents):
        assert total[agent] == (1.0 if seat in game.winners else -1.0)


def test_round_rewards_add_up_to_minus_the_final_totals() -> None:
    e = raw_env(rules="jdross", players=3, reward="round")
    e.reset(seed=2)
    _, total = play(e, 2, steps=200_000)
    game = e.table.game
    assert game.over
    for seat, agent in enumerate(e.possible_agents):
        assert total[agent] == -game.totals[seat]


def test_episode_round_ends_after_one_deal() -> None:
    e = raw_env(rules="standard", players=4, episode="round", reward="rank")
    e.reset(seed=8)
    _, total = play(e, 8)
    game = e.table.game
    assert game.round_no == 1 and game.round.is_over and not e.agents
    assert sorted(total.values()) != [0.0] * 4
    assert max(total.values()) == 1.0 or game.results[0].assaf  # the round's lowest scorer ranks first


def test_rank_rewards_share_ties() -> None:
    result = RoundResult(
        kind="yaniv",
        caller=0,
        values=(3, 9, 9, 20),
        assaf=False,
        assafers=(),
        round_scores=(0, 9, 9, 20),
        totals=(0, 9, 9, 20),
        landed=(),
        eliminated=(),
        next_starter=0,
        game_over=False,
        winners=(),
        tiebreak=(),
    )
    assert final_rewards("rank", "round", result, [0, 1, 2, 3], [None] * 4) == [1.0, 0.0, 0.0, -1.0]
    assert final_rewards("game", "round", result, [0, 1, 2, 3], [None] * 4) == [1.0, -1.0, -1.0, -1.0]
    assert final_rewards("round", "round", result, [0, 1, 2, 3], [None] * 4) == [0.0] * 4
    assert round_rewards(result, [0, 5, 100, 0]) == [0.0, -4.0, 91.0, -20.0]
    game_over = RoundResult(**{**result.__dict__, "game_over": True, "winners": (2,)})
    # a whole game: the winner first, then the later eliminated, then lower totals
    ranks = final_rewards("rank", "game", game_over, [0, 1, 2, 3], [3, 5, None, 5])
    assert ranks == pytest.approx([-1.0, 1 / 3, 1.0, -1 / 3])


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"rules": "no-such-preset"}, RulesError, "unknown preset"),
        ({"rules": "standard(yaniv_threshold=x)"}, RulesError, "yaniv_threshold"),
        ({"rules": {"hand_size": 9}}, RulesError, "hand_size"),
        ({"players": 9}, RulesError, "players"),
        ({"players": 1}, RulesError, "players"),
        ({"players": "2"}, RulesError, "players"),
        ({"episode": "match"}, ValueError, "episode"),
        ({"reward": "points"}, ValueError, "reward"),
        ({"turn_cap": 0}, ValueError, "turn_cap"),
        ({"render_mode": "human"}, ValueError, "render_mode"),
    ],
)
def test_bad_keywords_are_clear_errors(kwargs: dict[str, object], error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        raw_env(**kwargs)  # type: ignore[arg-type]


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env(rules="standard", players=2)
    e.reset(seed=1)
    obs, *_ = e.last()
    key, version = e.table.round.key(), e.table.version
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"player_1 may not play action {bad} \(discard"):
        e.step(bad)
    with pytest.raises(IllegalActionError, match="there is no action"):
        e.step(e.actions.size)
    with pytest.raises(IllegalActionError, match="an action is an index"):
        e.step("draw")
    with pytest.raises(IllegalActionError, match="may not play action"):
        e.step(e.actions.draw)  # draw before discarding
    assert e.table.round.key() == key and e.table.version == version
    assert e.agent_selection == "player_1"
    e.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))  # NumPy integers are actions too


def test_using_the_env_before_reset_says_so() -> None:
    # step() and last() before reset() were an AttributeError: no attribute 'agent_selection'
    e = raw_env(rules="standard", players=2)
    for use in (lambda: e.step(0), e.last, lambda: e.observe("player_0"), lambda: e.decision):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before using the environment"):
            use()
    e.reset(seed=1)
    assert e.last()[0]["action_mask"].any()


def test_the_wrapped_env_ends_the_game_on_an_illegal_action() -> None:
    e = env(rules="standard", players=3)
    e.reset(seed=1)
    obs, *_ = e.last()
    agent = e.agent_selection
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # PettingZoo logs a warning
    assert all(e.terminations.values())
    assert e.rewards[agent] == ILLEGAL_REWARD
    assert all(r == 0 for a, r in e.rewards.items() if a != agent)


def test_render_ansi() -> None:
    e = raw_env(rules="standard", players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "P1 to play" in text and "totals [0, 0]" in text
    assert raw_env().render() is None
