"""Blokus 2021 for the ladder's search rungs (the contract: games/strategy.py).

The moves, copy-make and evaluation are both Blokus seasons' (games/blokus_strategy.py, which
also says why the search looks only at the best placements of a position); the position is the
season's own rules position, so its first-move fields and round limit apply.
"""

from __future__ import annotations

from swc_local.games.blokus_strategy import moves, over, play, seat, value  # noqa: F401 -- the contract

SHORT_NODES = 60
LONG_NODES = 2_500
"""The budgets, by the depths they complete (positions made up to a full depth, median over a
seeded game's positions: 10 for one ply, ~48 for two, ~210 for three, ~1,000 for four, ~4,300
for five): search-short sees the other team's reply (two plies), search-long a whole round and
part of the next ply.  At 500 and 2,500 search-short reached three plies and was hardly weaker
(the same budgets in Blokus 2027: search-short - search-long 8-12 in a 20-game calibration); at
60 an in-process series of 16 games gave search-short over greedy 15-1 and search-long over
search-short 12-4 (10-6 with search-long at 1,500).  A move took 0.01 s and 0.47 s on average
on the shared 2-CPU machine at load 5, some 9,000 positions per CPU second."""
GREEDY_SHARES = (35, 70)
"""The greedy-N rungs between random and greedy (client/ladder.py): greedy wins nearly every game
against random here, a gap no number of games bounds.  Chosen on in-process series with the seats
swapped (seeds from 1000): each lower rung's points of 300 against the next: random 78, greedy-35
83.5, greedy-70 48.5 (about 180, 165 and 285 Elo; greedy against random 199 of 200; with 25/50/75
the first step was only 120)."""
GUARD_SECONDS = 1.2
"""The time guard of a search move here (client/ladder.py's is 1.6 s): at load 7 one search-long
move took 2.7 s on the wall clock with the 1.6 s guard, past the 2 s soft limit (a loss by
``SOFT_TIMEOUT``); a move here can overshoot the guard by about a second when the machine is
that busy."""


def position(game):
    """A copy: the search may hold it while the game goes on."""
    return game.position.copy()
