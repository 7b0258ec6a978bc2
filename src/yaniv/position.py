"""The position JSON of DESIGN.md §4: strict loading and canonical writing.

Every bad field is a :class:`~yaniv.errors.PositionError` naming the field; nothing is
half-loaded. Besides the fields of DESIGN.md §4 a position may carry ``seen`` (per seat,
the cards seen taken from the pile and still held), ``drawn`` (in phase
``after_draw``: ``{"seat": S, "card": C}``, the card that seat may still slap) and
``result`` (in phase ``round_over``), ``turns`` (turns completed in the round, public)
and ``last_discards`` (per seat, the group it last discarded this round, or null).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARDS, KIND, CardAllocator, cards_of_mask, parse_card
from .errors import InvalidNotationError, PositionError, RulesError
from .rules import MAX_PLAYERS, Rules
from .scoring import RoundResult
from .state import AFTER_DISCARD, AFTER_DRAW, PHASES, ROUND_OVER, Shuffler

if TYPE_CHECKING:
    from .state import RoundState

__all__ = ["dump_position", "load_position"]

_REQUIRED = ("rules", "players", "current", "hands", "stock", "discard_pile")
_OPTIONAL = (
    "names",
    "totals",
    "eliminated",
    "dealer",
    "phase",
    "tiebreak",
    "seen",
    "drawn",
    "result",
    "turns",
    "last_discards",
)


MAX_GROUP = 16
"""The most cards a position's ``last_discards`` group may hold (more than any hand)."""


def _int(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"position field {field!r} must be an integer, got {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise PositionError(f"position field {field!r} must be {bounds}, got {value}")
    return value


def _list(value: Any, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"position field {field!r} must be a list, got {value!r}")
    if length is not None and len(value) != length:
        raise PositionError(f"position field {field!r} must have {length} entries, got {len(value)}")
    return value


def load_position(cls: type[RoundState], pos: Any, *, shuffler: Shuffler | None, log: bool) -> RoundState:
    """Build a state from a position dict (see module docstring)."""
    if not isinstance(pos, dict):
        raise PositionError(f"a position must be a JSON object, got {type(pos).__name__}")
    for key in pos:
        if key not in _REQUIRED and key not in _OPTIONAL:
            raise PositionError(f"unknown position field {key!r}")
    for key in _REQUIRED:
        if key not in pos:
            raise PositionError(f"position field {key!r} is missing")
    try:
        rules = Rules.from_spec(pos["rules"])
    except RulesError as e:
        raise PositionError(f"position field 'rules': {e}") from None
    n = _int(pos["players"], "players", 2, MAX_PLAYERS)
    names = pos.get("names")
    if names is not None:
        _list(names, "names", n)
        if not all(isinstance(x, str) for x in names):
            raise PositionError("position field 'names' must list one name (text) per seat")
    totals = [_int(t, "totals") for t in _list(pos.get("totals", [0] * n), "totals", n)]
    eliminated = [_int(e, "eliminated", 0, n - 1) for e in _list(pos.get("eliminated", []), "eliminated")]
    if len(set(eliminated)) != len(eliminated):
        raise PositionError("position field 'eliminated' lists a seat twice")
    active = [p for p in range(n) if p not in eliminated]
    if len(active) < 2:
        raise PositionError("position field 'eliminated': at least two players must be in the round")
    dealer = pos.get("dealer")
    if dealer is not None:
        dealer = _int(dealer, "dealer", 0, n - 1)
    current = _int(pos["current"], "current", 0, n - 1)
    if current in eliminated:
        raise PositionError(f"position field 'current': seat {current} is eliminated")
    phase_name = pos.get("phase", "turn_start")
    if phase_name not in PHASES:
        raise PositionError(f"position field 'phase' must be one of {', '.join(PHASES)}, got {phase_name!r}")
    phase = PHASES.index(phase_name)
    tiebreak = pos.get("tiebreak", False)
    if not isinstance(tiebreak, bool):
        raise PositionError("position field 'tiebreak' must be true or false")

    alloc = CardAllocator(rules.decks_for(n))
    hands = []
    for p, cards in enumerate(_list(pos["hands"], "hands", n)):
        field = f"hands[{p}]"
        mask = 0
        for name in _list(cards, field):
            mask |= 1 << alloc.take(name, field)
        if p in eliminated and mask:
            raise PositionError(f"position field {field!r}: seat {p} is eliminated and holds cards")
        hands.append(mask)
    stock = [alloc.take(c, "stock") for c in _list(pos["stock"], "stock")]
    pile = []
    for i, group in enumerate(_list(pos["discard_pile"], "discard_pile")):
        field = f"discard_pile[{i}]"
        if not _list(group, field):
            raise PositionError(f"position field {field!r}: a group holds at least one card")
        pile.append(tuple(alloc.take(c, field) for c in group))
    for p in active:
        if not hands[p] and not (p == current and phase == AFTER_DISCARD):
            raise PositionError(f"position field 'hands[{p}]': an active player holds at least one card")
    if phase == AFTER_DISCARD and not pile:
        raise PositionError("position field 'discard_pile': after a discard the pile holds that discard")

    state = cls(
        rules,
        hands,
        list(reversed(stock)),
        pile,
        current,
        totals=totals,
        eliminated=eliminated,
        dealer=dealer,
        names=names,
        tiebreak=tiebreak,
        shuffler=shuffler,
        log=log,
    )
    state.phase = phase
    state.turns = _int(pos.get("turns", 0), "turns", 0)
    seen = pos.get("seen")
    if seen is not None:
        for p, cards in enumerate(_list(seen, "seen", n)):
            field = f"seen[{p}]"
            mask = 0
            for name in _list(cards, field):
                kind = _kind(name, field)
                held = [
                    c for c in (kind, kind + 54, 52, 53, 106, 107) if KIND[c] == kind and hands[p] >> c & 1
                ]
                free = [c for c in held if not mask >> c & 1]
                if not free:
                    raise PositionError(f"position field {field!r}: seat {p} does not hold {CARDS[kind]}")
                mask |= 1 << free[0]
            state.seen[p] = mask
    last = pos.get("last_discards")
    if last is not None:
        for p, group in enumerate(_list(last, "last_discards", n)):
            if group is not None:
                field = f"last_discards[{p}]"
                cards = tuple(int(_kind(name, field)) for name in _list(group, field))
                if not 1 <= len(cards) <= MAX_GROUP:
                    raise PositionError(f"position field {field!r} must be null or 1 to {MAX_GROUP} cards")
                state.last_discard[p] = cards
    drawn = pos.get("drawn")
    if phase == AFTER_DRAW:
        if rules.quick_discard == "off":
            raise PositionError("position field 'phase': after_draw needs quick_discard on")
        if not isinstance(drawn, dict) or set(drawn) != {"seat", "card"}:
            raise PositionError('position field \'drawn\' must be {"seat": S, "card": C} in phase after_draw')
        seat = _int(drawn["seat"], "drawn.seat", 0, n - 1)
        kind = _kind(drawn["card"], "drawn.card")
        held = [c for c in (kind, kind + 54, 52, 53, 106, 107) if KIND[c] == kind and hands[seat] >> c & 1]
        if not held:
            raise PositionError(f"position field 'drawn': seat {seat} does not hold {CARDS[kind]}")
        if state.nxt[seat] != current:
            raise PositionError("position field 'drawn': the drawer must be the player before 'current'")
        held.sort(key=lambda c: state.seen[seat] >> c & 1)  # the drawn copy was not seen taken
        state.drawn, state.slapper = held[0], seat
    elif drawn is not None:
        raise PositionError("position field 'drawn' is only for phase after_draw")
    result = pos.get("result")
    if phase == ROUND_OVER:
        if not isinstance(result, dict):
            raise PositionError("position field 'result' is required in phase round_over")
        try:
            state.result = RoundResult.from_dict(result)
        except TypeError as e:
            raise PositionError(f"position field 'result': {e}") from None
    elif result is not None:
        raise PositionError("position field 'result' is only for phase round_over")
    return state


def _kind(name: Any, field: str) -> int:
    if not isinstance(name, str):
        raise PositionError(f"position field {field!r}: {name!r} is not a card name")
    try:
        return parse_card(name)
    except InvalidNotationError as e:
        raise PositionError(f"position field {field!r}: {e}") from None


def _canonical(mask: int) -> list[int]:
    """Cards of a mask in canonical order (by kind), whatever deck each copy is from."""
    return sorted(cards_of_mask(mask), key=lambda c: (KIND[c], c))


def dump_position(state: RoundState) -> dict[str, Any]:
    """The canonical position dict of a state."""

    def names(cards: Any) -> list[str]:
        return [str(CARDS[c]) for c in cards]

    out: dict[str, Any] = {"rules": str(state.rules), "players": state.n}
    if state.names is not None:
        out["names"] = list(state.names)
    out["totals"] = list(state.totals)
    out["eliminated"] = list(state.eliminated)
    if state.dealer is not None:
        out["dealer"] = state.dealer
    out["current"] = state.current
    out["phase"] = state.phase_name
    out["hands"] = [names(_canonical(h)) for h in state.hands]
    out["stock"] = names(reversed(state.stock))
    out["discard_pile"] = [names(g) for g in state.pile]
    if state.tiebreak:
        out["tiebreak"] = True
    if state.turns:
        out["turns"] = state.turns
    if any(g is not None for g in state.last_discard):
        out["last_discards"] = [None if g is None else names(g) for g in state.last_discard]
    if any(state.seen):
        out["seen"] = [names(_canonical(m)) for m in state.seen]
    if state.phase == AFTER_DRAW and state.drawn is not None and state.slapper is not None:
        out["drawn"] = {"seat": state.slapper, "card": str(CARDS[state.drawn])}
    if state.phase == ROUND_OVER and state.result is not None:
        out["result"] = state.result.to_dict()
    return out
