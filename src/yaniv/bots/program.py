"""A built-in bot served as a bot-protocol program (``yaniv bot NAME[:LEVEL]``).

The other side of :mod:`.external`: read the engine's JSON Lines on stdin (``hello``,
``decide``, ``event``, ``error``, ``bye``; ``docs/bot-protocol.md``), rebuild each
decision's :class:`~yaniv.state.SeatView` from its JSON and answer with the bot's
action. So any harness in any language can seat our bots, and one checkout's bot can
play another's (``yaniv arena --bots 'expert,cmd:/old/.venv/bin/yaniv bot expert'``).

The view's cards are names; the bots work on physical card ids (two decks hold two
copies of a card). :func:`view_from_dict` gives every card in sight its own id (the
hand, the pile, the cards seen taken), and the takeable cards, the drawn card and the
legal actions the ids of the cards they name, so a bot sees the same view it would
see in-process. The bot gets one ``random.Random(seed)`` for the whole process: a
match through the protocol is as reproducible as the bot is (the expert with
``untimed``).

Bad input never raises: a line that is not JSON or not a message is named on stderr
and skipped; a ``decide`` whose view cannot be read is answered with
``{"type": "error", "id": N, "message": ...}``, which the engine records as a failed
decision (quoting the message) and hands to its fallback at once, instead of waiting
out its time limit.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import IO, Any

from ..actions import Action
from ..cards import CARDS, KIND, Card, CardAllocator, parse_card
from ..errors import YanivError
from ..jsonio import JSONInputError, loads, read_line
from ..rules import Rules, brief_repr
from ..state import Phase, SeatView
from .base import Bot
from .search import ExpertBot

__all__ = ["MAX_INPUT_BYTES", "ProtocolServer", "serve", "view_from_dict"]

MAX_INPUT_BYTES = 4 * 1024 * 1024
"""The longest input line read, in characters (a ``decide`` of a two-deck table is a few KiB);
a longer one is skipped without being held whole."""


class ViewError(ValueError):
    """A ``decide`` view that cannot be read: the message names the field."""


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise ViewError(f"view field {key!r} must be a list, got {type(value).__name__}")
    return value


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ViewError(f"view field {key!r} must be a whole number, got {value!r:.40}")
    return value


def _ints(data: dict[str, Any], key: str) -> list[int]:
    values = _list(data, key)
    if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
        raise ViewError(f"view field {key!r} must be a list of whole numbers")
    return [int(v) for v in values]


def _kind(name: object, field: str) -> int:
    if not isinstance(name, str):
        raise ViewError(f"view field {field!r}: {name!r:.40} is not a card name")
    try:
        return parse_card(name)
    except ValueError as e:
        raise ViewError(f"view field {field!r}: {e}") from None


def _names(value: object, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise ViewError(f"view field {field!r} must be a list of cards")
    return value


def _matching_group(groups: Sequence[Sequence[Card]], kinds: list[int]) -> list[Card] | None:
    """The latest of *groups* holding exactly these kinds in this order (its physical ids)."""
    for group in reversed(groups):
        if [KIND[c] for c in group] == kinds:
            return list(group)
    return None


def _pick(kind: int, pools: Sequence[list[Card]]) -> Card:
    """A card of *kind* from the first pool that has one (taken out of it), else deck 0's copy."""
    for pool in pools:
        for i, c in enumerate(pool):
            if KIND[c] == kind:
                return pool.pop(i)
    return CARDS[kind]


class _RulesCache:
    """The last rule set read: a decide carries the whole knob dict, the bots cache per Rules."""

    def __init__(self) -> None:
        self.key: str | None = None
        self.rules: Rules | None = None

    def get(self, knobs: object) -> Rules:
        if not isinstance(knobs, dict):
            raise ViewError("view field 'rules' must be the knob dict")
        key = json.dumps(knobs, sort_keys=True)
        if key != self.key or self.rules is None:
            try:
                self.rules = Rules.from_dict(knobs)
            except (YanivError, ValueError, TypeError) as e:
                raise ViewError(f"view field 'rules': {e}") from None
            self.key = key
        return self.rules


def view_from_dict(data: object, rules_of: Callable[[object], Rules] | None = None) -> SeatView:
    """The seat's view from its JSON (``SeatView.to_dict``), physical card ids assigned.

    ``ViewError`` (a ``ValueError``) names the first field that cannot be read.
    *rules_of* reads the knob dict (default: ``Rules.from_dict``).
    """
    if not isinstance(data, dict):
        raise ViewError("the view must be a JSON object")
    if rules_of is None:
        rules = _RulesCache().get(data.get("rules"))
    else:
        rules = rules_of(data.get("rules"))
    players = _int(data, "players")
    problem = rules.players_problem(players)
    if problem:
        raise ViewError(f"view field 'players': {problem}")
    seat = _int(data, "seat")
    if not 0 <= seat < players:
        raise ViewError(f"view field 'seat': no seat {seat} at a table of {players}")
    try:
        phase = Phase(str(data.get("phase")))
    except ValueError:
        raise ViewError(f"view field 'phase': unknown phase {data.get('phase')!r:.40}") from None
    alloc = CardAllocator(rules.decks_for(players))

    def take(name: object, field: str) -> Card:
        try:
            return CARDS[alloc.take(name, field)]
        except ValueError as e:
            raise ViewError(str(e).replace("position field", "view field")) from None

    hand = [take(c, "hand") for c in _list(data, "hand")]
    pile = [[take(c, "discard_pile") for c in _names(g, "discard_pile")] for g in _list(data, "discard_pile")]
    seen_data = _list(data, "seen")
    if len(seen_data) != players:
        raise ViewError(f"view field 'seen' must have one list per seat ({players})")
    seen: list[list[Card]] = []
    own = list(hand)
    for p, cards in enumerate(seen_data):
        if p == seat:  # my own seen cards are cards of my hand
            seen.append([_pick(_kind(c, "seen"), [own]) for c in _names(cards, "seen")])
        else:
            seen.append([take(c, "seen") for c in _names(cards, "seen")])
    previous: list[Card] | None = None
    if data.get("previous_group") is not None:
        kinds = [_kind(c, "previous_group") for c in _names(data["previous_group"], "previous_group")]
        previous = _matching_group(pile, kinds) or [CARDS[k] for k in kinds]
    takeable = [_pick(_kind(c, "takeable"), [list(previous or [])]) for c in _list(data, "takeable")]
    last: list[list[Card] | None] = []
    for g in _list(data, "last_discards"):
        if g is None:
            last.append(None)
            continue
        kinds = [_kind(c, "last_discards") for c in _names(g, "last_discards")]
        last.append(_matching_group(pile, kinds) or [CARDS[k] for k in kinds])
    drawn = None if data.get("drawn") is None else _pick(_kind(data["drawn"], "drawn"), [list(hand)])
    legal = [_legal(a, hand, takeable) for a in _list(data, "legal")]
    counts = _ints(data, "hand_counts")
    totals = _ints(data, "totals")
    if len(counts) != players or len(totals) != players:
        raise ViewError(f"view fields 'hand_counts' and 'totals' must have one number per seat ({players})")
    if len(last) != players:
        raise ViewError(f"view field 'last_discards' must have one entry per seat ({players})")
    active = tuple(_ints(data, "active"))
    if not active or any(not 0 <= p < players for p in active):
        raise ViewError("view field 'active' must list seats of the table")
    names = data.get("names")
    value = sum(rules.card_values[c] for c in hand)
    return SeatView(
        seat=seat,
        rules=rules,
        players=players,
        names=[str(n) for n in names] if isinstance(names, list) else None,
        phase=phase,
        current=_int(data, "current"),
        active=active,
        hand=hand,
        hand_value=value,
        hand_counts=counts,
        seen=seen,
        hands_shown=None,
        discard_pile=pile,
        last_discards=last,
        previous_group=previous,
        takeable=takeable,
        stock_count=_int(data, "stock_count"),
        totals=totals,
        eliminated=_ints(data, "eliminated"),
        drawn=drawn,
        legal=legal,
        result=None,
        turns=_int(data, "turns"),
    )


def _legal(data: object, hand: list[Card], takeable: list[Card]) -> Action:
    """A legal action's JSON with the seat's physical ids: discards from the hand, takes from the pile."""
    if isinstance(data, dict) and not isinstance(data.get("type"), str):  # e.g. {"type": []}
        raise ViewError(f"view field 'legal': an action's type is a word, got {brief_repr(data.get('type'))}")
    try:
        action = Action.from_json(data)
    except (ValueError, TypeError) as e:  # TypeError: a value Action.from_json does not expect
        raise ViewError(f"view field 'legal': {e}") from None
    own = list(hand)
    cards = tuple(_pick(KIND[c], [own]) for c in action.cards)
    card = action.card
    if card is not None:
        card = _pick(KIND[card], [list(takeable), list(hand)])
    return Action(action.type, cards, card)


class ProtocolServer:
    """One bot behind the protocol: feed it lines (:meth:`handle`), it writes answers.

    *make* builds the bot (again at each ``hello`` that changes the table, as the
    engine's side resends ``hello`` only then). *out* gets the protocol lines, *err*
    one line per problem.
    """

    def __init__(self, spec: str, make: Callable[[], Bot], out: IO[str], err: IO[str], seed: int = 0) -> None:
        """A server for the bot *spec* (its name in ``ready``)."""
        self.spec = spec
        self.make = make
        self.out = out
        self.err = err
        self.rng = random.Random(seed)
        self.bot: Bot | None = None
        self.hello: str | None = None
        self.rules = _RulesCache()
        self.line_number = 0

    def _write(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message, separators=(",", ":")) + "\n")
        self.out.flush()

    def _say(self, text: str) -> None:
        self.err.write(f"yaniv bot {self.spec}: line {self.line_number}: {text}\n")
        self.err.flush()

    def skip(self, problem: str) -> None:
        """Count an input line that could not be read (:func:`serve`: one too long) and name *problem*."""
        self.line_number += 1
        self._say(f"skipped: {problem}")

    def handle(self, line: str) -> bool:
        """Answer one input line; False when the engine is done (``bye``)."""
        self.line_number += 1
        if not line.strip():
            return True
        try:
            message = loads(line, "input line", max_bytes=MAX_INPUT_BYTES)
        except JSONInputError as e:
            self._say(f"skipped: {e}")
            return True
        if not isinstance(message, dict):
            self._say("skipped: a message is a JSON object")
            return True
        kind = message.get("type")
        if kind == "bye":
            return False
        if kind == "hello":
            key = json.dumps([message.get(k) for k in ("seat", "players", "rules", "names")], sort_keys=True)
            if key != self.hello or self.bot is None:
                self.bot = self.make()
                self.hello = key
            self._write({"type": "ready", "name": self.spec})
        elif kind == "decide":
            self._decide(message)
        elif kind == "error":
            self._say(f"the engine refused an answer: {str(message.get('message'))[:300]}")
        elif kind == "event":
            self._observe(message.get("event"))
        # events and unknown message types need no answer (the view holds everything)
        return True

    def _observe(self, event: object) -> None:
        """Hand a game event to a bot that follows the game (the expert reads the calls)."""
        if not isinstance(event, dict):  # said whether or not a bot follows events yet
            self._say("skipped: an event message carries an event object")
            return
        observe = getattr(self.bot, "observe", None)
        if observe is None:
            return
        try:
            observe(event)
        except Exception as e:  # a bug of the bot: one line; its decisions still get answers
            self._say(f"the bot failed on an event: {type(e).__name__}: {str(e)[:200]}")

    def _decide(self, message: dict[str, Any]) -> None:
        k = message.get("id")
        if isinstance(k, bool) or not isinstance(k, int):
            self._say(f"skipped: a decide needs a whole-number id, got {k!r:.40}")
            return
        try:
            view = view_from_dict(message.get("view"), self.rules.get)
        except ViewError as e:
            self._refuse(k, f"decide {k}: {e}")
            return
        if self.bot is None:  # a decide before any hello: play anyway
            self.bot = self.make()
        try:
            action = self.bot.act(view, self.rng)
        except Exception as e:  # a bug of the bot: one line, and the engine's fallback plays
            self._refuse(k, f"decide {k}: the bot failed: {type(e).__name__}: {str(e)[:200]}")
            return
        self._write({"type": "action", "id": k, "action": None if action is None else action.to_json()})

    def _refuse(self, k: int, text: str) -> None:
        self._say(text)
        self._write({"type": "error", "id": k, "message": text})


def serve(
    spec: str, inp: IO[str], out: IO[str], err: IO[str], *, seed: int = 0, untimed: bool = False
) -> int:
    """Serve the built-in bot *spec* on these streams until ``bye`` or the end of input; exit code 0.

    ``ValueError`` for a spec that is not a built-in bot (``cmd:`` specs are refused:
    a program serving a program). *untimed* lifts the expert's time limit.
    """
    from . import make_bot

    spec = spec.strip()
    if spec.startswith("cmd:"):
        raise ValueError("serve a built-in bot (NAME or NAME:LEVEL), not another program")
    make_bot(spec)  # a bad spec fails before any input is read

    def make() -> Bot:
        bot = make_bot(spec)
        if untimed and isinstance(bot, ExpertBot):
            bot.level = replace(bot.level, max_seconds=math.inf)
        return bot

    server = ProtocolServer(spec, make, out, err, seed=seed)
    while True:
        try:
            line = read_line(inp, "input line", MAX_INPUT_BYTES)
        except JSONInputError as e:
            server.skip(str(e))
            continue
        if not line or not server.handle(line):
            return 0
