"""Elo estimate, its 95 % interval and the likelihood of superiority from game counts.

Results are counted as fishtest counts them: trinomial ``[L, D, W]`` (games) or pentanomial
``[LL, LD+DL, LW+DD+WL, DW+WD, WW]`` (game pairs: one board, seats swapped), always from the
point of view of the first bot.

Conformance notes (official-stockfish/fishtest ``server/fishtest/stats/stat_util.py``,
``get_elo``; the numbers in ``tests/data/sprt/vectors.json`` are fishtest's own):

- a zero count becomes 1e-3 before anything is computed (``regularize``), so a result set with
  no losses still has a finite Elo and interval;
- an entry ``i`` of a result list of length ``2n + 1`` is worth ``i / 2`` points for ``n``
  games, so the per-game score is ``mu = sum(count_i * i / 2) / games`` with
  ``games = N * n`` and the per-game variance is measured around ``n * mu`` per entry and
  divided by the number of games (a pair's variance is spread over its two games);
- the interval is the normal one, ``mu -/+ 1.96 * sigma / sqrt(games)``, mapped through the
  logistic Elo curve; ``elo95`` is half its width (so it is not symmetric around ``elo``);
- the logistic curve clamps the score to [1e-3, 1 - 1e-3] before taking the logarithm;
- LOS is ``Phi((mu - 1/2) / (sigma / sqrt(games)))``, with ``Phi`` from ``erfc`` so that a LOS
  deep in the lower tail (1e-89 for a clearly weaker bot) keeps its digits as fishtest's
  ``scipy.stats.norm.cdf`` does, instead of rounding to 0.

What the tables show (:func:`shown`) differs in two places, as cutechess-cli and fishtest's pages
do: a score of exactly 0 % or 100 % has no finite Elo (``-inf``/``+inf``; fishtest's regularized
number would be a made-up +1200), shown with the one-sided 97.5 % bound the games allow (all
``n`` games won: the score is at least ``0.025^(1/n)``, Clopper-Pearson); and an estimate from
fewer than :data:`TRUSTED_PAIRS` game pairs is marked ``small`` (the tables add a ``*``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

REGULARIZER = 1e-3  # what a zero count becomes (fishtest's epsilon)
TRUSTED_PAIRS = 30  # fewer game pairs than this: the interval is marked as a small sample
_NORMAL = NormalDist()


def phi(z: float) -> float:
    """The standard normal distribution function, accurate far into both tails."""
    return 0.5 * math.erfc(-z / math.sqrt(2))


def regularize(results: list[float]) -> list[float]:
    """Counts with every zero replaced by a small prior, so no estimate runs off to infinity."""
    return [count if count != 0 else REGULARIZER for count in results]


def logistic(elo: float) -> float:
    """The expected score of a bot ``elo`` points stronger than its opponent."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of_score(score: float) -> float:
    """The inverse of :func:`logistic`, with the score clamped away from 0 and 1."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


@dataclass(frozen=True)
class ScoreStats:
    games: float  # games the counts stand for (two per pair)
    mu: float  # mean score per game, 0..1
    var: float  # variance of the score per game


def score_stats(results: list[float]) -> ScoreStats:
    """Mean and variance of the per-game score of ``results`` (already regularized if wanted)."""
    per_entry = len(results) - 1  # games per entry times two
    games = sum(results) * per_entry / 2
    mu = sum(count * i / 2 for i, count in enumerate(results)) / games
    centre = per_entry / 2 * mu
    var = sum(count * (i / 2 - centre) ** 2 for i, count in enumerate(results)) / games
    return ScoreStats(games, mu, var)


@dataclass(frozen=True)
class EloEstimate:
    elo: float
    elo95: float  # half the width of the 95 % interval
    los: float  # likelihood of superiority, 0..1
    low: float = math.nan  # the 95 % interval
    high: float = math.nan
    bound: float | None = None  # at 0 % / 100 %: the finite one-sided bound (elo is -inf / +inf)
    small: bool = False  # from fewer than TRUSTED_PAIRS game pairs

    @property
    def finite(self) -> bool:
        return math.isfinite(self.elo)

    def text(self) -> str:
        """``+24.1 ± 80.2``, ``+inf (≥ +93.2)``; a ``*`` for a small sample."""
        mark = " *" if self.small else ""
        if not self.finite:
            relation = "≥" if self.elo > 0 else "≤"
            return f"{'+' if self.elo > 0 else '-'}inf ({relation} {self.bound:+.1f}){mark}"
        return f"{self.elo:+.1f} ± {self.elo95:.1f}{mark}"

    def __str__(self) -> str:
        return f"{self.text()} (LOS {self.los:.1%})"


def estimate(results: list[float]) -> EloEstimate:
    """The Elo estimate of the first bot from trinomial or pentanomial ``results``."""
    stats = score_stats(regularize(list(results)))
    error = math.sqrt(stats.var) / math.sqrt(stats.games)
    low = stats.mu + _NORMAL.inv_cdf(0.025) * error
    high = stats.mu + _NORMAL.inv_cdf(0.975) * error
    return EloEstimate(
        elo=elo_of_score(stats.mu),
        elo95=(elo_of_score(high) - elo_of_score(low)) / 2,
        los=phi((stats.mu - 0.5) / error),
        low=elo_of_score(low), high=elo_of_score(high),
    )


def shown(results: list[float]) -> EloEstimate:
    """What the tables show: :func:`estimate`, except no finite Elo at a 0 % or 100 % score, and
    marked ``small`` below :data:`TRUSTED_PAIRS` pairs (trinomial counts: games / 2)."""
    found = estimate(results)
    last = len(results) - 1
    pairs = sum(results) if last == 4 else sum(results) / 2
    small = pairs < TRUSTED_PAIRS
    games = sum(results) * last / 2
    if results[last] == sum(results) or results[0] == sum(results):
        won = results[last] > 0
        least = 0.025 ** (1 / games)  # all n games won: score >= 0.025^(1/n)
        bound = elo_of_score(least) if won else -elo_of_score(least)
        infinity = math.inf if won else -math.inf
        return EloEstimate(infinity, math.nan, 1.0 if won else 0.0, low=bound if won else -math.inf,
                           high=math.inf if won else bound, bound=bound, small=small)
    return EloEstimate(found.elo, found.elo95, found.los, found.low, found.high, small=small)
