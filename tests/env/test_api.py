"""PettingZoo's and Gymnasium's own checks on the environments (several rule sets and player counts)."""

from __future__ import annotations

import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from yaniv.env import ENV_ID, SingleAgentEnv, env, raw_env

# (rules, players, extra keywords): every kind of decision and action block shows up
CASES = [
    ("standard", 2, {}),
    ("finnish", 3, {}),  # false Yaniv penalty, assafer scores his hand
    ("slovenian-yanef", 3, {}),  # top_only, joker swap as the turn, Asef, sets of three
    ("german-wiki", 2, {"reward": "rank"}),  # joker swap as the take
    ("jdross", 4, {"reward": "round"}),  # jokers in sets, any card of a set
    ("standard(quick_discard=fits_meld)", 2, {}),  # the slap window
    ("finnish(num_decks=2,hand_size=7)", 5, {"episode": "round"}),  # two decks, 7 cards
]


@pytest.mark.parametrize(("rules", "players", "kw"), CASES, ids=[c[0] for c in CASES])
def test_pettingzoo_api_test(rules: str, players: int, kw: dict[str, str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dict observation of PettingZoo's own card games warns too
        api_test(env(rules=rules, players=players, **kw), num_cycles=150)
        api_test(raw_env(rules=rules, players=players, **kw), num_cycles=50)


@pytest.mark.parametrize(("rules", "players", "kw"), CASES[:5], ids=[c[0] for c in CASES[:5]])
def test_pettingzoo_seed_test(rules: str, players: int, kw: dict[str, str]) -> None:
    seed_test(lambda: env(rules=rules, players=players, **kw), num_cycles=100)


@pytest.mark.parametrize(
    ("rules", "players", "opponents"),
    [
        ("standard", 2, "greedy"),
        ("slovenian-yanef", 4, "random"),
        ("standard(quick_discard=same_rank)", 3, "heuristic"),
    ],
)
def test_gymnasium_check_env(rules: str, players: int, opponents: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env's warnings are defects here
        check_env(SingleAgentEnv(rules=rules, players=players, opponents=opponents), skip_render_check=True)


def test_registered_with_gymnasium() -> None:
    e = gymnasium.make(ENV_ID, rules="finnish", players=3, opponents="random")
    obs, info = e.reset(seed=3)
    assert obs.shape == e.observation_space.shape
    assert info["action_mask"].any()
    e.close()


def test_metadata_and_agents() -> None:
    e = raw_env(rules="standard", players=4)
    assert e.metadata["name"] == "yaniv_v0"
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    e.reset(seed=1)
    assert e.agents == e.possible_agents
    assert e.agent_selection == "player_1"  # left of the dealer starts (S5)
