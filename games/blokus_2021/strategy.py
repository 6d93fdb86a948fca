"""Blokus 2021 for the ladder's search rungs (the contract: games/strategy.py).

The moves, copy-make and evaluation are both Blokus seasons' (games/blokus_strategy.py, which
also says why the search looks only at the best placements of a position); the position is the
season's own rules position, so its first-move fields and round limit apply.
"""

from __future__ import annotations

from swc_local.games.blokus_strategy import moves, over, play, seat, value  # noqa: F401 -- the contract

SHORT_NODES = 500
LONG_NODES = 2_500
"""The budgets: at most about 0.1 s and 0.45 s of CPU a move (some 9,000 positions per CPU
second, measured over positions of seeded games on the shared 2-CPU machine)."""


def position(game):
    """A copy: the search may hold it while the game goes on."""
    return game.position.copy()
