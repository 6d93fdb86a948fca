"""Blokus 2027 for the ladder's search rungs (the contract: games/strategy.py).

The moves, copy-make and evaluation are both Blokus seasons' (games/blokus_strategy.py, which
also says why the search looks only at the best placements of a position); the position is the
season's own rules position, so its first-move fields and round limit apply.
"""

from __future__ import annotations

from swc_local.games.blokus_strategy import moves, over, play, seat, value  # noqa: F401 -- the contract

SHORT_NODES = 60
LONG_NODES = 2_500
"""The budgets, by the depths they complete (positions made up to a full depth, median over a
seeded game's positions: 10 for one ply, ~39 for two, ~210 for three, ~600 for four, ~2,400 for
five): search-short sees the other team's reply (two plies), search-long a whole round and the
next move (five).  At 500 search-short reached three plies and part of the fourth and was hardly
weaker (search-short - search-long 8-12 in a 20-game calibration); at 60 an in-process series of
16 games gave search-short over greedy 12-4 and search-long over search-short 13-3.  A move took
0.01 s and 0.33 s on average (1.08 s at most) on the shared 2-CPU machine at load 5, some 9,500
positions per CPU second."""


def position(game):
    """A copy: the search may hold it while the game goes on."""
    return game.position.copy()
