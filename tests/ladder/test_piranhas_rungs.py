"""The ladder's rungs in Piranhas 2019 (games/piranhas/strategy.py): every rung plays legally to
the end against every other, the same game again from the same seeds, the strategy's ``play``
walks the referee's positions exactly, and the search-short rung plays a real game through
``swc match``."""

from __future__ import annotations

import pytest

from swc_local.client import ladder
from swc_local.games import registry
from tests.ladder.ladder_games import PAIRS, play, random_walk, reduce_budgets, search_short_against_random

GAME = "piranhas"


def test_piranhas_offers_every_rung():
    assert ladder.rungs(registry.entry(GAME)) == ladder.RUNGS


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_every_rung_plays_legally_to_the_end_against_every_other(monkeypatch, first, second):
    reduce_budgets(monkeypatch, GAME, short=30, long=90)
    seed = PAIRS.index((first, second))
    _, moves = play(GAME, first, second, seed)  # the referee raises on an illegal move
    assert len(moves) >= 2


def test_the_search_rungs_play_the_same_game_again_from_the_same_seeds(monkeypatch):
    reduce_budgets(monkeypatch, GAME, short=30, long=90)
    assert play(GAME, "search-long", "search-short", seed=4) == play(GAME, "search-long", "search-short", seed=4)


def test_the_search_beats_random_at_a_small_budget(monkeypatch):
    reduce_budgets(monkeypatch, GAME, short=100, long=300)
    assert play(GAME, "random", "search-short", seed=1)[0] == 1


@pytest.mark.parametrize("seed", range(6))
def test_play_walks_the_referees_positions(seed):
    strategy = registry.entry(GAME).strategy
    plugin = registry.entry(GAME).plugin
    for game, position in random_walk(GAME, seed):
        assert position == strategy.position(game)
        outcome = game.outcome()
        assert strategy.over(position) == (outcome is not None)
        if outcome is None:
            assert strategy.seat(position) == game.current_seat
            assert sorted(map(str, strategy.moves(position))) == sorted(map(str, plugin.legal_moves(game)))
    for seat in (0, 1):
        value = strategy.value(position, seat)
        assert value == 0 if outcome.winner is None else (value >= 1e6) == (outcome.winner == seat)


def test_the_evaluation_prefers_a_gathered_swarm():
    strategy = registry.entry(GAME).strategy
    from swc_local.games.piranhas.rules import Position
    scattered = Position.from_text("""
        . B B B B B B B B .
        R . . . . . . . . R
        R . . . . . . . . R
        R . . . . . K . . R
        R . . . . . . . . R
        R . . K . . . . . R
        R . . . . . . . . R
        R . . . . . . . . R
        R . . . . . . . . R
        . B B B B B B B B .""")
    gathered = Position.from_text("""
        . B B B B B B B B .
        . . . . . . . . . .
        . . R R . . . . . .
        . . R R R R . K . .
        . R R R R R R . . .
        . R . K R R . . . .
        . . . . . . R . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . B B B B B B B B .""", turn=2)

    class Held:  # what the bot holds: the rules' position
        def __init__(self, position):
            self.position = position

    assert strategy.value(strategy.position(Held(gathered)), 0) > strategy.value(strategy.position(Held(scattered)), 0)


@pytest.mark.slow
async def test_search_short_plays_a_real_game_through_swc_match():
    record = await search_short_against_random(GAME, seed=3)
    ours = record.seat_of("player1")
    assert (ours.cause, record.seat_of("player2").cause) == ("REGULAR", "REGULAR")
    assert ours.rank == 1
