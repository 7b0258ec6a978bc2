"""The position JSON of DESIGN.md §4: strict loading and canonical writing.

Every bad field is a :class:`~yaniv.errors.PositionError` naming the field; nothing is
half-loaded. What no game can reach is refused too (a hand larger than ``hand_size``,
more seats than the rules allow, a total far over the limit outside a tie-break), and
every field is bounded in depth and size before it is read (docs/formats.md §3.1).

Besides the fields of DESIGN.md §4 a position may carry ``seen`` (per seat, the cards
seen taken from the pile and still held), ``drawn`` (in phase ``after_draw``:
``{"seat": S, "card": C}``, the card that seat may still slap) and ``result`` (in phase
``round_over``), ``turns`` (turns completed in the round, public) and
``last_discards`` (per seat, the group it last discarded this round, or null).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARDS, KIND, CardAllocator, cards_of_mask, parse_card
from .errors import InvalidNotationError, PositionError, RulesError
from .rules import MAX_PLAYERS, Rules, brief_repr
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
MAX_DEPTH = 4
"""The deepest nesting of lists and objects inside one position field (``discard_pile``
needs 2, ``rules`` given as ``{"overrides": {"halving_scores": [...]}}`` 3); a deeper
field is refused before anything reads it."""
MAX_ITEMS = 2_000
"""The most values one position field may hold (two decks are 108 cards)."""
MAX_NUMBER = 1_000_000
"""The largest magnitude of a number in a position (totals, turns)."""
_RESULT_KINDS = ("yaniv", "asef", "false_yaniv")


def _int(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"position field {field!r} must be an integer, got {brief_repr(value)}")
    lo = -MAX_NUMBER if lo is None else lo
    hi = MAX_NUMBER if hi is None else hi
    if not lo <= value <= hi:
        raise PositionError(f"position field {field!r} must be {lo}..{hi}, got {brief_repr(value)}")
    return value


def _list(value: Any, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"position field {field!r} must be a list, got {brief_repr(value)}")
    if length is not None and len(value) != length:
        raise PositionError(f"position field {field!r} must have {length} entries, got {len(value)}")
    return value


def _bounded(value: Any, field: str) -> None:
    """Refuse a field nested or sized beyond any position, without recursing into it.

    The loader reads the already parsed dict field by field; a field of a thousand
    nested lists (or a million cards) must be a :class:`PositionError` naming it, not
    a ``RecursionError`` in a message's ``repr`` or a long stall.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    items = 0
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (list, dict)):
            if depth >= MAX_DEPTH:
                raise PositionError(
                    f"position field {field!r} is nested too deeply (more than {MAX_DEPTH} levels)"
                )
            items += len(node)
            if items > MAX_ITEMS:
                raise PositionError(f"position field {field!r} is too large (more than {MAX_ITEMS:,} values)")
            stack.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))


def load_position(cls: type[RoundState], pos: Any, *, shuffler: Shuffler | None, log: bool) -> RoundState:
    """Build a state from a position dict (see module docstring)."""
    if not isinstance(pos, dict):
        raise PositionError(f"a position must be a JSON object, got {type(pos).__name__}")
    for key in pos:
        if key not in _REQUIRED and key not in _OPTIONAL:
            raise PositionError(f"unknown position field {brief_repr(key)}")
    for key in _REQUIRED:
        if key not in pos:
            raise PositionError(f"position field {key!r} is missing")
    for key, value in pos.items():
        _bounded(value, key)
    try:
        rules = Rules.from_spec(pos["rules"])
    except RulesError as e:
        raise PositionError(f"position field 'rules': {e}") from None
    n = _int(pos["players"], "players", 2, MAX_PLAYERS)
    if n > rules.max_players:
        # more seats than the rules allow cannot be dealt from their game; fewer are
        # accepted (a rule can be tried heads-up under a preset for three or more)
        raise PositionError(
            f"position field 'players': these rules allow at most {rules.max_players} players, not {n}"
        )
    names = pos.get("names")
    if names is not None:
        _list(names, "names", n)
        if not all(isinstance(x, str) and x.strip() for x in names):
            raise PositionError("position field 'names' must list one non-empty name (text) per seat")
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
    if not isinstance(phase_name, str) or phase_name not in PHASES:
        raise PositionError(
            f"position field 'phase' must be one of {', '.join(PHASES)}, got {brief_repr(phase_name)}"
        )
    phase = PHASES.index(phase_name)
    tiebreak = pos.get("tiebreak", False)
    if not isinstance(tiebreak, bool):
        raise PositionError("position field 'tiebreak' must be true or false")
    if not tiebreak:
        # S14: a total over the limit is eliminated at the round's end; only a tie-break
        # round (S15) plays on with such totals. Up to twice the limit is accepted, so one
        # set of totals can try a rule near the limit under presets of different limits.
        for p in active:
            if totals[p] > 2 * rules.score_limit:
                raise PositionError(
                    f"position field 'totals': seat {p} is in the round with {totals[p]}, far over the "
                    f"score limit {rules.score_limit}: he would have been eliminated (S14)"
                )

    alloc = CardAllocator(rules.decks_for(n))
    hands = []
    for p, cards in enumerate(_list(pos["hands"], "hands", n)):
        field = f"hands[{p}]"
        mask = 0
        held = _list(cards, field)
        if len(held) > rules.hand_size:
            # a turn lays at least one card before it takes one, a slap only lays one, a
            # swap gives a card for the joker: no hand ever grows past the deal (S4-S8, S19, S20)
            raise PositionError(
                f"position field {field!r}: {len(held)} cards, but no hand ever holds more than "
                f"the {rules.hand_size} dealt (hand_size)"
            )
        for name in held:
            mask |= 1 << _take(alloc, name, field)
        if p in eliminated and mask:
            raise PositionError(f"position field {field!r}: seat {p} is eliminated and holds cards")
        hands.append(mask)
    stock = [_take(alloc, c, "stock") for c in _list(pos["stock"], "stock")]
    pile = []
    for i, group in enumerate(_list(pos["discard_pile"], "discard_pile")):
        field = f"discard_pile[{i}]"
        if not _list(group, field):
            raise PositionError(f"position field {field!r}: a group holds at least one card")
        pile.append(tuple(_take(alloc, c, field) for c in group))
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
            state.set_seen(p, mask)
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
        seen_taken = state.seen[seat]
        held.sort(key=lambda c: seen_taken >> c & 1)  # the drawn copy was not seen taken
        state.drawn, state.slapper = held[0], seat
    elif drawn is not None:
        raise PositionError("position field 'drawn' is only for phase after_draw")
    result = pos.get("result")
    if phase == ROUND_OVER:
        if not isinstance(result, dict):
            raise PositionError("position field 'result' is required in phase round_over")
        state.result = _result(result, n)
    elif result is not None:
        raise PositionError("position field 'result' is only for phase round_over")
    return state


_CARD_NAME = 12
"""Longer than any card's name, even written loosely (``10♠``, ``joker``, ``🃏``)."""


def _take(alloc: CardAllocator, name: Any, field: str) -> int:
    if not isinstance(name, str) or len(name) > _CARD_NAME:
        raise PositionError(f"position field {field!r}: {brief_repr(name)} is not a card name")
    return alloc.take(name, field)


def _result(data: dict[str, Any], n: int) -> RoundResult:
    """A round_over position's ``result``, every field checked (``RoundResult.to_dict()``'s shape)."""
    fields = set(RoundResult.__dataclass_fields__)
    unknown = [k for k in data if k not in fields]
    if unknown:
        raise PositionError(f"position field 'result': unknown field {brief_repr(unknown[0])}")
    missing = [k for k in RoundResult.__dataclass_fields__ if k not in data]
    if missing:
        raise PositionError(f"position field 'result': field {missing[0]!r} is missing")

    def seats(key: str) -> tuple[int, ...]:
        return tuple(_int(p, f"result.{key}", 0, n - 1) for p in _list(data[key], f"result.{key}"))

    def per_seat(key: str, nulls: bool = False) -> tuple[Any, ...]:
        values = _list(data[key], f"result.{key}", n)
        return tuple(None if v is None and nulls else _int(v, f"result.{key}") for v in values)

    kind = data["kind"]
    if kind not in _RESULT_KINDS:
        raise PositionError(
            f"position field 'result.kind' must be one of {', '.join(_RESULT_KINDS)}, got {brief_repr(kind)}"
        )
    for key in ("assaf", "game_over"):
        if not isinstance(data[key], bool):
            raise PositionError(f"position field 'result.{key}' must be true or false")
    starter = data["next_starter"]
    return RoundResult(
        kind=kind,
        caller=_int(data["caller"], "result.caller", 0, n - 1),
        values=per_seat("values", nulls=True),
        assaf=data["assaf"],
        assafers=seats("assafers"),
        round_scores=per_seat("round_scores"),
        totals=per_seat("totals"),
        landed=seats("landed"),
        eliminated=seats("eliminated"),
        next_starter=None if starter is None else _int(starter, "result.next_starter", 0, n - 1),
        game_over=data["game_over"],
        winners=seats("winners"),
        tiebreak=seats("tiebreak"),
    )


def _kind(name: Any, field: str) -> int:
    if not isinstance(name, str) or len(name) > _CARD_NAME:
        raise PositionError(f"position field {field!r}: {brief_repr(name)} is not a card name")
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
