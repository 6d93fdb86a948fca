"""The ladder's rungs in Penguins, the first game with a strategy module: each plays legally to
the end, the same game again from the same seeds, and the search beats random."""

from __future__ import annotations

import random

from swc_local.client import ladder
from swc_local.client.bot import choose_move
from swc_local.games import registry


def play(first: str, second: str, seed: int) -> tuple[int | None, list]:
    plugin = registry.entry("penguins").plugin
    game = plugin.new_game(random.Random(seed))
    rngs = (random.Random(seed), random.Random(seed + 1))
    rungs, moves = (first, second), []
    while game.outcome() is None:
        seat = game.current_seat
        move = choose_move(plugin, game, rngs[seat], rungs[seat])
        game.apply(seat, move)  # raises on an illegal move
        moves.append(move)
    return game.outcome().winner, moves


def test_penguins_offers_every_rung():
    assert ladder.rungs(registry.entry("penguins")) == ladder.RUNGS


def test_search_short_beats_random_and_plays_the_same_game_from_the_same_seed():
    winner, moves = play("search-short", "random", seed=5)
    assert winner == 0
    assert play("search-short", "random", seed=5) == (winner, moves)


def test_greedy_plays_to_the_end_against_random():
    winner, moves = play("random", "greedy", seed=2)
    assert winner == 1 and len(moves) > 30
