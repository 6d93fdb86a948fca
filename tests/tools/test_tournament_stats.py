"""The tournament statistics against fishtest's own numbers (tests/data/sprt/vectors.json)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from swc_local.tools.tournament import binomial, elo, sprt
from tests.helpers import TESTS

VECTORS = json.loads((TESTS / "data" / "sprt" / "vectors.json").read_text())["vectors"]
RELATIVE = 1e-6


def close(actual: float, expected: float) -> bool:
    return math.isclose(actual, expected, rel_tol=RELATIVE)


def label(vector) -> str:
    return f"{vector['model']}-{vector['elo0']}-{vector['elo1']}-{'.'.join(map(str, vector['results']))}"


def test_there_are_vectors_of_both_models_and_both_count_kinds():
    assert len(VECTORS) == 120
    assert {v["model"] for v in VECTORS} == set(sprt.MODELS)
    assert {len(v["results"]) for v in VECTORS} == {3, 5}


@pytest.mark.parametrize("vector", VECTORS, ids=label)
def test_llr_matches_fishtest(vector):
    llr = sprt.LLR[vector["model"]](vector["elo0"], vector["elo1"], vector["results"])
    assert close(llr, vector["llr"]), (llr, vector["llr"])


@pytest.mark.parametrize("vector", VECTORS, ids=label)
def test_elo_interval_and_los_match_fishtest(vector):
    estimate = elo.estimate(vector["results"])
    assert close(estimate.elo, vector["elo"]), (estimate.elo, vector["elo"])
    assert close(estimate.elo95, vector["elo95"]), (estimate.elo95, vector["elo95"])
    assert close(estimate.los, vector["los"]), (estimate.los, vector["los"])


def test_bounds_from_alpha_and_beta_match_fishtest():
    lower, upper = sprt.bounds(0.05, 0.05)
    assert close(lower, VECTORS[0]["lower_bound"]) and close(upper, VECTORS[0]["upper_bound"])


def test_sprt_decides_at_the_bounds():
    test = sprt.Sprt(elo0=0, elo1=5)
    lower, upper = test.bounds
    assert test.decision(upper + 0.01) == "H1"
    assert test.decision(lower - 0.01) == "H0"
    assert test.decision(0.0) is None
    assert test.llr([0, 0, 0, 0, 0]) == 0.0


def test_a_clearly_stronger_bot_is_accepted_and_an_equal_one_is_not():
    test = sprt.Sprt(elo0=0, elo1=50)
    assert test.decision(test.llr([0, 0, 0, 0, 22])) is None
    assert test.decision(test.llr([0, 0, 0, 0, 23])) == "H1"  # 23 won pairs
    assert test.decision(test.llr([140, 0, 0, 0, 140])) is None
    assert test.decision(test.llr([143, 0, 0, 0, 143])) == "H0"


def test_binomial_rule_of_the_test_client():
    rule = binomial.Significance(0.05, min_tests=20)
    assert rule.better((40, 0), 19) is None  # fewer than --min-tests games
    winner, uncertainty = rule.better((40, 0), 20)  # player 1 won all 20 games
    assert winner == 0 and uncertainty == pytest.approx(0.5**20)
    assert rule.better((20, 20), 20) is None  # ten wins each
    assert rule.better((2 * 5, 2 * 15), 20)[0] == 1  # P(X <= 5) for B(20, 1/2) = 0.0207
    assert rule.better((2 * 6, 2 * 14), 20) is None  # P(X <= 6) = 0.0577
    assert binomial.lower_tail(5, 20) == pytest.approx(0.020694, abs=1e-6)
    assert rule.better((21, 19), 20) is None  # 21 points are 10 wins (draws halve, rounded down)


def test_identical_pairs_of_a_deterministic_bot_are_handled():
    """Two copies of one deterministic bot: every pair is one win and one loss (or two draws)."""
    assert sprt.Sprt(0, 50).decision(sprt.llr_logistic(0, 50, [0, 0, 40, 0, 0])) == "H0"
    assert sprt.llr_normalized(0, 200, [0, 0, 5, 0, 0]) < 0
    with pytest.raises(ArithmeticError):  # no distribution on these scores has that t-value
        sprt.llr_normalized(0, 400, [0, 0, 5, 0, 0])
