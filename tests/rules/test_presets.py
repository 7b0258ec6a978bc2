"""Presets: RULES.md §6 (one per source) and §6b (house rules of other programs)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from yaniv import PRESETS, Game, RoundState, Rules, RulesError
from yaniv.cards import CARDS, DECK_SIZE
from yaniv.melds import classify

from .helpers import ALL_PRESETS, SOURCE_PRESETS, position

# RULES.md §6, machine-readable form, copied verbatim.
SECTION_6 = json.loads(
    r"""
{
  "standard": {
    "num_decks": 1, "two_deck_min_players": 4, "min_players": 2, "max_players": 5,
    "hand_size": 5, "start_card": true, "first_starter": "left_of_dealer",
    "misdeal_rule": "return_extra", "king_of_hearts_zero": false, "min_set_size": 2,
    "jokers_in_sets": false, "jokers_in_runs": "anywhere", "allow_jqk_run": true,
    "allow_qka_run": false, "pickup_mode": "first_or_last", "joker_swap": "off",
    "quick_discard": "off", "yaniv_threshold": 7, "yaniv_threshold_mode": "fixed",
    "yaniv_comparison": "le", "assaf_on_tie": true, "assaf_penalty": 30,
    "assaf_penalty_multi": null, "assaf_penalty_adds_hand": true,
    "assafer_score": "zero", "assaf_tie_winner": "all", "false_yaniv_penalty": null,
    "asef": false, "asef_win_delta": -30, "asef_loss_delta": 60,
    "halving_scores": [100, 200], "score_limit": 200, "end_mode": "last_standing",
    "final_tie": "replay", "starter_on_tie": "nearest_tied_clockwise"
  },
  "german-wiki": {
    "num_decks": 1, "two_deck_min_players": 4, "min_players": 2, "max_players": 5,
    "hand_size": 5, "start_card": true, "first_starter": "left_of_dealer",
    "misdeal_rule": "return_extra", "king_of_hearts_zero": false, "min_set_size": 2,
    "jokers_in_sets": false, "jokers_in_runs": "anywhere", "allow_jqk_run": true,
    "allow_qka_run": false, "pickup_mode": "first_or_last", "joker_swap": "as_draw",
    "quick_discard": "off", "yaniv_threshold": 7, "yaniv_threshold_mode": "fixed",
    "yaniv_comparison": "le", "assaf_on_tie": true, "assaf_penalty": 30,
    "assaf_penalty_multi": 20, "assaf_penalty_adds_hand": true,
    "assafer_score": "zero", "assaf_tie_winner": "all", "false_yaniv_penalty": null,
    "asef": false, "asef_win_delta": -30, "asef_loss_delta": 60,
    "halving_scores": [], "score_limit": 200, "end_mode": "last_standing",
    "final_tie": "replay", "starter_on_tie": "nearest_tied_clockwise"
  },
  "finnish": {
    "num_decks": 1, "two_deck_min_players": 4, "min_players": 2, "max_players": 8,
    "hand_size": 5, "start_card": true, "first_starter": "random",
    "misdeal_rule": "return_extra", "king_of_hearts_zero": false, "min_set_size": 2,
    "jokers_in_sets": false, "jokers_in_runs": "anywhere", "allow_jqk_run": true,
    "allow_qka_run": false, "pickup_mode": "first_or_last", "joker_swap": "off",
    "quick_discard": "off", "yaniv_threshold": 5, "yaniv_threshold_mode": "fixed",
    "yaniv_comparison": "le", "assaf_on_tie": true, "assaf_penalty": 30,
    "assaf_penalty_multi": null, "assaf_penalty_adds_hand": true,
    "assafer_score": "hand", "assaf_tie_winner": "all", "false_yaniv_penalty": 30,
    "asef": false, "asef_win_delta": -30, "asef_loss_delta": 60,
    "halving_scores": [100, 200], "score_limit": 200, "end_mode": "last_standing",
    "final_tie": "replay", "starter_on_tie": "nearest_tied_clockwise"
  },
  "slovenian-yanef": {
    "num_decks": 1, "two_deck_min_players": 4, "min_players": 3, "max_players": 8,
    "hand_size": 5, "start_card": true, "first_starter": "left_of_dealer",
    "misdeal_rule": "return_extra", "king_of_hearts_zero": true, "min_set_size": 3,
    "jokers_in_sets": false, "jokers_in_runs": "anywhere", "allow_jqk_run": false,
    "allow_qka_run": false, "pickup_mode": "top_only", "joker_swap": "as_turn",
    "quick_discard": "off", "yaniv_threshold": 5, "yaniv_threshold_mode": "fixed",
    "yaniv_comparison": "le", "assaf_on_tie": true, "assaf_penalty": 30,
    "assaf_penalty_multi": null, "assaf_penalty_adds_hand": false,
    "assafer_score": "zero", "assaf_tie_winner": "all", "false_yaniv_penalty": null,
    "asef": true, "asef_win_delta": -30, "asef_loss_delta": 60,
    "halving_scores": [], "score_limit": 200, "end_mode": "last_standing",
    "final_tie": "replay", "starter_on_tie": "nearest_tied_clockwise"
  },
  "spanish-zone": {
    "num_decks": 1, "two_deck_min_players": 4, "min_players": 2, "max_players": 5,
    "hand_size": 5, "start_card": true, "first_starter": "left_of_dealer",
    "misdeal_rule": "return_extra", "king_of_hearts_zero": false, "min_set_size": 2,
    "jokers_in_sets": false, "jokers_in_runs": "anywhere", "allow_jqk_run": true,
    "allow_qka_run": false, "pickup_mode": "first_or_last", "joker_swap": "off",
    "quick_discard": "off", "yaniv_threshold": 7, "yaniv_threshold_mode": "fixed",
    "yaniv_comparison": "le", "assaf_on_tie": true, "assaf_penalty": 30,
    "assaf_penalty_multi": null, "assaf_penalty_adds_hand": true,
    "assafer_score": "zero", "assaf_tie_winner": "all", "false_yaniv_penalty": null,
    "asef": false, "asef_win_delta": -30, "asef_loss_delta": 60,
    "halving_scores": [100, 200], "score_limit": 200, "end_mode": "last_standing",
    "final_tie": "replay", "starter_on_tie": "nearest_tied_clockwise"
  },
  "spanish-zone-y5":        {"_base": "spanish-zone", "yaniv_threshold": 5},
  "spanish-zone-out100":    {"_base": "spanish-zone", "score_limit": 100},
  "spanish-zone-y5-out100": {"_base": "spanish-zone", "yaniv_threshold": 5, "score_limit": 100}
}
"""
)

SIX_B_DEFAULTS = {"landing_rule": "halve", "assaf_others_score": "hand", "round_starter": "winner"}

JDROSS = {
    "yaniv_threshold": 5,
    "assaf_penalty": 30,
    "assaf_penalty_adds_hand": False,
    "assaf_others_score": "zero",
    "halving_scores": [50, 100],
    "landing_rule": "minus_50",
    "score_limit": 100,
    "end_mode": "last_standing",
    "jokers_in_sets": True,
    "pickup_mode": "ends_or_any_of_set",
    "round_starter": "caller",
    "quick_discard": "off",
    "max_players": 8,
}


def expected_knobs(name: str) -> dict:
    if name == "jdross":
        return SECTION_6["standard"] | SIX_B_DEFAULTS | JDROSS
    entry = dict(SECTION_6[name])
    base = entry.pop("_base", None)
    if base is not None:
        entry = SECTION_6[base] | entry
    return entry | SIX_B_DEFAULTS


def test_6_every_source_preset_exists() -> None:
    assert set(SOURCE_PRESETS) == set(SECTION_6)
    assert set(ALL_PRESETS) == set(SECTION_6) | {"jdross"}
    assert next(iter(PRESETS)) == "standard"


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_6_preset_is_the_full_knob_assignment(name: str) -> None:
    assert Rules.from_spec(name).to_dict() == expected_knobs(name)


def test_6_standard_is_the_default_and_equals_spanish_zone() -> None:
    assert Rules() == Rules.from_spec("standard") == Rules.from_spec("spanish-zone")
    assert Rules().to_dict() == SECTION_6["standard"] | SIX_B_DEFAULTS


@pytest.mark.parametrize(
    ("name", "overrides"),
    [
        ("spanish-zone-y5", {"yaniv_threshold": 5}),
        ("spanish-zone-out100", {"score_limit": 100}),
        ("spanish-zone-y5-out100", {"yaniv_threshold": 5, "score_limit": 100}),
    ],
)
def test_6_spanish_computer_presets_are_overrides_of_spanish_zone(name: str, overrides: dict) -> None:
    assert Rules.from_spec(name) == Rules.from_spec({"preset": "spanish-zone", "overrides": overrides})


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_6_game_string_round_trip(name: str) -> None:
    r = Rules.from_spec(name)
    assert Rules.from_spec(str(r)) == r
    changed = r.replace(score_limit=150, halving_scores=[50, 100, 150])
    assert Rules.from_spec(str(changed)) == changed
    assert Rules.from_dict(changed.to_dict()) == changed
    assert Rules.from_spec({"preset": name, "overrides": {"score_limit": 150}}).score_limit == 150


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_6_cached_knob_dict_and_game_string_stay_true(name: str) -> None:
    """to_dict and the game string are cached per rule set: a caller changing one dict
    changes no later one, and a copy names its own knobs, not its source's."""
    r = Rules.from_spec(name)
    first = r.to_dict()
    first["halving_scores"].append(999)
    first["score_limit"] = -1
    again = r.to_dict()
    assert again == expected_knobs(name)
    assert again["halving_scores"] is not r.to_dict()["halving_scores"]
    assert str(r) == name
    changed = r.replace(score_limit=r.score_limit + 1)
    assert str(changed) == f"{name}(score_limit={r.score_limit + 1})"
    assert str(r) == name


@pytest.mark.parametrize(
    "spec",
    [
        "nonexistent",
        {"preset": "standard", "overrides": {"no_such_knob": 1}},
        {"preset": "standard", "overrides": {"pickup_mode": "anything"}},
        {"preset": "standard", "overrides": {"min_set_size": 4}},
        {"preset": "standard", "overrides": {"asef": "yes"}},
        {"preset": "standard", "overrides": {"halving_scores": [100, "200"]}},
        "standard(yaniv_threshold=)",
        {"num_decks": 3},
    ],
)
def test_6_bad_rule_sets_are_rejected(spec) -> None:
    with pytest.raises(RulesError):
        Rules.from_spec(spec)


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_6_preset_usable_in_a_position(name: str) -> None:
    st = RoundState.from_position(position(["AH 2H", "KS", "QD"], rules=name))
    assert st.rules == Rules.from_spec(name)
    assert RoundState.from_position(st.to_position()).rules == st.rules


def test_6b_jdross_preset_values() -> None:
    r = Rules.from_spec("jdross")
    for knob, value in JDROSS.items():
        got = getattr(r, knob)
        assert (list(got) if isinstance(got, tuple) else got) == value, knob
    others = {k: v for k, v in r.to_dict().items() if k not in JDROSS}
    assert others == {k: v for k, v in Rules().to_dict().items() if k not in JDROSS}


def test_6b_new_knobs_default_keeps_every_source_preset() -> None:
    for name in SOURCE_PRESETS:
        r = Rules.from_spec(name)
        assert (r.landing_rule, r.assaf_others_score, r.round_starter) == ("halve", "hand", "winner")


@pytest.mark.parametrize("threshold", [1, 3, 5, 7, 9, 11])
@pytest.mark.parametrize("name", ["standard", "jdross"])
def test_6b_wild_thresholds_accepted(threshold: int, name: str) -> None:
    r = Rules.from_spec(f"{name}(yaniv_threshold={threshold})")
    assert r.threshold == threshold


@pytest.mark.parametrize("size", [5, 6, 7])
def test_6b_wild_hand_sizes_accepted(size: int) -> None:
    r = Rules.from_spec({"preset": "standard", "overrides": {"hand_size": size}})
    game = Game(r, players=5, seed=1)
    assert all(len(game.round.hand(p)) == size for p in range(5))
    two = Rules.from_spec({"preset": "jdross", "overrides": {"hand_size": size, "num_decks": 2}})
    game = Game(two, players=8, seed=1)
    assert all(len(game.round.hand(p)) == size for p in range(8))


@pytest.mark.parametrize("limit", [100, 150, 200, 300, 500])
@pytest.mark.parametrize("penalty", [20, 25, 30])
def test_6b_wild_limits_penalties_and_minus_50_landings(limit: int, penalty: int) -> None:
    halving = list(range(50, limit + 1, 50))
    r = Rules.from_spec(
        {
            "preset": "jdross",
            "overrides": {"score_limit": limit, "assaf_penalty": penalty, "halving_scores": halving},
        }
    )
    assert r.halving_scores == tuple(halving)
    st = RoundState.from_position(position(["AH 4H", "3S", "KD"], rules=r, totals=[limit - 35, 0, 40]))
    result = st.apply(0, "yaniv")
    assert result.round_scores == (penalty, 0, 0)
    expected = limit - 35 + penalty
    if expected in halving:
        expected -= 50
    assert result.totals[0] == expected


@pytest.mark.parametrize("players", [6, 7, 8])
def test_6b_two_decks_for_six_to_eight_players(players: int) -> None:
    r = Rules.from_spec({"preset": "jdross", "overrides": {"num_decks": 2}})
    game = Game(r, players=players, seed=2)
    pos = game.round.to_position()
    count = Counter(c for h in pos["hands"] for c in h)
    count.update(pos["stock"])
    count.update(c for g in pos["discard_pile"] for c in g)
    assert sum(count.values()) == 2 * DECK_SIZE
    assert count == Counter(str(CARDS[p]) for p in range(2 * DECK_SIZE))


# ----------------------------------------------------------------------------- whole games per preset


def _play(spec, seed: int, players: int) -> Game:
    """A seeded random game: call Yaniv when allowed, else a random legal move."""
    game = Game(spec, players=players, seed=seed)
    rng = random.Random(seed)
    deck = Counter(str(CARDS[p]) for p in range(DECK_SIZE * game.decks))
    for _round in range(200):
        st = game.round
        for _step in range(2000):
            if st.result is not None:
                break
            pos = st.to_position()
            held = Counter(c for h in pos["hands"] for c in h)
            held.update(pos["stock"])
            held.update(c for g in pos["discard_pile"] for c in g)
            assert held == deck  # cards are conserved
            seat = st.current
            acts = st.legal_actions()
            assert acts, "the current player always has a legal action"
            calls = [a for a in acts if a.type == "yaniv"]
            if calls and rng.random() < 0.7:
                game.apply(seat, calls[0])
                continue
            act = rng.choice([a for a in acts if a.type != "yaniv"])
            if act.type == "discard":
                assert classify(list(act.cards), game.rules) is not None
            game.apply(seat, act)
            if st.phase_name == "after_draw":
                slaps = st.legal_actions(seat)
                if slaps and rng.random() < 0.5:
                    game.apply(seat, slaps[0])
        assert st.result is not None
        if game.over:
            return game
        game.next_round()
    raise AssertionError("game did not end")  # pragma: no cover


WHOLE_GAMES = [
    *ALL_PRESETS,
    {"preset": "standard", "overrides": {"quick_discard": "fits_meld"}},
    {"preset": "spanish-zone", "overrides": {"quick_discard": "same_rank"}},
    {"preset": "finnish", "overrides": {"num_decks": "auto"}},
    {"preset": "german-wiki", "overrides": {"end_mode": "first_over_limit"}},
]


@pytest.mark.parametrize("spec", WHOLE_GAMES, ids=str)
def test_6_whole_seeded_game_per_preset(spec) -> None:
    r = Rules.from_spec(spec)
    players = max(r.min_players, 4)
    game = _play(spec, seed=7, players=players)
    assert game.over and game.winners
    last = game.results[-1]
    assert last.game_over and last.next_starter is None
    assert list(last.totals) == game.totals
    in_last_round = game.round.active
    remaining = [p for p in in_last_round if p not in last.eliminated]
    if r.end_mode == "last_standing" and not game.round.tiebreak and len(remaining) == 1:
        assert game.winners == (remaining[0],)
    else:
        low = min(game.totals[p] for p in in_last_round)
        assert all(game.totals[w] == low for w in game.winners)
    # every round: the totals are the previous totals plus the round scores, after landings
    prev = [0] * players
    for res in game.results:
        for p in range(players):
            t = prev[p] + res.round_scores[p]
            if res.round_scores[p] != 0 and t in r.halving_scores:
                t = t // 2 if r.landing_rule == "halve" else t - 50
            assert res.totals[p] == t
        prev = list(res.totals)
    # seeded: the same game twice
    again = _play(spec, seed=7, players=players)
    assert [res.to_dict() for res in again.results] == [res.to_dict() for res in game.results]
