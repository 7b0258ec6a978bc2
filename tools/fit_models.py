"""Fit the bots' models per rule family: ``python tools/fit_models.py`` (from the repository).

``standard`` is fitted by ``tools/calibrate.py`` into ``calibration.json``; this fits the
other families the same way, each on heuristic self-play of its preset (2 to 5
players): the hand tables (per stage, after a single discard, after a group) and the
win model's strengths. They go to ``src/yaniv/bots/families.json`` with the knobs of
the preset (:data:`yaniv.bots.model.FAMILY_KNOBS`); a rule set uses the family nearest
to it (:func:`yaniv.bots.model.family_of`). The expert reads them; the heuristic keeps
the standard tables (it is the fixed yardstick of the benchmarks).

    python tools/fit_models.py [--families jdross,finnish] [--games 300] [--value-games 3000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from calibrate import calibrate, calibrate_win_model

from yaniv.bots.model import FAMILY_KNOBS
from yaniv.rules import PRESETS

FAMILIES = Path(__file__).resolve().parent.parent / "src" / "yaniv" / "bots" / "families.json"
"""The file the expert reads the families from (the default ``--out``)."""


def fit_family(preset: str, games: int, value_games: int, seed: int) -> dict[str, object]:
    """One family's entry: the preset's knobs, hand tables and win strengths."""
    counts, after_single, after_group = calibrate(games, seed, preset)
    strengths = calibrate_win_model(value_games, seed, preset)
    knobs = PRESETS[preset].to_dict()

    def norm(rows: list[list[float]]) -> list[list[float]]:
        return [[round(c / sum(row), 5) for c in row] for row in rows]

    return {
        "knobs": {k: knobs[k] for k in FAMILY_KNOBS},
        "source": f"heuristic self-play, {preset}, {games} games (hands), {value_games} (win), seed {seed}",
        "card_distribution": norm(counts),
        "after_single": norm(after_single),
        "after_group": norm(after_group),
        "win_strengths": [round(s, 5) for s in strengths],
    }


def main() -> None:
    """Fit the families asked for and write them (others already in --out are kept)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--families", default="jdross,finnish", help="presets to fit, comma-separated")
    parser.add_argument("--games", type=int, default=300, help="games for the hand tables (default 300)")
    parser.add_argument("--value-games", type=int, default=3000, help="games for the win model (3000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(FAMILIES))
    args = parser.parse_args()
    names = [n.strip() for n in args.families.split(",") if n.strip()]
    for name in names:
        if name not in PRESETS or name == "standard":
            parser.error(f"--families: {name!r} is not a preset other than standard ({', '.join(PRESETS)})")
    if args.games < 1 or args.value_games < 1:
        parser.error("--games and --value-games must be at least 1")
    out = Path(args.out)
    data: dict[str, dict[str, object]] = {"families": {}}
    if out.is_dir():
        parser.error(f"--out {args.out!r} is a directory")
    if out.exists():
        try:
            data = json.loads(out.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            parser.error(f"--out {args.out!r} is kept but cannot be read: {e}")
        if not isinstance(data, dict) or not isinstance(data.get("families"), dict):
            parser.error(f"--out {args.out!r} is kept but holds no 'families' object")
    for name in names:
        data["families"][name] = fit_family(name, args.games, args.value_games, args.seed)
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"fitted {name} into {out}", flush=True)


if __name__ == "__main__":
    main()
