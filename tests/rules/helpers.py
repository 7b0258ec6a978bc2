"""Small builders shared by the rule conformance tests.

Positions are written as in DESIGN.md §4 (``stock[0]`` = top card, discard pile
groups oldest first, the last group = the current player's previous group). Cards
are given as text (``"7H 8H 9H"``) for readability.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from yaniv import PRESETS, IllegalActionError, RoundResult, RoundState, Rules, parse_cards
from yaniv.melds import classify

SOURCE_PRESETS = (
    "standard",
    "german-wiki",
    "finnish",
    "slovenian-yanef",
    "spanish-zone",
    "spanish-zone-y5",
    "spanish-zone-out100",
    "spanish-zone-y5-out100",
)
"""The presets of RULES.md §6 (one per source reading)."""
ALL_PRESETS = tuple(PRESETS)
"""Every preset, §6 and §6b."""

# Default stock: the first six of these cards that the position does not use otherwise.
FILLERS = [
    "10C",
    "10D",
    "JC",
    "JD",
    "QC",
    "QD",
    "9C",
    "9D",
    "8C",
    "8D",
    "10S",
    "JS",
    "QS",
    "9S",
    "8S",
    "10H",
    "JH",
    "QH",
    "9H",
    "8H",
    "KD",
    "KS",
]


def rules(spec: Any = "standard", **overrides: Any) -> Rules:
    """A rule set from a preset name (or spec) plus knob overrides."""
    base = Rules.from_spec(spec)
    return base.replace(**overrides) if overrides else base


def names(text: str) -> list[str]:
    """Card names of a text card list (``"7h 8h"`` → ``["7H", "8H"]``)."""
    return [str(c) for c in parse_cards(text)]


def position(
    hands: list[str],
    *,
    rules: Any = "standard",
    stock: str | None = None,
    pile: list[str] | None = None,
    current: int = 0,
    totals: list[int] | None = None,
    eliminated: list[int] | None = None,
    phase: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A position dict; hands, stock and pile groups as text card lists."""
    if isinstance(rules, Rules):
        rules = rules.to_dict()
    hand_names = [names(h) for h in hands]
    groups = [names(g) for g in pile] if pile is not None else []
    stock_names = names(stock) if stock is not None else []
    used = {c for h in hand_names for c in h} | {c for g in groups for c in g} | set(stock_names)
    free = [c for c in FILLERS if c not in used]
    if pile is None:
        groups = [[free.pop()]]  # a start card nobody needs
    pos: dict[str, Any] = {
        "rules": rules,
        "players": len(hands),
        "current": current,
        "hands": hand_names,
        "stock": [],
        "discard_pile": groups,
    }
    if stock is None:
        pos["stock"] = free[:6]
    else:
        pos["stock"] = names(stock)
    if totals is not None:
        pos["totals"] = totals
    if eliminated is not None:
        pos["eliminated"] = eliminated
    if phase is not None:
        pos["phase"] = phase
    pos.update(extra)
    return pos


def state(hands: list[str], *, seed: int = 0, **kw: Any) -> RoundState:
    """A round state from :func:`position` arguments, with a seeded reshuffler."""
    return RoundState.from_position(position(hands, **kw), shuffler=random.Random(seed))


def assert_illegal(st: RoundState, seat: int, action: Any, match: str | None = None) -> None:
    """The action is rejected and the state is left exactly as it was."""
    before = st.to_position()
    legal_before = [str(a) for a in st.legal_actions()]
    with pytest.raises(IllegalActionError, match=match):
        st.apply(seat, action)
    assert st.to_position() == before
    assert [str(a) for a in st.legal_actions()] == legal_before


def is_legal_discard(text: str, r: Rules | str = "standard") -> bool:
    """Whether the ordered cards are a legal discard (S7) under the rules."""
    rr = Rules.from_spec(r)
    return classify([int(c) for c in parse_cards(text)], rr) is not None


def kind_of(text: str, r: Rules | str = "standard") -> str | None:
    """``'single'``, ``'set'``, ``'run'`` or None for an ordered card list (S7)."""
    return classify([int(c) for c in parse_cards(text)], Rules.from_spec(r))


def takeable(st: RoundState) -> list[str]:
    """The takeable cards of the current player's previous group, as names, sorted."""
    return sorted(str(c) for c in st.takeable())


def hand(st: RoundState, seat: int) -> list[str]:
    """Seat's hand as sorted card names."""
    return sorted(str(c) for c in st.hand(seat))


def pile(st: RoundState) -> list[list[str]]:
    """The discard pile as groups of card names (oldest first, laid order)."""
    return st.to_position()["discard_pile"]


def stock(st: RoundState) -> list[str]:
    """The stock as card names, top first."""
    return st.to_position()["stock"]


def call(
    hands: list[str],
    caller: int,
    *,
    rules: Any = "standard",
    totals: list[int] | None = None,
    eliminated: list[int] | None = None,
    action: str = "yaniv",
) -> RoundResult:
    """Set up a position with *caller* to play, call Yaniv, return the round result."""
    st = state(hands, rules=rules, current=caller, totals=totals, eliminated=eliminated)
    result = st.apply(caller, action)
    assert result is not None
    assert st.is_over
    return result
