"""Yaniv for reinforcement learning: a PettingZoo AEC environment and a Gymnasium one.

Needs the ``rl`` extra (``pip install yaniv[rl]``: pettingzoo, gymnasium, numpy).
Both environments are adapters over the table driver (:class:`yaniv.table.Table`) and
see the game only through seat views, so an observation never holds another seat's
hidden card. Any rule spec of the engine, 2–8 players, whole games or single rounds.

>>> from yaniv import Action
>>> from yaniv.env import raw_env
>>> e = raw_env(rules="standard", players=2)
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape
('player_1', (462,))
>>> [e.actions.describe(int(i)) for i in obs["action_mask"].nonzero()[0]]
['discard AS', 'discard JS', 'discard 2H', 'discard 8D', 'discard 9C']
>>> e.step(e.actions.index(Action.parse("discard JS")))
>>> e.agent_selection, str(e.decision)    # the same agent takes now
('player_1', 'P1 take')

=========================================  ============================================
call                                       what
=========================================  ============================================
``raw_env(rules=SPEC, players=N, ...)``    the AEC game; an illegal action raises
                                           :class:`~yaniv.IllegalActionError`
``env(...)``                               the same in PettingZoo's wrappers: an illegal
                                           action ends the game, that agent gets −1
``SingleAgentEnv(rules, players,           one learner against bots (Gymnasium);
opponents="greedy")``                      ``gymnasium.make("yaniv/Yaniv-v0", ...)``
``make_vector(n, ...)``                    *n* of those in Gymnasium's vector API
``PolicyBot(policy, rules, players)``      a policy seated as a bot (arena, play_game)
=========================================  ============================================

Keywords (both environments): ``rules`` (preset, game string, ``{"preset",
"overrides"}`` or knob dict), ``players``, ``episode`` (``"game"``: rounds, halving,
eliminations, tie-breaks; ``"round"``: one deal), ``reward`` (``"game"``: +1 each
winner, −1 the others; ``"rank"``: +1 first … −1 last, ties sharing; ``"round"``: after
every round, minus the change of one's total), ``turn_cap`` (a round this long is
truncated). ``reset(seed=S)`` deals exactly ``Game(rules, players, seed=S)``; a reset
without a seed continues the seeded sequence. Agents are ``player_0 … player_{n-1}``
(seat order). The agent to act is the one the table waits for: the same agent acts
several times in a turn (its discard, then its take; its slap window, S20). Eliminated
agents stay until the game ends but are never selected.

**Actions** (``Discrete(actions.size)``; :class:`~yaniv.bots.encoding.ActionTable`, sizes
from the rules and the deck count, never constants):

==========================  ====================================================
indices                     action
==========================  ====================================================
``0 .. D-1``                every distinct discard: the 53 singles (kinds AS..KC,
                            JK), then sets and runs by length, each a kind sequence
                            as laid (a set once per choice of takeable cards, a run
                            once per joker placement)
``take + k`` (53)           take the card of kind *k* from the previous group
``draw``, ``yaniv``         draw the top of the stock; call Yaniv
``swap + k`` (52)           joker exchange giving natural card *k* (``joker_swap`` on)
``slap``, ``pass_``         slap the card just drawn / let the window pass (``quick_discard`` on)
``asef``                    the Asef blind call (``asef`` on)
==========================  ====================================================

D is 1,689 for one deck and 5 cards (53 singles, 312 sets, 1,324 runs), 3,205 for
7 cards, 4,755 for two decks and 5 cards. ``actions.action(i)`` is the engine action,
``actions.index(action)`` the way back, ``actions.describe(i)`` its text.

**Observation** (``Box`` float32, :class:`~yaniv.bots.encoding.ObservationEncoder`;
``encoder.slices`` names every block). Card blocks count the kinds 0..52 (suit × 13 +
rank − 1, suits S H D C, joker 52); opponents are numbered clockwise from the seat:

==================================  ===============================================
block                               content
==================================  ===============================================
``hand`` (53)                       one's own cards
``takeable`` (53)                   the cards one may take after discarding (on turn)
``previous_group`` (53)             the group the player on turn may take from
``pile`` (53)                       every card in the discard pile (out of play until
                                    a reshuffle)
``own_last`` (53)                   one's last discard this round
``drawn`` (53)                      the card one may slap (slap window only)
``opponent{i}.seen`` (53 each)      cards seen taken by that opponent, still held
``opponent{i}.last`` (53 each)      its last discard this round
``hand_count``, ``hand_value``      one's cards / hand size; hand value / (10 × hand size)
``total``                           one's total / score limit (clipped to ±4)
``can_call``                        one's hand value is at most the Yaniv threshold
``phase`` (3)                       one-hot: turn start, take, slap window (zeros when
                                    not deciding)
``stock``, ``turns``                stock cards / deck size; turns this round / 500
``opponent{i}.scalars`` (4 each)    cards / hand size, total / score limit, active,
                                    on turn
``knobs`` (25)                      the rules that shape play: threshold, score limit,
                                    hand size, two decks, players, set size, jokers,
                                    runs, penalties, pickup / swap / slap modes, Asef
==================================  ===============================================

The action mask (``Box(0, 1, int8)``) is exact: every unmasked action is legal and
every legal action unmasked; it is all zeros for agents not on turn.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from ..bots.encoding import KINDS, ActionTable, ObservationEncoder, action_table
from ..bots.policy import PolicyBot
from .aec import ILLEGAL_REWARD, env, raw_env
from .gym import ENV_ID, SingleAgentEnv, make_vector
from .rewards import EPISODES, REWARDS

__all__ = [
    "ENV_ID",
    "EPISODES",
    "ILLEGAL_REWARD",
    "KINDS",
    "REWARDS",
    "ActionTable",
    "ObservationEncoder",
    "PolicyBot",
    "SingleAgentEnv",
    "action_table",
    "env",
    "make_vector",
    "raw_env",
]

if ENV_ID not in registry:
    register(id=ENV_ID, entry_point="yaniv.env.gym:SingleAgentEnv")
