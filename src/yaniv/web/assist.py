"""What a seat may ask beyond its view: a hint, the odds of a Yaniv call, why a move is refused.

Also the score sheet, and a finished game's history.

Each answer comes from the engine and the bots, never from a copy of their logic:

* :func:`hint` is the terminal game's hint (``yaniv play``, the ``h`` key): the expert
  (:func:`yaniv.session.make_opponent`) asked on the seat's own view, so it knows only
  what the seat knows; with it the chance that a Yaniv call succeeds now, from the bots'
  opponent model (:func:`yaniv.bots.model.call_success_for_view`), as the terminal
  game and ``yaniv odds`` compute it.
* :func:`why_not` is the engine's own reason for refusing an action (the words of
  :class:`~yaniv.errors.IllegalActionError`), found by trying the action on a copy of the
  round: nothing changes.
* :func:`score_sheet` lists every settled round's scores and totals.
* :func:`history` replays a finished game's record (:func:`yaniv.record.replay_steps`)
  into steps a page can show one after the other, every hand open (the game is over:
  nothing is hidden any more).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..bots.model import call_success_for_view
from ..errors import IllegalActionError, YanivError
from ..intent import legal_match
from ..record import replay_steps
from ..session import make_opponent

if TYPE_CHECKING:  # a front end reads views, never the state module itself
    from .. import SeatView
    from ..game import Game
    from ..table import Table

__all__ = ["HINT_LEVEL", "hint", "history", "score_sheet", "why_not"]

HINT_LEVEL = "expert"
"""The bot whose move a hint suggests (the terminal game's)."""


def hint(view: SeatView, salt: str) -> dict[str, Any]:
    """The expert's move for *view* and the odds of a Yaniv call now.

    The move is an action's JSON (``None``: let a drawn card go); the odds are ``None``
    when no Yaniv call is legal.

    Slow (a search): run it off the event loop. *salt* seeds the bot's random choices, so
    the same position asked twice gets the same hint.
    """
    bot = make_opponent(HINT_LEVEL)
    action = bot.act(view, random.Random(f"hint-{salt}"))
    odds = call_success_for_view(view) if any(a.type == "yaniv" for a in view.legal) else None
    return {
        "action": None if action is None else action.to_json(),
        "odds": None if odds is None else round(odds, 4),
    }


def why_not(table: Table, seat: int, action: Action) -> str | None:
    """The engine's reason why *seat* may not play *action* now (``None``: it may).

    The cards may be named in any order, as a person picks them (:func:`legal_match`);
    the action is tried on a copy of the round, so nothing changes.
    """
    state = table.game.round
    if state.is_over:
        return "the round is over"
    if legal_match(state.view(seat), action) is not None:
        return None
    try:
        state.copy().apply(seat, action)
    except IllegalActionError as e:
        return str(e)
    except YanivError as e:
        return str(e)
    return None


def score_sheet(game: Game) -> list[dict[str, Any]]:
    """Every settled round: its number, each seat's score and the totals after it."""
    return [
        {
            "round": k + 1,
            "kind": r.kind,
            "caller": r.caller,
            "scores": list(r.round_scores),
            "totals": list(r.totals),
        }
        for k, r in enumerate(game.results)
    ]


def history(events: list[dict[str, Any]]) -> dict[str, Any]:
    """A finished game step by step, every card open (the game is over).

    After each record line: the round, every hand and its value, the pile's top group,
    the stock, the totals and whose turn it is.
    """
    steps: list[dict[str, Any]] = []
    names: list[str] | None = None
    for game, line in replay_steps(events):
        if names is None:
            names = list(game.names) if game.names else [f"P{p}" for p in range(game.n)]
        event = {k: v for k, v in line.items() if not k.startswith("_")}
        if event.get("type") == "header":
            continue
        state = game.round
        public = state.view(None)
        pile = public.discard_pile
        steps.append(
            {
                "event": event,
                "round": game.round_no,
                "hands": [[str(c) for c in state.hand(p)] for p in range(game.n)],
                "values": [state.hand_value(p) for p in range(game.n)],
                "top": [str(c) for c in pile[-1]] if pile else [],
                "stock": public.stock_count,
                "totals": list(game.totals),
                "current": None if state.is_over else state.current,
            }
        )
    return {"names": names or [], "steps": steps}
