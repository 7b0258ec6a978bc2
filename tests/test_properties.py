"""Hypothesis properties of the engine (DESIGN.md §7).

* cards are conserved through whole random games, reshuffles included, for every preset
  and for knob combinations (two decks, quick discard, joker exchange, Asef, jokers in
  sets, 8 players with 7 cards);
* every listed legal action applies, and leaves a consistent state;
* ``push``/``pop`` restores the state, ``copy()`` is equal and independent;
* positions round-trip, and a reloaded position plays on exactly like the original;
* seeded games are identical;
* a seat's view and a seat's events never hold another seat's hidden card.

Random play chooses uniformly among ``state.legal_actions()``, but always calls Yaniv
when allowed in whole games (so rounds stay short), and prefers the rare actions
(swap, slap, Asef) when listed so that they are exercised.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from yaniv import PRESETS, Game, RoundState, Rules
from yaniv.actions import Action
from yaniv.cards import CARDS, deck
from yaniv.cards import cards_of_mask as bits

# ---------------------------------------------------------------------------- set-up

KNOB_COMBOS = [
    "standard(num_decks=2)",
    "standard(quick_discard=same_rank)",
    "standard(quick_discard=fits_meld)",
    "standard(joker_swap=as_draw)",
    "standard(joker_swap=as_turn)",
    "standard(asef=true)",
    "standard(jokers_in_sets=true)",
    "standard(num_decks=2,max_players=8,hand_size=7,min_players=8)",
    "standard(num_decks=2,quick_discard=fits_meld,jokers_in_sets=true,joker_swap=as_draw)",
    "slovenian-yanef(quick_discard=same_rank,num_decks=2)",
    "jdross(quick_discard=fits_meld,asef=true)",
    "finnish(num_decks=auto)",
]
SPECS = [*PRESETS, *KNOB_COMBOS]

RARE = frozenset({"swap", "slap", "asef"})
MAX_ACTIONS = 20_000
"""A game longer than this is cut short (random play could in theory run forever)."""

# Examples are drawn from one seed each, so shrinking would only wander between unrelated
# games: it is off, and a failure reports the first failing seed as found.
NO_SHRINK = (Phase.explicit, Phase.generate)
# Whole games are the expensive examples; the rest are cheap.
GAME_SETTINGS = settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    database=None,
    phases=NO_SHRINK,
    suppress_health_check=[HealthCheck.too_slow],
)
SPEC_SETTINGS = settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    database=None,
    phases=NO_SHRINK,
    suppress_health_check=[HealthCheck.too_slow],
)
"""For tests parametrised over every spec: 10 random states each."""
STATE_SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    phases=NO_SHRINK,
    suppress_health_check=[HealthCheck.too_slow],
)


def choose(state: RoundState, rng: random.Random, yaniv_p: float = 1.0) -> tuple[int, Action]:
    """The random policy: (acting seat, action), from the listed legal actions only."""
    if state.phase_name == "after_draw" and state.slapper is not None:
        slaps = state.legal_actions(seat=state.slapper)
        if slaps and rng.random() < 0.5:
            return state.slapper, rng.choice(slaps)
    legal = state.legal_actions()
    assert legal, f"no legal action in {state!r}: {state.to_position()}"
    if rng.random() < yaniv_p:
        for a in legal:
            if a.type == "yaniv":
                return state.current, a
    rare = [a for a in legal if a.type in RARE]
    if rare and rng.random() < 0.6:
        return state.current, rng.choice(rare)
    return state.current, rng.choice(legal)


@dataclass(frozen=True)
class Scenario:
    """A reproducible random game: rules, players, seeds, how far to play it."""

    spec: str
    players: int
    seed: int
    steps: int
    target: str | None = None
    named: bool = False
    yaniv_p: float = 0.8

    @property
    def rules(self) -> Rules:
        return Rules.from_spec(self.spec)

    def game(self) -> Game:
        names = [f"N{p}" for p in range(self.players)] if self.named else None
        return Game(self.rules, self.players, seed=self.seed, names=names)

    def play(self) -> Game:
        """The game after ``steps`` random actions (and then up to ``target`` phase)."""
        game = self.game()
        rng = random.Random(self.seed * 7919 + 1)
        todo = self.steps
        extra = 0
        while True:
            state = game.round
            if todo <= 0 and (self.target is None or state.phase_name == self.target):
                break
            if todo <= 0:
                extra += 1
                if extra > 3000:
                    break
            if state.is_over:
                if game.over:
                    if todo <= 0:
                        break
                    game = self.game()  # start again: keep going until the steps are done
                else:
                    game.next_round()
                todo -= 1
                continue
            seat, action = choose(state, rng, self.yaniv_p)
            game.apply(seat, action)
            todo -= 1
        return game


def make_scenario(specs: list[str], seed: int, max_steps: int) -> Scenario:
    """A scenario drawn from one seed (Hypothesis's own choices of small values would
    cluster on the first specs and on zero steps; a seeded ``Random`` spreads them)."""
    rng = random.Random(seed)
    spec = specs[seed % len(specs)]
    rules = Rules.from_spec(spec)
    phases = ["turn_start", "after_discard", "round_over"]
    if rules.quick_discard != "off":
        phases += ["after_draw", "after_draw"]
    return Scenario(
        spec=spec,
        players=rng.randint(rules.min_players, rules.max_players),
        seed=rng.randrange(2**32),
        steps=rng.choice([0, 2, *(rng.randint(0, max_steps) for _ in range(4))]),
        target=rng.choice([None, *phases]),
        named=rng.random() < 0.3,
        yaniv_p=rng.choice([0.5, 0.9]),
    )


def scenarios(specs: list[str] = SPECS, max_steps: int = 300) -> st.SearchStrategy[Scenario]:
    return st.integers(0, 2**32 - 1).map(lambda seed: make_scenario(specs, seed, max_steps))


def all_ids(state: RoundState) -> list[int]:
    """Every physical card of the round: hands, stock, discard pile."""
    ids = [c for h in state.hands for c in bits(h)]
    ids.extend(state.stock)
    ids.extend(c for group in state.pile for c in group)
    return ids


def assert_consistent(state: RoundState, decks: int | None) -> None:
    """Cards conserved (the whole deck if *decks* is given), hand values right."""
    ids = all_ids(state)
    dupes = [CARDS[c] for c, k in Counter(ids).items() if k > 1]
    assert not dupes, f"cards in two places: {dupes}"
    if decks is not None:
        missing = sorted(set(deck(decks)) - set(ids))
        assert sorted(ids) == deck(decks), f"cards lost: {[str(CARDS[c]) for c in missing]}"
    values = state.rules.card_values
    for p in range(state.n):
        assert state.hv[p] == sum(values[c] for c in bits(state.hands[p])), f"hv[{p}]"
        assert state.seen[p] & ~state.hands[p] == 0, f"seat {p} 'seen' a card it does not hold"
    for p in state.eliminated:
        assert state.hands[p] == 0, f"eliminated seat {p} holds cards"
    assert all(state.pile), "an empty group in the discard pile"
    if state.phase_name == "after_draw":
        assert state.slapper is not None and state.drawn is not None
        assert state.hands[state.slapper] >> state.drawn & 1, "the drawn card is not in the hand"


def listed_actions(state: RoundState) -> list[tuple[int, Action]]:
    """Every (seat, action) listed as legal now, the slap window included."""
    out = [(state.current, a) for a in state.legal_actions()] if not state.is_over else []
    if state.phase_name == "after_draw" and state.slapper is not None:
        out += [(state.slapper, a) for a in state.legal_actions(seat=state.slapper)]
    return out


def names_of(mask: int) -> list[str]:
    return sorted(str(CARDS[c]) for c in bits(mask))


# ---------------------------------------------------------------------------- conservation


@pytest.mark.parametrize("spec", SPECS)
@GAME_SETTINGS
@given(data=st.data())
def test_cards_are_conserved_through_whole_games(spec: str, data: Any) -> None:
    """After every action: hands + stock + pile = the deck, no card twice (S1, S9)."""
    rules = Rules.from_spec(spec)
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    game = Game(rules, players, seed=seed)
    decks = rules.decks_for(players)
    assert game.decks == decks
    rng = random.Random(seed)
    assert_consistent(game.round, decks)
    actions = 0
    while not game.over and actions < MAX_ACTIONS:
        state = game.round
        if state.is_over:
            game.next_round()
            assert_consistent(game.round, decks)
            continue
        seat, action = choose(state, rng)
        game.apply(seat, action)
        actions += 1
        assert_consistent(game.round, decks)
        assert game.round is state
    assert game.over, f"game not finished after {MAX_ACTIONS} actions"
    assert game.winners


def test_random_play_exercises_every_action_type() -> None:
    """The policy above really reaches reshuffles, takes, swaps, slaps and Asef calls."""
    counts: Counter[str] = Counter()
    reshuffles = 0
    for spec in ("slovenian-yanef(quick_discard=same_rank)", "german-wiki(quick_discard=fits_meld)"):
        for seed in range(4):
            game = Game(spec, 4, seed=seed)
            rng = random.Random(seed)
            while not game.over:
                state = game.round
                if state.is_over:
                    reshuffles += state.reshuffles
                    game.next_round()
                    continue
                seat, action = choose(state, rng)
                counts[action.type] += 1
                game.apply(seat, action)
                assert_consistent(game.round, game.decks)
    assert reshuffles > 0
    for kind in ("yaniv", "discard", "draw", "take", "swap", "slap", "asef"):
        assert counts[kind] > 0, f"random play never made a {kind}: {dict(counts)}"


# ---------------------------------------------------------------------------- legal actions


@pytest.mark.parametrize("spec", SPECS)
@SPEC_SETTINGS
@given(st.data())
def test_every_listed_action_applies_and_leaves_a_consistent_state(spec: str, data: Any) -> None:
    sc = data.draw(scenarios([spec]), label="scenario")
    game = sc.play()
    state = game.round
    assert_consistent(state, game.decks)
    for seat, action in listed_actions(state):
        copy = state.copy()
        copy.shuffler = random.Random(0)  # reshuffles alike in every copy
        copy.apply(seat, action)  # checked: must not raise
        assert_consistent(copy, game.decks)
        # and through the text and JSON notations as well
        for form in (str(action), action.to_json()):
            again = state.copy()
            again.shuffler = random.Random(0)
            again.apply(seat, form)
            assert again == copy, (form, seat)


# ---------------------------------------------------------------------------- push / pop


@STATE_SETTINGS
@given(scenarios(), st.integers(0, 2**32 - 1))
def test_push_pop_restores_the_state(sc: Scenario, seed: int) -> None:
    game = sc.play()
    state = game.round.copy()
    rng = random.Random(seed)
    listed = listed_actions(state)
    for seat, action in rng.sample(listed, min(len(listed), 6)):
        before = state.copy()
        log_before = list(state.log or [])
        state.push(action, seat)
        state.pop()
        assert state == before, (seat, str(action))
        assert state.to_position() == before.to_position(), (seat, str(action))
        assert list(state.log or []) == log_before
        assert_consistent(state, game.decks)


@STATE_SETTINGS
@given(scenarios(), st.integers(0, 2**32 - 1), st.integers(1, 40))
def test_a_chain_of_pushes_pops_back_to_the_start(sc: Scenario, seed: int, depth: int) -> None:
    game = sc.play()
    state = game.round.copy()
    snapshot = state.copy()
    log = list(state.log or [])
    positions = [state.to_position()]
    rng = random.Random(seed)
    pushed = 0
    for _ in range(depth):
        if state.is_over:
            break
        seat, action = choose(state, rng, yaniv_p=0.2)
        state.push(action, seat)
        pushed += 1
        assert_consistent(state, game.decks)
        positions.append(state.to_position())
    for i in range(pushed):
        state.pop()
        assert state.to_position() == positions[-2 - i]
    assert state == snapshot
    assert state.to_position() == snapshot.to_position()
    assert list(state.log or []) == log


# ---------------------------------------------------------------------------- copy


@STATE_SETTINGS
@given(scenarios(), st.integers(0, 2**32 - 1))
def test_copy_is_equal_and_independent(sc: Scenario, seed: int) -> None:
    game = sc.play()
    state = game.round
    copy = state.copy()
    assert copy == state
    assert copy.to_position() == state.to_position()
    for p in range(state.n):
        assert copy.view(p).to_dict() == state.view(p).to_dict()
    before = state.to_position()
    events = len(game.events)
    # play the copy on: the original does not move
    rng = random.Random(seed)
    for _ in range(30):
        if copy.is_over:
            break
        seat, action = choose(copy, rng, yaniv_p=0.3)
        copy.apply(seat, action)
    assert state.to_position() == before
    assert len(game.events) == events
    # poke at every mutable part of the copy
    copy.hand_lo[state.current] ^= 1
    copy.hand_hi[state.current] ^= 1
    copy.hv[0] += 100
    copy.seen_lo[0] ^= 2
    copy.seen_hi[0] ^= 2
    copy.stock.append(3)
    copy.pile.append((4,))
    copy.totals[0] += 1000
    copy.nxt[0] = -1
    if copy.log is not None:
        copy.log.append({"type": "bogus"})
    assert state.to_position() == before
    assert len(game.events) == events
    assert_consistent(state, game.decks)


def _play_with_shadow(spec: str, players: int, seed: int, shadow: bool) -> list[dict[str, Any]]:
    """A seeded game; with *shadow*, a copy of each round is played out to its end
    (through reshuffles) before every real action, as a searching bot would."""
    game = Game(spec, players, seed=seed)
    rng = random.Random(seed)
    shadow_rng = random.Random(seed + 1)
    actions = 0
    while not game.over and actions < 2000:
        state = game.round
        if state.is_over:
            game.next_round()
            continue
        if shadow and actions % 5 == 0:
            sim = state.copy()
            for _ in range(200):
                if sim.is_over:
                    break
                seat, action = choose(sim, shadow_rng, yaniv_p=0.0)
                sim.apply(seat, action)
        seat, action = choose(state, rng)
        game.apply(seat, action)
        actions += 1
    return [{k: v for k, v in e.items() if k != "started"} for e in game.events]


@pytest.mark.parametrize(("spec", "players", "seed"), [("standard", 3, 1), ("finnish", 5, 2)])
def test_playing_on_a_copy_does_not_change_the_games_future(spec: str, players: int, seed: int) -> None:
    """Search on ``state.copy()`` must not consume the game's own random numbers:
    same seed + same actions = same game (DESIGN.md §2.1), whatever a bot simulates."""
    assert _play_with_shadow(spec, players, seed, shadow=True) == _play_with_shadow(
        spec, players, seed, shadow=False
    )


# ---------------------------------------------------------------------------- positions


@pytest.mark.parametrize("spec", SPECS)
@SPEC_SETTINGS
@given(st.data())
def test_position_round_trip(spec: str, data: Any) -> None:
    sc = data.draw(scenarios([spec]), label="scenario")
    game = sc.play()
    state = game.round
    pos = state.to_position()
    assert json.loads(json.dumps(pos)) == pos, "a position is plain JSON"
    loaded = RoundState.from_position(pos)
    assert loaded.to_position() == pos
    assert loaded.phase_name == state.phase_name
    assert loaded.is_over == state.is_over
    assert_consistent(loaded, game.decks)
    assert loaded.rules == state.rules


@pytest.mark.parametrize("phase", ["after_discard", "after_draw", "round_over"])
def test_position_round_trip_reaches_every_phase(phase: str) -> None:
    """The scenarios above do reach each phase (so the round-trip covers them)."""
    spec = "standard(quick_discard=fits_meld)"
    for seed in range(20):
        game = Scenario(spec, 3, seed, 40, target=phase).play()
        if game.round.phase_name == phase:
            pos = game.round.to_position()
            assert pos["phase"] == phase
            assert RoundState.from_position(pos).to_position() == pos
            return
    pytest.fail(f"phase {phase} never reached")


def canonical(pos: dict[str, Any]) -> dict[str, Any]:
    """The position with each hand (and seen list) sorted: the order of a hand carries
    no meaning (the round-trip test above checks it is canonical anyway)."""
    out = dict(pos)
    out["hands"] = [sorted(h) for h in pos["hands"]]
    if "seen" in pos:
        out["seen"] = [sorted(h) for h in pos["seen"]]
    return out


def _names(action: Action) -> Action:
    """The action as notation only (no physical ids): what a client would send."""
    return Action.parse(str(action))


@STATE_SETTINGS
@given(scenarios(), st.integers(0, 2**32 - 1))
def test_a_reloaded_position_plays_on_like_the_original(sc: Scenario, seed: int) -> None:
    """``from_position(to_position(s))`` is the same round: the same actions lead to the
    same positions, reshuffles (with the same shuffler seed) included."""
    game = sc.play()
    original = game.round.copy()
    original.log = None
    original.shuffler = random.Random(seed)
    loaded = RoundState.from_position(original.to_position(), shuffler=random.Random(seed))
    rng = random.Random(seed)
    for _ in range(120):
        assert canonical(loaded.to_position()) == canonical(original.to_position())
        assert sorted(str(a) for a in loaded.legal_actions()) == sorted(
            str(a) for a in original.legal_actions()
        )
        if original.is_over:
            break
        seat, action = choose(original, rng, yaniv_p=0.1)
        original.apply(seat, _names(action))
        loaded.apply(seat, _names(action))
        assert_consistent(loaded, None)
    assert canonical(loaded.to_position()) == canonical(original.to_position())


def test_two_deck_slap_of_a_card_also_seen_keeps_seen_consistent() -> None:
    """Two decks: a player took 5H from the pile (seen) and then drew the other 5H.
    Loaded from its position, slapping the drawn 5H must leave the seen 5H in the hand."""
    pos = {
        "rules": "standard(num_decks=2,quick_discard=same_rank)",
        "players": 3,
        "current": 2,
        "phase": "after_draw",
        "hands": [["KD"], ["5H", "5H", "9C"], ["QS", "KS"]],
        "stock": ["2C", "3C"],
        "discard_pile": [["KH"], ["5S"]],
        "seen": [[], ["5H"], []],
        "drawn": {"seat": 1, "card": "5H"},
    }
    state = RoundState.from_position(pos)
    assert_consistent(state, None)
    state.apply(1, "slap 5H")
    assert_consistent(state, None)
    assert state.view(0).to_dict()["seen"][1] == ["5H"]
    assert state.to_position()["hands"][1] == ["5H", "9C"]
    state.apply(2, "discard KS; draw")
    state.apply(0, "discard KD; draw")
    state.apply(1, "discard 5H; draw")  # the seen 5H leaves the hand: nothing seen remains
    assert_consistent(state, None)
    assert state.view(0).to_dict()["seen"][1] == []


def test_a_reloaded_position_keeps_which_joker_was_seen() -> None:
    """One deck: P0 holds a joker and takes the other from the pile (seen). Saved and
    reloaded, then P0 discards a joker: what the others see must not depend on the
    reload."""
    original = RoundState.from_position(
        {
            "rules": "standard",
            "players": 2,
            "current": 0,
            "hands": [["JK", "KD"], ["5S", "9S"]],
            "stock": ["2C", "3C", "4C"],
            "discard_pile": [["KS"], ["JK"]],
        }
    )
    original.apply(0, "discard KD; take JK")
    original.apply(1, "discard 9S; draw")
    reloaded = RoundState.from_position(original.to_position())
    assert reloaded.to_position() == original.to_position()
    for state in (original, reloaded):
        state.apply(0, "discard JK; draw")
    assert reloaded.view(1).to_dict() == original.view(1).to_dict()
    assert reloaded.to_position() == original.to_position()


# ---------------------------------------------------------------------------- seeded games


def _events_of(spec: str, players: int, seed: int) -> list[dict[str, Any]]:
    game = Game(spec, players, seed=seed)
    rng = random.Random(seed ^ 0xABCDEF)
    actions = 0
    while not game.over and actions < MAX_ACTIONS:
        if game.round.is_over:
            game.next_round()
            continue
        seat, action = choose(game.round, rng, yaniv_p=0.9)
        game.apply(seat, action)
        actions += 1
    return [{k: v for k, v in e.items() if k != "started"} for e in game.events]


@settings(max_examples=20, deadline=None, derandomize=True, database=None, phases=NO_SHRINK)
@given(st.sampled_from(SPECS), st.integers(0, 2**32 - 1), st.data())
def test_seeded_games_are_identical(spec: str, seed: int, data: Any) -> None:
    rules = Rules.from_spec(spec)
    players = data.draw(st.integers(rules.min_players, rules.max_players))
    first = _events_of(spec, players, seed)
    assert first == _events_of(spec, players, seed)
    assert json.loads(json.dumps(first)) == first, "events are plain JSON"


def test_different_seeds_deal_differently() -> None:
    deals = {json.dumps(Game("standard", 3, seed=s).events[1]["hands"]) for s in range(10)}
    assert len(deals) == 10


# ---------------------------------------------------------------------------- hidden information


def _permute_hidden(state: RoundState, seat: int | None, rng: random.Random) -> RoundState:
    """A copy in which every card *seat* cannot see (stock, others' unseen cards) is
    dealt anew, same counts everywhere. The view must not notice."""
    other = state.copy()
    showdown = state.is_over and state.result is not None and state.result.kind != "false_yaniv"
    keep_drawn = state.drawn if state.phase_name == "after_draw" else None
    pool = list(state.stock)
    hidden: dict[int, int] = {}
    if not showdown:
        for q in range(state.n):
            if q == seat:
                continue
            mask = state.hands[q] & ~state.seen[q]
            if keep_drawn is not None and q == state.slapper:
                mask &= ~(1 << keep_drawn)
            hidden[q] = mask
            pool.extend(bits(mask))
    rng.shuffle(pool)
    other.stock = pool[: len(state.stock)]
    rest = pool[len(state.stock) :]
    values = state.rules.card_values
    for q, mask in hidden.items():
        k = mask.bit_count()
        new, rest = rest[:k], rest[k:]
        other.set_hand(q, (state.hands[q] & ~mask) | sum(1 << c for c in new))
        assert other.hv[q] == sum(values[c] for c in bits(other.hands[q]))
    assert not rest
    return other


def _view_cards(view: dict[str, Any]) -> dict[str, list[str]]:
    """Every card the view names, by field."""
    out: dict[str, list[str]] = {
        "hand": list(view["hand"]),
        "seen": [c for s in view["seen"] for c in s],
        "hands_shown": [c for h in view["hands_shown"] or [] for c in h],
        "discard_pile": [c for g in view["discard_pile"] for c in g],
        "previous_group": list(view["previous_group"] or []),
        "takeable": list(view["takeable"]),
        "drawn": [view["drawn"]] if view["drawn"] else [],
        "legal": [],
    }
    for a in view["legal"]:
        out["legal"] += list(a.get("cards", [])) + ([a["card"]] if "card" in a else [])
    return out


@pytest.mark.parametrize("spec", SPECS)
@SPEC_SETTINGS
@given(st.data(), st.integers(0, 2**32 - 1))
def test_a_seats_view_never_holds_another_seats_hidden_card(spec: str, data: Any, seed: int) -> None:
    sc = data.draw(scenarios([spec]), label="scenario")
    game = sc.play()
    state = game.round
    rng = random.Random(seed)
    showdown = state.is_over and state.result is not None and state.result.kind != "false_yaniv"
    pile = Counter(str(CARDS[c]) for g in state.pile for c in g)
    for seat in [*range(state.n), None]:
        view = state.view(seat).to_dict()
        json.dumps(view)  # JSON-ready
        cards = _view_cards(view)
        own = names_of(state.hands[seat]) if seat is not None else []
        assert sorted(cards["hand"]) == own
        if seat is not None:
            assert view["hand_value"] == state.hv[seat]
        assert view["hand_counts"] == [h.bit_count() for h in state.hands]
        for q in range(state.n):
            assert sorted(view["seen"][q]) == names_of(state.seen[q])
        assert Counter(cards["discard_pile"]) == pile
        assert not Counter(cards["previous_group"]) - pile
        assert not Counter(cards["takeable"]) - Counter(cards["previous_group"])
        if showdown:
            assert [sorted(h) for h in view["hands_shown"]] == [names_of(h) for h in state.hands]
        else:
            assert view["hands_shown"] is None
        if seat is not None and seat == state.slapper and state.phase_name == "after_draw":
            assert view["drawn"] == str(CARDS[state.drawn])  # type: ignore[index]
        else:
            assert view["drawn"] is None
        # legal actions name own cards, takeable cards and the drawn card only
        allowed = {*own, *cards["takeable"], *cards["drawn"]}
        assert set(cards["legal"]) <= allowed, cards["legal"]
        # the decisive check: re-deal everything this seat cannot see; it must not notice
        for _ in range(2):
            other = _permute_hidden(state, seat, rng)
            assert other.view(seat).to_dict() == view


@STATE_SETTINGS
@given(scenarios(max_steps=600))
def test_seat_events_never_show_another_seats_hidden_cards(sc: Scenario) -> None:
    game = sc.play()
    full = game.events
    for seat in [*range(game.n), None]:
        mine = game.seat_events(seat)
        assert len(mine) == len(full)
        assert mine[0]["type"] == "header"
        for event, red in zip(full[1:], mine[1:], strict=True):
            kind = event["type"]
            assert red["type"] == kind
            if kind == "deal":
                for q, hand in enumerate(red["hands"]):
                    assert hand == (event["hands"][q] if q == seat else None), (seat, q)
                assert red["hand_counts"] == [len(h) for h in event["hands"]]
                assert red.get("stock") is None
                assert red["stock_count"] == len(event["stock"])
                assert red["discard_pile"] == event["discard_pile"]
            elif kind == "draw":
                if event["seat"] == seat:
                    assert red == event
                else:
                    assert "card" not in red
                    assert red == {k: v for k, v in event.items() if k != "card"}
            elif kind == "reshuffle":
                assert red == {"type": "reshuffle", "count": len(event["stock"])}
            else:
                # discard, take, swap, slap, yaniv, false_yaniv, asef, showdown, round_end,
                # game_end: public
                assert red == event, kind
        json.dumps(mine)


def test_a_seats_record_header_does_not_reveal_the_seed() -> None:
    """The seed fixes every deal and reshuffle: a seat that knows it knows every hand.
    A seat's (redacted) record must not carry it."""
    game = Game("standard", 3, seed=12345)
    for seat in (0, 1, 2, None):
        header = game.seat_events(seat)[0]
        assert header.get("seed") is None, f"seat {seat} is told the seed"
    # the full record keeps it (for replay)
    assert game.events[0]["seed"] == 12345


def test_view_of_a_position_names_exactly_the_own_hand() -> None:
    """A hand-made position: each seat's view names its own cards and only public ones."""
    pos = {
        "rules": "standard",
        "players": 3,
        "current": 1,
        "hands": [["AH", "2H"], ["KD", "9C", "JK"], ["5S", "QC"]],
        "stock": ["5C", "9D", "QH"],
        "discard_pile": [["KS"], ["7H", "8H", "9H"]],
        "seen": [[], ["JK"], []],
    }
    state = RoundState.from_position(pos)
    secret = {0: {"AH", "2H"}, 1: {"KD", "9C"}, 2: {"5S", "QC"}, None: set()}
    public = {"KS", "7H", "8H", "9H", "JK"}
    for seat in (0, 1, 2, None):
        text = json.dumps(state.view(seat).to_dict())
        for q, cards in secret.items():
            for card in cards:
                shown = f'"{card}"' in text
                assert shown == (q == seat and seat is not None), (seat, card)
        for card in public:
            assert f'"{card}"' in text
        hand = state.view(seat).to_dict()["hand"]
        assert sorted(hand) == (sorted(pos["hands"][seat]) if seat is not None else [])
