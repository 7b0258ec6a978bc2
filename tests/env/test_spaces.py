"""The action table and observation layout are derived from the rules, never constants."""

from __future__ import annotations

import numpy as np
import pytest

from yaniv import Game, Rules
from yaniv.bots import make_bot
from yaniv.cards import CARDS, JOKER
from yaniv.env import KINDS, ActionTable, ObservationEncoder, PolicyBot, action_table
from yaniv.match import play_game
from yaniv.melds import classify


@pytest.mark.parametrize(
    ("spec", "decks", "discards"),
    [
        ("standard", 1, 1689),  # 53 singles, 13 x 24 sets, 4 x 331 runs
        ("standard(hand_size=7)", 1, 3205),
        ("standard", 2, 4755),
        ("slovenian-yanef", 1, 1449),  # sets of three or more, top card chosen, no runs with K
        ("jdross", 1, 1853),  # jokers join sets
        ("standard(hand_size=1)", 1, 53),
    ],
)
def test_discard_counts_follow_the_rules(spec: str, decks: int, discards: int) -> None:
    table = ActionTable(Rules.from_spec(spec), decks)
    assert len(table.discards) == discards
    assert table.discards[:KINDS] == tuple((k,) for k in range(KINDS))
    assert max(len(d) for d in table.discards) <= Rules.from_spec(spec).hand_size


def test_standard_breakdown_and_optional_blocks() -> None:
    rules = Rules()
    table = action_table(rules, 1)
    sets = [d for d in table.discards if len(d) > 1 and JOKER not in d and len({k % 13 for k in d}) == 1]
    assert len(sets) == 13 * (6 + 4 * 3 + 6)  # pairs; triples by their two ends; fours by their ends
    assert table.size == len(table.discards) + KINDS + 2
    assert (table.swap, table.slap, table.pass_, table.asef) == (None, None, None, None)
    full = action_table(rules.replace(joker_swap="as_draw", quick_discard="same_rank", asef=True), 1)
    assert full.size == table.size + 52 + 2 + 1
    assert action_table(rules, 1) is table  # built once per rule set


@pytest.mark.parametrize("spec", ["standard", "slovenian-yanef", "jdross", "standard(allow_qka_run=true)"])
def test_every_discard_of_the_table_is_a_legal_discard(spec: str) -> None:
    rules = Rules.from_spec(spec)
    for d in action_table(rules, 1).discards:
        jokers = iter((52, 53))
        cards = [next(jokers) if k == JOKER else k for k in d]
        assert classify(cards, rules) is not None, [str(CARDS[k]) for k in d]


def test_observation_layout() -> None:
    enc = ObservationEncoder(Rules(), 3)
    assert enc.size == 6 * KINDS + 2 * 2 * KINDS + 4 + 3 + 2 + 2 * 4 + 25
    assert enc.slices["hand"] == slice(0, KINDS)
    assert (enc.low <= enc.high).all() and enc.high[enc.slices["hand"]][JOKER] == 2
    two = ObservationEncoder(Rules(num_decks="auto"), 5)
    assert two.decks == 2 and two.high[two.slices["hand"]][0] == 2


def test_a_policy_seated_as_a_bot_plays_whole_games() -> None:
    def first_legal(obs: np.ndarray, mask: np.ndarray, rng: object) -> int:
        return int(np.flatnonzero(mask)[0])

    stats = play_game(
        Game("standard(quick_discard=same_rank)", players=2, seed=3),
        [PolicyBot(first_legal), make_bot("greedy")],
    )
    assert stats.winners

    def illegal(obs: np.ndarray, mask: np.ndarray, rng: object) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    with pytest.raises(RuntimeError, match="not legal"):
        play_game(Game("standard", players=2, seed=3), [PolicyBot(illegal), make_bot("greedy")])
