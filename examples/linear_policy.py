"""The policy trained by ``policy_gradient.py``, as a policy file for the bot spec ``policy:FILE``.

    python examples/policy_gradient.py --save examples/linear_policy.json
    yaniv arena --bots policy:examples/linear_policy.py,greedy --games 1000

The weights come from ``linear_policy.json`` next to this file, or from the file the
environment variable ``YANIV_LINEAR_POLICY`` names (what ``--save`` wrote).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import numpy as np

from yaniv import Rules
from yaniv.bots.encoding import ObservationEncoder, action_table
from yaniv.bots.policy import Policy

_HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("yaniv_example_policy_gradient", _HERE / "policy_gradient.py")
assert _spec is not None and _spec.loader is not None
_example = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _example  # its dataclasses look themselves up there
_spec.loader.exec_module(_example)

_weights = Path(os.environ.get("YANIV_LINEAR_POLICY") or _HERE / "linear_policy.json")
_saved = json.loads(_weights.read_text())
if _saved["features"] != _example.FEATURES:
    raise ValueError(f"{_weights} was trained on other features than policy_gradient.py has now")
THETA = np.array(_saved["theta"], dtype=np.float64)


def make_policy(rules: Rules, players: int) -> Policy:
    """The argmax policy for one rule set and player count (its features follow them)."""
    encoder = ObservationEncoder(rules, players)
    policy: Policy = _example.argmax_policy(THETA, action_table(rules, encoder.decks), encoder)
    return policy
