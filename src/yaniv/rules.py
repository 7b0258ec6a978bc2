"""Rule sets: one frozen ``Rules`` value holding every knob of RULES.md §3 and §6b.

House rules are data: a preset is a named ``Rules`` value, a *game string* such as
``finnish(score_limit=100)`` names any rule set in one loggable line, and the JSON
knob dict is the full serialised form.

>>> Rules.from_spec("finnish(score_limit=100)").score_limit
100
>>> str(Rules.from_spec({"preset": "standard", "overrides": {"yaniv_threshold": 5}}))
'standard(yaniv_threshold=5)'
"""

from __future__ import annotations

import json
import re
import reprlib
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any, Literal, get_args

from .cards import DECK_SIZE, JOKER, KIND
from .errors import RulesError
from .jsonio import JSONInputError, loads

__all__ = [
    "KNOBS",
    "PRESETS",
    "AssafOthersScore",
    "AssafTieWinner",
    "AssaferScore",
    "Comparison",
    "EndMode",
    "FinalTie",
    "FirstStarter",
    "JokerSwap",
    "JokersInRuns",
    "LandingRule",
    "MisdealRule",
    "NumDecks",
    "PickupMode",
    "QuickDiscard",
    "RoundStarter",
    "Rules",
    "StarterOnTie",
    "ThresholdMode",
    "brief_repr",
    "preset_names",
]

# The closed knob types: the allowed values of each choice knob, checked at run time too.
NumDecks = Literal[1, 2, "auto"]
FirstStarter = Literal["left_of_dealer", "random"]
MisdealRule = Literal["return_extra", "redeal"]
JokersInRuns = Literal["anywhere", "gaps_only"]
PickupMode = Literal["first_or_last", "top_only", "ends_or_any_of_set"]
JokerSwap = Literal["off", "as_draw", "as_turn"]
QuickDiscard = Literal["off", "same_rank", "fits_meld"]
ThresholdMode = Literal["fixed", "hand_size"]
Comparison = Literal["le", "lt"]
AssaferScore = Literal["zero", "hand", "hand_if_tied"]
AssafTieWinner = Literal["all", "nearest_clockwise"]
EndMode = Literal["last_standing", "first_over_limit"]
FinalTie = Literal["replay", "shared"]
StarterOnTie = Literal["nearest_tied_clockwise", "caller_left"]
LandingRule = Literal["halve", "minus_50"]
AssafOthersScore = Literal["hand", "zero"]
RoundStarter = Literal["winner", "caller"]

# Every knob: (allowed values or a type tag, standard value, one-line meaning).
# Type tags: "bool", "int", "int?", "ints" (list of ints). Tuples list the allowed values.
KNOBS: dict[str, tuple[Any, Any, str]] = {
    "num_decks": (get_args(NumDecks), 1, "decks shuffled together (S1)"),
    "two_deck_min_players": ("int", 4, "players from which 'auto' uses two decks (S1)"),
    "min_players": ("int", 2, "fewest players (S3)"),
    "max_players": ("int", 5, "most players (S3)"),
    "hand_size": ("int", 5, "cards dealt to each player (S4)"),
    "start_card": ("bool", True, "turn up a card to start the discard pile (S4)"),
    "first_starter": (get_args(FirstStarter), "left_of_dealer", "who starts round 1 (S5)"),
    "misdeal_rule": (get_args(MisdealRule), "return_extra", "mending a bad deal (S17)"),
    "king_of_hearts_zero": ("bool", False, "the king of hearts is worth 0 (S2)"),
    "min_set_size": ((2, 3), 2, "fewest cards in a set (S7.2)"),
    "jokers_in_sets": ("bool", False, "jokers may join sets (S7.2)"),
    "jokers_in_runs": (get_args(JokersInRuns), "anywhere", "where jokers may sit in a run"),
    "allow_jqk_run": ("bool", True, "runs may contain a king (S7.3)"),
    "allow_qka_run": ("bool", False, "the ace may follow the king (Q-K-A) (S7.3)"),
    "pickup_mode": (
        get_args(PickupMode),
        "first_or_last",
        "which cards of the previous group may be taken (S8)",
    ),
    "joker_swap": (get_args(JokerSwap), "off", "joker exchange (S19)"),
    "quick_discard": (get_args(QuickDiscard), "off", "slap a drawn card (S20)"),
    "yaniv_threshold": ("int", 7, "highest hand value that may call Yaniv (S10)"),
    "yaniv_threshold_mode": (get_args(ThresholdMode), "fixed", "threshold = hand_size (S10)"),
    "yaniv_comparison": (get_args(Comparison), "le", "value <= threshold or < threshold (S10)"),
    "assaf_on_tie": ("bool", True, "a tie with the caller is an Assaf (S11)"),
    "assaf_penalty": ("int", 30, "caller's penalty when Assafed (S11)"),
    "assaf_penalty_multi": ("int?", None, "penalty per assafer when there are two or more"),
    "assaf_penalty_adds_hand": ("bool", True, "the Assafed caller also scores his hand"),
    "assafer_score": (get_args(AssaferScore), "zero", "the lowest assafers' score"),
    "assaf_tie_winner": (get_args(AssafTieWinner), "all", "which tied lowest score 0"),
    "false_yaniv_penalty": ("int?", None, "penalty for a Yaniv call out of turn (S18)"),
    "asef": ("bool", False, "the Asef blind call (S21)"),
    "asef_win_delta": ("int", -30, "round score of a won Asef (S21)"),
    "asef_loss_delta": ("int", 60, "round score of a lost Asef (S21)"),
    "halving_scores": ("ints", (100, 200), "totals that are halved when landed on (S13)"),
    "score_limit": ("int", 200, "a total above this eliminates (S14)"),
    "end_mode": (get_args(EndMode), "last_standing", "game end (S15)"),
    "final_tie": (get_args(FinalTie), "replay", "a tie for the win (S15)"),
    "starter_on_tie": (
        get_args(StarterOnTie),
        "nearest_tied_clockwise",
        "next starter when the lowest hand is tied (S16)",
    ),
    "landing_rule": (get_args(LandingRule), "halve", "what a landing on halving_scores does"),
    "assaf_others_score": (get_args(AssafOthersScore), "hand", "non-lowest non-callers in an Assaf"),
    "round_starter": (get_args(RoundStarter), "winner", "who starts the next round (S16)"),
}

MAX_PLAYERS = 8
"""The most players any rule set may allow (RULES.md: 2–8 everywhere)."""
MAX_KNOB = 1_000_000
"""The largest magnitude of a number knob (a score limit, a penalty): more is a mistake."""
MAX_KNOB_LIST = 100
"""The most numbers a list knob (``halving_scores``) may hold."""


class _Brief(reprlib.Repr):
    """reprlib's bounded repr, and one for an integer too long to be printed at all."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:  # str() refuses past 4,300 digits, and nobody means such a number
            return f"<a whole number of about {x.bit_length() * 30103 // 100000 + 1} digits>"
        return repr(x)


_BRIEF = _Brief()
_BRIEF.maxlevel, _BRIEF.maxlist, _BRIEF.maxtuple, _BRIEF.maxdict = 3, 8, 8, 4
_BRIEF.maxstring, _BRIEF.maxother = 60, 60


def brief_repr(value: Any) -> str:
    """A short repr of a value from outside, for an error message.

    Depth and length are bounded, so a message never holds a whole megabyte of input
    nor recurses into a thousand nested lists (a plain ``repr`` would raise
    ``RecursionError`` there).
    """
    return _BRIEF.repr(value)


@dataclass(frozen=True)
class Rules:
    """Every knob of RULES.md §3 and §6b; the default value is the ``standard`` preset.

    Build with keyword arguments, :meth:`from_spec` (preset name, game string or
    ``{"preset": NAME, "overrides": {...}}``) or :meth:`from_dict` (the knob dict).
    Invalid values raise :class:`~yaniv.errors.RulesError` naming the knob.
    """

    num_decks: NumDecks = 1
    two_deck_min_players: int = 4
    min_players: int = 2
    max_players: int = 5
    hand_size: int = 5
    start_card: bool = True
    first_starter: FirstStarter = "left_of_dealer"
    misdeal_rule: MisdealRule = "return_extra"
    king_of_hearts_zero: bool = False
    min_set_size: int = 2
    jokers_in_sets: bool = False
    jokers_in_runs: JokersInRuns = "anywhere"
    allow_jqk_run: bool = True
    allow_qka_run: bool = False
    pickup_mode: PickupMode = "first_or_last"
    joker_swap: JokerSwap = "off"
    quick_discard: QuickDiscard = "off"
    yaniv_threshold: int = 7
    yaniv_threshold_mode: ThresholdMode = "fixed"
    yaniv_comparison: Comparison = "le"
    assaf_on_tie: bool = True
    assaf_penalty: int = 30
    assaf_penalty_multi: int | None = None
    assaf_penalty_adds_hand: bool = True
    assafer_score: AssaferScore = "zero"
    assaf_tie_winner: AssafTieWinner = "all"
    false_yaniv_penalty: int | None = None
    asef: bool = False
    asef_win_delta: int = -30
    asef_loss_delta: int = 60
    halving_scores: tuple[int, ...] = (100, 200)
    score_limit: int = 200
    end_mode: EndMode = "last_standing"
    final_tie: FinalTie = "replay"
    starter_on_tie: StarterOnTie = "nearest_tied_clockwise"
    landing_rule: LandingRule = "halve"
    assaf_others_score: AssafOthersScore = "hand"
    round_starter: RoundStarter = "winner"

    def __post_init__(self) -> None:
        """Check every knob's type and value, then the combinations."""
        for name, (allowed, _default, _meaning) in KNOBS.items():
            value = getattr(self, name)
            if name == "halving_scores" and isinstance(value, list):
                value = tuple(value)
                object.__setattr__(self, name, value)
            _check_knob(name, value, allowed)
        self._check_combination()

    def _check_combination(self) -> None:
        if self.min_players < 2:
            raise RulesError(f"min_players must be at least 2, got {self.min_players}")
        if not self.min_players <= self.max_players <= MAX_PLAYERS:
            raise RulesError(
                f"max_players must lie between min_players ({self.min_players}) and "
                f"{MAX_PLAYERS}, got {self.max_players}"
            )
        if not 1 <= self.hand_size <= 7:
            raise RulesError(f"hand_size must be 1..7, got {self.hand_size}")
        if self.two_deck_min_players < 2:
            raise RulesError(f"two_deck_min_players must be at least 2, got {self.two_deck_min_players}")
        if self.yaniv_threshold < 0:
            raise RulesError(f"yaniv_threshold must be 0 or more, got {self.yaniv_threshold}")
        if self.score_limit <= 0:
            raise RulesError(f"score_limit must be positive, got {self.score_limit}")
        if self.assaf_penalty < 0:
            raise RulesError(f"assaf_penalty must be 0 or more, got {self.assaf_penalty}")
        if any(h <= 0 for h in self.halving_scores):
            raise RulesError(f"halving_scores must be positive, got {list(self.halving_scores)}")
        # Only a rule set whose smallest game cannot be dealt is impossible; a larger
        # table that needs two decks is refused when that game is created (RULES.md §6b
        # lists hand_size 7 with up to 8 players "seen in the wild").
        problem = self.deal_problem(self.min_players)
        if problem:
            raise RulesError(problem)

    def players_problem(self, players: object) -> str | None:
        """Why a game of *players* players cannot be played under these rules, or None.

        The one check of a player count (S3 and the deal): a whole number in the rules'
        range, and enough cards to deal that many hands.
        """
        if not isinstance(players, int) or isinstance(players, bool):
            return f"players must be an integer, got {brief_repr(players)}"
        if not self.min_players <= players <= self.max_players:
            return f"these rules allow {self.min_players} to {self.max_players} players, not {players}"
        return self.deal_problem(players)

    def deal_problem(self, players: int) -> str | None:
        """Why a game of *players* cannot be dealt under these rules, or None."""
        cards = DECK_SIZE * self.decks_for(players)
        need = players * self.hand_size + (1 if self.start_card else 0) + 1
        if need <= cards:
            return None
        return (
            f"{players} players with hand_size={self.hand_size} need {need} cards but the "
            f"deck has {cards}: play with fewer players or cards, or set num_decks to 2 or 'auto'"
        )

    # ----- derived values (computed once per rule set) -----

    def decks_for(self, players: int) -> int:
        """Decks used by a game that starts with *players* players (S1)."""
        if self.num_decks == "auto":
            return 2 if players >= self.two_deck_min_players else 1
        return int(self.num_decks)

    @cached_property
    def threshold(self) -> int:
        """The highest hand value that may call Yaniv (S10), comparison folded in."""
        base = self.hand_size if self.yaniv_threshold_mode == "hand_size" else self.yaniv_threshold
        return base - 1 if self.yaniv_comparison == "lt" else base

    @cached_property
    def card_values(self) -> tuple[int, ...]:
        """The value of every physical card id (S2)."""
        kh = 1 * 13 + 12  # king of hearts
        out = []
        for k in KIND:
            if k == JOKER or (k == kh and self.king_of_hearts_zero):
                out.append(0)
            else:
                out.append(min(k % 13 + 1, 10))
        return tuple(out)

    # ----- serialisation -----

    def to_dict(self) -> dict[str, Any]:
        """The full knob dict (JSON-ready; lists for list knobs), a new one at each call."""
        knobs, tuples = self._knobs
        out = dict(knobs)
        for name in tuples:
            out[name] = list(out[name])  # a fresh list each time: the caller may change it
        return out

    @cached_property
    def _knobs(self) -> tuple[dict[str, Any], tuple[str, ...]]:
        # every game's header lists the knobs: read them through getattr once per rule set
        knobs = {name: getattr(self, name) for name in KNOBS}
        return knobs, tuple(name for name, value in knobs.items() if isinstance(value, tuple))

    @classmethod
    def from_dict(cls, knobs: dict[str, Any]) -> Rules:
        """Build from a knob dict; knobs it leaves out take their standard value."""
        if not isinstance(knobs, dict):
            raise RulesError(f"rules must be a dict of knobs, got {type(knobs).__name__}")
        unknown = [k for k in knobs if k not in KNOBS]
        if unknown:
            raise RulesError(f"unknown knob {brief_repr(unknown[0])}; knobs are: {', '.join(KNOBS)}")
        return cls(**knobs)

    def replace(self, **overrides: Any) -> Rules:
        """A copy with some knobs changed (validated like any rule set).

        The copy remembers the preset it was derived from, so its game string names
        that preset (``standard(yaniv_threshold=5)``, not an equal other preset).
        """
        new = Rules.from_dict(self.to_dict() | overrides)
        if self.base is not None:
            _set_base(new, self.base)
        return new

    @property
    def base(self) -> str | None:
        """The preset this rule set was built from, if it was built from one."""
        base: str | None = self.__dict__.get("_base")
        return base

    @classmethod
    def from_spec(cls, spec: str | dict[str, Any] | Rules) -> Rules:
        """Build from a preset name, a game string, ``{"preset", "overrides"}`` or knobs.

        A text that starts with ``{`` is read as that JSON (bounded: :mod:`yaniv.jsonio`).
        """
        if isinstance(spec, Rules):
            return spec
        if isinstance(spec, str):
            if spec.lstrip().startswith("{"):
                try:
                    data = loads(spec, "the rules (JSON)")
                except JSONInputError as e:
                    raise RulesError(str(e)) from None
                if not isinstance(data, dict):
                    raise RulesError("the rules (JSON) must be an object")
                return cls.from_spec(data)
            return _parse_game_string(spec)
        if isinstance(spec, dict):
            if "preset" in spec or "overrides" in spec:
                extra = [k for k in spec if k not in ("preset", "overrides")]
                if extra:
                    raise RulesError(
                        f"unknown key {brief_repr(extra[0])} in rules: use 'preset' and 'overrides'"
                    )
                base = _preset(spec.get("preset", "standard"))
                overrides = spec.get("overrides", {})
                if not isinstance(overrides, dict):
                    raise RulesError("rules 'overrides' must be a dict of knobs")
                return base.replace(**overrides) if overrides else base
            return cls.from_dict(spec)
        raise RulesError(f"rules must be a preset name, game string or dict, got {brief_repr(spec)}")

    @property
    def preset_name(self) -> str | None:
        """The name of the preset equal to this rule set, if any."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return None

    def game_string(self) -> str:
        """The preset it was built from (else the nearest) plus the knobs that differ."""
        return self._game_string

    @cached_property
    def _game_string(self) -> str:
        # every game's header names its rules: compare the knobs once per rule set
        if self.base is not None:
            diff = _diff(PRESETS[self.base], self)
            inner = ",".join(f"{k}={_format_value(v)}" for k, v in diff)
            return f"{self.base}({inner})" if diff else self.base
        best_name, best_diff = "standard", _diff(PRESETS["standard"], self)
        for name, preset in PRESETS.items():
            diff = _diff(preset, self)
            if len(diff) < len(best_diff):
                best_name, best_diff = name, diff
        if not best_diff:
            return best_name
        inner = ",".join(f"{k}={_format_value(v)}" for k, v in best_diff)
        return f"{best_name}({inner})"

    def __str__(self) -> str:
        """The game string, e.g. ``finnish(score_limit=100)``."""
        return self.game_string()

    def describe(self) -> list[str]:
        """The rule set in plain words, one sentence per line."""
        from .describe import describe_rules

        return describe_rules(self)


def _check_knob(name: str, value: Any, allowed: Any) -> None:
    if allowed == "bool":
        if not isinstance(value, bool):
            raise RulesError(f"knob {name!r} must be true or false, got {brief_repr(value)}")
    elif allowed in ("int", "int?"):
        if value is None and allowed == "int?":
            return
        if not isinstance(value, int) or isinstance(value, bool):
            extra = " or null" if allowed == "int?" else ""
            raise RulesError(f"knob {name!r} must be an integer{extra}, got {brief_repr(value)}")
        if abs(value) > MAX_KNOB:
            raise RulesError(f"knob {name!r} must lie within ±{MAX_KNOB:,}, got {brief_repr(value)}")
    elif allowed == "ints":
        if not isinstance(value, tuple) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise RulesError(f"knob {name!r} must be a list of integers, got {brief_repr(value)}")
        if len(value) > MAX_KNOB_LIST or any(abs(v) > MAX_KNOB for v in value):
            raise RulesError(
                f"knob {name!r} must list at most {MAX_KNOB_LIST} integers within ±{MAX_KNOB:,}, "
                f"got {brief_repr(value)}"
            )
    elif (
        not isinstance(value, (str, int))
        or value not in allowed
        or type(value) not in {type(a) for a in allowed}
    ):
        choices = ", ".join(json.dumps(a) for a in allowed)
        raise RulesError(f"knob {name!r} must be one of {choices}, got {brief_repr(value)}")


def _set_base(rules: Rules, name: str) -> None:
    """Remember the preset *rules* was built from (its game string names it)."""
    object.__setattr__(rules, "_base", name)
    rules.__dict__.pop("_game_string", None)  # a string cached before would name another


def _diff(base: Rules, other: Rules) -> list[tuple[str, Any]]:
    return [(k, getattr(other, k)) for k in KNOBS if getattr(base, k) != getattr(other, k)]


def _format_value(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ",".join(str(v) for v in value) + "]"
    if isinstance(value, str):
        return value
    return json.dumps(value)


_GAME_STRING = re.compile(r"\s*([A-Za-z0-9_-]+)\s*(?:\((.*)\))?\s*", re.DOTALL)


def _parse_game_string(text: str) -> Rules:
    m = _GAME_STRING.fullmatch(text)
    if m is None:
        raise RulesError(f"{brief_repr(text)} is not a game string like 'finnish(score_limit=100)'")
    base = _preset(m.group(1))
    body = (m.group(2) or "").strip()
    if not body:
        return base
    overrides: dict[str, Any] = {}
    for item in _split_top_level(body):
        if "=" not in item:
            raise RulesError(f"{brief_repr(item.strip())} in game string is not knob=value")
        key, raw = (part.strip() for part in item.split("=", 1))
        if key not in KNOBS:
            raise RulesError(f"unknown knob {brief_repr(key)}; knobs are: {', '.join(KNOBS)}")
        if key in overrides:
            raise RulesError(f"knob {key!r} given twice in game string")
        overrides[key] = _parse_value(key, raw)
    return base.replace(**overrides)


def _split_top_level(body: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    return [p for p in parts if p.strip()]


def _parse_value(key: str, raw: str) -> Any:
    try:
        value = loads(raw, f"the value of knob {key!r}")
    except JSONInputError as e:
        if raw.lstrip()[:1] in ("[", "{") or not e.reason.startswith("not JSON"):
            raise RulesError(str(e)) from None
        value = raw.strip("'\"")  # a bare word such as top_only
    if isinstance(value, list):
        return tuple(value)
    return value


def _preset(name: Any) -> Rules:
    if not isinstance(name, str) or name not in PRESETS:
        raise RulesError(f"unknown preset {brief_repr(name)}; presets are: {', '.join(PRESETS)}")
    return PRESETS[name]


def preset_names() -> list[str]:
    """Names of every preset, standard first."""
    return list(PRESETS)


_STANDARD = Rules()
_SPANISH = Rules()
PRESETS: dict[str, Rules] = {
    "standard": _STANDARD,
    "german-wiki": Rules(joker_swap="as_draw", assaf_penalty_multi=20, halving_scores=()),
    "finnish": Rules(
        max_players=8,
        first_starter="random",
        yaniv_threshold=5,
        assafer_score="hand",
        false_yaniv_penalty=30,
    ),
    "slovenian-yanef": Rules(
        min_players=3,
        max_players=8,
        king_of_hearts_zero=True,
        min_set_size=3,
        allow_jqk_run=False,
        pickup_mode="top_only",
        joker_swap="as_turn",
        yaniv_threshold=5,
        assaf_penalty_adds_hand=False,
        asef=True,
        halving_scores=(),
    ),
    "spanish-zone": _SPANISH,
    "spanish-zone-y5": _SPANISH.replace(yaniv_threshold=5),
    "spanish-zone-out100": _SPANISH.replace(score_limit=100),
    "spanish-zone-y5-out100": _SPANISH.replace(yaniv_threshold=5, score_limit=100),
    "jdross": Rules(
        max_players=8,
        yaniv_threshold=5,
        assaf_penalty_adds_hand=False,
        assaf_others_score="zero",
        halving_scores=(50, 100),
        landing_rule="minus_50",
        score_limit=100,
        jokers_in_sets=True,
        pickup_mode="ends_or_any_of_set",
        round_starter="caller",
    ),
}
"""Every named preset of RULES.md §6 and §6b."""
for _name, _rules in PRESETS.items():
    _set_base(_rules, _name)

assert [f.name for f in fields(Rules)] == list(KNOBS), "Rules fields and KNOBS must agree"
