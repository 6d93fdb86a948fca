"""Every position of a seeded random game of a registered game, for tests that check a position
property on each ply (the shortcut renderers, the bitboard engine)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from swc_local.games import registry


def random_plies(game_type: str, seed: int) -> Iterator[object]:
    """Yield the plugin's game object before every move of a random game and at its end (the
    same object, moved on between yields)."""
    plugin = registry.get(game_type)
    rng = random.Random(seed)
    game = plugin.new_game(rng)
    while True:
        yield game
        move = plugin.random_move(game, rng)
        if move is None or game.outcome() is not None:
            return
        game.apply(game.current_seat, move)
