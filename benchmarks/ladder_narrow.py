"""``benchmarks.ladder --until W``: after the round robin, runs of two neighbouring rungs at a time
until every gap between neighbours is known to ±W Elo (95 %), the number of games of each run
estimated from the interval so far.

Why runs of pairs: a round robin spends most of its games on pairs far apart, whose result says
little about a neighbour's gap; the games between the two neighbours say the most.  Why a new
database per run: a tournament's schedule is fixed by its settings, so a database cannot grow;
each run is a tournament of its own, named after the calibration's database, the two rungs and
its seed, and the next command finds them again.

The decisions are deterministic: the fit of the same games gives the same intervals, so the same
command names the same runs, and running it again resumes or only reads them.  With
``--fit-only`` nothing is played: the runs the loop would make are read as stored, up to the
first that is not there.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from swc_local.tools.rating import Game, fit_field_covariance, gap_half_width

ROUNDS = 6
"""At most this many rounds of pair runs (a round: one run for every gap still too wide)."""
MIN_GAMES, MAX_GAMES = 40, 600
"""The smallest and largest run: a gap that went all one way has an interval from the fit's prior
only, so its estimate is no guide; 600 games bounds a round's cost."""
MARGIN = 1.2
"""The runs play this much more than the estimate, so that most gaps need one round."""


def neighbour_gaps(games: list[Game]) -> list[tuple[str, str, float]]:
    """(lower, upper, half the 95 % interval of their gap) for each pair of rungs next to each other
    by fitted Elo."""
    fitted, covariance = fit_field_covariance(games, "random")
    ordered = sorted(fitted, key=lambda name: fitted[name].elo)
    return [(a, b, gap_half_width(covariance, a, b)) for a, b in zip(ordered, ordered[1:])]


def games_needed(played: int, half_width: float, target: float) -> int:
    """The even number of further games between two rungs that should bring their gap's interval
    from ±``half_width`` after ``played`` games to ±``target`` (a half-width shrinks with the square
    root of the games)."""
    factor = (half_width / target) ** 2 if math.isfinite(half_width) else 4.0
    needed = int(min(max(played * (factor - 1) * MARGIN, MIN_GAMES), MAX_GAMES))
    return needed + needed % 2


def run_path(db: Path, seed: int, lower: str, upper: str) -> Path:
    """Where the run of ``lower`` against ``upper`` with ``seed`` keeps its games."""
    return db.with_name(f"{db.stem}-pair-{seed:02d}-{lower}-{upper}.db")


def narrow(games: list[Game], db: Path, first_seed: int, target: float,
           run: Callable[[str, str, int, int, Path], list[Game] | None]) -> list[Path]:
    """Play (or read) pair runs until every neighbour gap of ``games`` plus theirs is within
    ±``target``; ``run(lower, upper, games, seed, path)`` plays or reads one run and returns its
    games, None when it cannot (``--fit-only`` and no such database): the loop ends there.
    Returns the runs' databases, in order."""
    games, paths, seed = list(games), [], first_seed
    for _ in range(ROUNDS):
        wide = [(a, b, width) for a, b, width in neighbour_gaps(games) if not width <= target]
        if not wide:
            break
        for lower, upper, width in wide:
            played = sum(1 for g in games if {g.first, g.second} == {lower, upper})
            path = run_path(db, seed, lower, upper)
            found = run(lower, upper, games_needed(played, width, target), seed, path)
            if found is None:
                return paths
            games += found
            paths.append(path)
            seed += 1
    return paths
