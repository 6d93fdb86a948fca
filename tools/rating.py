"""Maximum-likelihood Elo on the logistic model: one bot against opponents of known Elo (``swc
rate``), and every player of a field at once (the ladder's calibration, benchmarks/ladder.py).

The model is the one of the Elo scale: a player ``d`` points stronger than its opponent scores
``1 / (1 + 10 ** (-d / 400))`` per game on average.  A game scores 1, 1/2 (a draw) or 0.

Why maximum likelihood and not a mean score against "the field": ``swc rate`` spends its games
against different rungs (the adaptive choice, tools/rate.py), so the bot's games are against
opponents of different strength; the likelihood weighs each game by its own opponent.

Conformance notes (choices, also in docs/manual/rate.md):

- The 95 % interval of one bot is the likelihood-ratio interval: every Elo whose log-likelihood is
  within ``1.96² / 2`` of the maximum.  It needs no normal approximation, so it stays honest with
  few games and is not symmetric around the estimate when the games are one-sided.
- A bot that won (or lost) every game has no finite maximum: the estimate is ``+inf`` (``-inf``)
  and the interval has only its lower (upper) end, found by the same rule (the log-likelihood's
  supremum is then 0).
- The rungs' own Elo are taken as exact.  The calibration's interval of each rung (its docs table)
  comes on top of the bot's interval; ``swc rate`` prints both.
- A field (the calibration) is fitted jointly, one player held at 0 (the ladder's ``random``),
  with BayesElo's prior: every pair of players that met also gets :data:`PRIOR_DRAWS` virtual
  draws, so a rung that wins every game against another still has a finite gap (the tables say
  when a pair's games were all won by one side).  The interval of each player is the normal one
  from the inverse of the Hessian of the log-posterior (the covariance of the fit, the anchor's
  Elo fixed).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
DROP95 = Z95 * Z95 / 2  # the log-likelihood drop at the 95 % likelihood-ratio bound
SPAN = 4000.0  # no estimate or bound goes beyond the opponents' Elo +- this
PRIOR_DRAWS = 1.0
_SCALE = math.log(10) / 400


def expected(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger than its opponent."""
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class Result:
    """One game of the bot: its opponent's Elo and the bot's score (1, 0.5 or 0)."""

    opponent: float
    score: float


@dataclass(frozen=True)
class Rating:
    """An Elo with its 95 % interval ``low``..``high``; ``elo`` is +-inf when every game was won
    (lost), and then only ``low`` (``high``) is finite: a one-sided bound."""

    elo: float
    low: float
    high: float
    games: int

    @property
    def one_sided(self) -> bool:
        return not math.isfinite(self.elo)

    def text(self) -> str:
        """``+412 (95 %: +298 .. +540)``, or ``at least +530 (it won every game)``."""
        if self.elo == math.inf:
            return f"at least {self.low:+.0f} (95 %; it won every game, so there is no upper end)"
        if self.elo == -math.inf:
            return f"at most {self.high:+.0f} (95 %; it lost every game, so there is no lower end)"
        return f"{self.elo:+.0f} (95 %: {self.low:+.0f} .. {self.high:+.0f})"


def log_likelihood(elo: float, results: Sequence[Result]) -> float:
    total = 0.0
    for result in results:
        p = expected(elo - result.opponent)
        if result.score > 0:
            total += result.score * math.log(max(p, 1e-300))
        if result.score < 1:
            total += (1 - result.score) * math.log(max(1 - p, 1e-300))
    return total


def _bisect(f, low: float, high: float, steps: int = 80) -> float:
    """The x in [low, high] where the increasing ``f`` crosses 0."""
    for _ in range(steps):
        middle = (low + high) / 2
        if f(middle) < 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def rate(results: Iterable[Result]) -> Rating:
    """The maximum-likelihood Elo of a bot from its ``results`` against opponents of known Elo,
    with the 95 % likelihood-ratio interval (ValueError without a result)."""
    results = list(results)
    if not results:
        raise ValueError("no games to rate")
    low_end = min(r.opponent for r in results) - SPAN
    high_end = max(r.opponent for r in results) + SPAN
    points = sum(r.score for r in results)
    if points >= len(results) or points <= 0:
        won = points > 0
        # the supremum of the log-likelihood is 0 (at +-inf): the bound is where it drops by DROP95
        bound = _bisect(lambda x: (log_likelihood(x, results) + DROP95) * (1 if won else -1), low_end, high_end)
        return Rating(math.inf, bound, math.inf, len(results)) if won else \
            Rating(-math.inf, -math.inf, bound, len(results))
    # the score equation: the expected points rise with the Elo; the maximum is where they match
    elo = _bisect(lambda x: sum(expected(x - r.opponent) for r in results) - points, low_end, high_end)
    top = log_likelihood(elo, results) - DROP95
    low = _bisect(lambda x: log_likelihood(x, results) - top, low_end, elo)
    high = _bisect(lambda x: top - log_likelihood(x, results), elo, high_end)
    return Rating(elo, low, high, len(results))


@dataclass(frozen=True)
class Game:
    """One game of a field: ``first`` scored ``score`` against ``second``."""

    first: str
    second: str
    score: float


def fit_field(games: Sequence[Game], anchor: str, *, prior_draws: float = PRIOR_DRAWS,
              iterations: int = 100) -> dict[str, Rating]:
    """Every player's Elo from all ``games`` at once, ``anchor`` held at 0, with its 95 % interval
    (Newton's method on the log-posterior; the module's notes say which prior)."""
    return fit_field_covariance(games, anchor, prior_draws=prior_draws, iterations=iterations)[0]


def gap_half_width(covariance: dict[tuple[str, str], float], lower: str, upper: str) -> float:
    """Half the 95 % interval of the Elo between ``upper`` and ``lower`` from the fit's covariance
    (a gap between neighbours is known better than either's distance from the anchor)."""
    variance = covariance[lower, lower] + covariance[upper, upper] - 2 * covariance[lower, upper]
    return Z95 * math.sqrt(max(variance, 0.0))


def fit_field_covariance(games: Sequence[Game], anchor: str, *, prior_draws: float = PRIOR_DRAWS,
                         iterations: int = 100) -> tuple[dict[str, Rating], dict[tuple[str, str], float]]:
    """:func:`fit_field` and the covariance of the fitted Elo by pair of players (the anchor's 0)."""
    names = sorted({g.first for g in games} | {g.second for g in games})
    if anchor not in names:
        raise ValueError(f"{anchor!r} played no game")
    free = [name for name in names if name != anchor]
    index = {name: i for i, name in enumerate(free)}
    met: dict[tuple[str, str], None] = {}
    for game in games:
        met[tuple(sorted((game.first, game.second)))] = None
    terms = [(g.first, g.second, g.score, 1.0) for g in games]
    terms += [(a, b, 0.5, prior_draws) for a, b in met if prior_draws > 0]
    elo = dict.fromkeys(names, 0.0)
    counts = {name: 0 for name in names}
    for g in games:
        counts[g.first] += 1
        counts[g.second] += 1
    hessian: list[list[float]] = []
    for _ in range(iterations):
        gradient = [0.0] * len(free)
        hessian = [[0.0] * len(free) for _ in free]
        for first, second, score, weight in terms:
            p = expected(elo[first] - elo[second])
            g = weight * (score - p) * _SCALE
            h = weight * p * (1 - p) * _SCALE * _SCALE
            i, j = index.get(first), index.get(second)
            if i is not None:
                gradient[i] += g
                hessian[i][i] += h
            if j is not None:
                gradient[j] -= g
                hessian[j][j] += h
            if i is not None and j is not None:
                hessian[i][j] -= h
                hessian[j][i] -= h
        step = _solve(hessian, gradient)
        for name, delta in zip(free, step):
            elo[name] += max(-400.0, min(400.0, delta))
        if max((abs(d) for d in step), default=0.0) < 1e-6:
            break
    covariance = _inverse(hessian) if free else []
    ratings = {anchor: Rating(0.0, 0.0, 0.0, counts[anchor])}
    for name in free:
        half = Z95 * math.sqrt(max(covariance[index[name]][index[name]], 0.0))
        ratings[name] = Rating(elo[name], elo[name] - half, elo[name] + half, counts[name])
    by_name = {(a, b): (covariance[index[a]][index[b]] if a in index and b in index else 0.0)
               for a in names for b in names}
    return ratings, by_name


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ · vector`` by Gaussian elimination (the fields here have a dozen players at most)."""
    size = len(vector)
    rows = [list(row) + [value] for row, value in zip(matrix, vector)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-300:
            raise ValueError("the games do not connect every player to the anchor")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][size] / rows[i][i] for i in range(size)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    size = len(matrix)
    columns = [_solve(matrix, [1.0 if r == c else 0.0 for r in range(size)]) for c in range(size)]
    return [[columns[c][r] for c in range(size)] for r in range(size)]
