"""describe_rules: every preset is explained, and every knob of KNOBS shows in the words."""

from __future__ import annotations

from typing import Any

import pytest

from yaniv.describe import describe_rules
from yaniv.rules import KNOBS, PRESETS, Rules

# One value other than the standard for every knob of RULES.md §3 and §6b.
ALTERNATIVES: dict[str, Any] = {
    "num_decks": 2,
    "two_deck_min_players": 3,
    "min_players": 3,
    "max_players": 6,
    "hand_size": 7,
    "start_card": False,
    "first_starter": "random",
    "misdeal_rule": "redeal",
    "king_of_hearts_zero": True,
    "min_set_size": 3,
    "jokers_in_sets": True,
    "jokers_in_runs": "gaps_only",
    "allow_jqk_run": False,
    "allow_qka_run": True,
    "pickup_mode": "top_only",
    "joker_swap": "as_draw",
    "quick_discard": "same_rank",
    "yaniv_threshold": 5,
    "yaniv_threshold_mode": "hand_size",
    "yaniv_comparison": "lt",
    "assaf_on_tie": False,
    "assaf_penalty": 25,
    "assaf_penalty_multi": 20,
    "assaf_penalty_adds_hand": False,
    "assafer_score": "hand",
    "assaf_tie_winner": "nearest_clockwise",
    "false_yaniv_penalty": 30,
    "asef": True,
    "asef_win_delta": -20,
    "asef_loss_delta": 50,
    "halving_scores": (50, 100, 150),
    "score_limit": 100,
    "end_mode": "first_over_limit",
    "final_tie": "shared",
    "starter_on_tie": "caller_left",
    "landing_rule": "minus_50",
    "assaf_others_score": "zero",
    "round_starter": "caller",
}

# Knobs that only matter when another knob is on: flip them on top of this context.
CONTEXT: dict[str, dict[str, Any]] = {
    "two_deck_min_players": {"num_decks": "auto"},  # S1: only "auto" counts players
    "asef_win_delta": {"asef": True},  # S21
    "asef_loss_delta": {"asef": True},  # S21
}


def text(rules: Rules) -> str:
    return "\n".join(describe_rules(rules))


def test_alternatives_cover_every_knob() -> None:
    assert set(ALTERNATIVES) == set(KNOBS)
    for knob, value in ALTERNATIVES.items():
        assert value != KNOBS[knob][1], knob


@pytest.mark.parametrize("knob", list(KNOBS))
def test_flipping_each_knob_changes_the_description(knob: str) -> None:
    base = Rules().replace(**CONTEXT.get(knob, {}))
    flipped = base.replace(**{knob: ALTERNATIVES[knob]})
    assert text(flipped) != text(base), f"{knob} does not show in describe_rules"


@pytest.mark.parametrize("knob", [k for k, (allowed, _, _) in KNOBS.items() if isinstance(allowed, tuple)])
def test_every_value_of_a_choice_knob_reads_differently(knob: str) -> None:
    base = Rules().replace(**CONTEXT.get(knob, {}))
    texts = {text(base.replace(**{knob: value})) for value in KNOBS[knob][0]}
    assert len(texts) == len(KNOBS[knob][0])


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_mentions_its_threshold_and_limit(name: str) -> None:
    rules = PRESETS[name]
    lines = describe_rules(rules)
    assert lines and all(line.strip() for line in lines)
    assert all(line.endswith(".") for line in lines)
    joined = " ".join(lines)
    assert f"{rules.threshold} points or less" in joined  # S10
    assert f"Over {rules.score_limit} points you are out" in joined  # S14, S15
    assert rules.describe() == lines


def test_standard_wording() -> None:
    lines = describe_rules(PRESETS["standard"])
    assert lines[0] == "One deck of 54 cards (52 + 2 jokers)."  # S1
    assert lines[1] == "2 to 5 players; each gets 5 cards."  # S3, S4
    joined = " ".join(lines)
    assert "with 7 points or less" in joined  # S10
    assert "If someone has the same or less, that is an Assaf: you score your hand + 30" in joined
    assert "the lowest player scores 0" in joined  # S11
    assert "exactly 100 or 200 is halved, to 50 or 100" in joined  # S13
    assert "Over 200 points you are out; the last player left wins." in lines  # S14, S15


def test_preset_specifics() -> None:
    slo = " ".join(describe_rules(PRESETS["slovenian-yanef"]))
    assert "king of hearts 0" in slo  # V7
    assert "3 to 8 players" in slo  # V2
    assert "instead of your whole turn" in slo  # S19 as_turn
    assert "Asef" in slo and "-30" in slo and "+60" in slo  # S21
    assert "Totals are never halved." in slo  # V22
    jd = " ".join(describe_rules(PRESETS["jdross"]))
    assert "exactly 50 or 100 loses 50 points, to 0 or 50" in jd  # §6b landing_rule
    assert "every other player scores 0" in jd  # §6b assaf_others_score
    assert "any card of a set" in jd  # §6b pickup_mode
    assert "always started by the player who called" in jd  # §6b round_starter
    fin = " ".join(describe_rules(PRESETS["finnish"]))
    assert "scores his hand like everyone else" in fin  # V18, A5
    assert "you score 30, everyone else 0" in fin  # S18


def test_threshold_modes() -> None:
    lt = " ".join(describe_rules(Rules(yaniv_comparison="lt")))
    assert "fewer than 7 points, that is 6 points or less" in lt  # A1
    hs = " ".join(describe_rules(Rules(yaniv_threshold_mode="hand_size", hand_size=4)))
    assert "number of cards dealt, that is 4 points or less" in hs  # V3, V6
    never = describe_rules(Rules(yaniv_threshold=0, yaniv_comparison="lt"))
    assert any("never be called" in line for line in never)


def test_odd_rule_sets_still_read() -> None:
    rules = Rules(
        num_decks="auto",
        min_players=4,
        max_players=4,
        hand_size=1,
        halving_scores=(75,),
        score_limit=1,
        yaniv_threshold=1,
    )
    joined = " ".join(describe_rules(rules))
    assert "Exactly 4 players; each gets 1 card." in joined
    assert "with 1 point or less" in joined
    assert "exactly 75 is halved, to 37" in joined  # A22: floor
    assert "Over 1 point you are out" in joined
