"""The official test-client's ``--significance``/``--min-tests`` stopping rule.

Conformance notes (software-challenge/backend ``helpers/test-client/src/sc/TestClient.java``):
after every finished game, once at least ``--min-tests`` games (default 20) are done, each
player's wins are its victory points divided by the win score 2, rounded down (so two draws
count as one win); if the one-sided binomial probability ``P(X <= wins)`` for ``X ~ B(n, 1/2)``
is at most ``--significance``, the *other* player is declared significantly better and the run
stops. Player 1 is checked first. The test client refuses more than 170 games with
``--significance`` (its factorials overflow beyond that); that limit is kept so a run means
the same thing here as there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MAX_GAMES = 170
DEFAULT_MIN_TESTS = 20


def lower_tail(wins: int, games: int) -> float:
    """P(X <= wins) for X ~ Binomial(games, 1/2)."""
    return sum(math.comb(games, k) for k in range(wins + 1)) / 2**games


@dataclass(frozen=True)
class Significance:
    level: float
    min_tests: int = DEFAULT_MIN_TESTS

    def better(self, points: tuple[int, int], games: int) -> tuple[int, float] | None:
        """(index of the significantly better player, its uncertainty) or None.

        ``points`` are the two players' victory points (2 per win, 1 per draw) after ``games``.
        """
        if games < self.min_tests:
            return None
        for player in (0, 1):
            uncertainty = lower_tail(points[player] // 2, games)
            if uncertainty <= self.level:
                return 1 - player, uncertainty
        return None
