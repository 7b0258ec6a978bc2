"""Calls, showdown and scoring: RULES.md S10–S16, S18, S21, the §6b scoring knobs.

Also V6, V16–V26 and A1–A7, A13, A14, A21, A22, A26, A27, A31, A33.
"""

from __future__ import annotations

import random

import pytest

from yaniv import Game, Rules
from yaniv.scoring import clockwise_from, settle

from .helpers import ALL_PRESETS, SOURCE_PRESETS, assert_illegal, call, rules, state

THRESHOLD = {
    "standard": 7,
    "german-wiki": 7,
    "finnish": 5,
    "slovenian-yanef": 5,
    "spanish-zone": 7,
    "spanish-zone-y5": 5,
    "spanish-zone-out100": 7,
    "spanish-zone-y5-out100": 5,
    "jdross": 5,
}

# ----------------------------------------------------------------------------- S10 calling Yaniv


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_S10_threshold_per_preset(preset: str) -> None:
    t = THRESHOLD[preset]
    assert Rules.from_spec(preset).threshold == t
    ok = state([f"{t}H", "KS QS", "KD QD"], rules=preset)
    assert "yaniv" in [str(a) for a in ok.legal_actions()]
    assert ok.apply(0, "yaniv") is not None
    too_high = state([f"{t + 1}H", "KS QS", "KD QD"], rules=preset)
    assert "yaniv" not in [str(a) for a in too_high.legal_actions()]
    assert_illegal(too_high, 0, "yaniv")


def test_S10_not_after_discarding() -> None:
    st = state(["AH 2H 9S", "KS QS"])
    st.apply(0, "discard 9S")
    assert_illegal(st, 0, "yaniv")


def test_S10_not_by_another_player_in_standard() -> None:
    st = state(["KH QH", "AS 2S", "KD"], current=0)
    assert_illegal(st, 1, "yaniv")
    st.apply(0, "discard KH")
    assert_illegal(st, 1, "yaniv")


def test_S10_call_at_once_while_the_previous_player_may_still_slap() -> None:
    r = rules("standard", quick_discard="same_rank")
    st = state(["5C KD", "AS 2S", "QH"], rules=r, stock="5H AD")
    st.apply(0, "discard 5C; draw")
    assert st.phase_name == "after_draw" and st.current == 1
    assert "yaniv" in [str(a) for a in st.legal_actions()]
    result = st.apply(1, "yaniv")
    assert result.caller == 1
    assert result.round_scores == (15, 0, 10)  # P0 holds KD and the drawn 5H
    assert_illegal(st, 0, "slap 5H")


def test_S10_king_of_hearts_zero_counts_for_the_call() -> None:
    st = state(["KH 5S", "QD", "JD"], rules="slovenian-yanef")
    assert st.hand_value(0) == 5
    assert st.apply(0, "yaniv").round_scores == (0, 10, 10)
    assert_illegal(state(["KS 5S", "QD", "JD"], rules="slovenian-yanef"), 0, "yaniv")


def test_S10_joker_only_hand_may_call() -> None:
    result = call(["JK", "AS"], 0)
    assert result.values[0] == 0
    assert result.assaf is False


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_A33_yaniv_on_the_very_first_turn(preset: str) -> None:
    r = rules(preset, hand_size=1)
    for seed in range(200):
        game = Game(r, players=3, seed=seed)
        st = game.round
        if st.hand_value(st.current) <= r.threshold:
            break
    else:  # pragma: no cover
        pytest.fail("no seed dealt a low first hand")
    assert st.turns == 0 and len(st.to_position()["discard_pile"]) == 1
    assert "yaniv" in [str(a) for a in st.legal_actions()]
    result = game.apply(st.current, "yaniv")
    assert result is not None and result.caller == st.current


def test_A1_threshold_le_and_lt() -> None:
    le = state(["7H", "KS"], rules="german-wiki")
    assert le.apply(0, "yaniv") is not None
    lt = rules("german-wiki", yaniv_comparison="lt")
    assert_illegal(state(["7H", "KS"], rules=lt), 0, "yaniv")
    assert state(["6H", "KS"], rules=lt).apply(0, "yaniv") is not None


@pytest.mark.parametrize(("size", "ok", "bad"), [(5, "5H", "6H"), (7, "7H", "8H"), (3, "3H", "4H")])
def test_V6_threshold_mode_hand_size(size: int, ok: str, bad: str) -> None:
    r = rules("german-wiki", yaniv_threshold_mode="hand_size", hand_size=size)
    assert r.threshold == size
    assert state([ok, "KS"], rules=r).apply(0, "yaniv") is not None
    assert_illegal(state([bad, "KS"], rules=r), 0, "yaniv")


def test_V6_threshold_knobs_per_source() -> None:
    for name, t in THRESHOLD.items():
        r = Rules.from_spec(name)
        assert (r.yaniv_threshold, r.yaniv_threshold_mode, r.yaniv_comparison) == (t, "fixed", "le")


# ----------------------------------------------------------------------------- S11 showdown


def test_S11_successful_yaniv() -> None:
    result = call(["AH 2H", "KS", "5D 6D"], 0)
    assert result.assaf is False and result.assafers == ()
    assert result.round_scores == (0, 10, 11)
    assert result.values == (3, 10, 11)


def test_S11_assaf_caller_pays_hand_plus_30_lowest_scores_zero() -> None:
    result = call(["AH 4H", "4S", "5D 7D"], 0)
    assert result.assaf is True and result.assafers == (1,)
    assert result.round_scores == (35, 0, 12)


def test_S11_tie_counts_as_assaf() -> None:
    result = call(["AH 4H", "5S", "9D"], 0)
    assert result.assaf is True
    assert result.round_scores == (35, 0, 9)


def test_S11_all_tied_lowest_score_zero_other_assafers_score_hand() -> None:
    result = call(["2H 3H", "3S", "AD 2D", "4C"], 0)
    assert set(result.assafers) == {1, 2, 3}
    assert result.round_scores == (35, 0, 0, 4)


def test_S11_eliminated_players_are_not_in_the_showdown() -> None:
    result = call(["2H 3H", "KS", "", "QC"], 0, eliminated=[2], totals=[0, 0, 250, 0])
    assert result.values[2] is None
    assert result.round_scores == (0, 10, 0, 10)
    assert result.totals[2] == 250


def test_S11_assaf_is_automatic_for_every_low_hand() -> None:
    # Nobody can decline: any non-caller at or below the caller's value is an assafer.
    result = call(["3H 3C", "6S", "AD", "JK 5C"], 0)
    assert result.assafers == (1, 2, 3)
    assert result.round_scores == (36, 6, 0, 5)


# ----------------------------------------------------------------------------- S12–S14


def test_S12_round_scores_are_added_to_totals() -> None:
    result = call(["AH 2H", "KS", "5D 6D"], 0, totals=[10, 20, 30])
    assert result.totals == (10, 30, 41)


@pytest.mark.parametrize("preset", SOURCE_PRESETS)
def test_S13_halving_on_exact_landing_per_preset(preset: str) -> None:
    halves = Rules.from_spec(preset).halving_scores == (100, 200)
    result = call(["AH 2H", "KS", "5D 5C"], 0, rules=preset, totals=[0, 90, 190])
    assert result.round_scores == (0, 10, 10)
    if halves:
        assert result.totals == (0, 50, 100)
        assert set(result.landed) == {1, 2}
    else:
        assert result.totals == (0, 100, 200)
        assert result.landed == ()


def test_S13_halving_once_before_elimination() -> None:
    result = call(["AH 2H", "KS"], 0, totals=[0, 190])
    assert result.totals == (0, 100)  # 200 -> 100, not on to 50
    custom = rules("standard", halving_scores=[210])
    result = call(["AH 2H", "KS"], 0, rules=custom, totals=[0, 200])
    assert result.totals == (0, 105)
    assert result.eliminated == ()


def test_S13_unchanged_total_is_not_halved_again() -> None:
    result = call(["AH 2H", "KS"], 0, totals=[100, 0])
    assert result.round_scores[0] == 0
    assert result.totals == (100, 10)
    assert 0 not in result.landed


@pytest.mark.parametrize("preset", SOURCE_PRESETS)
def test_S14_elimination_strictly_over_the_limit(preset: str) -> None:
    limit = Rules.from_spec(preset).score_limit
    result = call(["AH 2H", "KS", "QD", "JC"], 0, rules=preset, totals=[0, limit - 9, limit - 10, limit])
    assert result.totals[1] == limit + 1
    assert 1 in result.eliminated
    assert 3 in result.eliminated
    # landing exactly on the limit: halved where halving applies, else kept and not out
    assert 2 not in result.eliminated
    expected = limit // 2 if limit in Rules.from_spec(preset).halving_scores else limit
    assert result.totals[2] == expected


def test_S14_exactly_the_limit_is_not_eliminated_without_halving() -> None:
    result = call(["AH 2H", "KS", "QD"], 0, rules="german-wiki", totals=[0, 190, 0])
    assert result.totals[1] == 200
    assert result.eliminated == ()
    assert result.game_over is False


# ----------------------------------------------------------------------------- S15 game end


def test_S15_last_standing_wins() -> None:
    result = call(["AH 2H", "KS"], 0, totals=[50, 195])
    assert result.eliminated == (1,)
    assert result.game_over is True and result.winners == (0,)
    assert result.next_starter is None


def test_S15_game_goes_on_with_two_or_more_active() -> None:
    result = call(["AH 2H", "KS", "5D"], 0, totals=[50, 195, 10])
    assert result.eliminated == (1,)
    assert result.game_over is False and result.winners == ()
    assert result.next_starter == 0


def test_S15_none_remains_lowest_total_wins() -> None:
    # finnish: the lowest assafer scores his hand, so everyone can go over at once.
    result = call(["2H AH", "4S"], 1, rules="finnish", totals=[198, 180])
    assert result.round_scores == (3, 34)
    assert result.totals == (201, 214)
    assert 1 in result.eliminated  # (whether the winner is also listed is not specified)
    assert result.game_over is True and result.winners == (0,)


def test_S15_tied_lowest_replays_only_the_tied_players() -> None:
    result = call(["2H AH", "3S", "KD QD"], 1, rules="finnish", totals=[198, 168, 190])
    # P1 calls with 3, P0 has 3: Assaf; P1 168+33=201, P0 198+3=201, P2 190+20=210.
    assert result.totals == (201, 201, 210)
    assert result.game_over is False
    assert result.tiebreak == (0, 1)
    assert result.next_starter in (0, 1)


def test_S15_final_tie_shared_gives_co_winners() -> None:
    r = rules("finnish", final_tie="shared")
    result = call(["2H AH", "3S"], 1, rules=r, totals=[198, 168])
    assert result.game_over is True
    assert result.winners == (0, 1)
    assert result.tiebreak == ()


def test_S15_tiebreak_round_has_no_elimination_and_lowest_wins() -> None:
    st = state(["3H", "9S", ""], rules="finnish", totals=[201, 201, 230], eliminated=[2], tiebreak=True)
    result = st.apply(0, "yaniv")
    assert result.totals == (201, 210, 230)
    assert result.eliminated == ()
    assert result.game_over is True and result.winners == (0,)


def test_S15_tiebreak_round_tied_again_replays_again() -> None:
    st = state(["2H AH", "3S"], rules="finnish", totals=[201, 231], tiebreak=True, current=0)
    result = st.apply(0, "yaniv")
    assert result.totals == (234, 234)
    assert result.game_over is False
    assert result.tiebreak == (0, 1)


def test_S15_tiebreak_round_halving_applies() -> None:
    st = state(["2H AH", "KS JS"], rules="finnish", totals=[201, 180], tiebreak=True, current=0)
    result = st.apply(0, "yaniv")
    assert result.totals == (201, 100)
    assert result.winners == (1,)


def test_S15_game_deals_the_tiebreak_round_to_the_tied_players_only() -> None:
    game = Game("finnish", players=3, seed=3)
    game.round = state(["2H AH", "3S", "KD QD"], rules="finnish", totals=[198, 168, 190], current=1)
    game.totals = [198, 168, 190]
    game.apply(1, "yaniv")
    assert not game.over
    new = game.next_round()
    assert new.tiebreak is True
    assert new.active == (0, 1)
    assert new.to_position()["hands"][2] == []
    assert len(new.hand(0)) == len(new.hand(1)) == 5
    assert new.current in (0, 1)


# ----------------------------------------------------------------------------- S16 next starter


def test_S16_successful_yaniv_caller_starts() -> None:
    assert call(["AH 2H", "KS", "5D 6D"], 0).next_starter == 0
    assert call(["KS", "AH 2H", "5D 6D"], 1).next_starter == 1


def test_S16_assaf_lowest_starts() -> None:
    assert call(["AH 4H", "4S", "2D 7D"], 0).next_starter == 1


@pytest.mark.parametrize(
    ("hands", "caller", "expected"),
    [
        (["3S", "5D", "2C 3C", "3H"], 2, 3),  # L = P0, P3; clockwise from P2: P3 first
        (["3S", "2C 3C", "KC", "3H"], 1, 3),  # clockwise from P1: P2 (not tied), P3
        (["3S", "5D", "3D", "2C 3C"], 3, 0),  # clockwise from P3: P0 first
        (["2C 3C", "3S", "KD", "3H"], 0, 1),
    ],
)
def test_S16_assaf_tie_nearest_tied_clockwise_from_caller(hands, caller: int, expected: int) -> None:
    result = call(hands, caller)
    assert result.assaf is True
    assert result.next_starter == expected


def test_S16_caller_left_when_lowest_is_shared() -> None:
    r = rules("standard", starter_on_tie="caller_left")
    # caller P1 (5), P3 and P0 tie at 3, P2 high: the caller's left neighbour P2 starts
    result = call(["3S", "2C 3C", "KD", "3H"], 1, rules=r)
    assert result.next_starter == 2
    assert call(["3S", "2C 3C", "KD", "3H"], 1).next_starter == 3
    # lowest shared with the caller himself (5 = 5): caller_left again
    result = call(["KS", "2C 3C", "9D", "5H"], 1, rules=r)
    assert result.next_starter == 2
    assert call(["KS", "2C 3C", "9D", "5H"], 1).next_starter == 3
    # a single strictly lower player: he starts in both modes
    assert call(["KS", "2C 3C", "9D", "4H"], 1, rules=r).next_starter == 3


def test_S16_chosen_player_eliminated_next_active_clockwise() -> None:
    # finnish: the lowest non-caller scores his hand and may go out (A31).
    result = call(["4H", "3S", "KD", "QC"], 0, rules="finnish", totals=[0, 199, 0, 0])
    assert result.eliminated == (1,)
    assert result.next_starter == 2


def test_S16_game_next_round_uses_the_next_starter() -> None:
    game = Game("standard", players=4, seed=1)
    game.round = state(["AH 4H", "KS", "2D 2C", "QC"], current=0)
    result = game.apply(0, "yaniv")
    assert result.next_starter == 2
    assert game.next_round().current == 2


def test_V26_next_round_starter_per_source() -> None:
    for name in ALL_PRESETS:
        r = Rules.from_spec(name)
        assert r.starter_on_tie == "nearest_tied_clockwise", name
        assert r.round_starter == ("caller" if name == "jdross" else "winner"), name


def test_A6_nearest_tied_clockwise_vs_literal_neighbour() -> None:
    hands = ["3S", "2C 3C", "KD", "3H"]
    assert call(hands, 1, rules="finnish").next_starter == 3
    assert call(hands, 1, rules=rules("finnish", starter_on_tie="caller_left")).next_starter == 2


def test_A31_round_winner_eliminated_next_active_clockwise() -> None:
    result = call(["5H", "2S", "KD 9D", "QC"], 0, rules="finnish", totals=[0, 200, 0, 0])
    assert result.round_scores == (35, 2, 19, 10)
    assert 1 in result.eliminated
    assert result.next_starter == 2
    # wraps around past the caller's seat order
    result = call(["QC", "KD 9D", "5H", "2S"], 2, rules="finnish", totals=[0, 0, 0, 200])
    assert result.eliminated == (3,)
    assert result.next_starter == 0


# ----------------------------------------------------------------------------- S18 false Yaniv


def test_S18_out_of_turn_call_penalised_under_finnish() -> None:
    st = state(["KH QH", "AS 9S", "KD"], rules="finnish", current=0, totals=[10, 20, 30])
    result = st.apply(1, "yaniv")
    assert result is not None and result.kind == "false_yaniv"
    assert result.round_scores == (0, 30, 0)
    assert result.totals == (10, 50, 30)
    assert result.values == (None, None, None)  # hands are not compared
    assert result.next_starter == 2


def test_S18_false_yaniv_halving_elimination_and_starter() -> None:
    result = state(["KH QH", "AS 9S", "KD"], rules="finnish", totals=[0, 170, 0]).apply(1, "yaniv")
    assert result.totals == (0, 100, 0)
    result = state(["KH QH", "AS 9S", "KD"], rules="finnish", totals=[0, 180, 0]).apply(1, "yaniv")
    assert result.eliminated == (1,)
    assert result.next_starter == 2
    result = state(["KH QH", "AS 9S", "KD"], rules="finnish", totals=[0, 0, 0]).apply(2, "yaniv")
    assert result.next_starter == 0


def test_S18_also_while_the_current_player_is_taking() -> None:
    st = state(["KH QH", "AS 9S", "KD"], rules="finnish")
    st.apply(0, "discard KH")
    result = st.apply(2, "yaniv")
    assert result.kind == "false_yaniv" and result.round_scores == (0, 0, 30)


def test_A7_after_discard_or_too_high_remains_illegal_under_penalty() -> None:
    st = state(["AH 2H 9S", "KS"], rules="finnish")
    st.apply(0, "discard 9S")
    assert_illegal(st, 0, "yaniv")
    high = state(["AH 9S", "KS"], rules="finnish")
    assert_illegal(high, 0, "yaniv")


def test_S18_without_penalty_out_of_turn_is_simply_rejected() -> None:
    st = state(["KH QH", "AS 2S", "KD"])
    assert_illegal(st, 1, "yaniv")
    assert_illegal(st, 2, "yaniv")


def test_S18_eliminated_player_cannot_call() -> None:
    st = state(["KH QH", "", "KD"], rules="finnish", eliminated=[1], totals=[0, 250, 0])
    assert_illegal(st, 1, "yaniv")


def test_V20_false_yaniv_penalty_per_source() -> None:
    for name in ALL_PRESETS:
        expected = 30 if name == "finnish" else None
        assert Rules.from_spec(name).false_yaniv_penalty == expected, name
    custom = rules("standard", false_yaniv_penalty=25)
    result = state(["KH QH", "AS 9S", "KD"], rules=custom).apply(2, "yaniv")
    assert result.round_scores == (0, 0, 25)


# ----------------------------------------------------------------------------- S21 Asef

SLO = "slovenian-yanef"


def asef_state(hands: list[str], blind: str, **kw):
    return state(hands, rules=kw.pop("rules", SLO), stock=f"{blind} 10C", **kw)


def test_S21_asef_won() -> None:
    st = asef_state(["4C", "3S 5S", "6D 7D"], "AD")
    st.apply(0, "discard 4C")
    assert "asef" in [str(a) for a in st.legal_actions()]
    result = st.apply(0, "asef")
    assert result.kind == "asef"
    assert result.values == (1, 8, 13)
    assert result.round_scores == (-30, 8, 13)
    assert result.totals == (-30, 8, 13)  # no floor
    assert result.next_starter == 0


def test_S21_asef_lost_plus_60_hand_not_added() -> None:
    st = asef_state(["4C", "3S", "6D 7D"], "9D")
    st.apply(0, "discard 4C")
    result = st.apply(0, "asef")
    assert result.assaf is True
    assert result.round_scores == (60, 0, 13)
    assert result.next_starter == 1


def test_S21_no_threshold_for_the_blind_card() -> None:
    st = asef_state(["4C", "JS QS", "KD 7D"], "10D")
    st.apply(0, "discard 4C")
    result = st.apply(0, "asef")
    assert result.values[0] == 10
    assert result.round_scores == (-30, 20, 17)


def test_S21_only_with_exactly_one_card() -> None:
    st = asef_state(["4C 5C", "3S", "6D 7D"], "AD")
    st.apply(0, "discard 4C")
    assert "asef" not in [str(a) for a in st.legal_actions()]
    assert_illegal(st, 0, "asef")
    pair = asef_state(["4C 4H", "3S", "6D 7D"], "AD", rules=rules(SLO, min_set_size=2))
    pair.apply(0, "discard 4C 4H")  # one card in hand is not enough: it must be one at turn start
    assert_illegal(pair, 0, "asef")


def test_S21_not_before_discarding_and_not_in_standard() -> None:
    st = asef_state(["4C", "3S", "6D 7D"], "AD")
    assert_illegal(st, 0, "asef")
    std = asef_state(["4C", "3S", "6D 7D"], "AD", rules="standard")
    std.apply(0, "discard 4C")
    assert "asef" not in [str(a) for a in std.legal_actions()]
    assert_illegal(std, 0, "asef")


def test_V21_asef_per_source() -> None:
    for name in ALL_PRESETS:
        r = Rules.from_spec(name)
        assert r.asef is (name == SLO), name
        assert (r.asef_win_delta, r.asef_loss_delta) == (-30, 60)


def test_A14_asef_loses_on_a_tie_and_others_score_as_in_yaniv() -> None:
    st = asef_state(["4C", "3S", "3D KD", "5H"], "3H")
    st.apply(0, "discard 4C")
    result = st.apply(0, "asef")
    assert result.values[0] == 3
    assert result.assafers == (1,)
    assert result.round_scores[0] == 60
    assert result.round_scores[1] == 0
    assert result.round_scores[2] == 13
    assert result.round_scores[3] == 5


def test_A14_asef_totals_may_go_negative() -> None:
    st = asef_state(["4C", "3S 9S", "6D 7D"], "JK", totals=[10, 0, 0])
    st.apply(0, "discard 4C")
    result = st.apply(0, "asef")
    assert result.totals[0] == -20


def test_A22_asef_landing_is_halved() -> None:
    r = rules(SLO, halving_scores=[100, 200])
    st = asef_state(["4C", "3S 9S", "6D 7D"], "AD", rules=r, totals=[130, 0, 0])
    st.apply(0, "discard 4C")
    result = st.apply(0, "asef")
    assert result.totals[0] == 50


# ----------------------------------------------------------------------------- V16–V25 and A ids


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_V16_tie_with_caller_is_assaf_in_every_source(preset: str) -> None:
    assert Rules.from_spec(preset).assaf_on_tie is True
    t = THRESHOLD[preset]
    result = call([f"{t}H", f"{t}S", "KD QD"], 0, rules=preset)
    assert result.assaf is True and result.assafers == (1,)


def test_A2_strict_assaf_knob() -> None:
    r = rules("standard", assaf_on_tie=False)
    result = call(["AH 4H", "5S", "9D"], 0, rules=r)
    assert result.assaf is False
    assert result.round_scores == (0, 5, 9)
    result = call(["AH 4H", "4S", "9D"], 0, rules=r)
    assert result.assaf is True and result.round_scores == (35, 0, 9)


@pytest.mark.parametrize(
    ("preset", "two_assafers", "one_assafer"),
    [
        ("standard", 35, 35),
        ("german-wiki", 45, 35),  # 20 x 2 + hand 5 ; 30 + 5
        ("finnish", 35, 35),
        ("slovenian-yanef", 30, 30),  # flat 30
        ("spanish-zone", 35, 35),
        ("jdross", 30, 30),
    ],
)
def test_V17_caller_penalty_per_source(preset: str, two_assafers: int, one_assafer: int) -> None:
    two = call(["AH 4H", "4S", "3D", "KC QC"], 0, rules=preset)
    assert two.round_scores[0] == two_assafers
    one = call(["AH 4H", "4S", "9D", "KC QC"], 0, rules=preset)
    assert one.round_scores[0] == one_assafer


def test_A4_multi_penalty_counts_every_assafer_not_only_the_lowest() -> None:
    result = call(["2H 3H", "5S", "AD", "3C", "KC"], 0, rules="german-wiki")
    assert result.assafers == (1, 2, 3)
    assert result.round_scores == (65, 5, 0, 3, 10)


def test_A13_slovenian_flat_30_and_lower_player_zero() -> None:
    result = call(["4H", "3S", "KD 9D"], 0, rules="slovenian-yanef", totals=[10, 10, 10])
    assert result.round_scores == (30, 0, 19)
    assert result.totals == (40, 10, 29)


@pytest.mark.parametrize(
    ("preset", "score"),
    [("standard", 0), ("german-wiki", 0), ("finnish", 3), ("slovenian-yanef", 0), ("spanish-zone", 0)],
)
def test_V18_lowest_assafer_score_per_source(preset: str, score: int) -> None:
    result = call(["AH 4H", "3S", "KD QD"], 0, rules=preset)
    assert result.round_scores[1] == score


def test_A5_finnish_hand_and_hand_if_tied() -> None:
    hands = ["AH 4H", "3S", "KD QD"]
    assert call(hands, 0, rules="finnish").round_scores == (35, 3, 20)
    r = rules("finnish", assafer_score="hand_if_tied")
    assert call(hands, 0, rules=r).round_scores == (35, 0, 20)
    # tied with another non-caller: both score their hands
    assert call(["AH 4H", "3S", "3D"], 0, rules=r).round_scores == (35, 3, 3)
    # tied with the caller: hand value
    assert call(["AH 4H", "5S", "8D"], 0, rules=r).round_scores == (35, 5, 8)


def test_V19_A3_tie_among_lowest_assafers() -> None:
    for name in ALL_PRESETS:
        assert Rules.from_spec(name).assaf_tie_winner == "all"
    hands = ["2C 3C", "3S", "KD", "3H"]  # caller P0; P1 and P3 tie on 3
    assert call(hands, 0).round_scores == (35, 0, 10, 0)
    r = rules("standard", assaf_tie_winner="nearest_clockwise")
    assert call(hands, 0, rules=r).round_scores == (35, 0, 10, 3)
    assert call(hands, 0, rules=r).next_starter == 1


def test_A21_only_the_lowest_assafers_score_zero() -> None:
    result = call(["AH 4H", "3S", "4D", "5C", "KC"], 0, rules="spanish-zone")
    assert result.assafers == (1, 2, 3)
    assert result.round_scores == (35, 0, 4, 5, 10)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_V22_halving_per_source(preset: str) -> None:
    expected = {
        "german-wiki": (),
        "slovenian-yanef": (),
        "jdross": (50, 100),
    }.get(preset, (100, 200))
    r = Rules.from_spec(preset)
    assert r.halving_scores == expected
    result = call(["AH 2H", "KS", "KD", "KC"], 0, rules=preset, totals=[0, 40, 90, 190])
    landed = {40 + 10: 1, 90 + 10: 2, 190 + 10: 3}
    for total, seat in landed.items():
        if total in expected:
            assert seat in result.landed
        else:
            assert result.totals[seat] == total


def test_V22_german_variant_50_100_150() -> None:
    r = rules("german-wiki", halving_scores=[50, 100, 150])
    result = call(["AH 2H", "KS", "KD", "KC"], 0, rules=r, totals=[0, 40, 90, 140])
    assert result.totals == (0, 25, 50, 75)


def test_A22_halving_details() -> None:
    # once, not cascading
    assert call(["AH 2H", "KS"], 0, totals=[0, 190]).totals == (0, 100)
    # a total staying on 50 under the 50/100/150 variant is not halved again
    r = rules("german-wiki", halving_scores=[50, 100, 150])
    assert call(["AH 2H", "KS"], 0, rules=r, totals=[50, 0]).totals == (50, 10)
    # penalties land too: 166 + 34 = 200 -> 100 (see the worked examples)
    assert call(["AH 3H", "4S"], 0, rules="finnish", totals=[166, 0]).totals[0] == 100
    # limit 100: exactly 100 still halves to 50
    assert call(["AH 2H", "KS"], 0, rules="spanish-zone-out100", totals=[0, 90]).totals == (0, 50)
    # odd custom landings halve with floor
    assert call(["AH 2H", "KS"], 0, rules=rules("standard", halving_scores=[75]), totals=[0, 65]).totals == (
        0,
        37,
    )


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_V23_score_limit_per_source(preset: str) -> None:
    limit = 100 if preset.endswith("out100") or preset == "jdross" else 200
    assert Rules.from_spec(preset).score_limit == limit
    result = call(["AH 2H", "KS", "QD"], 0, rules=preset, totals=[0, limit - 9, 0])
    assert result.eliminated == (1,)


def test_V24_end_mode_first_over_limit() -> None:
    for name in ALL_PRESETS:
        assert Rules.from_spec(name).end_mode == "last_standing"
    r = rules("german-wiki", end_mode="first_over_limit")
    result = call(["AH 2H", "KS", "QD 5D"], 0, rules=r, totals=[120, 195, 30])
    assert result.game_over is True
    assert result.winners == (2,)
    assert 1 in result.eliminated
    under_last_standing = call(["AH 2H", "KS", "QD 5D"], 0, rules="german-wiki", totals=[120, 195, 30])
    assert under_last_standing.game_over is False


def test_V24_first_over_limit_tie_replays() -> None:
    r = rules("german-wiki", end_mode="first_over_limit")
    result = call(["AH 2H", "KS", "QD 5D"], 0, rules=r, totals=[45, 195, 30])
    assert result.totals == (45, 205, 45)
    assert result.game_over is False
    assert result.tiebreak == (0, 2)


def test_V25_final_tie_per_source() -> None:
    for name in ALL_PRESETS:
        assert Rules.from_spec(name).final_tie == "replay", name


def test_A26_final_tie_replay_and_shared() -> None:
    replay = call(["2H AH", "3S"], 1, rules="finnish", totals=[198, 168])
    assert (replay.game_over, replay.tiebreak) == (False, (0, 1))
    shared = call(["2H AH", "3S"], 1, rules=rules("finnish", final_tie="shared"), totals=[198, 168])
    assert (shared.game_over, shared.winners) == (True, (0, 1))


def test_A27_slovenian_winner_is_last_standing() -> None:
    r = Rules.from_spec("slovenian-yanef")
    assert r.end_mode == "last_standing"
    result = call(["4H", "KS", "KD", "AC"], 0, rules=r, totals=[0, 195, 195, 0])
    assert set(result.eliminated) == {1, 2}
    assert result.game_over is False  # two players remain
    result = call(["4H", "KS", "", "AC"], 3, rules=r, totals=[199, 195, 250, 0], eliminated=[2])
    assert result.game_over is True and result.winners == (3,)


# ----------------------------------------------------------------------------- §6b knobs


def test_6b_landing_rule_minus_50() -> None:
    r = Rules.from_spec("jdross")
    result = call(["AH 2H", "KS", "KD", "KC"], 0, rules=r, totals=[0, 40, 90, 0])
    assert result.totals == (0, 0, 50, 10)
    unchanged = call(["AH 2H", "KS"], 0, rules=r, totals=[50, 0])
    assert unchanged.totals == (50, 10)


def test_6b_assaf_others_score_zero() -> None:
    r = rules("standard", assaf_others_score="zero")
    result = call(["AH 4H", "3S", "KD QD"], 0, rules=r)
    assert result.round_scores == (35, 0, 0)
    r2 = rules("finnish", assaf_others_score="zero")
    assert call(["AH 4H", "3S", "KD QD"], 0, rules=r2).round_scores == (35, 0, 0)
    # a successful Yaniv is unaffected
    assert call(["AH 2H", "3S 9S", "KD"], 0, rules=r).round_scores == (0, 12, 10)


def test_6b_round_starter_caller() -> None:
    r = rules("standard", round_starter="caller")
    assert call(["AH 4H", "3S", "KD QD"], 0, rules=r).next_starter == 0
    assert call(["AH 4H", "3S", "KD QD"], 0).next_starter == 1
    out = call(["AH 4H", "3S", "KD QD"], 0, rules=r, totals=[170, 0, 0])
    assert out.eliminated == (0,)
    assert out.next_starter == 1


def test_6b_jdross_flat_penalty_and_others_zero() -> None:
    result = call(["AH 4H", "3S", "KD QD"], 0, rules="jdross", totals=[10, 10, 10])
    assert result.round_scores == (30, 0, 0)
    assert result.totals == (40, 10, 10)
    assert result.next_starter == 0


# ----------------------------------------------------------------------------- formal scoring


def _reference(r: Rules, n, active, totals, caller, kind, values):
    """RULES.md §3 formal round scoring, written out literally."""
    score = [0] * n
    c = values[caller]
    others = clockwise_from(caller, [p for p in active if p != caller], n)
    if kind == "false_yaniv":
        score[caller] = r.false_yaniv_penalty or 0
    else:
        assafers = [p for p in others if (values[p] <= c if r.assaf_on_tie else values[p] < c)]
        if not assafers:
            score[caller] = r.asef_win_delta if kind == "asef" else 0
            for p in others:
                score[p] = values[p]
        else:
            multi = r.assaf_penalty_multi
            base = multi * len(assafers) if multi and len(assafers) >= 2 else r.assaf_penalty
            if kind == "asef":
                score[caller] = r.asef_loss_delta
            else:
                score[caller] = base + (c if r.assaf_penalty_adds_hand else 0)
            m = min(values[p] for p in others)
            low = [p for p in others if values[p] == m]
            if r.assafer_score == "zero":
                zero = low if r.assaf_tie_winner == "all" else low[:1]
            elif r.assafer_score == "hand":
                zero = []
            else:
                zero = low if len(low) == 1 and m < c else []
            for p in others:
                score[p] = 0 if p in zero or r.assaf_others_score == "zero" else values[p]
    new = list(totals)
    for p in active:
        t = totals[p] + score[p]
        if score[p] != 0 and t in r.halving_scores:
            t = t // 2 if r.landing_rule == "halve" else t - 50
        new[p] = t
    return score, new


def test_S11_S13_formal_scoring_matches_the_reference() -> None:
    rng = random.Random(2024)
    for _ in range(1500):
        r = Rules(
            assaf_on_tie=rng.random() < 0.5,
            assaf_penalty=rng.choice([20, 25, 30]),
            assaf_penalty_multi=rng.choice([None, 20, 15]),
            assaf_penalty_adds_hand=rng.random() < 0.5,
            assafer_score=rng.choice(["zero", "hand", "hand_if_tied"]),
            assaf_tie_winner=rng.choice(["all", "nearest_clockwise"]),
            assaf_others_score=rng.choice(["hand", "zero"]),
            false_yaniv_penalty=rng.choice([None, 30]),
            asef=True,
            halving_scores=rng.choice([(), (100, 200), (50, 100, 150), (75,)]),
            landing_rule=rng.choice(["halve", "minus_50"]),
            max_players=6,
        )
        n = rng.randint(2, 6)
        out = rng.sample(range(n), rng.randint(0, n - 2))
        active = [p for p in range(n) if p not in out]
        caller = rng.choice(active)
        kind = rng.choice(
            ["yaniv", "yaniv", "asef", "false_yaniv"] if r.false_yaniv_penalty else ["yaniv", "asef"]
        )
        values = [rng.randint(0, 12) if p in active else 0 for p in range(n)]
        totals = [rng.choice([0, 40, 50, 70, 90, 95, 100, 150, 170, 190]) for _ in range(n)]
        result = settle(r, n, active, totals, caller, kind, values)
        score, new = _reference(r, n, active, totals, caller, kind, values)
        assert list(result.round_scores) == score, (r, n, active, caller, kind, values)
        assert list(result.totals) == new
        over = {p for p in active if new[p] > r.score_limit}
        assert set(result.eliminated) <= over
        assert over - set(result.eliminated) <= set(result.winners) | set(result.tiebreak)


def test_V17_multi_penalty_of_zero_is_unset_as_in_the_formal_scoring() -> None:
    # RULES.md §3: "base = assaf_penalty_multi*|A| if (assaf_penalty_multi and |A| >= 2)"
    rules = {"preset": "standard", "overrides": {"assaf_penalty_multi": 0}}
    result = call(["AH 4H", "4S", "3D", "KC QC"], 0, rules=rules)
    assert result.assafers == (1, 2)
    assert result.round_scores[0] == 30 + 5


def test_S16_clockwise_from_is_the_seating_order_after_a_seat() -> None:
    # the seats after *seat* going clockwise (S16's "clockwise from the caller"), for any
    # table size and any subset of its seats, the seat itself last when it is listed
    rng = random.Random(16)
    for _ in range(2000):
        n = rng.randint(2, 8)
        seats = rng.sample(range(n), rng.randint(1, n))
        seat = rng.randrange(n)
        expected = [p % n for p in range(seat + 1, seat + n + 1) if p % n in seats]
        assert clockwise_from(seat, seats, n) == expected
    assert clockwise_from(2, [0, 1, 2, 3], 4) == [3, 0, 1, 2]
