"""The action mask is exact: every unmasked action legal, every legal action unmasked (every preset).

Random masked play on every preset and on the knob values that add decisions (the slap
window, two decks, seven cards): at each step the mask must be exactly the engine's
legal actions of the decision, each unmasked action must apply to a copy of the full
state, masked-out actions must be refused by the environment with nothing changed,
and every agent not on turn must see an all-zero mask.
"""

from __future__ import annotations

import numpy as np
import pytest

from yaniv import PRESETS, IllegalActionError
from yaniv.env import raw_env
from yaniv.table import DecisionKind

CONFIGS = [(name, 3 if name == "slovenian-yanef" else 2) for name in PRESETS] + [
    ("standard(quick_discard=same_rank)", 3),
    ("standard(quick_discard=fits_meld,joker_swap=as_draw)", 2),
    ("german-wiki(num_decks=2,hand_size=7,jokers_in_sets=true)", 4),
    ("slovenian-yanef(pickup_mode=ends_or_any_of_set,asef=false)", 3),
]
STEPS = 220  # about 3,000 checked steps in all


def legal_indices(e: raw_env, seat: int, kind: DecisionKind) -> set[int]:
    view = e.table.view(seat)
    if kind == DecisionKind.SLAP:
        assert e.actions.pass_ is not None
        return {e.actions.index(a) for a in view.legal if a.type == "slap"} | {e.actions.pass_}
    return {e.actions.index(a) for a in view.legal if a.type != "slap"}


@pytest.mark.parametrize(("rules", "players"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_mask_is_exactly_the_legal_actions(rules: str, players: int) -> None:
    e = raw_env(rules=rules, players=players, episode="round")
    rng = np.random.default_rng(5)
    e.reset(seed=11)
    kinds = set()
    for _ in range(STEPS):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.reset()
            continue
        agent = e.agent_selection
        decision = e.decision
        assert decision is not None and e.possible_agents[decision.seat] == agent
        mask = obs["action_mask"]
        unmasked = set(np.flatnonzero(mask).tolist())
        assert unmasked == legal_indices(e, decision.seat, decision.kind)
        assert unmasked, "the agent to act always has a legal action"
        kinds.add(decision.kind)
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        state = e.table.round
        view = e.table.view(decision.seat)
        for i in unmasked:  # each applies to a copy of the full state
            action = e.actions.action(i, None if view.drawn is None else int(view.drawn))
            if action is not None:
                state.copy().apply(decision.seat, action)
        key, version = state.key(), e.table.version
        masked = np.flatnonzero(mask == 0)
        for i in rng.choice(masked, size=min(6, len(masked)), replace=False):
            with pytest.raises(IllegalActionError):
                e.step(int(i))
            assert e.table.round.key() == key and e.table.version == version
        e.step(int(rng.choice(sorted(unmasked))))
    assert {DecisionKind.TURN, DecisionKind.TAKE} <= kinds
    assert (DecisionKind.SLAP in kinds) == (e.rules.quick_discard != "off")


def test_every_action_round_trips() -> None:
    e = raw_env(rules="slovenian-yanef(quick_discard=same_rank)", players=3)
    table = e.actions
    for i in range(table.size):
        if i == table.slap:
            assert table.index(table.action(i, drawn=7)) == i
        else:
            assert table.index(table.action(i)) == i
