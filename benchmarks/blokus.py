"""Blokus legal-move generation on typical mid-game positions (2027, and 2021 by its plugin).

Why its own benchmark: the generic engine rows average over whole games, and most Blokus
positions late in a game have few placements left; the expensive question a bot (and the
server's colour removal) asks is "every placement of every remaining piece" in the middle game,
with all four colours spread over the board.  Positions: turns 16 to 48 of seeded random games.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from swc_local.games.blokus.entry import ENTRY as BLOKUS_ENTRY

PLUGIN = BLOKUS_ENTRY.plugin


@dataclass(frozen=True)
class BlokusResult:
    generations_per_second: float
    moves_per_generation: float
    positions: int


def midgame_positions(games: int = 6, first: int = 16, last: int = 48, plugin=PLUGIN) -> list:
    positions = []
    for seed in range(games):
        rng = random.Random(seed)
        game = plugin.new_game(rng)
        while game.outcome() is None and game.turn <= last:
            if game.turn >= first:
                positions.append(game.position.copy())
            game.apply(game.current_seat, plugin.random_move(game, rng))
    return positions


def measure(budget: float, plugin=PLUGIN) -> BlokusResult:
    positions = midgame_positions(plugin=plugin)
    count = found = 0
    start = time.process_time()
    while time.process_time() - start < budget or not count:
        for position in positions:
            found += len(position.legal_moves())
        count += len(positions)
    elapsed = time.process_time() - start
    return BlokusResult(count / elapsed, found / count, len(positions))


def check_seconds(budget: float, plugin=PLUGIN) -> float:
    """CPU seconds to check one legal placement as the server does (``Position.check``)."""
    positions = midgame_positions(plugin=plugin)
    placements = [(position, move) for position in positions for move in position.legal_moves()[::10]]
    count = 0
    start = time.process_time()
    while time.process_time() - start < budget or not count:
        for position, move in placements:
            position.check(move)
        count += len(placements)
    return (time.process_time() - start) / count


if __name__ == "__main__":
    result = measure(2.0)
    print(f"{result.generations_per_second:,.0f} generations/s, {result.moves_per_generation:.0f} moves each "
          f"({result.positions} positions)")
