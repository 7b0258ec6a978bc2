"""Legal discards: RULES.md S7 (S7.1–S7.5) and A8, A11, A17, A23, A24, A28, A30, V8–V12."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest

from yaniv import Rules

from .helpers import (
    ALL_PRESETS,
    SOURCE_PRESETS,
    assert_illegal,
    hand,
    is_legal_discard,
    kind_of,
    pile,
    rules,
    state,
)

TWO_DECKS = {"preset": "standard", "overrides": {"num_decks": 2}}

# ----------------------------------------------------------------------------- S7.1 singles


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("card", ["AS", "7H", "10D", "KC", "KH", "JK"])
def test_S7_1_single_any_card_including_joker(preset: str, card: str) -> None:
    assert kind_of(card, preset) == "single"


def test_S7_1_discarding_a_single_joker_is_accepted() -> None:
    st = state(["JK 9S", "2C 3C"])
    st.apply(0, "discard JK")
    assert pile(st)[-1] == ["JK"]
    assert hand(st, 0) == ["9S"]
    assert st.phase_name == "after_discard"


# ----------------------------------------------------------------------------- S7.2 sets


@pytest.mark.parametrize("cards", ["7H 7S", "7S 7H", "7S 7H 7D", "7D 7S 7H", "7C 7D 7H 7S", "KH KS", "AC AD"])
def test_S7_2_set_same_rank_any_order(cards: str) -> None:
    assert kind_of(cards) == "set"


@pytest.mark.parametrize("cards", ["7H JK", "JK 7H", "7H 7S JK", "7H JK 7S", "JK 7H 7S 7D"])
def test_S7_2_jokers_may_not_join_a_set(cards: str) -> None:
    assert not is_legal_discard(cards)
    assert is_legal_discard(cards, rules("standard", jokers_in_sets=True))


def test_S7_2_jokers_in_sets_knob_still_needs_a_natural_and_the_minimum() -> None:
    r = rules("standard", jokers_in_sets=True)
    assert kind_of("5H JK", r) == "set"
    assert not is_legal_discard("JK JK", r)
    r3 = rules("standard", jokers_in_sets=True, min_set_size=3)
    assert not is_legal_discard("5H JK", r3)
    assert kind_of("5H JK JK", r3) in ("set", "run")
    assert kind_of("5H 5S JK", r3) == "set"


@pytest.mark.parametrize("preset", SOURCE_PRESETS)
def test_S7_2_min_set_size_per_preset(preset: str) -> None:
    minimum = 3 if preset == "slovenian-yanef" else 2
    assert Rules.from_spec(preset).min_set_size == minimum
    assert is_legal_discard("9H 9S", preset) is (minimum == 2)
    assert kind_of("9H 9S 9D", preset) == "set"
    assert kind_of("QH QS QD QC", preset) == "set"


def test_V8_min_set_size_per_source() -> None:
    expected = {name: 2 for name in ALL_PRESETS} | {"slovenian-yanef": 3}
    for name, value in expected.items():
        assert Rules.from_spec(name).min_set_size == value, name
    st = state(["9H 9S 2C", "2D 3D 4D", "5S 6S 7S"], rules="slovenian-yanef")
    assert_illegal(st, 0, "discard 9H 9S")


def test_S7_2_two_decks_identical_cards_form_a_set() -> None:
    st = state(["9H 9H 3C", "2D 3D"], rules=TWO_DECKS)
    assert kind_of("9H 9H", Rules.from_spec(TWO_DECKS)) == "set"
    st.apply(0, "discard 9H 9H")
    assert pile(st)[-1] == ["9H", "9H"]
    assert hand(st, 0) == ["3C"]


def test_V9_jokers_in_sets_per_source() -> None:
    for name in ALL_PRESETS:
        assert Rules.from_spec(name).jokers_in_sets is (name == "jdross"), name
    assert not is_legal_discard("8H JK", "finnish")
    assert kind_of("8H JK", "jdross") == "set"


# ----------------------------------------------------------------------------- S7.3 runs


@pytest.mark.parametrize("cards", ["7H 8H 9H", "AD 2D 3D 4D 5D", "10S JS QS", "9C 10C JC QC KC", "AS 2S 3S"])
def test_S7_3_run_ascending_same_suit(cards: str) -> None:
    assert kind_of(cards) == "run"


def test_S7_3_run_needs_three_cards() -> None:
    assert not is_legal_discard("7H 8H")
    assert not is_legal_discard("7H JK")  # neither a set nor a run


@pytest.mark.parametrize("preset", SOURCE_PRESETS)
def test_S7_3_run_ace_low_only(preset: str) -> None:
    assert kind_of("AH 2H 3H", preset) == "run"
    assert not is_legal_discard("QH KH AH", preset)
    assert not is_legal_discard("KH AH 2H", preset)
    assert not is_legal_discard("JK KH AH", preset)
    assert not is_legal_discard("QH KH JK", preset)


def test_S7_3_allow_qka_run_knob_never_allows_wraparound() -> None:
    r = rules("standard", allow_qka_run=True)
    assert kind_of("QH KH AH", r) == "run"
    assert kind_of("JH QH KH AH", r) == "run"
    assert kind_of("QH JK AH", r) == "run"
    assert kind_of("AH 2H 3H", r) == "run"
    assert not is_legal_discard("KH AH 2H", r)
    assert not is_legal_discard("QH KH AH 2H", r)


@pytest.mark.parametrize(
    "cards",
    ["JK 8H 9H", "8H JK 10H", "8H 9H JK", "JK JK 9H", "8H JK JK JH", "JK 8H JK", "AH JK 3H", "JK QH KH"],
)
def test_S7_3_jokers_anywhere_in_a_run(cards: str) -> None:
    assert kind_of(cards) == "run"


@pytest.mark.parametrize("cards", ["JK AH 2H", "QH KH JK", "JK JK AH", "KH JK JK", "JK JK JK 2C"])
def test_S7_3_represented_ranks_within_ace_to_king(cards: str) -> None:
    assert not is_legal_discard(cards)


@pytest.mark.parametrize("cards", ["JH QH KH", "10H JH QH KH", "JK QD KD", "JC JK KC"])
def test_S7_3_runs_with_king_legal_in_standard(cards: str) -> None:
    assert kind_of(cards) == "run"


def test_S7_3_discarding_a_run_lays_it_in_the_given_order() -> None:
    st = state(["4D 5D JK 7D KS", "2C 3C"])
    st.apply(0, "discard 4D 5D JK 7D")
    assert pile(st)[-1] == ["4D", "5D", "JK", "7D"]
    assert hand(st, 0) == ["KS"]


# ----------------------------------------------------------------------------- S7.4 / S7.5


@pytest.mark.parametrize("cards", ["JK JK"])
@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_S7_4_only_jokers_never_legal(cards: str, preset: str) -> None:
    assert not is_legal_discard(cards, preset)
    assert not is_legal_discard(cards, rules(preset, jokers_in_sets=True))


def test_S7_4_four_jokers_in_two_decks_not_legal() -> None:
    r = Rules.from_spec(TWO_DECKS)
    assert not is_legal_discard("JK JK JK", r)
    assert not is_legal_discard("JK JK JK JK", r)
    st = state(["JK JK JK 5C", "2D"], rules=TWO_DECKS)
    assert_illegal(st, 0, "discard JK JK JK")
    assert_illegal(st, 0, "discard JK JK")


@pytest.mark.parametrize(
    "cards",
    [
        "7H 8S 9H",  # mixed suits
        "7H 9H 10H",  # gap without a joker
        "AH 3H 5H",
        "7H 7S 8H",  # set mixed with another card
        "7H 7S 7D 8D 9D",
        "5H 5S 9H 9S",  # two combinations at once
        "3H 4H 5H 9C 9D",
        "7H 8H JK JK JK 9S",
    ],
)
def test_S7_5_anything_else_is_illegal(cards: str) -> None:
    assert not is_legal_discard(cards)


def test_S7_5_illegal_discard_rejected_state_unchanged() -> None:
    st = state(["7H 8S 9H 5H 5S", "2C 3C"])
    assert_illegal(st, 0, "discard 7H 8S 9H")
    assert_illegal(st, 0, "discard 5H 5S 9H")
    assert_illegal(st, 0, {"type": "discard", "cards": ["7H", "9H"]})
    assert_illegal(st, 0, "discard 4C")  # not in the hand
    assert_illegal(st, 0, "discard 5H 5H")  # one deck: only one 5H held


def test_S6_one_combination_per_turn_three_fives_and_two_nines() -> None:
    # 001: three 5s and two 9s take two turns.
    st = state(["5S 5H 5D 9S 9C", "2C 3C", "4C 4D"], stock="AD 2D 3D")
    assert_illegal(st, 0, "discard 5S 5H 5D 9S 9C")
    st.apply(0, "discard 5S 5H 5D; draw")
    assert hand(st, 0) == ["9C", "9S", "AD"]
    assert pile(st)[-1] == ["5S", "5H", "5D"]
    assert st.current == 1


# ----------------------------------------------------------------------------- A ids on discards


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_A8_ace_is_low_only(preset: str) -> None:
    assert kind_of("AS 2S 3S", preset) == "run"
    assert not is_legal_discard("QS KS AS", preset)


def test_A8_finnish_ace_low_example() -> None:
    # 001: "Ace, two and three are valid. Queen, king and ace are not."
    assert kind_of("AD 2D 3D", "finnish") == "run"
    assert not is_legal_discard("QD KD AD", "finnish")


@pytest.mark.parametrize(
    ("cards", "legal"),
    [
        ("JK QS KS", False),
        ("10C JC QC", True),
        ("JS QS KS", False),
        ("10S JS QS KS", False),
        ("JC QC JK", False),  # the joker stands for KC
        ("JK JC QC", True),  # the joker stands for 10C
        ("9H 10H JK QH", True),
        ("QH JK", False),
    ],
)
def test_A11_no_king_in_run_when_jqk_banned(cards: str, legal: bool) -> None:
    assert is_legal_discard(cards, "slovenian-yanef") is legal


def test_A11_jqk_ban_still_allows_kings_in_sets_and_singles() -> None:
    r = Rules.from_spec("slovenian-yanef")
    assert kind_of("KS KD KC", r) == "set"
    assert kind_of("KS", r) == "single"


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_V11_jqk_run_per_source(preset: str) -> None:
    allowed = preset != "slovenian-yanef"
    assert Rules.from_spec(preset).allow_jqk_run is allowed
    assert is_legal_discard("JH QH KH", preset) is allowed


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_V12_qka_run_illegal_in_every_source(preset: str) -> None:
    assert Rules.from_spec(preset).allow_qka_run is False
    assert not is_legal_discard("QC KC AC", preset)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_A17_joker_may_extend_a_run_at_either_end_in_all_presets(preset: str) -> None:
    assert Rules.from_spec(preset).jokers_in_runs == "anywhere"
    assert kind_of("JK 8H 9H", preset) == "run"
    assert kind_of("8H 9H JK", preset) == "run"


def test_A17_gaps_only_knob() -> None:
    r = rules("standard", jokers_in_runs="gaps_only")
    assert kind_of("8H JK 10H", r) == "run"
    assert kind_of("8H JK JK JH", r) == "run"
    assert not is_legal_discard("JK 8H 9H", r)
    assert not is_legal_discard("8H 9H JK", r)
    st = state(["8H 9H JK", "2C"], rules=r)
    assert_illegal(st, 0, "discard 8H 9H JK")
    assert all(
        a.cards[0].is_joker is False and a.cards[-1].is_joker is False
        for a in st.legal_actions()
        if a.type == "discard" and len(a.cards) >= 3
    )


def test_V10_joker_position_in_runs_per_source() -> None:
    for name in ALL_PRESETS:
        assert Rules.from_spec(name).jokers_in_runs == "anywhere", name
    # 001's example run "joker, eight and nine"
    assert kind_of("JK 8C 9C", "finnish") == "run"


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_A23_run_needs_a_natural_card_and_ranks_1_to_13(preset: str) -> None:
    assert not is_legal_discard("JK JK JK", rules(preset, num_decks=2, max_players=5))
    assert not is_legal_discard("JK JK", preset)
    assert not is_legal_discard("JK AC 2C", preset)
    # (under jdross a joker may join a set, so JK JK AC is a set there, never a run)
    assert kind_of("JK JK AC", preset) != "run"
    assert kind_of("JK JK AC", rules(preset, jokers_in_sets=False)) is None
    assert kind_of("AC JK JK", rules(preset, jokers_in_sets=False)) == "run"
    assert is_legal_discard("JK JK KC", preset) is Rules.from_spec(preset).allow_jqk_run


def test_A24_joker_card_fixed_by_position() -> None:
    # Under as_draw exchange (000) the joker at the low end of JK 8H 9H stands for 7H.
    st = state(["5C 7H", "8C 6H"], rules="german-wiki", pile=["KC", "JK 8H 9H"])
    st.apply(0, "discard 5C")
    assert [str(c) for c in st.swappable()] == ["7H"]
    st2 = state(["5C 10H", "8C"], rules="german-wiki", pile=["KC", "8H 9H JK"])
    st2.apply(0, "discard 5C")
    assert [str(c) for c in st2.swappable()] == ["10H"]
    st3 = state(["5C 6H", "8C"], rules="german-wiki", pile=["KC", "8H 9H JK"])
    st3.apply(0, "discard 5C")
    assert st3.swappable() == []  # 6H would need the joker below the 8


def test_A24_ascending_run_ends_are_its_lowest_and_highest_cards() -> None:
    st = state(["2C", "3C"], pile=["KC", "4D 5D 6D 7D"], current=0)
    assert sorted(str(c) for c in st.takeable()) == ["4D", "7D"]


@pytest.mark.parametrize("cards", ["7H 7H 8H", "7H 8H 8H 9H", "7H 8H 9H 9H"])
def test_A28_two_decks_runs_may_not_repeat_a_rank(cards: str) -> None:
    assert not is_legal_discard(cards, TWO_DECKS)


def test_A28_two_decks_identical_cards_set_and_pickup() -> None:
    r = Rules.from_spec(TWO_DECKS)
    assert kind_of("QD QD", r) == "set"
    assert kind_of("QD QD QS", r) == "set"
    st = state(["QD QD QS 2C", "2D 3D"], rules=TWO_DECKS)
    st.apply(0, "discard QD QS QD; draw")
    # the next player may take one QD (first or last card)
    assert sorted(str(c) for c in st.takeable()) == ["QD"]
    st.apply(1, "discard 2D; take QD")
    assert "QD" in hand(st, 1)
    assert pile(st)[-2] == ["QS", "QD"] or pile(st)[-2] == ["QD", "QS"]


def test_A30_no_maximum_set_size() -> None:
    r = rules("standard", num_decks=2, hand_size=7)
    assert kind_of("9H 9H 9S 9S 9D 9C", r) == "set"
    assert kind_of("9H 9H 9S 9S 9D 9D 9C", r) == "set"
    st = state(["9H 9H 9S 9S 9D 9C 2C", "2D"], rules=r)
    st.apply(0, "discard 9H 9S 9H 9S 9D 9C")
    assert len(pile(st)[-1]) == 6
    assert hand(st, 0) == ["2C"]


# ----------------------------------------------------------------------------- generation vs. check


def _kinds(cards) -> tuple[str, ...]:
    return tuple(str(c) for c in cards)


GEN_CASES = [
    ("standard", "7H 8H 9H JK 7S"),
    ("standard", "AH 2H JK JK 3S"),
    ("standard", "QH KH JK 10H 5C"),
    ("standard", "5S 5H 5D 5C JK"),
    ("finnish", "4D 5D JK 7D 8D"),
    ("german-wiki", "JS QS KS JK 9S"),
    ("slovenian-yanef", "JS QS KS JK 10S"),
    ("slovenian-yanef", "9H 9S 9D 9C KH"),
    ("jdross", "5H 5S JK 6H 7H"),
    ({"preset": "standard", "overrides": {"jokers_in_runs": "gaps_only"}}, "JK 8H 9H 10H JK"),
    ({"preset": "standard", "overrides": {"allow_qka_run": True}}, "QH KH AH 2H JK"),
    (TWO_DECKS, "7H 7H 8H 9H JK"),
    (TWO_DECKS, "5S 5S JK JK 6S"),
    ({"preset": "jdross", "overrides": {"num_decks": 2}}, "5S 5S JK JK 6S"),
    ({"preset": "slovenian-yanef", "overrides": {"num_decks": 2}}, "QD QD QS JK KH"),
]


@pytest.mark.parametrize(("spec", "cards"), GEN_CASES)
def test_S7_generated_discards_are_exactly_the_legal_ones(spec, cards: str) -> None:
    r = Rules.from_spec(spec)
    st = state([cards, "2C"], rules=r)
    generated = [a.cards for a in st.legal_actions() if a.type == "discard"]
    held = st.hand(0)
    # Brute force every ordered subset of the hand.
    legal_runs: set[tuple[str, ...]] = set()
    legal_sets: set[tuple[str, ...]] = set()
    singles: set[tuple[str, ...]] = set()
    for k in range(1, len(held) + 1):
        for perm in permutations(held, k):
            kind = kind_of(" ".join(str(c) for c in perm), r)
            if kind == "single":
                singles.add(_kinds(perm))
            elif kind == "run":
                legal_runs.add(_kinds(perm))
            elif kind == "set":
                legal_sets.add(tuple(sorted(_kinds(perm))))
    for d in generated:
        kind = kind_of(" ".join(str(c) for c in d), r)
        assert kind is not None, d
    gen_runs = {_kinds(d) for d in generated if kind_of(" ".join(map(str, d)), r) == "run"}
    gen_sets = {tuple(sorted(_kinds(d))) for d in generated if kind_of(" ".join(map(str, d)), r) == "set"}
    gen_singles = {_kinds(d) for d in generated if len(d) == 1}
    assert gen_singles == singles
    assert gen_runs == legal_runs
    assert gen_sets == legal_sets


def test_S7_generated_set_orders_cover_every_takeable_pair() -> None:
    # Sets are generated once per distinct pair of end cards (first_or_last).
    st = state(["5S 5H 5D 2C", "3C"])
    ends = Counter()
    for a in st.legal_actions():
        if a.type == "discard" and len(a.cards) == 3:
            ends[frozenset((str(a.cards[0]), str(a.cards[-1])))] += 1
    assert set(ends) == {frozenset(p) for p in (("5S", "5H"), ("5S", "5D"), ("5H", "5D"))}


TOP_ONLY = {"preset": "standard", "overrides": {"pickup_mode": "top_only"}}


def _set_orders(st) -> list[tuple[str, ...]]:
    return sorted(_kinds(a.cards) for a in st.legal_actions() if a.type == "discard" and len(a.cards) > 1)


def test_S7_2_top_only_lists_a_set_once_per_card_that_can_end_up_on_top() -> None:
    # Under top_only only the last card laid is takeable (A16), so the order of a set
    # decides what the next player may take: a pair is listed in both orders.
    pair = state(["7H 7S KD", "2C 3C"], rules=TOP_ONLY)
    assert _set_orders(pair) == [("7H", "7S"), ("7S", "7H")]
    # A larger set: one order per distinct top card (not every permutation).
    three = state(["7H 7S 7D KD", "2C 3C"], rules=TOP_ONLY)
    sets = [d for d in _set_orders(three) if len(d) == 3]
    assert sorted(d[-1] for d in sets) == ["7D", "7H", "7S"]
    # Identical two-deck copies leave the same card on top either way: listed once.
    twin = state(["7H 7H KD", "2C 3C"], rules=rules("standard", pickup_mode="top_only", num_decks=2))
    assert _set_orders(twin) == [("7H", "7H")]
    # A joker on top is a choice too where jokers may join sets.
    jk = state(["7H JK KD", "2C 3C"], rules=rules("standard", pickup_mode="top_only", jokers_in_sets=True))
    assert [d for d in _set_orders(jk) if "7H" in d] == [("7H", "JK"), ("JK", "7H")]
    # Under first_or_last both cards of a pair are takeable whatever the order: listed once.
    assert len(_set_orders(state(["7H 7S KD", "2C 3C"]))) == 1


@pytest.mark.parametrize("order", ["7H 7S", "7S 7H"])
def test_S7_2_top_only_apply_accepts_a_pair_in_either_order(order: str) -> None:
    st = state(["7H 7S KD", "2C 3C"], rules=TOP_ONLY)
    st.apply(0, f"discard {order}; draw")
    assert pile(st)[-1] == order.split()


# ----------------------------------------------------------------------------- S7 listing


def test_S7_listed_discards_are_the_values_built_afresh_and_stay_legal() -> None:
    # legal_actions() hands out one shared (read-only) Action per discard: the same value
    # as one built from the cards, in both decks' rules, and each still plays
    from yaniv import Action

    for st in (state(["JK 7H 7S 8H 9H", "2C 3C"]), state(["7H 7H 7S 8H 9H", "2C"], rules=TWO_DECKS)):
        first = st.legal_actions()
        again = st.legal_actions()
        assert first == again and all(a is b for a, b in zip(first, again, strict=True))
        listed = [a for a in first if a.type == "discard"]
        # each the discard of the physical cards the generator lists, in its order
        assert listed == [Action("discard", d) for d in st.discards()]
        for act in listed:
            trial = st.copy()
            trial.apply(0, act)
            assert trial.phase_name == "after_discard"


def test_S7_1_a_joker_discard_with_one_deck_takes_a_joker_held() -> None:
    # one deck: a natural card's only copy is its deck-0 id; the two jokers need the
    # copy order (the one not seen taken first)
    st = state(["JK JK 5D", "2C 3C"])
    st.apply(0, "discard JK")
    assert hand(st, 0) == ["5D", "JK"]
    assert pile(st)[-1] == ["JK"]


def test_S7_listed_discards_table_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # the shared actions are a cache with a bound: cleared when full, the listing still right
    import yaniv
    from yaniv import Action
    from yaniv import state as state_module

    if yaniv.COMPILED:
        pytest.skip("a compiled build inlines the bound (a Final constant): tested on pure Python")
    monkeypatch.setattr(state_module, "_DISCARD_ACTIONS_LIMIT", 3)
    state_module._DISCARD_ACTIONS.clear()
    st = state(["7H 7S 7D 8H 9H", "2C"])
    for _ in range(3):
        listed = [a for a in st.legal_actions() if a.type == "discard"]
        assert listed == [Action("discard", d) for d in st.discards()]
        assert len(state_module._DISCARD_ACTIONS) <= 3


def test_the_discard_tables_kept_are_bounded() -> None:
    # a server meets rule sets from anyone: the per-rules tables must not pile up
    from yaniv.state import _MELD_TABLES, _MELD_TABLES_LIMIT, meld_table

    many = range(_MELD_TABLES_LIMIT + 10)
    tables = [meld_table(Rules.from_spec(f"standard(score_limit={100 + i})")) for i in many]
    assert len(_MELD_TABLES) <= _MELD_TABLES_LIMIT
    hand = sum(1 << c for c in (0, 13, 26, 1, 2))  # AC AD AH 2C 3C (ids: suit-major, rank 0..12)
    # a table made afresh after the clear lists the same discards as one kept alive
    assert sorted(meld_table(Rules.from_spec("standard(score_limit=100)")).discards(hand)) == sorted(
        tables[0].discards(hand)
    )


@pytest.mark.parametrize("spec", ["standard", TWO_DECKS, {"preset": "jdross", "overrides": {"num_decks": 2}}])
def test_S7_a_table_that_has_seen_many_hands_lists_what_a_fresh_one_lists(spec) -> None:
    # MeldTable remembers which suit lanes (with how many jokers) make no run at all and
    # skips them afterwards: a hand met later, from the other deck's copies or another
    # suit, must still get every discard a table seeing it first would list
    from random import Random

    from yaniv.melds import MeldTable

    r = Rules.from_spec(spec)
    warm = MeldTable(r)
    rng = Random(7)
    ids = list(range(54 * r.num_decks))
    hands = [sum(1 << c for c in rng.sample(ids, rng.choice((5, 5, 7)))) for _ in range(3000)]
    for h in hands:
        warm.discards(h)
    for h in hands[::7]:
        assert warm.discards(h) == MeldTable(r).discards(h), f"hand {h:#x}"
