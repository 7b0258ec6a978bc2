"""The game-value model: Bradley-Terry strengths per band of the total."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from tests.scripts import load_script
from yaniv.bots.model import default_win_model
from yaniv.bots.value import BANDS, WinModel, band_of, fit_strengths, win_share
from yaniv.rules import Rules


def _calibrate_win_model() -> Callable[..., list[float]]:
    """calibrate_win_model of tools/calibrate.py (a development script, not a module of the package)."""
    fit: Callable[..., list[float]] = load_script("tools/calibrate.py", "calibrate_tool").calibrate_win_model
    return fit


def test_bands_are_shares_of_the_limit() -> None:
    assert band_of(0, 200) == 0
    assert band_of(-40, 200) == 0
    assert band_of(9, 200) == 0
    assert band_of(10, 200) == 1
    assert band_of(199, 200) == 19
    assert band_of(200, 200) == 20
    assert band_of(50, 100) == 10
    assert band_of(500, 100) == BANDS - 1


def test_the_shipped_model_never_prefers_a_higher_total() -> None:
    model = default_win_model()
    for limit in (100, 200, 150):
        table = model.table(limit)
        assert len(table) == limit + 1
        assert all(a >= b for a, b in itertools.pairwise(table))
        assert table[0] > 20 * table[limit - 1]  # near the limit a player rarely wins


def test_win_probabilities_sum_to_one_and_a_player_over_the_limit_has_none() -> None:
    model = default_win_model()
    rules = Rules.from_spec("standard")
    p = model.win_probabilities([30, 120, 210, 0], [0, 1, 2, 3], rules)
    assert sum(p.values()) == pytest.approx(1.0)
    assert p[2] == 0.0
    assert p[3] > p[0] > p[1]
    assert model.win_probabilities([5, 5], [0, 1], rules) == {0: 0.5, 1: 0.5}


def test_the_table_interpolates_between_band_middles() -> None:
    strengths = [2.0**-k for k in range(BANDS)]
    table = WinModel(strengths).table(200)
    assert table[5] == pytest.approx(1.0)  # the middle of band 0
    assert table[15] == pytest.approx(0.5)  # the middle of band 1
    assert table[10] == pytest.approx(2**-0.5)  # half-way, log-linear


@pytest.mark.parametrize(
    ("strengths", "problem"),
    [
        ([1.0] * (BANDS - 1), "21 strengths, got 20"),
        ([1.0] * (BANDS - 1) + [0.0], "strength 20 must be positive"),
        ([float("nan")] * BANDS, "strength 0 must be positive and finite"),
        ([True] * BANDS, "strength 0 is not a number"),
        (["1"] * BANDS, "strength 0 is not a number"),
    ],
)
def test_a_bad_model_is_named(strengths: list[float], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        WinModel(strengths)


def test_the_fit_recovers_known_strengths() -> None:
    truth = [1.0, 0.5, 0.25] + [0.1] * (BANDS - 3)
    rng = random.Random(5)
    observations = []
    for _ in range(8000):
        bands = [rng.randrange(3) for _ in range(rng.choice((2, 3, 4)))]
        weights = [truth[k] for k in bands]
        winner = rng.choices(range(len(bands)), weights)[0]
        observations.append((bands, [1.0 if i == winner else 0.0 for i in range(len(bands))]))
    fitted = fit_strengths(observations)
    assert fitted[0] == 1.0
    assert fitted[1] == pytest.approx(0.5, rel=0.15)
    assert fitted[2] == pytest.approx(0.25, rel=0.15)
    assert fitted[3:] == [fitted[2]] * (BANDS - 3)  # unseen bands take the band below


def test_the_fit_never_lets_a_higher_total_be_stronger() -> None:
    observations = [([0, 1], [0.0, 1.0])] * 10 + [([0, 1], [1.0, 0.0])] * 2  # band 1 won more
    fitted = fit_strengths(observations)
    assert fitted[1] == fitted[0]


def test_calibrating_the_win_model_on_a_few_games() -> None:
    strengths = _calibrate_win_model()(8, seed=2)
    assert len(strengths) == BANDS
    assert strengths[0] == 1.0
    assert all(a >= b > 0 for a, b in itertools.pairwise(strengths))
    WinModel(strengths)  # a valid model


def test_win_share_when_everyone_is_over_the_limit_is_even() -> None:
    table = default_win_model().table(200)
    assert win_share(table, [250, 260, 201], [0, 1, 2], 0) == pytest.approx(1 / 3)
    assert win_share(table, [250, 10], [0, 1], 0) == 0.0
    assert win_share(table, [250, 10], [0, 1], 1) == 1.0


@pytest.mark.parametrize("limit", [0, -5, True, 2.5])
def test_a_bad_score_limit_is_named(limit: object) -> None:
    with pytest.raises(ValueError, match="score limit"):
        default_win_model().table(limit)  # type: ignore[arg-type]


def test_every_fitted_family_is_a_preset_with_sound_tables() -> None:
    """families.json (python tools/fit_models.py): each family is its preset's, its tables sound."""
    from yaniv.bots.model import FAMILY_KNOBS, families, family_of, model_for, win_model_for
    from yaniv.rules import PRESETS

    fitted = families()
    assert fitted, "families.json ships the fitted rule families"
    for name, fam in fitted.items():
        rules = PRESETS[name]
        assert fam["knobs"] == {k: rules.to_dict()[k] for k in FAMILY_KNOBS}
        assert family_of(rules) == name
        for row in fam["card_distribution"] + fam["after_single"] + fam["after_group"]:
            assert abs(sum(row) - 1.0) < 1e-3 and min(row) > 0
        strengths = win_model_for(rules).strengths
        assert all(b <= a for a, b in itertools.pairwise(strengths))
        assert model_for(rules).card_distribution == fam["card_distribution"]
    assert family_of(PRESETS["standard"]) == "standard"
    assert model_for(PRESETS["standard"]) is not model_for(PRESETS[next(iter(fitted))])


def test_a_rule_set_takes_the_nearest_family() -> None:
    """The threshold decides first: a standard game at threshold 5 is nearer finnish than standard."""
    from yaniv.bots.model import families, family_of

    if "finnish" not in families():
        pytest.skip("finnish not fitted")
    assert family_of(Rules.from_spec("standard(yaniv_threshold=5)")) == "finnish"
    assert family_of(Rules.from_spec("standard(score_limit=250)")) == "standard"
