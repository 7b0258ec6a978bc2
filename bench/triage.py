"""The cost of the expert's early stop: how far its choices fall from a search that never stops early.

The search tests its candidates against the leader every few determinizations and stops
when one is left (``search.MIN_DETERMINIZATIONS``, ``CHECK_EVERY``, ``DROP_Z``): clear
decisions cost a fraction of the budget, but a good candidate can be dropped on a bad
run of deals. This script plays untimed self-play games of the default expert and, at
every turn start it searches (more than one candidate), searches the same position
again, all on the same sequence of deals (common random numbers):

* a **reference**: ``--reference`` determinizations, no early stop; its mean utility of
  each candidate scores every other search's choice;
* a **second reference** on other deals: the measure's noise floor (a search as long as
  the reference disagrees with it that often);
* each early-stop setting of ``--settings`` (``MIN:Z``: the determinizations before the
  first test and the standard errors a candidate must trail by to be out; ``32:3`` is
  the shipped one since session 32, ``16:2`` the one before), with the level's
  determinizations (400).

For each: ``agree`` (the share of decisions where it picks the reference's choice: the
first candidate within ``INDIFFERENCE`` of the best mean), ``regret`` (the reference's
best mean less its mean of the choice, in utility units: 150 is the whole game),
``call_agree`` (where a Yaniv call is a candidate: the same call-or-not) and
``playouts`` per decision (what the setting costs). Prints one JSON object.

    python bench/triage.py [--rules standard] [--players 2] [--games 6] [--seed 50000]
                           [--reference 1500] [--settings 16:2,32:3,64:3]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from dataclasses import dataclass, replace
from typing import Any

from yaniv.actions import Action
from yaniv.arena.run import make_arena_bot
from yaniv.bots import search as search_module
from yaniv.bots.heuristic import Knowledge
from yaniv.bots.playout import Determinizer
from yaniv.bots.search import ExpertBot
from yaniv.cli.common import Progress
from yaniv.game import Game
from yaniv.rules import Rules
from yaniv.state import SeatView
from yaniv.table import DecisionKind, Table, player_rngs

TURN_CAP = 2001
"""A round that runs this long stops the game (as in the arena)."""

NO_EARLY_STOP = 10**9
"""``MIN_DETERMINIZATIONS`` for a search that runs to its budget."""


@dataclass
class Tally:
    """One search setting's figures over the decisions so far."""

    decisions: int = 0
    agree: int = 0
    regret: float = 0.0
    calls: int = 0
    call_agree: int = 0
    playouts: int = 0

    def summary(self) -> dict[str, Any]:
        """The JSON figures."""
        n = max(self.decisions, 1)
        return {
            "decisions": self.decisions,
            "agree": round(self.agree / n, 4),
            "regret": round(self.regret / n, 4),
            "call_decisions": self.calls,
            "call_agree": round(self.call_agree / max(self.calls, 1), 4),
            "playouts": round(self.playouts / n, 1),
        }


def searched(
    bot: ExpertBot, view: SeatView, cands: list[Action], seed: int, first: int, z: float, n: int
) -> tuple[int, dict[int, float], int]:
    """(choice, means, playouts) of *bot*'s search of *cands* at *view* on the deals of *seed*,
    with that early stop and budget."""
    sample = Determinizer(view, bot.model, Knowledge(view).stage, bot.drawn_like_stock).sample
    saved = search_module.MIN_DETERMINIZATIONS, search_module.DROP_Z
    search_module.MIN_DETERMINIZATIONS, search_module.DROP_Z = first, z
    bot.level = replace(bot.level, determinizations=n, max_seconds=math.inf)
    before = bot.playouts
    try:
        action = bot.search(view, cands, random.Random(seed), sample)
    finally:
        search_module.MIN_DETERMINIZATIONS, search_module.DROP_Z = saved
    return cands.index(action), dict(bot.last_means), bot.playouts - before


def measure(
    spec: str, players: int, games: int, seed: int, reference: int, settings: list[tuple[int, float]]
) -> dict[str, Any]:
    """The figures of the module docstring over *games* self-play games."""
    rules = Rules.from_spec(spec)
    budget = search_module.LEVELS["default"].determinizations
    names = ["reference-again"] + [f"{first}:{z:g}" for first, z in settings]
    tallies = {name: Tally() for name in names}
    judge = ExpertBot()
    progress = Progress(games, sys.stderr, "games")
    for g in range(games):
        game = Game(rules, players=players, seed=seed + g)
        seats = [make_arena_bot("expert", untimed=True) for _ in range(players)]
        table = Table(game, seats, rngs=player_rngs(seed + g, players), turn_cap=TURN_CAP, auto_deal=False)
        k = 0
        while (decision := table.waiting_for()) is not None:
            if decision.kind == DecisionKind.NEXT_ROUND:
                table.next_round()
                continue
            if decision.kind == DecisionKind.TURN and decision.seat is not None:
                view = table.view(decision.seat)
                seat_bot = seats[decision.seat]
                judge._models_for(view.rules)
                if isinstance(seat_bot, ExpertBot):
                    judge.reader = seat_bot.reader  # what that seat has read of its opponents
                k += 1
                deals = 10**6 * (g + 1) + 10 * k  # the reference's deals; the others' are independent of them
                at_start = view.phase == "turn_start"
                cands = judge.candidates(view, Knowledge(view), random.Random(0)) if at_start else []
                if len(cands) > 1:
                    has_call = any(a.type == "yaniv" for a in view.legal)
                    _, ref, _ = searched(judge, view, cands, deals, NO_EARLY_STOP, 2.0, reference)
                    best, chosen = max(ref.values()), search_module.choice(ref)
                    runs = [("reference-again", NO_EARLY_STOP, 2.0, reference, deals + 1)]
                    # every setting on the same deals (common random numbers): their differences are theirs
                    runs += [(f"{first}:{z:g}", first, z, budget, deals + 2) for first, z in settings]
                    for name, first, z, n, s in runs:
                        i, _, cost = searched(judge, view, cands, s, first, z, n)
                        tally = tallies[name]
                        tally.decisions += 1
                        tally.agree += i == chosen
                        tally.regret += best - ref[i]
                        tally.playouts += cost
                        if has_call:
                            tally.calls += 1
                            tally.call_agree += (i == 0) == (chosen == 0)  # the call is candidate 0
            table.step()
        progress.update(g + 1)
    progress.close()
    return {
        "rules": spec,
        "players": players,
        "games": games,
        "seed": seed,
        "reference": reference,
        "budget": budget,
        "settings": {name: tally.summary() for name, tally in tallies.items()},
    }


def parse_settings(text: str) -> list[tuple[int, float]]:
    """``"16:2,32:3"`` as [(16, 2.0), (32, 3.0)]; ValueError naming the bad item."""
    out = []
    for item in text.split(","):
        first, sep, z = item.partition(":")
        try:
            pair = (int(first), float(z))
        except ValueError:
            raise ValueError(f"{item!r} is not MIN:Z (say 16:2)") from None
        if not sep or pair[0] < 1 or not 0 < pair[1] < 100:
            raise ValueError(f"{item!r}: MIN must be at least 1 and Z in (0, 100)")
        out.append(pair)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", default="standard", help="rules spec (default standard)")
    parser.add_argument("--players", type=int, default=2, help="players (default 2)")
    parser.add_argument("--games", type=int, default=6, help="self-play games (default 6)")
    parser.add_argument("--seed", type=int, default=50000, help="seed of the first game (default 50000)")
    parser.add_argument("--reference", type=int, default=1500, help="reference determinizations (1500)")
    parser.add_argument("--settings", default="16:2,32:3,64:3", help="early stops, MIN:Z,...")
    args = parser.parse_args()
    try:
        rules = Rules.from_spec(args.rules)
        settings = parse_settings(args.settings)
    except ValueError as e:
        parser.error(str(e))
    problem = rules.players_problem(args.players)
    if problem:
        parser.error(f"--players {args.players}: {problem}")
    if not 1 <= args.games <= 10_000 or not 16 <= args.reference <= 100_000:
        parser.error("--games must be in [1, 10000] and --reference in [16, 100000]")
    print(json.dumps(measure(args.rules, args.players, args.games, args.seed, args.reference, settings)))


if __name__ == "__main__":
    main()
