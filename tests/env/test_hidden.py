"""No observation holds another seat's hidden card (checked against the full state).

Two checks at every step of random play: the card blocks agree with the full state
(one's own hand, the cards each opponent was seen taking and still holds), and the
observation does not change when the hidden cards (the opponents' unseen cards and the
stock) are dealt differently, the public record staying the same.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from yaniv.cards import KIND, cards_of_mask
from yaniv.env import raw_env
from yaniv.state import RoundState


def kind_counts(mask: int) -> np.ndarray:
    out = np.zeros(53)
    for c in cards_of_mask(mask):
        out[KIND[c]] += 1
    return out


def redealt(state: RoundState, seat: int, rng: random.Random) -> RoundState:
    """The same public position with the hidden cards (other hands' unseen cards, stock) shuffled."""
    other = state.copy()
    hidden = [c for p in range(state.n) if p != seat for c in cards_of_mask(state.hands[p] & ~state.seen[p])]
    hidden += other.stock
    rng.shuffle(hidden)
    for p in range(state.n):
        if p == seat:
            continue
        unseen = (state.hands[p] & ~state.seen[p]).bit_count()
        mask = state.seen[p]
        for c in hidden[:unseen]:
            mask |= 1 << c
        del hidden[:unseen]
        other.set_hand(p, mask)  # its value recounted
    other.stock = hidden
    return other


@pytest.mark.parametrize(
    ("rules", "players"),
    [("standard", 3), ("jdross", 2), ("finnish(num_decks=2)", 4), ("slovenian-yanef", 3)],
)
def test_observations_hold_no_hidden_card(rules: str, players: int) -> None:
    e = raw_env(rules=rules, players=players)
    rng = random.Random(3)
    e.reset(seed=4)
    changed = 0
    for _ in range(150):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.reset()
            continue
        state = e.table.round
        decision = e.decision
        assert decision is not None
        for agent in e.agents:
            seat = e.possible_agents.index(agent)
            o = e.observe(agent)["observation"]
            s = e.encoder.slices
            assert (o[s["hand"]] == kind_counts(state.hands[seat])).all()
            for i in range(1, players):
                p = (seat + i) % players
                assert (o[s[f"opponent{i}.seen"]] == kind_counts(state.seen[p])).all()
            kind = decision.kind if decision.seat == seat and agent == e.agent_selection else None
            other = redealt(state, seat, rng)
            changed += other.hands != state.hands
            view = other.view(seat)
            assert (e.encoder.encode(view, kind) == o).all(), f"{agent}'s observation depends on hidden cards"
            assert (e.actions.mask(view.legal, kind) == e.observe(agent)["action_mask"]).all()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist())))
    assert changed > 100  # the redeals really moved hidden cards
