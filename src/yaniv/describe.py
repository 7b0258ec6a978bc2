"""A rule set in plain English, as a player wants it explained before sitting down.

:func:`describe_rules` turns a :class:`~yaniv.rules.Rules` value into sentences, one per
line, in the order a game unfolds: deck and players, the deal, card values, the turn,
legal discards, taking, calling Yaniv, the showdown and Assaf, scoring, halving, the end
of the game and who starts the next round. Every knob of RULES.md §3 and §6b shows in
the wording whenever it makes a difference under the other knobs (for example
``two_deck_min_players`` only with ``num_decks: "auto"``, the Asef scores only with
``asef`` on).

>>> from yaniv.rules import Rules
>>> describe_rules(Rules())[0]
'One deck of 54 cards (52 + 2 jokers).'
>>> "Yaniv at the start of your turn, before discarding, with 5 points or less" in (
...     " ".join(describe_rules(Rules(yaniv_threshold=5))))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["describe_rules"]


def describe_rules(rules: Rules) -> list[str]:
    """Describe *rules* in plain English, one sentence per line (RULES.md S1–S21, §6b).

    The wording changes with every knob that matters under the others, so two rule sets
    that play differently never read the same.
    """
    lines: list[str] = []
    lines.append(_deck(rules))
    lines.append(_players(rules))
    lines.extend(_deal(rules))
    lines.append(_values(rules))
    lines.append(_turn(rules))
    lines.append(_discards(rules))
    lines.append(_jokers(rules))
    lines.append(_runs(rules))
    lines.append(_yaniv(rules))
    lines.append(_take(rules))
    swap = _joker_swap(rules)
    if swap:
        lines.append(swap)
    slap = _quick_discard(rules)
    if slap:
        lines.append(slap)
    lines.append(
        "When the stock runs out, every discard except the last one is shuffled into a "
        "new stock; the last discard stays face up and can still be taken."
    )
    lines.append(_false_yaniv(rules))
    lines.extend(_showdown(rules))
    asef = _asef(rules)
    if asef:
        lines.append(asef)
    lines.append("Each round's score is added to your total.")
    lines.append(_landing(rules))
    lines.extend(_game_end(rules))
    lines.append(_next_starter(rules))
    return lines


# ----------------------------------------------------------------- helpers


def _points(n: int) -> str:
    return f"{n} point" if abs(n) == 1 else f"{n} points"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _or_list(items: Sequence[object]) -> str:
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _deck_words(decks: int) -> str:
    if decks == 1:
        return "One deck of 54 cards (52 + 2 jokers)"
    return "Two decks shuffled together: 108 cards (104 + 4 jokers)"


# ----------------------------------------------------------------- sections


def _deck(rules: Rules) -> str:
    """S1: num_decks, two_deck_min_players."""
    if rules.num_decks == "auto":
        k = rules.two_deck_min_players
        return (
            f"One deck of 54 cards (52 + 2 jokers) when fewer than {k} players start the "
            f"game; with {k} or more, two decks shuffled together (108 cards, 4 jokers), "
            "kept for the whole game even after players drop out."
        )
    return _deck_words(int(rules.num_decks)) + "."


def _players(rules: Rules) -> str:
    """S3, S4: min_players, max_players, hand_size."""
    if rules.min_players == rules.max_players:
        who = f"Exactly {rules.min_players} players"
    else:
        who = f"{rules.min_players} to {rules.max_players} players"
    cards = "1 card" if rules.hand_size == 1 else f"{rules.hand_size} cards"
    return f"{who}; each gets {cards}."


def _deal(rules: Rules) -> list[str]:
    """S4, S5, S17: start_card, first_starter, misdeal_rule."""
    out = []
    if rules.start_card:
        out.append(
            "The dealer deals one card at a time, clockwise from his left; the rest form "
            "the face-down stock, and its top card is turned face up to start the discard "
            "pile (the first player may take it as if it were a discard)."
        )
    else:
        out.append(
            "The dealer deals one card at a time, clockwise from his left; the rest form "
            "the face-down stock, and no card is turned up, so the first player of a round "
            "must draw from the stock."
        )
    if rules.first_starter == "random":
        first = "a player chosen at random"
    else:
        first = "the player to the dealer's left"
    out.append(f"In the first round {first} starts; the deal passes clockwise.")
    if rules.misdeal_rule == "redeal":
        out.append("If a player is dealt too many or too few cards, all cards are collected and dealt again.")
    else:
        out.append(
            "If a player is dealt too many cards he returns the extra ones of his choice to "
            "the stock, which is shuffled; a player dealt too few completes his hand from "
            "the stock."
        )
    return out


def _values(rules: Rules) -> str:
    """S2: king_of_hearts_zero."""
    if rules.king_of_hearts_zero:
        return (
            "Cards count: ace 1, 2 to 10 their face value, jack, queen and king 10, but the "
            "king of hearts 0 (still a king in sets and runs), jokers 0."
        )
    return "Cards count: ace 1, 2 to 10 their face value, jack, queen and king 10, jokers 0."


def _turn(rules: Rules) -> str:
    """S6 (fixed): one combination, discard before take."""
    return (
        "On your turn you either call Yaniv, or discard one combination and then take "
        "exactly one card; you may not take first, nor discard two combinations at once."
    )


def _discards(rules: Rules) -> str:
    """S7: min_set_size."""
    return (
        f"A discard is a single card, a set of {rules.min_set_size} or more cards of the same "
        "rank in any order, or a run of 3 or more cards of one suit laid in ascending order."
    )


def _jokers(rules: Rules) -> str:
    """S7.2, S7.3: jokers_in_sets, jokers_in_runs (and min_set_size for the example)."""
    if rules.jokers_in_runs == "gaps_only":
        runs = "in a run a joker may only fill a gap, never be its first or last card"
    else:
        runs = "in a run a joker may stand for any card, in the middle or at either end"
    if rules.jokers_in_sets:
        pair = " (a joker and any card make a pair)" if rules.min_set_size == 2 else ""
        sets = f"a set may include jokers as long as it has a natural card{pair}"
    else:
        sets = "jokers may not be part of a set"
    return f"Jokers: {runs}; {sets}; a discard of two or more jokers alone is never legal."


def _runs(rules: Rules) -> str:
    """S7.3: allow_jqk_run, allow_qka_run."""
    if not rules.allow_jqk_run:
        extra = " (so the ace can never count high either)" if rules.allow_qka_run else ""
        return (
            "Runs may not contain a king, not even a joker standing for one: J-Q-K is not a "
            f"run{extra}; the ace is low, so A-2-3 is a run and K-A-2 is not."
        )
    if rules.allow_qka_run:
        return (
            "The ace may be low or high in a run: A-2-3, J-Q-K and Q-K-A are runs, but "
            "K-A-2 (going round the corner) is not."
        )
    return "The ace is low in a run: A-2-3 and J-Q-K are runs, but Q-K-A and K-A-2 are not."


def _take(rules: Rules) -> str:
    """S8: pickup_mode."""
    prev = "the previous player's discard"
    if rules.pickup_mode == "top_only":
        which = f"the last card laid of {prev} (only that card)"
    elif rules.pickup_mode == "ends_or_any_of_set":
        which = f"a card of {prev}: the first or last card of a run, or any card of a set"
    else:
        which = f"the first or the last card of {prev} (never a middle card)"
    return (
        f"After discarding you take either the top card of the stock or {which}; older "
        "discards can never be taken."
    )


def _joker_swap(rules: Rules) -> str | None:
    """S19: joker_swap."""
    if rules.joker_swap == "off":
        return None
    head = (
        "If the previous player's discard is a run with a joker in it and you hold the card "
        "the joker stands for, you may put that card in the joker's place and take the joker"
    )
    if rules.joker_swap == "as_draw":
        return head + ", after discarding, as your one take of the turn."
    return head + " instead of your whole turn: you then neither discard nor take."


def _quick_discard(rules: Rules) -> str | None:
    """S20: quick_discard."""
    if rules.quick_discard == "off":
        return None
    if rules.quick_discard == "same_rank":
        fits = "is a natural card of the same rank as the single card or set you just discarded"
    else:
        fits = (
            "fits the combination you just discarded (same rank for a single or set, the "
            "next card at either end of a run)"
        )
    return (
        f"Quick discard: if the card you draw from the stock {fits}, you may drop it onto "
        "that discard at once, before the next player acts, as long as the result is a legal "
        "discard and you keep at least one card."
    )


def _threshold_words(rules: Rules) -> str:
    """S10: yaniv_threshold, yaniv_threshold_mode, yaniv_comparison."""
    t = rules.threshold
    if rules.yaniv_threshold_mode == "hand_size":
        if rules.yaniv_comparison == "lt":
            return (
                f"with fewer points than the number of cards dealt ({rules.hand_size}), "
                f"that is {_points(t)} or less"
            )
        return f"with no more points than the number of cards dealt, that is {_points(t)} or less"
    if rules.yaniv_comparison == "lt":
        return f"with fewer than {_points(rules.yaniv_threshold)}, that is {_points(t)} or less"
    return f"with {_points(t)} or less"


def _yaniv(rules: Rules) -> str:
    """S10: when Yaniv may be called."""
    if rules.threshold < 0:
        return "Yaniv can never be called under these rules: no hand is worth little enough."
    return (
        "You may call Yaniv at the start of your turn, before discarding, "
        f"{_threshold_words(rules)}; you never have to."
    )


def _false_yaniv(rules: Rules) -> str:
    """S18: false_yaniv_penalty (and round_starter for who starts next)."""
    k = rules.false_yaniv_penalty
    if k is None:
        return (
            "A Yaniv call out of turn, after discarding or with too many points does not "
            "count: nothing happens and play goes on."
        )
    starter = (
        "the false caller starts the next round"
        if rules.round_starter == "caller"
        else "the player to the false caller's left starts the next round"
    )
    return (
        f"Calling Yaniv when it is not your turn ends the round at once: you score {k}, "
        f"everyone else 0, hands are not compared, and {starter}; a call after discarding or "
        "with too many points simply does not count."
    )


def _beats(rules: Rules) -> str:
    return "the same or less" if rules.assaf_on_tie else "less (a tie is not enough)"


def _showdown(rules: Rules) -> list[str]:
    """S11 and §6b: every assaf_* knob and assafer_score."""
    out = [
        "When you call Yaniv all hands are shown; if nobody else has "
        f"{_beats(rules)}, you score 0 and everyone else scores his hand."
    ]
    p = rules.assaf_penalty
    multi = rules.assaf_penalty_multi
    hand = "your hand + " if rules.assaf_penalty_adds_hand else ""
    penalty = f"you score {hand}{p}"
    if multi is not None:
        penalty += f", or {hand}{multi} for each such player when there are two or more"
    if not rules.assaf_penalty_adds_hand:
        penalty += " (your hand is not added)"
    if rules.assaf_others_score == "zero":
        others = "every other player scores 0"
    else:
        if rules.assafer_score == "hand":
            lowest = "the lowest player scores his hand like everyone else"
        elif rules.assafer_score == "hand_if_tied":
            lowest = (
                "the lowest player scores 0 only if strictly lower than everyone, you included "
                "(otherwise he scores his hand)"
            )
        elif rules.assaf_tie_winner == "nearest_clockwise":
            lowest = "the lowest player scores 0 (if tied, only the first of them clockwise from you)"
        else:
            lowest = "the lowest player scores 0 (all of them if tied)"
        others = f"{lowest}, and everyone else scores his hand"
    beats = "the same or less" if rules.assaf_on_tie else "strictly less"
    out.append(f"If someone has {beats}, that is an Assaf: {penalty}; {others}.")
    return out


def _asef(rules: Rules) -> str | None:
    """S21: asef, asef_win_delta, asef_loss_delta."""
    if not rules.asef:
        return None
    return (
        "Asef: with exactly one card at the start of your turn you may discard it and, "
        "instead of taking, call Asef: the top card of the stock, drawn blind, becomes your "
        "hand for the showdown, whatever its value; if nobody has "
        f"{'the same or less' if rules.assaf_on_tie else 'less'} you score "
        f"{_signed(rules.asef_win_delta)}, otherwise {_signed(rules.asef_loss_delta)} "
        "(its value is not added) and the others score as in an Assaf."
    )


def _landing(rules: Rules) -> str:
    """S13 and §6b: halving_scores, landing_rule."""
    scores = sorted(rules.halving_scores)
    if not scores:
        return "Totals are never halved."
    if rules.landing_rule == "minus_50":
        after = [s - 50 for s in scores]
        verb = "loses 50 points"
    else:
        after = [s // 2 for s in scores]
        verb = "is halved"
    which = _or_list(scores)
    to = _or_list(after)
    return (
        f"A total that lands on exactly {which} {verb}, to {to} (once, only in a round "
        "where it changed, before anyone is counted out)."
    )


def _game_end(rules: Rules) -> list[str]:
    """S14, S15: score_limit, end_mode, final_tie."""
    limit = rules.score_limit
    if rules.final_tie == "shared":
        tie = "if that is tied, those players share the win"
    else:
        tie = (
            "if that is tied, only the tied players play on, round by round (nobody is out), "
            "until one is lowest"
        )
    if rules.end_mode == "first_over_limit":
        return [
            f"The game ends after the first round in which someone goes over {_points(limit)}; "
            f"the lowest total wins; {tie}."
        ]
    return [
        f"Over {_points(limit)} you are out; the last player left wins.",
        f"If everyone still in goes over {limit} in the same round, the lowest total wins; {tie}.",
    ]


def _next_starter(rules: Rules) -> str:
    """S16 and §6b: round_starter, starter_on_tie."""
    if rules.round_starter == "caller":
        return (
            "The next round is always started by the player who called in the round before "
            "(or the next player still in, if he is out)."
        )
    if rules.starter_on_tie == "caller_left":
        tie = (
            "if the lowest value is shared by two or more players, the caller included, the "
            "player to the caller's left starts instead"
        )
    else:
        tie = "if several are lowest, the first of them clockwise from the caller"
    return (
        "The next round is started by the round's winner: the caller after a successful "
        f"Yaniv, otherwise the lowest player ({tie}); a player who is out is skipped."
    )
