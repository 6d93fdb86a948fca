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
GREEDY_SHARES = (45, 80)
"""The greedy-N rungs between random and greedy (client/ladder.py): greedy won 137 of 140 games
against random in a run of the two (2026-12-03), a gap that more games hardly bound.  Chosen on
in-process series with the seats swapped (seeds from 1000 and 2000, 200 games each): greedy 190.5
of 200 against random; greedy-45 300 of 400 against random, greedy-80 153.5 of 200 against
greedy-45, greedy 274 of 400 against greedy-80 (about 190, 205 and 135 Elo).  Blokus 2021's
shares (35, 70) split this season's gap unevenly (greedy-35 about even with random), and 30 to 90
in steps of 15 were tried (greedy-30 0.66 against random, greedy 0.58 against greedy-90)."""
GUARD_SECONDS = 1.2
"""The time guard of a search move, Blokus 2021's (games/blokus_2021/strategy.py: a move can
overshoot the guard by about a second on a busy machine, past the 2 s soft limit)."""


def position(game):
    """A copy: the search may hold it while the game goes on."""
    return game.position.copy()
