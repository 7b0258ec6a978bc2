"""The heuristic bot: card tracking, a calibrated opponent model, one-turn lookahead.

Each turn it

* tracks what it may know: the unseen pool (deck minus its hand, the discard pile and
  the cards others were seen taking), each opponent's hand size and seen cards;
* calls Yaniv when the calibrated model (:mod:`yaniv.bots.model`) puts the chance of
  an Assaf below a risk level that depends on the score (tighter near elimination);
* otherwise scores every (discard, take) pair by the hand it leaves: its value, what it
  can shed next turn (kept sets and runs), its size, the chance to call next turn,
  landing on a halving score, minus a penalty for feeding a cheap card to the next
  player when he is close to calling;
* never loops: after three turns without a new low it stops taking pile cards,
  and the longer it goes without a new low, the more Assaf risk it accepts to call.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Action
from ..cards import CARDS, KIND, deck
from ..melds import takeable_positions
from ..rules import Rules
from ..state import SeatView, meld_table
from .base import Bot
from .model import HandModel, default_model, stage_of
from .playout import call_risk

__all__ = ["HeuristicBot", "Knowledge", "Weights", "call_risk"]


@dataclass(frozen=True)
class Weights:
    """The heuristic's tuning (chosen by arena runs, see docs/bots.md)."""

    shed: float = 0.45
    """Credit per point the hand could shed next turn beyond its best single card."""
    size: float = 1.5
    """Cost per card held."""
    callable_bonus: float = 6.0
    """Credit for a hand that may call Yaniv next turn, times its chance of success."""
    feed: float = 0.6
    """Cost per point below 5 of a card left takeable for a next player close to calling."""
    landing: float = 8.0
    """Credit for a hand whose value lands the total on a halving score."""
    risk: float = 0.3
    """Highest Assaf probability at which to call Yaniv (lowered near elimination)."""
    take_stuck_turns: int = 3
    """Turns without a new low after which it takes no pile cards until it makes one (no loops)."""
    stall_turns: int = 4
    """Turns without a new low after which it accepts more Assaf risk a turn (no stalls)."""
    stall_risk: float = 0.1
    """Extra Assaf risk accepted per turn past ``stall_turns``."""


class Knowledge:
    """What one seat knows at its turn: the unseen pool and the opponents' seen cards."""

    def __init__(self, view: SeatView) -> None:
        """Read it all from the seat's view."""
        assert view.seat is not None
        self.view = view
        rules = view.rules
        values = rules.card_values
        self.values = values
        known = {int(c) for c in view.hand}
        for group in view.discard_pile:
            known.update(int(c) for c in group)
        for p, cards in enumerate(view.seen):
            if p != view.seat:
                known.update(int(c) for c in cards)
        decks = rules.decks_for(view.players)
        known_kinds: dict[int, int] = {}
        for c in known:
            known_kinds[KIND[c]] = known_kinds.get(KIND[c], 0) + 1
        pool: list[int] = []
        remaining = dict(known_kinds)
        for c in deck(decks):
            k = KIND[c]
            if remaining.get(k, 0) > 0:
                remaining[k] -= 1
            else:
                pool.append(values[c])
        self.pool_values = pool
        self.pool_mean = sum(pool) / len(pool) if pool else 5.0
        self.stage = stage_of(view.turns, len(view.active))
        self.opponents = [p for p in view.active if p != view.seat]

    def opponent(self, p: int) -> tuple[int, int, int]:
        """(cards held, value of seen cards, number of seen cards) of opponent *p*."""
        seen = self.view.seen[p]
        return self.view.hand_counts[p], sum(self.values[c] for c in seen), len(seen)

    def p_draw_at_most(self, x: int) -> float:
        """P(a card drawn from the stock is worth at most *x*) from the unseen pool."""
        if not self.pool_values:
            return 1.0
        return sum(1 for v in self.pool_values if v <= x) / len(self.pool_values)


class HeuristicBot(Bot):
    """The ``heuristic`` bot (difficulty ``medium``)."""

    name = "heuristic"

    def __init__(self, weights: Weights | None = None, model: HandModel | None = None) -> None:
        """A heuristic player with the given tuning and opponent model."""
        self.w = weights or Weights()
        self.model = model or default_model()
        self._last: tuple[int, int, int] | None = None  # (round marker, my value, stuck count)
        self._shed_cache: dict[tuple[Rules, int], int] = {}

    # ----- probabilities -----

    def assaf_probability(self, value: int, know: Knowledge, read: bool = False) -> float:
        """P(some opponent holds *value* or less (or less, without Assaf on ties)).

        With *read*, each opponent's last discard this round is read as the expert's
        deals read it (:meth:`.model.HandModel.read_table`); the heuristic itself reads
        the stage alone.
        """
        view = know.view
        limit = value if view.rules.assaf_on_tie else value - 1
        values = view.rules.card_values
        p_safe = 1.0
        for p in know.opponents:
            cards, seen_value, seen_count = know.opponent(p)
            group = view.last_discards[p] if read else None
            discard = [values[int(c)] for c in group] if group else None
            at_most = self.model.p_hand_at_most(limit, cards, seen_value, seen_count, know.stage, discard)
            p_safe *= 1.0 - at_most
        return 1.0 - p_safe

    def risk_level(self, view: SeatView, value: int, stuck: int = 0) -> float:
        """The Assaf probability this seat accepts when calling now (score-aware).

        *stuck*: this seat's turns without a new low this round. Past
        ``Weights.stall_turns`` the accepted risk grows by ``Weights.stall_risk`` a turn: when
        every hand is down to a card or two nobody may dare to call, and the round
        would go on forever.
        """
        assert view.seat is not None
        risk = call_risk(view.rules, view.totals, view.active, view.seat, value, self.w.risk)
        if stuck > self.w.stall_turns:
            risk += self.w.stall_risk * (stuck - self.w.stall_turns)
        return risk

    # ----- evaluation -----

    def max_shed(self, rules: Rules, mask: int) -> int:
        """The most points one legal discard of the hand *mask* can shed."""
        key = (rules, mask)
        cached = self._shed_cache.get(key)
        if cached is not None:
            return cached
        values = rules.card_values
        best = 0
        for d in meld_table(rules).discards(mask):
            s = 0
            for c in d:
                s += values[c]
            if s > best:
                best = s
        if len(self._shed_cache) > 50_000:
            self._shed_cache.clear()
        self._shed_cache[key] = best
        return best

    def hand_score(self, know: Knowledge, mask: int, value: int, drawn_unknown: bool) -> float:
        """Lower is better: the value of the hand left after this turn, adjusted."""
        view = know.view
        rules = view.rules
        assert view.seat is not None
        w = self.w
        count = mask.bit_count() + (1 if drawn_unknown else 0)
        expected = value + (know.pool_mean if drawn_unknown else 0.0)
        best_single = 0
        m = mask
        values = rules.card_values
        while m:
            low = m & -m
            c = low.bit_length() - 1
            if values[c] > best_single:
                best_single = values[c]
            m ^= low
        shed = self.max_shed(rules, mask) - best_single
        score = expected + w.size * count - w.shed * shed
        threshold = rules.threshold
        if drawn_unknown:
            p_call = know.p_draw_at_most(threshold - value)
            call_value = min(value + int(know.pool_mean), threshold)
        else:
            p_call = 1.0 if value <= threshold else 0.0
            call_value = value
        if p_call > 0:
            safe = 1.0 - self.assaf_probability(call_value, know)
            score -= w.callable_bonus * p_call * safe
        total = view.totals[view.seat]
        if not drawn_unknown and value and total + value in rules.halving_scores:
            score -= w.landing
        return score

    def feed_penalty(self, know: Knowledge, discard: Sequence[int]) -> float:
        """Cost of leaving cheap cards takeable for a next player close to calling."""
        view = know.view
        assert view.seat is not None
        nxt = next(
            (p for p in know.opponents if p > view.seat), know.opponents[0] if know.opponents else None
        )
        if nxt is None:
            return 0.0
        cards = view.hand_counts[nxt]
        if cards > 3:
            return 0.0
        values = view.rules.card_values
        positions = takeable_positions(discard, view.rules.pickup_mode)
        cheapest = min(values[discard[i]] for i in positions)
        seen_ranks = {KIND[c] % 13 for c in view.seen[nxt] if KIND[c] != 52}
        matches = any(KIND[discard[i]] % 13 in seen_ranks for i in positions)
        return self.w.feed * (max(0, 5 - cheapest) + (3 if matches else 0)) * (4 - cards) / 3

    # ----- decisions -----

    def act(self, view: SeatView, rng: random.Random) -> Action | None:
        """The heuristic's action for the current phase."""
        legal = view.legal
        if not legal:
            return None
        first = legal[0].type
        if first == "slap":
            return legal[0]  # shedding the drawn card is always a gain
        know = Knowledge(view)
        if view.phase == "after_discard":
            return self.choose_take(view, know, legal)
        return self.choose_turn(view, know, legal, rng)

    def _stuck(self, view: SeatView) -> int:
        """How long (in this seat's turns) its hand value has not reached a new low this round.

        Two players can trade the same low cards back and forth forever; a seat whose
        hand makes no new low for a while stops taking pile cards until it does.
        """
        assert view.hand_value is not None
        last = self._last
        if last is None or view.turns <= last[0]:  # a new round (or the first decision)
            stuck = 0
            low = view.hand_value
        else:
            low = min(last[1], view.hand_value)
            stuck = 0 if view.hand_value < last[1] else last[2] + 1
        self._last = (view.turns, low, stuck)
        return stuck

    def choose_turn(self, view: SeatView, know: Knowledge, legal: list[Action], rng: random.Random) -> Action:
        """Call, or the best (discard, take) pair as one compound turn."""
        assert view.hand_value is not None
        value = view.hand_value
        stuck = self._stuck(view)
        can_call = any(a.type == "yaniv" for a in legal)
        if can_call and self.assaf_probability(value, know) <= self.risk_level(view, value, stuck):
            return Action.yaniv()
        ranked = self.rank_turns(view, know, allow_takes=stuck < self.w.take_stuck_turns)
        return ranked[0][1] if ranked else rng.choice(legal)

    def rank_turns(
        self, view: SeatView, know: Knowledge, allow_takes: bool = True
    ) -> list[tuple[float, Action]]:
        """Every whole turn (discard + take, or an exchange) scored; best (lowest) first."""
        assert view.hand_value is not None
        value = view.hand_value
        values = view.rules.card_values
        hand_mask = 0
        for c in view.hand:
            hand_mask |= 1 << int(c)
        takeable = [int(c) for c in view.takeable] if allow_takes else []
        ranked: list[tuple[float, Action]] = []
        for a in view.legal:
            if a.type == "swap" and a.card is not None:
                # as_turn: the exchange is the whole turn
                natural = _held(hand_mask, a.card)
                joker = 52 if not hand_mask >> 52 & 1 else 53
                mask = hand_mask ^ (1 << natural) | (1 << joker)
                ranked.append((self.hand_score(know, mask, value - values[natural], False), a))
            elif a.type == "discard":
                cards = tuple(_held_all(hand_mask, a.cards))
                mask = hand_mask
                shed = 0
                for card in cards:
                    mask ^= 1 << card
                    shed += values[card]
                rest = value - shed
                feed = self.feed_penalty(know, cards)
                ranked.append((self.hand_score(know, mask, rest, True) + feed, Action("turn", a.cards, None)))
                for t in takeable:
                    s = self.hand_score(know, mask | (1 << t), rest + values[t], False) + feed
                    ranked.append((s, Action("turn", a.cards, CARDS[t])))
        ranked.sort(key=lambda x: x[0])
        return ranked

    def choose_take(self, view: SeatView, know: Knowledge, legal: list[Action]) -> Action:
        """After a discard: the best card to take (or Asef, or the joker exchange)."""
        assert view.hand_value is not None
        values = view.rules.card_values
        hand_mask = 0
        for c in view.hand:
            hand_mask |= 1 << int(c)
        value = view.hand_value
        if any(a.type == "asef" for a in legal):
            p_win = 0.0
            pool = know.pool_values or [5]
            for v in pool:
                p_win += 1.0 - self.assaf_probability(v, know)
            p_win /= len(pool)
            if p_win * view.rules.asef_win_delta + (1 - p_win) * view.rules.asef_loss_delta < 0:
                return Action.asef()
        best: tuple[float, Action] | None = None
        for a in legal:
            if a.type == "draw":
                score = self.hand_score(know, hand_mask, value, True)
            elif a.type == "take" and a.card is not None:
                card = int(a.card)
                score = self.hand_score(know, hand_mask | (1 << card), value + values[card], False)
            elif a.type == "swap" and a.card is not None:
                natural = _held(hand_mask, a.card)
                mask = hand_mask ^ (1 << natural) | (1 << 52)
                score = self.hand_score(know, mask, value - values[natural], False)
            else:
                continue
            if best is None or score < best[0]:
                best = (score, a)
        return best[1] if best is not None else legal[0]


def _held(mask: int, card: int) -> int:
    """The physical id of a card of this kind in the hand *mask*."""
    kind = KIND[card]
    for p in (kind, kind + 54) if kind != 52 else (52, 53, 106, 107):
        if mask >> p & 1:
            return p
    return int(card)


def _held_all(mask: int, cards: Sequence[int]) -> list[int]:
    out = []
    for c in cards:
        p = _held(mask, c)
        mask &= ~(1 << p)
        out.append(p)
    return out
