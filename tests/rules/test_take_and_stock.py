"""Turn order, taking, stock exhaustion, joker exchange, quick discard.

RULES.md S6, S8, S9, S19, S20 and V13–V15, V28, A10, A15, A16, A19, A32, §6b pickup.
"""

from __future__ import annotations

import pytest

from yaniv import Rules

from .helpers import (
    ALL_PRESETS,
    assert_illegal,
    hand,
    pile,
    rules,
    state,
    stock,
    takeable,
)

# ----------------------------------------------------------------------------- S6 turn


def test_S6_taking_before_discarding_is_illegal() -> None:
    st = state(["5C 9S", "2C 3C"], pile=["KC", "4D"])
    assert_illegal(st, 0, "draw")
    assert_illegal(st, 0, "take 4D")
    assert st.phase_name == "turn_start"


def test_S6_after_discarding_only_a_take_is_allowed() -> None:
    st = state(["5C 9S AH", "2C 3C"], pile=["KC", "4D"], stock="AD 2D")
    st.apply(0, "discard 9S")
    assert sorted(str(a) for a in st.legal_actions()) == ["draw", "take 4D"]
    assert_illegal(st, 0, "discard 5C")
    assert_illegal(st, 0, "yaniv")
    st.apply(0, "draw")
    assert hand(st, 0) == ["5C", "AD", "AH"]
    assert st.current == 1 and st.phase_name == "turn_start"


def test_S6_exactly_one_card_is_taken() -> None:
    st = state(["5C 9S", "2C 3C"], pile=["KC", "4D"], stock="AD 2D")
    st.apply(0, "discard 9S; take 4D")
    assert hand(st, 0) == ["4D", "5C"]
    assert st.current == 1
    assert_illegal(st, 0, "draw")
    assert_illegal(st, 0, "take 9S")


@pytest.mark.parametrize(
    ("players", "eliminated", "current", "after"),
    [(3, [], 0, 1), (3, [], 2, 0), (4, [2], 1, 3), (4, [0, 1], 3, 2), (5, [4], 3, 0)],
)
def test_S6_turn_passes_to_the_left_skipping_eliminated(players, eliminated, current, after) -> None:
    hands = ["" if p in eliminated else f"{p + 2}C {p + 2}D" for p in range(players)]
    st = state(hands, eliminated=eliminated, current=current, pile=["KC"], stock="AS 2S 3S")
    card = hand(st, current)[0]
    st.apply(current, f"discard {card}; draw")
    assert st.current == after


def test_S6_yaniv_is_never_compulsory() -> None:
    st = state(["AH 2S", "KC KD"], pile=["QC"], stock="AD 2D")
    actions = [str(a) for a in st.legal_actions()]
    assert "yaniv" in actions
    assert "discard 2S" in actions
    st.apply(0, "discard 2S; draw")
    assert st.result is None and st.current == 1


def test_S6_compound_turn_with_illegal_take_leaves_state_unchanged() -> None:
    st = state(["5C 9S", "2C 3C"], pile=["KC", "4D 5D 6D"])
    assert_illegal(st, 0, "discard 9S; take 5D")
    assert_illegal(st, 0, "discard 9S; take KC")
    assert_illegal(st, 0, {"type": "turn", "discard": ["9S"], "take": "9S"})


# ----------------------------------------------------------------------------- S8 take


def test_S8_first_or_last_card_of_the_previous_group() -> None:
    st = state(["KS 9S", "2C 3C"], pile=["KC", "4D 5D JK 7D"])
    st.apply(0, "discard KS")
    assert sorted(str(a) for a in st.legal_actions()) == ["draw", "take 4D", "take 7D"]
    assert_illegal(st, 0, "take 5D")
    assert_illegal(st, 0, "take JK")
    st.apply(0, "take 7D")
    assert hand(st, 0) == ["7D", "9S"]
    # The rest of the group stays in the pile, under the new discard.
    assert pile(st) == [["KC"], ["4D", "5D", "JK"], ["KS"]]


def test_S8_older_groups_and_own_discard_never_takeable() -> None:
    st = state(["KS 9S", "2C 3C"], pile=["QC", "8H", "4D"])
    st.apply(0, "discard KS")
    assert_illegal(st, 0, "take 8H")
    assert_illegal(st, 0, "take QC")
    assert_illegal(st, 0, "take KS")
    assert takeable(st) == ["4D"]


def test_S8_group_of_one_card_and_the_group_disappears() -> None:
    st = state(["KS 9S", "2C 3C"], pile=["QC", "4D"])
    st.apply(0, "discard KS; take 4D")
    assert pile(st) == [["QC"], ["KS"]]
    assert takeable(st) == ["KS"]


def test_S8_joker_at_an_end_of_a_run_is_takeable() -> None:
    st = state(["KS 9S", "2C 3C"], pile=["QC", "JK 8H 9H"])
    assert takeable(st) == ["9H", "JK"]
    st.apply(0, "discard KS; take JK")
    assert hand(st, 0) == ["9S", "JK"]
    assert st.hand_value(0) == 9


def test_S8_draw_takes_the_top_card_of_the_stock() -> None:
    st = state(["KS 9S", "2C 3C"], pile=["QC"], stock="AD 2D 3D")
    st.apply(0, "discard KS; draw")
    assert hand(st, 0) == ["9S", "AD"]
    assert stock(st) == ["2D", "3D"]


def test_S8_middle_of_a_set_not_takeable() -> None:
    st = state(["KS 9S", "2C 3C"], pile=["QC", "8S 8H 8C"])
    assert takeable(st) == ["8C", "8S"]
    st.apply(0, "discard KS")
    assert_illegal(st, 0, "take 8H")


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_V13_what_may_be_taken_per_source(preset: str) -> None:
    mode = {"slovenian-yanef": "top_only", "jdross": "ends_or_any_of_set"}.get(preset, "first_or_last")
    assert Rules.from_spec(preset).pickup_mode == mode
    run = state(["KS 9S 9D", "2C 3C 4S"], rules=preset, pile=["QC", "5S 6S 7S"])
    assert takeable(run) == (["7S"] if mode == "top_only" else ["5S", "7S"])
    the_set = state(["KS 9S 9D", "2C 3C 4S"], rules=preset, pile=["QC", "8S 8H 8C"])
    expected = {"top_only": ["8C"], "first_or_last": ["8C", "8S"], "ends_or_any_of_set": ["8C", "8H", "8S"]}
    assert takeable(the_set) == expected[mode]


def test_A16_top_card_is_the_last_card_laid() -> None:
    for group, top in (("9H 9C 9D", "9D"), ("JK 4S 5S", "5S"), ("4S 5S JK", "JK"), ("2D 3D 4D 5D", "5D")):
        st = state(["KS 9S", "2C 3C", "6C"], rules="slovenian-yanef", pile=["QC", group])
        assert takeable(st) == [top], group
        st.apply(0, "discard KS")
        first = group.split()[0]
        if first != top:
            assert_illegal(st, 0, f"take {first}")
        st.apply(0, f"take {top}")
        assert top in hand(st, 0)


def test_6b_ends_or_any_of_set_pickup() -> None:
    r = rules("standard", pickup_mode="ends_or_any_of_set")
    st = state(["KS 9S", "2C 3C"], rules=r, pile=["QC", "5D 5S 5H 5C"])
    assert takeable(st) == ["5C", "5D", "5H", "5S"]
    st.apply(0, "discard KS; take 5S")
    assert pile(st)[-2] == ["5D", "5H", "5C"]
    run = state(["KS 9S", "2C 3C"], rules=r, pile=["QC", "5D 6D 7D 8D"])
    assert takeable(run) == ["5D", "8D"]
    run.apply(0, "discard KS")
    assert_illegal(run, 0, "take 6D")


def test_6b_ends_or_any_of_set_run_with_jokers_is_still_a_run() -> None:
    # JK 5H JK is a run (4-5-6) when jokers may not join sets: only its ends are takeable.
    r = rules("standard", pickup_mode="ends_or_any_of_set")
    st = state(["KS 9S", "2C 3C"], rules=r, pile=["QC", "JK 5H JK"])
    assert takeable(st) == ["JK"]
    st.apply(0, "discard KS")
    assert_illegal(st, 0, "take 5H")
    # Under jdross a joker may join a set, so the same cards form a set: any card.
    jd = state(["KS 9S", "2C 3C"], rules="jdross", pile=["QC", "JK 5H JK"])
    assert takeable(jd) == ["5H", "JK"]


# ----------------------------------------------------------------------------- S9 stock exhaustion


def test_S9_reshuffle_all_but_the_topmost_group_when_the_stock_empties() -> None:
    st = state(["KS 9S 7H 8H 9H", "2C 3C"], pile=["QC", "2D 3D 4D", "5H"], stock="AD")
    st.apply(0, "discard 7H 8H 9H; draw")
    assert hand(st, 0) == ["9S", "AD", "KS"]
    assert pile(st) == [["7H", "8H", "9H"]]
    assert sorted(stock(st)) == sorted(["QC", "2D", "3D", "4D", "5H"])
    # A10: the whole topmost group stays, in order, and is the next player's previous group.
    assert takeable(st) == ["7H", "9H"]
    st.apply(1, "discard 2C; take 9H")
    assert hand(st, 1) == ["3C", "9H"]
    assert len(stock(st)) == 5


def test_S9_reshuffle_is_seeded() -> None:
    def run(seed: int) -> list[str]:
        st = state(["KS 9S", "2C 3C"], pile=["QC", "2D 3D 4D", "5H", "6S 7S 8S"], stock="AD", seed=seed)
        st.apply(0, "discard KS; draw")
        return stock(st)

    assert run(1) == run(1)
    assert {tuple(run(s)) for s in range(8)} != {tuple(run(1))}


def test_S9_a_take_from_the_pile_does_not_reshuffle() -> None:
    st = state(["KS 9S", "2C 3C"], pile=["QC", "5H"], stock="AD")
    st.apply(0, "discard KS; take 5H")
    assert stock(st) == ["AD"]
    assert pile(st) == [["QC"], ["KS"]]


def test_S9_no_other_cards_the_stock_stays_empty_and_the_next_player_takes() -> None:
    r = rules("standard", start_card=False)
    st = state(["KS 9S", "2C 3C"], rules=r, pile=[], stock="AD")
    st.apply(0, "discard KS; draw")
    assert stock(st) == []
    assert pile(st) == [["KS"]]
    st.apply(1, "discard 2C")
    assert [str(a) for a in st.legal_actions()] == ["take KS"]
    assert_illegal(st, 1, "draw")
    st.apply(1, "take KS")
    assert hand(st, 1) == ["3C", "KS"]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_V28_empty_stock_reshuffle_in_every_source(preset: str) -> None:
    st = state(["KS 9S 7H 8H 9H", "2C 3C 4C"], rules=preset, pile=["QC", "2D 3D 4D", "5H"], stock="AD")
    st.apply(0, "discard 7H 8H 9H; draw")
    assert pile(st) == [["7H", "8H", "9H"]]
    assert len(stock(st)) == 5
    expected = ["9H"] if Rules.from_spec(preset).pickup_mode == "top_only" else ["7H", "9H"]
    assert takeable(st) == expected


def test_A10_reshuffle_immediately_after_the_take_that_empties_the_stock() -> None:
    st = state(["KS 9S", "2C 3C", "4C 5C"], pile=["QC", "JH QH KH"], stock="AD")
    st.apply(0, "discard KS; draw")
    # Reshuffled at once: the next player can draw.
    assert len(stock(st)) == 4
    st.apply(1, "discard 2C")
    assert "draw" in [str(a) for a in st.legal_actions()]
    st.apply(1, "draw")
    assert len(stock(st)) == 3


# ----------------------------------------------------------------------------- S19 joker exchange

RUN_WITH_JOKER = "5S 6S JK 8S"


def test_S19_joker_exchange_off_in_standard() -> None:
    st = state(["7S KD", "2C 3C"], pile=["QC", RUN_WITH_JOKER])
    assert st.swappable() == []
    assert_illegal(st, 0, "swap 7S")
    st.apply(0, "discard KD")
    assert_illegal(st, 0, "swap 7S")
    assert "swap 7S" not in [str(a) for a in st.legal_actions()]


def test_S19_as_draw_exchange_is_the_take_after_discarding() -> None:
    st = state(["7S KD 4H", "2C 3C"], rules="german-wiki", pile=["QC", RUN_WITH_JOKER], stock="AD")
    assert_illegal(st, 0, "swap 7S")  # must discard first
    st.apply(0, "discard KD")
    assert "swap 7S" in [str(a) for a in st.legal_actions()]
    st.apply(0, "swap 7S")
    assert hand(st, 0) == ["4H", "JK"]
    assert st.hand_value(0) == 4
    # The natural card takes the joker's index; the group stays under the new discard.
    assert pile(st) == [["QC"], ["5S", "6S", "7S", "8S"], ["KD"]]
    assert stock(st) == ["AD"]  # no draw as well
    assert st.current == 1 and st.phase_name == "turn_start"


def test_S19_needs_the_exact_natural_card() -> None:
    st = state(["7H 7C 4S KD", "2C 3C"], rules="german-wiki", pile=["QC", RUN_WITH_JOKER])
    st.apply(0, "discard KD")
    assert st.swappable() == []
    assert_illegal(st, 0, "swap 7H")
    assert_illegal(st, 0, "swap 4S")
    assert_illegal(st, 0, "swap 7S")  # not held


def test_S19_only_the_previous_group() -> None:
    st = state(["7S KD", "2C 3C"], rules="german-wiki", pile=[RUN_WITH_JOKER, "QC"])
    st.apply(0, "discard KD")
    assert st.swappable() == []
    assert_illegal(st, 0, "swap 7S")


def test_S19_joker_at_the_end_of_a_run() -> None:
    st = state(["7S KD", "2C 3C"], rules="german-wiki", pile=["QC", "5S 6S JK"])
    st.apply(0, "discard KD")
    st.apply(0, "swap 7S")
    assert pile(st)[-2] == ["5S", "6S", "7S"]
    assert hand(st, 0) == ["JK"]


def test_S19_as_turn_exchange_replaces_the_whole_turn() -> None:
    st = state(["7S KD", "2C 3C", "4C"], rules="slovenian-yanef", pile=["QC", RUN_WITH_JOKER], stock="AD")
    assert [str(c) for c in st.swappable()] == ["7S"]
    st.apply(0, "swap 7S")
    assert hand(st, 0) == ["JK", "KD"]
    assert pile(st) == [["QC"], ["5S", "6S", "7S", "8S"]]
    assert stock(st) == ["AD"]
    assert st.current == 1 and st.phase_name == "turn_start"
    # The modified group is the next player's previous group; top only: its last card.
    assert takeable(st) == ["8S"]


def test_S19_as_turn_not_after_discarding() -> None:
    st = state(["7S KD", "2C 3C", "4C"], rules="slovenian-yanef", pile=["QC", RUN_WITH_JOKER])
    st.apply(0, "discard KD")
    assert st.swappable() == []
    assert_illegal(st, 0, "swap 7S")


def test_S19_no_exchange_from_a_run_without_a_joker_or_from_a_set() -> None:
    st = state(["9S 7D KD", "2C 3C"], rules="german-wiki", pile=["QC", "5S 6S 7S 8S"])
    st.apply(0, "discard KD")
    assert_illegal(st, 0, "swap 9S")
    with_set = state(
        ["7S KD", "2C 3C"], rules=rules("german-wiki", jokers_in_sets=True), pile=["QC", "7D 7H JK"]
    )
    with_set.apply(0, "discard KD")
    assert with_set.swappable() == []
    assert_illegal(with_set, 0, "swap 7S")


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_V14_joker_exchange_per_source(preset: str) -> None:
    mode = {"german-wiki": "as_draw", "slovenian-yanef": "as_turn"}.get(preset, "off")
    assert Rules.from_spec(preset).joker_swap == mode
    st = state(["7S KD", "2C 3C", "4C"], rules=preset, pile=["QC", RUN_WITH_JOKER])
    at_start = [str(c) for c in st.swappable()]
    st.apply(0, "discard KD")
    after_discard = [str(c) for c in st.swappable()]
    assert at_start == (["7S"] if mode == "as_turn" else [])
    assert after_discard == (["7S"] if mode == "as_draw" else [])


@pytest.mark.parametrize(("preset", "mode"), [("german-wiki", "as_draw"), ("slovenian-yanef", "as_turn")])
def test_A32_exchange_timing(preset: str, mode: str) -> None:
    st = state(["7S KD", "2C 3C", "4C"], rules=preset, pile=["QC", RUN_WITH_JOKER])
    if mode == "as_draw":
        assert_illegal(st, 0, "swap 7S")
        st.apply(0, "discard KD")
        st.apply(0, "swap 7S")
        assert hand(st, 0) == ["JK"]
    else:
        st.apply(0, "swap 7S")
        assert hand(st, 0) == ["JK", "KD"]
    assert st.current == 1


def test_A15_exchange_keeps_index_and_group_on_top() -> None:
    st = state(["3D KD", "2C 3C", "4C"], rules="slovenian-yanef", pile=["QC", "2D JK 4D 5D"])
    st.apply(0, "swap 3D")
    assert pile(st)[-1] == ["2D", "3D", "4D", "5D"]
    assert takeable(st) == ["5D"]
    st.apply(1, "discard 2C; take 5D")
    assert hand(st, 1) == ["3C", "5D"]
    assert pile(st)[-2] == ["2D", "3D", "4D"]


# ----------------------------------------------------------------------------- S20 quick discard

SAME_RANK = {"preset": "standard", "overrides": {"quick_discard": "same_rank"}}
FITS_MELD = {"preset": "standard", "overrides": {"quick_discard": "fits_meld"}}


def test_S20_same_rank_slap_after_a_stock_draw() -> None:
    st = state(["5C KD 9S", "2C 3C"], rules=SAME_RANK, pile=["QC"], stock="5H AD")
    st.apply(0, "discard 5C; draw")
    assert st.phase_name == "after_draw" and st.current == 1
    assert [str(a) for a in st.legal_actions(0)] == ["slap 5H"]
    st.apply(0, "slap 5H")
    assert pile(st)[-1] == ["5C", "5H"]
    assert hand(st, 0) == ["9S", "KD"]
    assert st.current == 1 and st.phase_name == "turn_start"
    # The extended group is the next player's previous group.
    assert takeable(st) == ["5C", "5H"]


def test_S20_same_rank_onto_a_set_but_not_a_run() -> None:
    st = state(["5C 5S KD", "2C 3C"], rules=SAME_RANK, pile=["QC"], stock="5H AD")
    st.apply(0, "discard 5C 5S; draw")
    st.apply(0, "slap 5H")
    assert pile(st)[-1] == ["5C", "5S", "5H"]
    run = state(["7H 8H 9H KD", "2C 3C"], rules=SAME_RANK, pile=["QC"], stock="10H AD")
    run.apply(0, "discard 7H 8H 9H; draw")
    assert run.legal_actions(0) == []
    assert_illegal(run, 0, "slap 10H")


def test_S20_fits_meld_extends_runs_at_either_end() -> None:
    up = state(["7H 8H 9H KD", "2C 3C"], rules=FITS_MELD, pile=["QC"], stock="10H AD")
    up.apply(0, "discard 7H 8H 9H; draw")
    up.apply(0, "slap 10H")
    assert pile(up)[-1] == ["7H", "8H", "9H", "10H"]
    down = state(["7H 8H 9H KD", "2C 3C"], rules=FITS_MELD, pile=["QC"], stock="6H AD")
    down.apply(0, "discard 7H 8H 9H; draw")
    down.apply(0, "slap 6H")
    assert pile(down)[-1] == ["6H", "7H", "8H", "9H"]
    pair = state(["7H KD", "2C 3C"], rules=FITS_MELD, pile=["QC"], stock="7S AD")
    pair.apply(0, "discard 7H; draw")
    pair.apply(0, "slap 7S")
    assert pile(pair)[-1] in (["7H", "7S"], ["7S", "7H"])
    no = state(["7H KD", "2C 3C"], rules=FITS_MELD, pile=["QC"], stock="8H AD")
    no.apply(0, "discard 7H; draw")
    assert_illegal(no, 0, "slap 8H")


def test_S20_not_after_a_discard_pile_take() -> None:
    st = state(["5C KD", "2C 3C"], rules=SAME_RANK, pile=["QC", "5H"], stock="5D AD")
    st.apply(0, "discard 5C; take 5H")
    assert st.phase_name == "turn_start"
    assert_illegal(st, 0, "slap 5H")


def test_S20_result_must_be_legal_under_min_set_size_3() -> None:
    r = {"preset": "standard", "overrides": {"quick_discard": "same_rank", "min_set_size": 3}}
    st = state(["5C KD", "2C 3C"], rules=r, pile=["QC"], stock="5H AD")
    st.apply(0, "discard 5C; draw")
    assert st.legal_actions(0) == []
    assert_illegal(st, 0, "slap 5H")


def test_S20_player_must_keep_a_card() -> None:
    st = state(["5C", "2C 3C"], rules=SAME_RANK, pile=["QC"], stock="5H AD")
    st.apply(0, "discard 5C; draw")
    assert hand(st, 0) == ["5H"]
    assert_illegal(st, 0, "slap 5H")


def test_S20_only_the_drawn_card_and_only_before_the_next_player_acts() -> None:
    st = state(["5C 5S KD", "2C 3C"], rules=SAME_RANK, pile=["QC"], stock="5H AD")
    st.apply(0, "discard 5C; draw")
    assert_illegal(st, 0, "slap 5S")  # held, but not the card just drawn
    assert_illegal(st, 1, "slap 5H")  # not the drawer
    st.apply(1, "discard 2C")
    assert_illegal(st, 0, "slap 5H")


def test_S20_quick_discard_off_in_standard() -> None:
    st = state(["5C KD", "2C 3C"], pile=["QC"], stock="5H AD")
    st.apply(0, "discard 5C; draw")
    assert st.phase_name == "turn_start"
    assert_illegal(st, 0, "slap 5H")


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_V15_quick_discard_per_source(preset: str) -> None:
    assert Rules.from_spec(preset).quick_discard == "off"
    st = state(["5C KD", "2C 3C"], rules=preset, pile=["QC"], stock="5H AD")
    st.apply(0, "discard 5C; draw")
    assert st.legal_actions(0) == []
    # 003's variant: same_rank
    variant = rules(preset, quick_discard="same_rank")
    st2 = state(["5C KD", "2C 3C 4C"], rules=variant, pile=["QC"], stock="5H AD")
    st2.apply(0, "discard 5C; draw")
    expected = [] if variant.min_set_size == 3 else ["slap 5H"]
    assert [str(a) for a in st2.legal_actions(0)] == expected


def test_A19_slapped_card_joins_the_group_and_can_be_taken() -> None:
    st = state(["5C KD", "2C 3C"], rules=SAME_RANK, pile=["QC"], stock="5H AD")
    st.apply(0, "discard 5C; draw")
    st.apply(0, "slap 5H")
    st.apply(1, "discard 2C; take 5H")
    assert hand(st, 1) == ["3C", "5H"]
    assert pile(st)[-2] == ["5C"]
    # only after a stock draw: a take opens no slap window
    st2 = state(["5C KD", "2C 3C"], rules=FITS_MELD, pile=["QC", "5H"], stock="AD")
    st2.apply(0, "discard 5C; take 5H")
    assert st2.legal_actions(0) == []


def test_A16_top_only_the_discarder_chooses_the_top_card_of_a_pair() -> None:
    # A bot picks from legal_actions: both orders of 7H 7S must be there, and each leaves
    # its last card, and only that card, to the next player.
    top_only = rules("standard", pickup_mode="top_only")
    listed = state(["7H 7S KD", "2C 3C"], rules=top_only).legal_actions()
    for top, other in (("7S", "7H"), ("7H", "7S")):
        action = next(a for a in listed if a.type == "discard" and [str(c) for c in a.cards] == [other, top])
        st = state(["7H 7S KD", "2C 3C"], rules=top_only)
        st.apply(0, action)
        st.apply(0, "draw")
        assert takeable(st) == [top]
        st.apply(1, "discard 2C")
        assert_illegal(st, 1, f"take {other}")
        st.apply(1, f"take {top}")
        assert top in hand(st, 1)


def test_S20_same_rank_no_slap_onto_a_lone_joker() -> None:
    # JK 7H is a set under jokers_in_sets, but a lone joker has no rank to be the same as.
    r = {"preset": "standard", "overrides": {"quick_discard": "same_rank", "jokers_in_sets": True}}
    st = state(["JK KD 9S", "2C 3C"], rules=r, pile=["QC"], stock="7H AD")
    st.apply(0, "discard JK; draw")
    assert st.phase_name == "after_draw"
    assert st.slap_card(0) is None
    assert st.legal_actions(0) == []
    assert_illegal(st, 0, "slap 7H", match="lone joker")
    # A natural card in the discard gives the rank: JK 7S + 7H is a same-rank slap.
    ok = state(["JK 7S KD", "2C 3C"], rules=r, pile=["QC"], stock="7H AD")
    ok.apply(0, "discard JK 7S; draw")
    assert [str(a) for a in ok.legal_actions(0)] == ["slap 7H"]
    ok.apply(0, "slap 7H")
    assert pile(ok)[-1] == ["JK", "7S", "7H"]
