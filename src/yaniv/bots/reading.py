"""How loosely each opponent calls Yaniv, read from the calls he makes (the expert's :class:`CallReader`).

The expert's playouts let every seat call Yaniv when the opponent model puts its Assaf
risk at or below a level (:func:`.playout.playout_risk`, 0.15 on ``standard``). That is
where the expert itself calls; the ``heuristic`` calls at 0.3. The playouts win when
their opponents call as the real ones do (docs/bots.md §2, session 24: the opponents at
0.3 won 75.5% of 1,000 heads-up games against the heuristic where 0.15 won 72.9%, and
lost 4.4 points against the frozen expert, which calls at the expert's level).

Every showdown tells how loosely its caller called: his hand is shown, so the risk he
took can be computed from what he knew (the hand sizes, the cards each other seat was
seen taking, the stage), by the same model the playouts call with, and divided by the
score-aware factor of :func:`.playout.call_risk`. The reader keeps, per opponent, the
log-odds that he calls like the heuristic ("loose") rather than like the expert
("tight"), adding the log-likelihood ratio of each call's normalised risk
(:func:`llr_for`: :data:`CALL_LLR`, or a table fitted per rule family and player count
by ``python tools/fit_reading.py`` into ``reading.json``), and the search lets his playout seat call
at :data:`LOOSE_RISK` with that probability. It starts every game at :data:`PRIOR_LOG_ODDS` and never reads an
opponent looser than the heuristic: where the evidence says nothing, the playouts call
as the expert's own (the shipped behaviour).

It reads the game's events (:meth:`CallReader.feed`, which ``ExpertBot.observe`` calls):
an event it cannot read makes it ignore the rest of that round, never fail.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from ..cards import parse_card
from ..rules import Rules
from .model import HandModel, family_of, stage_of
from .playout import call_risk

__all__ = [
    "CALL_EDGES",
    "CALL_LLR",
    "LOOSE_RISK",
    "PRIOR_LOG_ODDS",
    "READING",
    "CallReader",
    "bin_of",
    "fitted_tables",
    "llr_for",
    "parse_reading",
]

LOOSE_RISK: Final = 0.3
"""The loose caller's level: the heuristic's (``heuristic.Weights.risk``)."""

CALL_EDGES: Final[tuple[float, ...]] = (0.01, 0.03, 0.06, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35)
"""Upper edges of the bins of a call's normalised Assaf risk (the last bin is open)."""

CALL_LLR: Final[tuple[float, ...]] = (-0.30, -0.31, -0.15, 0.13, 0.25, 0.83, 0.95, 1.37, -2.8, -1.6)
"""The table where ``reading.json`` has none: log P(bin | loose) - log P(bin | tight) per bin.

Measured in session 25 (docs/bots.md §2) on ``standard`` heads-up untimed games: the
heuristic's calls against the expert's (against the heuristic and in self-play). The
heuristic almost never calls above 0.3 (its stall allowance); the expert does on about
5% of its calls, where its search sees more than the model: those bins read "tight"."""

PRIOR_LOG_ODDS: Final = -1.0
"""Log-odds that an opponent calls loosely before any call is seen (P = 0.27)."""

MAX_LOG_ODDS: Final = 8.0
"""Bound of the accumulated log-odds either way (a long game cannot freeze the reading)."""

READING: Final = Path(__file__).with_name("reading.json")
"""Fitted tables (``python tools/fit_reading.py``): family -> players -> ``llr``.

None ships: the untimed refit lost against the frozen expert where :data:`CALL_LLR` did
not (docs/bots.md §2, session 26); a file written here replaces it for its families."""


def bin_of(normalised: float) -> int:
    """The bin of :data:`CALL_EDGES` a call's normalised risk falls in."""
    i = 0
    while i < len(CALL_EDGES) and normalised >= CALL_EDGES[i]:
        i += 1
    return i


def parse_reading(data: object) -> dict[str, dict[str, tuple[float, ...]]]:
    """The tables of a ``reading.json`` document: family -> number of players -> table.

    ``ValueError`` naming what is wrong: other bin edges than :data:`CALL_EDGES` (fit
    again), a table of the wrong length or with a value that is not a finite number, a
    player count that is not 2-8.
    """
    if not isinstance(data, dict) or not isinstance(data.get("families"), dict):
        raise ValueError("reading.json: not an object with 'families'")
    if tuple(data.get("edges", ())) != CALL_EDGES:
        raise ValueError("reading.json was fitted on other bins: run python tools/fit_reading.py")
    out: dict[str, dict[str, tuple[float, ...]]] = {}
    for family, by_players in data["families"].items():
        if not isinstance(by_players, dict):
            raise ValueError(f"reading.json: family {family!r} is not an object")
        out[family] = {}
        for players, entry in by_players.items():
            if players not in {str(n) for n in range(2, 9)}:
                raise ValueError(f"reading.json: {family}: {players!r} is not a player count of 2-8")
            table = entry.get("llr") if isinstance(entry, dict) else None
            if not isinstance(table, list) or len(table) != len(CALL_EDGES) + 1:
                raise ValueError(f"reading.json: {family}/{players}: not {len(CALL_EDGES) + 1} values")
            if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in table):
                raise ValueError(f"reading.json: {family}/{players}: a value is not a finite number")
            out[family][players] = tuple(float(v) for v in table)
    return out


@cache
def fitted_tables() -> dict[str, dict[str, tuple[float, ...]]]:
    """The tables shipped in ``reading.json`` (:func:`parse_reading`; empty if there is none)."""
    path = resources.files("yaniv.bots").joinpath("reading.json")
    if not path.is_file():
        return {}
    return parse_reading(json.loads(path.read_text(encoding="utf-8")))


def llr_for(rules: Rules, players: int) -> tuple[float, ...]:
    """The table of *rules*' family (:func:`.model.family_of`) at *players* seats.

    The family's nearest fitted player count stands in for one not fitted; ``standard``'s
    tables for a family with none; :data:`CALL_LLR` when there is no file.
    """
    tables = fitted_tables()
    by_players = tables.get(family_of(rules)) or tables.get("standard", {})
    if not by_players:
        return CALL_LLR
    nearest = min(by_players, key=lambda n: (abs(int(n) - players), int(n)))
    return by_players[nearest]


class CallReader:
    """Per-opponent odds of a loose Yaniv caller, from the public play of the current game."""

    def __init__(self) -> None:
        """A reader before any game."""
        self.log_odds: dict[int, float] = {}
        """Seat -> log-odds that it calls like the heuristic (absent: :data:`PRIOR_LOG_ODDS`)."""
        self.calls_read = 0
        """Calls read this game."""
        self.last_call: tuple[int, float] | None = None
        """(caller, normalised Assaf risk) of the last call read (its :data:`CALL_EDGES` scale)."""
        self._counts: list[int] = []
        self._seen: list[list[int]] = []  # per seat: the kinds of the cards seen taken and still held
        self._active: list[int] = []
        self._totals: list[int] = []
        self._turns = 0
        self._readable = False  # the current round's events were all understood
        self._call: tuple[int, list[int], list[list[int]], int, list[int]] | None = None
        self._tables: dict[tuple[Rules, int], tuple[float, ...]] = {}

    def p_loose(self, seat: int) -> float:
        """The probability that *seat* calls Yaniv like the heuristic."""
        return 1.0 / (1.0 + math.exp(-self.log_odds.get(seat, PRIOR_LOG_ODDS)))

    def feed(self, event: Mapping[str, Any], rules: Rules | None, model: HandModel) -> None:
        """Follow one (redacted) game event; a showdown's call is read with *rules* and *model*.

        Without *rules* (no decision yet) a call is not read. A malformed event makes the
        reader skip the rest of its round.
        """
        try:
            self._feed(event, rules, model)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            self._readable = False
            self._call = None

    def _feed(self, event: Mapping[str, Any], rules: Rules | None, model: HandModel) -> None:
        kind = event["type"]
        if kind == "deal":
            hands: Sequence[Sequence[str] | None] = event["hands"]
            counts = event.get("hand_counts")
            n = len(hands)
            if event["round"] == 1 or len(self._totals) != n:
                self.log_odds.clear()
                self.calls_read = 0
                self._totals = [0] * n
            self._counts = [int(c) for c in counts] if counts is not None else [len(h or ()) for h in hands]
            if len(self._counts) != n:
                raise ValueError("hand counts")
            self._seen = [[] for _ in range(n)]
            self._active = [int(p) for p in event["players"]]
            self._turns = 0
            self._readable = True
            self._call = None
            return
        if not self._readable:
            return
        if kind == "discard":
            seat = event["seat"]
            seen = self._seen[seat]
            for name in event["cards"]:
                k = parse_card(name)
                if k in seen:
                    seen.remove(k)
            self._counts[seat] -= len(event["cards"])
        elif kind == "draw":
            self._counts[event["seat"]] += 1
            self._turns += 1
        elif kind == "take":
            seat = event["seat"]
            self._counts[seat] += 1
            self._seen[seat].append(parse_card(event["card"]))
            self._turns += 1
        elif kind == "slap":  # the card just drawn, never seen taken
            self._counts[event["seat"]] -= 1
        elif kind == "swap":  # a card given for a joker taken from the pile: the joker is seen
            seat = event["seat"]
            seen = self._seen[seat]
            k = parse_card(event["card"])
            if k in seen:
                seen.remove(k)
            seen.append(parse_card("JK"))
            self._turns += 1
        elif kind == "yaniv":
            self._call = (
                event["seat"],
                self._counts[:],
                [s[:] for s in self._seen],
                self._turns,
                self._totals[:],
            )
        elif kind == "round_end":
            totals = [int(t) for t in event["totals"]]
            call, self._call = self._call, None
            self._readable = False
            if (
                call is not None
                and rules is not None
                and (event["kind"], event["caller"]) == ("yaniv", call[0])
            ):
                value = event["values"][call[0]]
                if isinstance(value, int):
                    self._read(call, value, rules, model)
            self._totals = totals
        elif kind in ("asef", "false_yaniv"):
            self._call = None

    def _read(
        self,
        call: tuple[int, list[int], list[list[int]], int, list[int]],
        value: int,
        rules: Rules,
        model: HandModel,
    ) -> None:
        """Add the evidence of *caller*'s call with a hand worth *value*."""
        caller, counts, seen, turns, totals = call
        values = rules.card_values
        limit = value if rules.assaf_on_tie else value - 1
        stage = stage_of(turns, len(self._active))
        safe = 1.0
        for p in self._active:
            if p != caller:
                shown = seen[p]
                shown_value = sum(values[k] for k in shown)
                safe *= 1.0 - model.p_hand_at_most(limit, counts[p], shown_value, len(shown), stage)
        factor = call_risk(rules, totals, self._active, caller, value, 1.0)
        normalised = (1.0 - safe) / factor if factor > 0 else 1.0
        self.last_call = (caller, normalised)
        table = self._tables.get((rules, len(self._active)))
        if table is None:
            table = self._tables[rules, len(self._active)] = llr_for(rules, len(self._active))
        odds = self.log_odds.get(caller, PRIOR_LOG_ODDS) + table[bin_of(normalised)]
        self.log_odds[caller] = max(-MAX_LOG_ODDS, min(MAX_LOG_ODDS, odds))
        self.calls_read += 1

    def __repr__(self) -> str:
        """The odds per seat read so far."""
        odds = ", ".join(f"P{s}: {self.p_loose(s):.2f}" for s in sorted(self.log_odds))
        return f"<CallReader {self.calls_read} calls read; loose {odds or 'none yet'}>"
