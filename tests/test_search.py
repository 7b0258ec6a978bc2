"""The expert's search: determinizations, the playout's discard cache, triage, utility."""

from __future__ import annotations

import random

import pytest

from yaniv import Game
from yaniv.bots import make_bot
from yaniv.bots.base import bot_rngs
from yaniv.bots.heuristic import HeuristicBot
from yaniv.bots.model import HandModel, default_model, default_win_model, model_for
from yaniv.bots.playout import (
    VALUE_SCALE,
    best_discard,
    determinize,
    playout,
    utility,
    weighted_deal,
)
from yaniv.bots.search import INDIFFERENCE, _triage
from yaniv.state import RoundState, SeatView


def views_along_a_game(
    spec: str, players: int, seed: int, limit: int = 60
) -> list[tuple[RoundState, SeatView]]:
    """(full state, current seat's view) at turn starts of a heuristic game."""
    game = Game(spec, players=players, seed=seed)
    bots = [make_bot("heuristic") for _ in range(players)]
    rngs = bot_rngs(seed, players)
    out: list[tuple[RoundState, SeatView]] = []
    while not game.over and len(out) < limit:
        state = game.round
        if state.is_over:
            game.next_round()
            continue
        seat = state.current
        view = state.view(seat)
        if view.phase == "turn_start":
            out.append((state.copy(), view))
        action = bots[seat].act(view, rngs[seat])
        assert action is not None
        game.apply(seat, action)
    return out


@pytest.mark.parametrize(
    ("spec", "players"), [("standard", 2), ("standard", 4), ("finnish", 3), ("jdross", 5)]
)
def test_determinizations_agree_with_everything_the_seat_knows(spec: str, players: int) -> None:
    model = default_model()
    for state, view in views_along_a_game(spec, players, seed=11):
        assert view.seat is not None
        for k in range(4):
            sample = determinize(view, random.Random(k), model, 0, drawn_like_stock=k % 2 == 1)
            # my hand, every hand size, the seen cards, the pile and the stock size hold
            assert sample.hands[view.seat] == state.hands[view.seat]
            for p in view.active:
                assert sample.hands[p].bit_count() == state.hands[p].bit_count()
                assert sample.hands[p] & state.seen[p] == state.seen[p]
                assert sample.seen[p] == state.seen[p]  # the playouts' callers read them
            assert sample.pile == state.pile
            assert len(sample.stock) == len(state.stock)
            # every physical card is in exactly one place
            everywhere = list(sample.stock) + [c for g in sample.pile for c in g]
            for p in view.active:
                everywhere += [c for c in range(108) if sample.hands[p] >> c & 1]
            assert len(everywhere) == len(set(everywhere))
            assert sum(sample.hv[p] for p in view.active) == sum(
                sample.rules.card_values[c]
                for p in view.active
                for c in range(108)
                if sample.hands[p] >> c & 1
            )


def test_a_low_single_discard_makes_the_previous_players_kept_cards_low() -> None:
    """The after-single table: a player who threw a 2 kept low cards; one who threw a king did not."""
    model = default_model()
    assert model.after_single is not None
    low = sum(v * p for v, p in enumerate(model.after_single[2])) / sum(model.after_single[2])
    high = sum(v * p for v, p in enumerate(model.after_single[10])) / sum(model.after_single[10])
    assert low < 2.0 < 4.0 < high
    # and the determinization uses it: the same view with the table on and off
    views = [v for seed in range(6) for _, v in views_along_a_game("standard", 2, seed=seed, limit=300)]
    views = [
        v
        for v in views
        if v.turns > 0  # not the card turned up at the deal
        and len(v.discard_pile[-1]) == 1
        and v.rules.card_values[int(v.discard_pile[-1][0])] <= 3
        and v.hand_counts[1 - (v.seat or 0)] - len(v.seen[1 - (v.seat or 0)]) >= 3
    ]
    assert views, "the games offer views after a low single discard"
    plain = HandModel(model.card_distribution)
    informed, uninformed = 0, 0
    for view in views:
        other = 1 - (view.seat or 0)
        for k in range(40):
            informed += determinize(view, random.Random(k), model, 2).hv[other]
            uninformed += determinize(view, random.Random(k), plain, 2).hv[other]
    assert informed < uninformed * 0.8


def test_weighted_deal_follows_the_weights() -> None:
    card_values = [1] * 54 + [1] * 54
    card_values[0] = 10
    pool = list(range(20))
    dist = [0.0] * 11
    dist[1] = dist[10] = (
        1.0  # a value's weight is shared by its cards: the one 10 weighs as much as nineteen 1s
    )
    firsts = [weighted_deal(pool, dist, card_values, 1, random.Random(k))[0] for k in range(2000)]
    share = firsts.count(0) / len(firsts)
    assert 0.45 < share < 0.55  # first half the time
    assert sorted(weighted_deal(pool, dist, card_values, 20, random.Random(1))) == pool
    assert len(weighted_deal(pool, dist, card_values, 99, random.Random(1))) == 20
    # the second card: after the 10 (weight 1) the 1s share what is left evenly; after a 1,
    # the 10 weighs as much as the eighteen 1s left together plus one (19/18 : 1)
    seconds = [weighted_deal(pool, dist, card_values, 2, random.Random(k)) for k in range(4000)]
    after_a_one = [d[1] for d in seconds if d[0] != 0]
    share = after_a_one.count(0) / len(after_a_one)
    assert 0.46 < share < 0.56  # (1) / (1 + 18/19) = 0.514


def test_weighted_deal_never_deals_a_ruled_out_value_before_the_others() -> None:
    card_values = [1] * 54 + [1] * 54
    card_values[3] = card_values[7] = 10
    pool = list(range(12))
    dist = [0.0] * 11
    dist[1] = 1.0  # a 10 is ruled out: it comes after every 1
    for k in range(200):
        deal = weighted_deal(pool, dist, card_values, 12, random.Random(k))
        assert sorted(deal[-2:]) == [3, 7]


def test_the_playouts_best_discard_is_the_most_valuable_one() -> None:
    for state, _ in views_along_a_game("standard", 3, seed=5):
        best, highest = best_discard(state, state._values)
        values = state._values
        assert sum(values[c] for c in best) == max(sum(values[c] for c in d) for d in state.discards())
        assert highest == max(values[c] for c in best)


def test_triage_drops_clearly_worse_parks_close_and_keeps_uncertain() -> None:
    n = 32
    # candidate 0 leads; 1 trails by 10 with small spread (out); 2 within 0.1 with a small
    # spread (parked: cannot beat the leader by INDIFFERENCE); 3 trails by 1 with a huge
    # spread (kept: it may still be better)
    totals = [10.0 * n, 0.0, 9.9 * n, 9.0 * n]
    squares = [[0.0] * 4 for _ in range(4)]
    squares[0][1] = squares[1][0] = n * (10.0**2 + 1.0)
    squares[0][2] = squares[2][0] = n * (0.1**2 + 1.0)
    squares[0][3] = squares[3][0] = n * (1.0**2 + 400.0)
    alive, out = _triage([0, 1, 2, 3], totals, squares, n)
    assert alive == [0, 3]
    assert out == {1}
    assert INDIFFERENCE > 0.1


def _called(
    players: int, totals: list[int], hands: list[int], hv: list[int], rules: str = "standard"
) -> RoundState:
    """A round in which seat 0 called Yaniv with the given totals and hands."""
    state = Game(rules, players=players, seed=1).round
    state.totals = totals
    for p, mask in enumerate(hands):
        state.set_hand(p, mask)
    state.hv = hv
    state.current = 0
    state.fast_yaniv()
    return state


def test_utility_is_the_chance_to_win_after_the_round() -> None:
    strength = default_win_model().table(200)
    # seat 0 calls with 5 points; seat 1 scores 20 and lands on 100, halved to 50
    state = _called(2, [95, 80], [1 << 4, 1 << 9 | 1 << 10], [5, 20])
    assert state.result is not None and state.result.landed == (1,)
    win0 = strength[95] / (strength[95] + strength[50])
    assert utility(state, 0, strength) == pytest.approx(VALUE_SCALE * win0)
    assert utility(state, 1, strength) == pytest.approx(VALUE_SCALE * (1 - win0))
    assert utility(state, 1, strength) > utility(state, 0, strength)  # the landing is worth it


def test_utility_of_a_knock_out_and_of_the_game_end() -> None:
    strength = default_win_model().table(200)
    # heads-up: knocking the opponent out ends the game
    state = _called(2, [10, 190], [1 << 4, 1 << 9 | 1 << 10], [5, 20])
    assert state.result is not None and state.result.eliminated == (1,) and state.result.game_over
    assert utility(state, 0, strength) == VALUE_SCALE
    assert utility(state, 1, strength) == 0.0
    # three players: the knocked-out seat is worth nothing, the others share the game
    state = _called(3, [10, 190, 60], [1 << 4, 1 << 9 | 1 << 10, 1 << 8 | 1 << 9], [5, 20, 19])
    assert state.result is not None and state.result.eliminated == (1,) and not state.result.game_over
    assert utility(state, 1, strength) == 0.0
    shares = [utility(state, p, strength) for p in (0, 2)]
    assert sum(shares) == pytest.approx(VALUE_SCALE)
    assert shares[0] > shares[1]  # 10 points against 79


def test_utility_of_a_round_ending_in_a_tie_break() -> None:
    strength = default_win_model().table(200)
    # seat 0 calls with 0 (a joker); seat 2 ties him on 50 and seat 1 goes over the limit
    hands = [1 << 104, 1 << 9 | 1 << 10, 1 << 17 | 1 << 18, 1 << 21 | 1 << 22]
    state = _called(4, [50, 195, 40, 60], hands, [0, 20, 10, 14], "standard(end_mode=first_over_limit)")
    assert state.result is not None and state.result.tiebreak == (0, 2)
    assert [utility(state, p, strength) for p in range(4)] == [VALUE_SCALE / 2, 0.0, VALUE_SCALE / 2, 0.0]


def test_the_model_reads_a_discard_by_its_size_and_highest_card() -> None:
    model = default_model()
    assert model.after_single is not None and model.after_group is not None
    assert model.after_discard([4]) == model.after_single[4]
    assert model.after_discard([3, 4, 5]) == model.after_group[5]
    assert model.after_discard([10, 10]) == model.after_group[10]
    assert HandModel(model.card_distribution).after_discard([4]) is None
    with pytest.raises(ValueError, match="after_group"):
        HandModel(model.card_distribution, None, [[1.0] * 11] * 3)


@pytest.mark.parametrize(("spec", "players"), [("standard", 4), ("standard", 2), ("finnish", 3)])
def test_the_playouts_call_yaniv_exactly_when_the_heuristic_would(spec: str, players: int) -> None:
    # the same model (hand sizes, seen cards, stage) and the same score-aware risk
    # level; the heuristic's stall allowance aside (a fresh heuristic has not stalled)
    model = default_model()
    calls = checked = 0
    for seed in range(3):
        for state, view in views_along_a_game(spec, players, seed=seed, limit=400):
            if not any(a.type == "yaniv" for a in view.legal):
                continue
            judge = HeuristicBot(model=model)
            heuristic_calls = judge.act(view, random.Random(0)).type == "yaniv"  # type: ignore[union-attr]
            s = state.copy()
            playout(s, model)
            playout_calls = s.result is not None and s.turns == state.turns + 1  # its first move
            assert playout_calls == heuristic_calls
            calls += heuristic_calls
            checked += 1
    assert checked > 50 and 0 < calls < checked


def test_the_expert_uses_its_rule_familys_models_and_the_heuristic_keeps_standards() -> None:
    """Models per rule family (issue 20): the expert reads jdross's, given ones stay fixed."""
    from yaniv.bots.model import family_of, model_for, win_model_for
    from yaniv.bots.search import ExpertBot

    _, view = views_along_a_game("jdross", 2, 3, limit=1)[0]
    if family_of(view.rules) != "jdross":
        pytest.skip("jdross not fitted")
    expert = ExpertBot(level="fast")
    expert.act(view, random.Random(1))
    assert expert.model is model_for(view.rules) and expert.heuristic.model is expert.model
    assert expert.win_model is win_model_for(view.rules)
    assert expert.model is not default_model()
    fixed = ExpertBot(level="fast", model=default_model(), win_model=default_win_model())
    fixed.act(view, random.Random(1))
    assert fixed.model is default_model() and fixed.win_model is default_win_model()
    assert HeuristicBot().model is default_model()


def test_took_from_pile_reads_a_seen_card_of_the_group_before() -> None:
    """The drawn card dealt like a stock card needs to know who drew: a taken card is seen."""
    from yaniv.bots.playout import _took_from_pile

    checked = {True: 0, False: 0}
    for state, view in views_along_a_game("standard", 2, seed=5, limit=60):
        assert view.seat is not None
        other = 1 - view.seat
        if view.last_discards[other] is None or state.turns < 2:
            continue
        took = _took_from_pile(view, other)
        checked[took] += 1
        if not took:  # he drew: nothing he was seen taking comes from the group he faced
            group = view.last_discards[view.seat]
            assert group is None or not {c % 54 for c in view.seen[other]} & {c % 54 for c in group}
    assert checked[True] > 0 and checked[False] > 0


def test_the_search_playouts_call_later_than_the_heuristic() -> None:
    """The search's playouts call at PLAYOUT_RISK (issue 20): only where the heuristic's 0.3 calls too."""
    from yaniv.bots.playout import PLAYOUT_RISK

    assert HeuristicBot().w.risk > PLAYOUT_RISK
    model = default_model()
    later = sooner = 0
    for seed in range(3):
        for state, view in views_along_a_game("standard", 2, seed=seed, limit=400):
            if not any(a.type == "yaniv" for a in view.legal):
                continue
            first_moves = []
            for risk in (PLAYOUT_RISK, HeuristicBot().w.risk):
                s = state.copy()
                playout(s, model, risk)
                first_moves.append(s.result is not None and s.turns == state.turns + 1)
            assert not (first_moves[0] and not first_moves[1])  # never calls where 0.3 would not
            later += first_moves[0]
            sooner += first_moves[1]
    assert 0 < later < sooner


def _calls_at_once(state: RoundState, me: int, risk: float, others_risk: float | None) -> bool:
    """Whether the seat to play calls Yaniv at the first turn of a playout of a copy of *state*."""
    s = state.copy()
    playout(s, default_model(), risk, 1, None, me, others_risk)
    return s.result is not None


def test_the_playouts_other_seats_may_call_at_a_level_of_their_own() -> None:
    """With others_risk, every seat but the searcher calls at it in the playouts (issue 20,
    session 24: the opponents at the heuristic's 0.3, the searcher at PLAYOUT_RISK)."""
    from yaniv.bots.playout import PLAYOUT_RISK

    theirs = HeuristicBot().w.risk
    assert theirs > PLAYOUT_RISK
    differ = 0
    for seed in range(3):
        for state, view in views_along_a_game("standard", 2, seed=seed, limit=400):
            if not any(a.type == "yaniv" for a in view.legal):
                continue
            mover = state.current
            as_searcher = _calls_at_once(state, mover, PLAYOUT_RISK, theirs)
            as_opponent = _calls_at_once(state, 1 - mover, PLAYOUT_RISK, theirs)
            assert as_searcher == _calls_at_once(state, -1, PLAYOUT_RISK, None)
            assert as_opponent == _calls_at_once(state, -1, theirs, None)
            differ += as_searcher != as_opponent
    assert differ > 0


def test_the_playouts_call_at_their_rule_familys_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """jdross heads-up calls at 0.2, the rest at PLAYOUT_RISK; the search passes the level on, and
    the others' level at more seats (MULTIWAY_OPPONENT_RISK)."""
    from yaniv.bots import search
    from yaniv.bots.playout import PLAYOUT_RISK, PLAYOUT_RISK_BY_FAMILY, play_candidates, playout_risk
    from yaniv.rules import PRESETS

    assert playout_risk(PRESETS["jdross"], 2) == PLAYOUT_RISK_BY_FAMILY["jdross"] == 0.2
    assert playout_risk(PRESETS["jdross"], 3) == playout_risk(PRESETS["jdross"], 4) == PLAYOUT_RISK
    assert playout_risk(PRESETS["standard"], 2) == playout_risk(PRESETS["finnish"], 2) == PLAYOUT_RISK == 0.15
    seen: list[float] = []
    others: list[object] = []

    def recording(*args: object) -> None:
        seen.append(args[10])  # type: ignore[arg-type]  # risk, others_risk (seat_risks: args[12])
        others.append(args[11])
        play_candidates(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "play_candidates", recording)
    for spec, players, level in (("jdross", 2, 0.2), ("jdross", 3, 0.15), ("standard", 2, 0.15)):
        seen.clear()
        bot = make_bot("expert:fast")
        for _, view in views_along_a_game(spec, players, seed=1, limit=40):
            bot.act(view, random.Random(3))
        assert seen and set(seen) == {level}, (spec, players)
    # off heads-up: the others at the same level; at three players and more at the heuristic's
    assert search.OPPONENT_RISK is None and set(others) == {None, search.MULTIWAY_OPPONENT_RISK}
    others.clear()
    bot = make_bot("expert:fast")
    for _, view in views_along_a_game("standard", 2, seed=1, limit=40):
        bot.act(view, random.Random(3))
    assert set(others) == {None}
    others.clear()
    bot = make_bot("expert:fast")
    for _, view in views_along_a_game("standard", 4, seed=1, limit=40):
        bot.act(view, random.Random(3))
    assert search.MULTIWAY_OPPONENT_RISK == 0.3 and set(others) == {0.3}
    others.clear()
    bot = make_bot("expert:fast")
    bot.opponent_risk = 0.3  # type: ignore[attr-defined]
    for _, view in views_along_a_game("standard", 2, seed=1, limit=40):
        bot.act(view, random.Random(3))
    assert set(others) == {0.3}


def _one_playout_turn(rules: str, hand: list[str]) -> list[str]:
    """Seat 0's hand after one turn of the playout policy with *hand* and an 8♥ to take."""
    state = RoundState.from_position(
        {
            "rules": rules,
            "players": 2,
            "current": 0,
            "phase": "turn_start",
            "hands": [hand, ["QH", "QC", "JD", "9S"]],
            "stock": ["5C", "9D", "QD", "7C", "6D"],
            "discard_pile": [["8H"]],
        }
    )
    playout(state, model_for(state.rules), 0.15, 1)
    assert state.turns == 1 and state.result is None  # one whole turn, no call (20 points)
    hands: list[list[str]] = state.to_position()["hands"]
    return hands[0]


def test_S7_2_the_playouts_take_a_pile_card_only_to_make_a_set_the_rules_allow() -> None:
    """A pair is a set only where sets of two are (``min_set_size``; slovenian-yanef wants three).

    With one 8 the playouts take the 8 thrown before them under the standard rules
    (it makes a pair), and draw where a set needs three cards; holding two 8s there,
    they take it (it makes three).
    """
    assert "8H" in _one_playout_turn("standard", ["8S", "KD", "2C"])
    assert "8H" not in _one_playout_turn("standard(min_set_size=3)", ["8S", "KD", "2C"])
    assert "8H" in _one_playout_turn("standard(min_set_size=3)", ["8S", "8D", "KD", "2C"])


def test_read_table_sums_kept_cards_and_the_card_drawn_since() -> None:
    """HandModel.read_table: u hidden cards are u - 1 kept ones (after-discard table) and one
    drawn by the stage, checked against a sum over every combination (issue 20, session 31)."""
    import itertools

    model = default_model()
    assert model.after_single is not None and model.after_group is not None
    for stage, single, top in ((0, True, 1), (3, True, 10), (5, False, 6)):
        kept = (model.after_single if single else model.after_group)[top]
        drawn = model.card_distribution[stage]
        kept = [p / sum(kept) for p in kept]
        drawn = [p / sum(drawn) for p in drawn]
        table = model.read_table(stage, single, top)
        assert table is model.read_table(stage, single, top)  # built once
        for u in (1, 2, 3):
            exact = [0.0] * (10 * u + 1)
            for combo in itertools.product(range(11), repeat=u):
                p = drawn[combo[0]]
                for v in combo[1:]:
                    p *= kept[v]
                exact[sum(combo)] += p
            running = 0.0
            for x in range(10 * u + 1):
                running += exact[x]
                assert table[u][x] == pytest.approx(min(running, 1.0), abs=1e-9), (stage, single, top, u, x)
    # without after-discard tables, the stage's own
    bare = HandModel(model.card_distribution)
    assert bare.read_table(2, True, 1) is bare.cdf[2]


def test_a_low_single_discard_reads_as_a_low_hand() -> None:
    """A player who threw a single ace keeps low cards: the read estimate that he holds 4 or less
    in three cards is well above the stage's; after a single king it is lower than after the ace."""
    model = default_model()
    stage = model.p_hand_at_most(4, 3, 0, 0, 2)
    after_ace = model.p_hand_at_most(4, 3, 0, 0, 2, [1])
    after_king = model.p_hand_at_most(4, 3, 0, 0, 2, [10])
    assert after_ace > 1.5 * stage
    assert after_king < after_ace
    # a seen card counts as before (3 of the 4 points: one hidden card at most 1); with no
    # hidden card left the answer is certain either way
    assert model.p_hand_at_most(4, 2, 3, 1, 2, [1]) == model.read_table(2, True, 1)[1][1]
    assert model.p_hand_at_most(4, 1, 3, 1, 2, [1]) == 1.0
    assert model.p_hand_at_most(2, 1, 3, 1, 2, [1]) == 0.0


def test_the_playouts_reading_callers_call_as_the_read_estimate_says() -> None:
    """A seat in read_seats calls at a playout's first turn exactly when the heuristic's estimate
    read from the discards (assaf_probability(read=True)) is at most its score-aware level; a seat
    not in it calls by the stage alone, and the two differ somewhere along real games."""
    from yaniv.bots.heuristic import Knowledge, call_risk

    judge = HeuristicBot(model=default_model())
    level = 0.2
    differ = checked = 0
    for seed in range(4):
        for state, view in views_along_a_game("standard", 2, seed=seed, limit=400):
            if not any(a.type == "yaniv" for a in view.legal):
                continue
            assert view.seat is not None and view.hand_value is not None
            mover = view.seat
            know = Knowledge(view)
            allowed = call_risk(view.rules, view.totals, view.active, mover, view.hand_value, level)
            reads = judge.assaf_probability(view.hand_value, know, read=True) <= allowed
            stage = judge.assaf_probability(view.hand_value, know) <= allowed
            s = state.copy()
            playout(s, default_model(), level, 1, None, mover, None, None, 1 << mover)
            assert (s.result is not None) == reads
            s = state.copy()
            playout(s, default_model(), level, 1, None, mover, None, None, 1 << (1 - mover))
            assert (s.result is not None) == stage
            differ += reads != stage
            checked += 1
    assert checked > 30 and differ > 0


def test_the_search_reads_discards_heads_up_in_the_families_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """With READ_DISCARDS on (off as shipped), heads-up on standard both seats read (the opponent
    unless a deal makes him loose) at READ_RISK_BY_FAMILY's level; at more seats, in a family
    not listed, or switched off, nobody."""
    from yaniv.bots import search
    from yaniv.bots.playout import PLAYOUT_RISK, READ_RISK_BY_FAMILY, play_candidates, read_risk
    from yaniv.rules import PRESETS

    assert read_risk(PRESETS["standard"]) == READ_RISK_BY_FAMILY["standard"] == 0.2
    calls: list[tuple[float, int, object]] = []

    def recording(*args: object) -> None:
        calls.append((args[10], args[13], args[12]))  # type: ignore[arg-type]  # risk, read_seats, seat_risks
        play_candidates(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "play_candidates", recording)

    assert search.READ_DISCARDS is False

    def searched(spec: str, players: int, reads: bool = True) -> list[tuple[float, int, object]]:
        calls.clear()
        bot = make_bot("expert:fast")
        bot.read_discards = reads  # type: ignore[attr-defined]
        for _, view in views_along_a_game(spec, players, seed=1, limit=40):
            bot.act(view, random.Random(3))
        assert calls, (spec, players)
        return calls[:]

    both = 0b11
    heads_up = searched("standard", 2)
    assert {risk for risk, _, _ in heads_up} == {0.2}
    for _, read_seats, seat_risks in heads_up:
        assert read_seats in (0b01, 0b10, both)
        if read_seats != both:  # the opponent is loose in this deal: the heuristic's level, no reading
            assert isinstance(seat_risks, list) and max(seat_risks) > 0.2
    assert any(read_seats == both for _, read_seats, _ in heads_up)
    assert {(risk, read_seats) for risk, read_seats, _ in searched("standard", 3)} == {(PLAYOUT_RISK, 0)}
    assert {read_seats for _, read_seats, _ in searched("jdross", 2)} == {0}
    switched_off = searched("standard", 2, False)
    assert {(risk, read_seats) for risk, read_seats, _ in switched_off} == {(PLAYOUT_RISK, 0)}


def test_the_search_keeps_its_means_and_chooses_the_first_within_indifference_of_the_best() -> None:
    """``last_means`` (read by bench/triage.py) holds each eligible candidate's mean, and the
    choice is the first candidate in the heuristic's order within INDIFFERENCE of the best."""
    from yaniv.bots.heuristic import Knowledge
    from yaniv.bots.playout import Determinizer
    from yaniv.bots.search import ExpertBot

    bot = ExpertBot("fast")
    searched = 0
    for _, view in views_along_a_game("standard", 2, seed=5, limit=30):
        know = Knowledge(view)
        cands = bot.candidates(view, know, random.Random(0))
        if len(cands) < 2:
            continue
        sample = Determinizer(view, bot.model, know.stage, False).sample
        action = bot.search(view, cands, random.Random(1), sample)
        means = bot.last_means
        assert means and set(means) <= set(range(len(cands)))
        top = max(means.values())
        chosen = cands.index(action)
        assert means[chosen] >= top - INDIFFERENCE
        assert all(means[i] < top - INDIFFERENCE for i in means if i < chosen)
        searched += 1
    assert searched >= 10
