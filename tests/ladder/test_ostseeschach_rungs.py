"""The ladder's rungs in Ostseeschach 2022: every rung plays legally to the end against every
other, the same game again from the same seeds, the strategy's copy-make agrees with the
referee, and the search-short bot plays a real game through ``swc match``."""

from __future__ import annotations

import itertools
import random

import pytest

from swc_local.client import ladder
from swc_local.client.bot import choose_move
from swc_local.games import registry
from swc_local.games.ostseeschach import strategy
from swc_local.games.strategy import WIN
from swc_local.tools.match import MatchConfig, run_match

from tests.helpers import UNHURRIED

ENTRY = registry.entry("ostseeschach")


@pytest.fixture
def small_budgets(monkeypatch):
    """Reduced budgets: the rungs' code paths at a fraction of their cost."""
    monkeypatch.setattr(strategy, "SHORT_NODES", 60)
    monkeypatch.setattr(strategy, "LONG_NODES", 150)


def play(first: str, second: str, seed: int) -> tuple[int | None, list]:
    plugin = ENTRY.plugin
    game = plugin.new_game(random.Random(seed))
    rngs = (random.Random(seed), random.Random(seed + 1))
    rungs, moves = (first, second), []
    while game.outcome() is None:
        seat = game.current_seat
        move = choose_move(plugin, game, rngs[seat], rungs[seat])
        game.apply(seat, move)  # raises on an illegal move
        moves.append(move)
    return game.outcome().winner, moves


def test_ostseeschach_offers_every_rung():
    assert ENTRY.strategy is strategy
    assert ladder.rungs(ENTRY) == ladder.RUNGS


@pytest.mark.parametrize("first, second", list(itertools.combinations(ladder.RUNGS, 2)))
def test_every_rung_plays_legally_to_the_end_and_again_from_the_same_seeds(small_budgets, first, second):
    for a, b in ((first, second), (second, first)):
        winner, moves = play(a, b, seed=3)
        assert len(moves) >= 2
        assert play(a, b, seed=3) == (winner, moves)


def test_the_strategy_makes_the_referees_moves():
    rng = random.Random(9)
    for seed in range(4):
        game = ENTRY.plugin.new_game(random.Random(seed))
        searched = strategy.position(game)
        while game.outcome() is None:
            legal = strategy.moves(searched)
            assert sorted(legal, key=str) == sorted(game.position.legal_moves(), key=str)
            move = rng.choice(legal)
            searched = strategy.play(searched, move)
            game.apply(game.current_seat, move)
            referee = game.position
            assert searched.ordered_pieces() == referee.ordered_pieces()
            assert (searched.turn, searched.ambers, searched.amber_entries, searched.last_move) == \
                (referee.turn, referee.ambers, referee.amber_entries, referee.last_move)
            assert strategy.over(searched) == referee.is_over()
        final = strategy.value(searched, 0)
        winner = game.outcome().winner
        assert final == 0.0 if winner is None else (final >= WIN) == (winner == 0)


def test_the_evaluation_counts_an_amber_more_than_any_piece():
    game = ENTRY.plugin.new_game(random.Random(1))
    position = strategy.position(game)
    ahead = strategy._copy(position)
    ahead.ambers[0] = 1
    assert strategy.value(ahead, 0) - strategy.value(position, 0) >= strategy.AMBER
    assert strategy.value(ahead, 1) < strategy.value(position, 1)


def test_search_short_beats_greedy():
    winner, _ = play("search-short", "greedy", seed=4)
    assert winner == 0


@pytest.mark.slow  # two bot processes and a server: about 9 s on a loaded machine
async def test_search_short_plays_a_real_game_through_swc_match():
    search_short = ladder.command(ENTRY, "search-short")
    config = MatchConfig(ENTRY.game_type, games=1, seed=2,
                         players=[search_short, ladder.command(ENTRY, "random")], options=UNHURRIED)
    report = await run_match(config)
    assert report.complete
    (record,) = report.records
    assert [seat.cause for seat in record.seats] == ["REGULAR", "REGULAR"]
    assert record.seat_of("player1").rank == 1
