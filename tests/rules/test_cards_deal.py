"""Deck, card values, players, deal, first starter: RULES.md S1–S5, S17 and their V/A ids."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from yaniv import Game, PositionError, RoundState, Rules, RulesError, hand_value
from yaniv.cards import CARDS, DECK_SIZE

from .helpers import ALL_PRESETS, kind_of, names, position, rules


def all_cards(pos: dict) -> Counter[str]:
    """Every card of a position: hands, stock and discard pile."""
    out: Counter[str] = Counter()
    for h in pos["hands"]:
        out.update(h)
    out.update(pos["stock"])
    for g in pos["discard_pile"]:
        out.update(g)
    return out


def full_deck(decks: int) -> Counter[str]:
    out: Counter[str] = Counter()
    for _ in range(decks):
        out.update(str(CARDS[p]) for p in range(DECK_SIZE))
    return out


# ----------------------------------------------------------------------------- S1 deck


@pytest.mark.parametrize("players", [2, 3, 5])
def test_S1_one_deck_of_54_with_two_jokers(players: int) -> None:
    game = Game("standard", players=players, seed=11)
    cards = all_cards(game.round.to_position())
    assert sum(cards.values()) == 54
    assert cards["JK"] == 2
    assert cards == full_deck(1)


def test_S1_two_decks_give_108_cards_and_four_jokers() -> None:
    game = Game(rules("standard", num_decks=2, max_players=8), players=6, seed=3)
    cards = all_cards(game.round.to_position())
    assert sum(cards.values()) == 108
    assert cards["JK"] == 4
    assert cards["7H"] == 2
    assert cards == full_deck(2)


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (3, 1), (4, 2), (5, 2)])
def test_S1_auto_decks_from_the_starting_player_count(players: int, decks: int) -> None:
    r = rules("finnish", num_decks="auto")
    assert r.decks_for(players) == decks
    game = Game(r, players=players, seed=5)
    assert sum(all_cards(game.round.to_position()).values()) == 54 * decks


def test_S1_auto_two_decks_are_kept_after_eliminations() -> None:
    r = rules("finnish", num_decks="auto")
    game = Game(r, players=4, seed=2)
    assert game.decks == 2
    # Replace the dealt round by a position in which P3 goes out on a Yaniv by P0.
    game.round = RoundState.from_position(
        position(
            ["AH 2H", "KS KD", "QS QD", "JS JD"],
            rules=r,
            totals=[0, 0, 0, 190],
            current=0,
        )
    )
    result = game.apply(0, "yaniv")
    assert result is not None and result.eliminated == (3,)
    new = game.next_round()
    assert new.active == (0, 1, 2)
    assert game.decks == 2
    cards = all_cards(new.to_position())
    assert sum(cards.values()) == 108
    assert cards["JK"] == 4


# ----------------------------------------------------------------------------- S2 values


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        ("AS", 1),
        ("2H", 2),
        ("5D", 5),
        ("9C", 9),
        ("10S", 10),
        ("JH", 10),
        ("QD", 10),
        ("KC", 10),
        ("KH", 10),
        ("JK", 0),
        ("AH 10S KH JK", 21),
    ],
)
def test_S2_card_values_standard(cards: str, value: int) -> None:
    assert hand_value(cards, Rules()) == value


def test_S2_king_of_hearts_zero_keeps_rank_k() -> None:
    r = rules("standard", king_of_hearts_zero=True)
    assert hand_value("KH", r) == 0
    assert hand_value("KS KD KC", r) == 30
    assert hand_value("QH JH", r) == 20
    assert kind_of("KH KS", r) == "set"
    assert kind_of("JH QH KH", r) == "run"
    assert kind_of("KH AH 2H", r) is None  # still a king, not an ace-neighbour


def test_V7_king_of_hearts_value_per_source() -> None:
    expected = {name: 10 for name in ALL_PRESETS}
    expected["slovenian-yanef"] = 0
    for name, value in expected.items():
        assert hand_value("KH", Rules.from_spec(name)) == value, name
        assert Rules.from_spec(name).king_of_hearts_zero is (value == 0)


def test_A12_slovenian_queen_and_jack_of_hearts_are_ten() -> None:
    r = Rules.from_spec("slovenian-yanef")
    assert hand_value("QH", r) == 10
    assert hand_value("JH", r) == 10
    assert hand_value("KS", r) == hand_value("KD", r) == hand_value("KC", r) == 10
    assert hand_value("KH", r) == 0


def test_A20_number_cards_face_value_spanish_example_totals() -> None:
    r = Rules.from_spec("spanish-zone")
    for rank in range(2, 11):
        assert hand_value(f"{rank}D", r) == rank
    assert hand_value("JK", r) == 0
    assert hand_value("AC", r) == 1
    assert hand_value("JC QC KC", r) == 30
    # The totals of 003's worked example: 25, 28, 11, 5.
    assert hand_value("AH 2H 3H KS 9D", r) == 25
    assert hand_value("KS 9D 9C", r) == 28
    assert hand_value("KS AD", r) == 11
    assert hand_value("AD 4C", r) == 5


# ----------------------------------------------------------------------------- S3 players

LIMITS = {
    "standard": (2, 5),
    "german-wiki": (2, 5),
    "finnish": (2, 8),
    "slovenian-yanef": (3, 8),
    "spanish-zone": (2, 5),
    "spanish-zone-y5": (2, 5),
    "spanish-zone-out100": (2, 5),
    "spanish-zone-y5-out100": (2, 5),
    "jdross": (2, 8),
}


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_S3_player_limits_enforced(preset: str) -> None:
    lo, hi = LIMITS[preset]
    r = Rules.from_spec(preset)
    assert (r.min_players, r.max_players) == (lo, hi)
    for n in (lo, hi):
        assert Game(r, players=n, seed=1).round.n == n
    for n in (lo - 1, hi + 1):
        with pytest.raises(RulesError):
            Game(r, players=n, seed=1)


def test_S3_standard_two_to_five() -> None:
    with pytest.raises(RulesError):
        Game("standard", players=1, seed=0)
    with pytest.raises(RulesError):
        Game("standard", players=6, seed=0)
    assert Game("standard", players=2, seed=0).round.active == (0, 1)


def test_V2_player_count_per_source() -> None:
    for name, (lo, hi) in LIMITS.items():
        r = Rules.from_spec(name)
        assert (r.min_players, r.max_players) == (lo, hi), name


def test_A29_player_limits_standard_where_sources_are_silent() -> None:
    assert Rules.from_spec("german-wiki").min_players == Rules().min_players == 2
    assert Rules.from_spec("spanish-zone").max_players == Rules().max_players == 5
    assert Rules.from_spec("finnish").max_players == 8
    assert Rules.from_spec("slovenian-yanef").min_players == 3
    with pytest.raises(RulesError):
        Game("slovenian-yanef", players=2, seed=0)
    assert Game("finnish", players=8, seed=0).round.n == 8


# ----------------------------------------------------------------------------- S4 deal


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (3, 1), (4, 3), (5, 2)])
def test_S4_deal_one_at_a_time_clockwise_from_dealers_left(players: int, dealer: int) -> None:
    seed = 40 + players
    game = Game("standard", players=players, seed=seed, dealer=dealer)
    pos = game.round.to_position()
    # Reproduce the shuffle of the game's seeded RNG and deal by S4.
    order = list(range(54))
    random.Random(seed).shuffle(order)
    seats = [(dealer + 1 + i) % players for i in range(players)]
    expected = {p: [] for p in range(players)}
    for i in range(5 * players):
        expected[seats[i % players]].append(str(CARDS[order[i]]))
    for p in range(players):
        assert sorted(pos["hands"][p]) == sorted(expected[p])
    assert pos["discard_pile"] == [[str(CARDS[order[5 * players]])]]
    assert pos["stock"] == [str(CARDS[c]) for c in order[5 * players + 1 :]]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_S4_hand_size_start_card_and_stock(preset: str) -> None:
    r = Rules.from_spec(preset)
    n = max(r.min_players, 3)
    pos = Game(r, players=n, seed=9).round.to_position()
    assert all(len(h) == r.hand_size == 5 for h in pos["hands"])
    assert len(pos["discard_pile"]) == 1 and len(pos["discard_pile"][0]) == 1
    assert len(pos["stock"]) == 54 - 5 * n - 1


def test_S4_no_start_card_first_player_must_draw() -> None:
    r = rules("standard", start_card=False)
    game = Game(r, players=3, seed=4)
    st = game.round
    assert st.to_position()["discard_pile"] == []
    assert len(st.to_position()["stock"]) == 54 - 15
    assert st.takeable() == []
    card = str(st.hand(st.current)[0])
    st.apply(st.current, f"discard {card}")
    assert [str(a) for a in st.legal_actions()] == ["draw"]


@pytest.mark.parametrize("size", [1, 5, 6, 7])
def test_S4_hand_size_knob(size: int) -> None:
    game = Game(rules("standard", hand_size=size), players=4, seed=1)
    pos = game.round.to_position()
    assert [len(h) for h in pos["hands"]] == [size] * 4
    assert len(pos["stock"]) == 54 - 4 * size - 1


def test_V3_five_cards_in_every_source() -> None:
    for name in ALL_PRESETS:
        assert Rules.from_spec(name).hand_size == 5, name


def test_V4_start_card_in_every_source() -> None:
    for name in ALL_PRESETS:
        r = Rules.from_spec(name)
        assert r.start_card is True, name
        pile = Game(r, players=3, seed=1).round.to_position()["discard_pile"]
        assert len(pile) == 1 and len(pile[0]) == 1


# ----------------------------------------------------------------------------- S5 first starter


@pytest.mark.parametrize(
    ("players", "dealer", "starter"), [(2, 0, 1), (2, 1, 0), (4, 2, 3), (4, 3, 0), (5, 0, 1)]
)
def test_S5_first_starter_left_of_dealer(players: int, dealer: int, starter: int) -> None:
    game = Game("standard", players=players, seed=1, dealer=dealer)
    assert game.round.current == starter


def test_S5_first_starter_random_is_seeded_and_varies() -> None:
    r = Rules.from_spec("finnish")
    starters = [Game(r, players=5, seed=s, dealer=0).round.current for s in range(40)]
    assert set(starters) == {0, 1, 2, 3, 4}
    again = [Game(r, players=5, seed=s, dealer=0).round.current for s in range(40)]
    assert starters == again


def test_V5_first_starter_per_source() -> None:
    expected = {name: "left_of_dealer" for name in ALL_PRESETS}
    expected["finnish"] = "random"
    for name, value in expected.items():
        assert Rules.from_spec(name).first_starter == value, name


def test_A25_silent_sources_use_standard_start() -> None:
    for name in ("german-wiki", "slovenian-yanef"):
        r = Rules.from_spec(name)
        assert r.start_card is True
        assert r.first_starter == "left_of_dealer"
        assert r.starter_on_tie == "nearest_tied_clockwise"
        assert r.round_starter == "winner"
        game = Game(r, players=4, seed=8, dealer=1)
        assert game.round.current == 2
        assert len(game.round.to_position()["discard_pile"]) == 1


# ----------------------------------------------------------------------------- V1 decks


def test_V1_decks_per_source() -> None:
    for name in ALL_PRESETS:
        r = Rules.from_spec(name)
        assert r.num_decks == 1, name
        assert r.two_deck_min_players == 4, name
    finnish_option = rules("finnish", num_decks="auto")
    assert finnish_option.decks_for(3) == 1
    assert finnish_option.decks_for(4) == 2
    assert finnish_option.decks_for(8) == 2


def test_A28_two_decks_have_two_jokers_each() -> None:
    r = rules("standard", num_decks=2)
    pos = position(["JK JK", "JK JK"], rules=r, stock="", pile=["AS"])
    assert RoundState.from_position(pos).hand_value(0) == 0
    with pytest.raises(PositionError):
        RoundState.from_position(position(["JK JK JK", "JK JK"], rules=r, stock="", pile=["AS"]))
    with pytest.raises(PositionError):
        RoundState.from_position(position(["JK", "JK JK"], rules="standard", stock="", pile=["AS"]))


def test_helpers_card_names_are_canonical() -> None:
    # guard for the helpers used everywhere: lenient input, canonical names
    assert names("10h, jk ♠q") == ["10H", "JK", "QS"]


# ----------------------------------------------------------------------------- S17 misdeal


def _ids(text: str) -> list[int]:
    from yaniv import parse_cards

    return [int(c) for c in parse_cards(text)]


def _names(ids) -> list[str]:
    return [str(CARDS[c]) for c in ids]


def test_S17_return_extra_excess_returned_then_shuffled_short_hand_completed() -> None:
    from yaniv.deal import is_misdeal, mend_misdeal

    r = Rules()
    hands = [_ids("AH 2H 3H 4H 5H KS"), _ids("AS 2S 3S 4S 5S"), _ids("AD 2D 3D 4D")]
    stock = _ids("9C 10C JC QC")
    assert is_misdeal(r, hands)
    chosen = []

    def choose(seat: int, held: list[int], count: int) -> list[int]:
        chosen.append((seat, count))
        return [c for c in held if str(CARDS[c]) == "3H"]

    new_hands, new_stock = mend_misdeal(r, hands, stock, random.Random(1), choose)
    assert chosen == [(0, 1)]  # only the player with too many cards returns any
    assert [len(h) for h in new_hands] == [5, 5, 5]
    assert sorted(_names(new_hands[0])) == sorted(["AH", "2H", "4H", "5H", "KS"])
    assert sorted(_names(new_hands[1])) == sorted(["AS", "2S", "3S", "4S", "5S"])
    extra = [c for c in new_hands[2] if c not in hands[2]]
    assert len(extra) == 1 and sorted(_names(hands[2] + extra)) == sorted(_names(new_hands[2]))
    before = Counter(_names([c for h in hands for c in h] + stock))
    after = Counter(_names([c for h in new_hands for c in h] + new_stock))
    assert before == after
    assert "3H" in _names(new_stock + extra)
    assert not is_misdeal(r, new_hands)


def test_S17_too_few_cards_come_from_the_top_of_the_stock() -> None:
    from yaniv.deal import mend_misdeal

    hands = [_ids("AH 2H 3H 4H 5H"), _ids("AS 2S 3S")]
    stock = _ids("9C 10C JC QC")
    new_hands, new_stock = mend_misdeal(Rules(), hands, stock, random.Random(1))
    assert sorted(_names(new_hands[1])) == sorted(["AS", "2S", "3S", "9C", "10C"])
    assert _names(new_stock) == ["JC", "QC"]
    assert _names(new_hands[0]) == _names(hands[0])


def test_S17_redeal_collects_and_deals_again() -> None:
    from yaniv.deal import mend_misdeal

    r = rules("standard", misdeal_rule="redeal")
    hands = [_ids("AH 2H 3H 4H 5H 6H"), _ids("AS 2S 3S 4S")]
    stock = _ids("9C 10C JC QC 7D 8D")
    new_hands, new_stock = mend_misdeal(r, hands, stock, random.Random(3))
    assert [len(h) for h in new_hands] == [5, 5]
    before = Counter(_names([c for h in hands for c in h] + stock))
    after = Counter(_names([c for h in new_hands for c in h] + new_stock))
    assert before == after
    assert sorted(_names(new_hands[0])) != sorted(_names(hands[0])[:5])


def test_S17_impossible_deal_rejected() -> None:
    from yaniv.deal import mend_misdeal

    with pytest.raises(PositionError):
        mend_misdeal(Rules(), [_ids("AH"), _ids("AS")], _ids("9C"), random.Random(1))


def test_V27_misdeal_rule_per_source() -> None:
    for name in ALL_PRESETS:
        assert Rules.from_spec(name).misdeal_rule == "return_extra", name


def test_A9_every_player_with_excess_returns_it_by_his_choice() -> None:
    from yaniv.deal import mend_misdeal

    hands = [_ids("AH 2H 3H 4H 5H 6H 7H"), _ids("AS 2S 3S 4S 5S 6S"), _ids("AD 2D 3D 4D 5D")]
    stock = _ids("9C 10C")
    asked = {}

    def choose(seat: int, held: list[int], count: int) -> list[int]:
        asked[seat] = count
        return sorted(held)[:count]

    new_hands, new_stock = mend_misdeal(Rules(), hands, stock, random.Random(2), choose)
    assert asked == {0: 2, 1: 1}
    assert [len(h) for h in new_hands] == [5, 5, 5]
    assert len(new_stock) == 5
    assert _names(new_hands[2]) == _names(hands[2])
