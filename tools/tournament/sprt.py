"""The generalized sequential probability ratio test (GSPRT) as fishtest computes it.

H0: the first bot is ``elo0`` stronger than the second; H1: it is ``elo1`` stronger. After every
finished game pair the log-likelihood ratio (LLR) of the pentanomial counts is compared with the
bounds ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``: below the lower bound H0 is
accepted, above the upper one H1, in between the test goes on.

Conformance notes (official-stockfish/fishtest ``server/fishtest/stats/LLRcalc.py`` and
``stat_util.py``; every number of ``tests/data/sprt/vectors.json`` is reproduced to 1e-6):

- counts are regularized (a zero becomes 1e-3) and turned into a distribution over the scores
  ``i / (len - 1)`` of a game (trinomial) or a pair (pentanomial, per game); ``N`` is the
  regularized total, so the LLR is ``N`` times the mean log-ratio per observation;
- the LLR is *generalized*: under each hypothesis the observed distribution is replaced by its
  maximum-likelihood fit that satisfies the hypothesis, and the LLR compares the two fits;
- ``logistic`` model: the hypothesis fixes the expected score ``1 / (1 + 10^(-elo / 400))``; the
  fit is ``p_i / (1 + x (a_i - s))`` with ``x`` the root of the secular equation
  ``sum p_i (a_i - s) / (1 + x (a_i - s)) = 0``, found in the open interval where every
  denominator stays positive (shrunk by 1e-9 at both ends, as fishtest's root finder is called);
- ``normalized`` model: the hypothesis fixes the t-value ``(mu - 1/2) / sigma`` to
  ``nelo / (800 / ln 10)`` per game, times sqrt(2) for pentanomial counts (sigma of a pair);
  the fit is found by at most 10 fixed-point rounds from the uniform distribution, each solving
  a secular equation with ``a_i - 1/2 - t sigma (1 + ((mu - a_i) / sigma)^2) / 2``, stopping
  when no probability moves by 1e-9;
- the root is found here by bisection down to the last representable float instead of
  fishtest's Brent solver (tolerance 2e-12): the same root, well inside the 1e-6 agreement;
- fishtest also moves the bounds inwards by an overshoot estimate, because its workers report
  games in batches. This test is re-evaluated after every single pair, so the LLR cannot jump
  past a bound by more than one pair's step, and the plain bounds are used (as cutechess-cli
  does).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from swc_local.tools.tournament.elo import logistic, regularize

NELO_PER_T = 800 / math.log(10)  # normalized Elo per unit of t-value
MODELS = ("logistic", "normalized")

Distribution = list[tuple[float, float]]  # (score, probability)


def to_distribution(results: list[float]) -> tuple[float, Distribution]:
    """The regularized total and the empirical distribution of ``results``."""
    counts = regularize(list(results))
    total = sum(counts)
    last = len(counts) - 1
    return total, [(i / last, count / total) for i, count in enumerate(counts)]


def mean_var(pdf: Distribution) -> tuple[float, float]:
    mean = sum(p * a for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


def _solve_secular(pdf: Distribution) -> float:
    """The root ``x`` of ``sum p_i a_i / (1 + x a_i) = 0`` where all ``1 + x a_i`` are > 0.

    ``f`` falls strictly on that interval (its derivative is ``-sum p a^2 / (1 + x a)^2``), from
    +inf at its lower end to -inf at its upper end, so bisection always finds the root. Where a
    score is tiny, its end of the interval is so large that the 1e-9 margin vanishes in float
    arithmetic; ``f`` is then taken as infinite there instead of dividing by zero (this happens
    for counts such as ``[0, 0, n, 0, 0]``, two copies of one deterministic bot).
    """
    values = [a for a, _ in pdf]
    if not min(values) < 0 < max(values):
        raise ArithmeticError("the secular equation needs scores on both sides of the hypothesis")
    low, high = -1 / max(values) + 1e-9, -1 / min(values) - 1e-9

    def falls_below_zero(x: float) -> bool:
        total = 0.0
        for a, p in pdf:
            denominator = 1 + x * a
            if denominator <= 0:  # outside the interval: +inf below it, -inf above it
                return a < 0
            total += p * a / denominator
        return total < 0

    while True:
        middle = (low + high) / 2
        if middle in (low, high):
            return middle
        if falls_below_zero(middle):
            high = middle
        else:
            low = middle


def fit_expected(pdf: Distribution, s: float) -> Distribution:
    """The maximum-likelihood distribution on the same scores with expected score ``s``."""
    x = _solve_secular([(a - s, p) for a, p in pdf])
    return [(a, p / (1 + x * (a - s))) for a, p in pdf]


def fit_t_value(pdf: Distribution, ref: float, t: float) -> Distribution:
    """The maximum-likelihood distribution with t-value ``(mu - ref) / sigma`` equal to ``t``."""
    fit = [(a, 1 / len(pdf)) for a, _ in pdf]
    for _ in range(10):
        mu, var = mean_var(fit)
        sigma = math.sqrt(var)
        shifted = [(a - ref - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2, p) for a, p in pdf]
        x = _solve_secular(shifted)
        previous, fit = fit, [(a, p / (1 + x * b)) for (a, p), (b, _) in zip(pdf, shifted)]
        if max(abs(old[1] - new[1]) for old, new in zip(previous, fit)) < 1e-9:
            break
    return fit


def _llr(pdf: Distribution, fit0: Distribution, fit1: Distribution) -> float:
    return sum(p * (math.log(q1) - math.log(q0)) for (_, p), (_, q0), (_, q1) in zip(pdf, fit0, fit1))


def llr_logistic(elo0: float, elo1: float, results: list[float]) -> float:
    total, pdf = to_distribution(results)
    return total * _llr(pdf, fit_expected(pdf, logistic(elo0)), fit_expected(pdf, logistic(elo1)))


def llr_normalized(nelo0: float, nelo1: float, results: list[float]) -> float:
    per_observation = 1.0 if len(results) == 3 else math.sqrt(2)  # a pair's sigma is sqrt(2) larger
    t0, t1 = (nelo / NELO_PER_T * per_observation for nelo in (nelo0, nelo1))
    total, pdf = to_distribution(results)
    return total * _llr(pdf, fit_t_value(pdf, 0.5, t0), fit_t_value(pdf, 0.5, t1))


LLR: dict[str, Callable[[float, float, list[float]], float]] = {
    "logistic": llr_logistic, "normalized": llr_normalized,
}


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper): accept H0 below ``lower``, H1 above ``upper``."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass(frozen=True)
class Sprt:
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.alpha, self.beta)

    def llr(self, pentanomial: list[int]) -> float:
        if sum(pentanomial) == 0:
            return 0.0
        return LLR[self.model](self.elo0, self.elo1, pentanomial)

    def decision(self, llr: float) -> str | None:
        """``"H0"``, ``"H1"`` or None while the test goes on."""
        lower, upper = self.bounds
        return "H0" if llr <= lower else "H1" if llr >= upper else None

    def describe(self) -> str:
        return f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g} model={self.model}"
