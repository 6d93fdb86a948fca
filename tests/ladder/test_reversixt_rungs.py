"""The ladder's rungs in ReversiXT: every rung plays legally to the end against every other (two
and four players, the bomb phase included), the same game again from the same seeds, the
strategy's turn order and copy-make agree with the referee, the REQUEST's time and depth bound
the search, and the search-short bot plays a real game through ``swc match``."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from benchmarks import reversixt_seats
from swc_local.client import ladder, reversixt_bot
from swc_local.client.reversixt_bot import ClientGame
from swc_local.games import registry
from swc_local.games.reversixt import strategy
from swc_local.client import search
from swc_local.games.reversixt.mapfile import load_map, map_file, parse_map
from swc_local.games.reversixt.referee import Referee
from swc_local.games.reversixt.rules import State
from swc_local.games.strategy import WIN
from swc_local.protocol import reversixt as wire
from swc_local.tools.match import MatchConfig, run_match

ENTRY = registry.entry("reversixt")
TRIO = str(Path(__file__).resolve().parents[1] / "data" / "reversixt" / "maps" / "trio_3p.map")


@pytest.fixture
def small_budgets(monkeypatch):
    monkeypatch.setattr(strategy, "SHORT_NODES", 12)
    monkeypatch.setattr(strategy, "LONG_NODES", 30)


def play(map_name: str, rungs: list[str], seed: int) -> tuple[list, list]:
    """One game on the referee, each player a ClientGame on its rung (the seat benchmark's game):
    the moves and the ranking.  A disqualification (an invalid move) fails the test."""
    referee = reversixt_seats.play(load_map(map_file(map_name)), rungs, seed)
    return referee.moves, referee.ranking()


def test_reversixt_offers_every_rung_and_its_bot_takes_them():
    assert ENTRY.strategy is strategy
    assert ladder.rungs(ENTRY) == ladder.RUNGS
    assert reversixt_bot.STRATEGIES == ladder.RUNGS and reversixt_bot.BUDGETS == ladder.SEARCH_RUNGS
    assert reversixt_bot.GUARD_SECONDS == ladder.GUARD_SECONDS
    command = ladder.command(ENTRY, "search-long")
    assert command[command.index("--strategy") + 1] == "search-long"


@pytest.mark.parametrize("first, second", list(itertools.combinations(ladder.RUNGS, 2)))
def test_every_rung_plays_legally_to_the_end_and_again_from_the_same_seeds(small_budgets, first, second):
    for rungs in ([first, second], [second, first]):
        moves, ranking = play("classic_2p", rungs, seed=4)
        assert any(x for player, x, y, special in moves)  # the game was played, not skipped
        assert play("classic_2p", rungs, seed=4) == (moves, ranking)


def test_four_players_on_every_rung_play_to_the_end(small_budgets):
    moves, ranking = play("quad_4p", list(ladder.RUNGS), seed=1)
    assert len(ranking) == 4 and len(moves) > 20


@pytest.mark.parametrize("rungs", [["random", "greedy", "search-short"], ["search-long", "search-short", "greedy"],
                                   ["search-short", "random", "search-long"]])
def test_three_players_on_every_rung_play_legally_to_the_end_and_again_from_the_same_seeds(small_budgets, rungs):
    moves, ranking = play(TRIO, rungs, seed=5)
    squares = len(load_map(TRIO).squares)
    assert len(ranking) == 3 and len(moves) > squares // 3  # the board was played full, not skipped
    assert sum(points for _, _, points in ranking) < squares // 2  # the bombs fell (phase 2 was played)
    assert play(TRIO, rungs, seed=5) == (moves, ranking)


STRIP_3P = b"3\n0\n2 0\n1 10\n1 1 1 2 2 2 2 3 3 3\n"
"""Three players, no empty square (the bomb phase from the start, player 1 first), two bombs each
of strength 0 (one square): player 1 has 3 stones, player 2 leads with 4, player 3 has 3."""


def test_in_a_three_player_bomb_phase_the_search_throws_at_the_leader_not_where_paranoid_search_would():
    game_map = parse_map(STRIP_3P)
    for rung, seed in itertools.product(("search-short", "search-long"), range(3)):
        bot = ClientGame(rung, random.Random(seed))
        bot.state, bot.me, bot.phase = State.initial(game_map), 1, 2
        x, y, special = bot.choose()
        assert bot.state.squares[x] == 2 and (y, special) == (0, 0)  # a stone of the leader, player 2
    # paranoid search lets both others throw at player 1 whatever it does: it sees no point in
    # hitting the leader and throws at player 3
    paranoid = search.best_move(strategy, strategy.Position(State.initial(game_map), 2, 1), random.Random(1), 1000)
    assert bot.state.squares[paranoid[0]] == 3


def test_with_three_players_one_more_bomb_outweighs_a_lead_in_stones_and_two_players_value_it_as_before():
    for map_name, per_square in (("classic_2p", strategy.BOMB / 4), (TRIO, strategy.MANY_PLAYERS_BOMB)):
        state = State.initial(load_map(map_file(map_name)))
        before = strategy.value(strategy.Position(state, 1, 1), 1)
        state.bombs[1] += 1
        reach = (2 * state.game_map.strength + 1) ** 2
        assert strategy.value(strategy.Position(state, 1, 1), 1) - before == pytest.approx(per_square * reach)
    assert strategy.MANY_PLAYERS_BOMB * 9 > 40  # trio_3p: a bomb of strength 1 beats 40 stones' lead


def test_the_strategy_orders_turns_and_makes_moves_as_the_referee():
    rng = random.Random(3)
    for map_name in ("classic_2p", "quad_4p"):
        game_map = load_map(map_file(map_name))
        referee = Referee(game_map, [0] * game_map.players)
        action, player = referee.next_action()
        searched = strategy.Position(referee.state.copy(), referee.phase, player)
        phases = set()
        while action != "end_game":
            if action == "end_phase1":
                action, player = referee.next_action()
                continue
            assert (strategy.seat(searched), searched.phase) == (player, referee.phase)
            phases.add(referee.phase)
            move = rng.choice(strategy.moves(searched))
            searched = strategy.play(searched, move)
            assert referee.answer(player, *move, 0.0).disqualified is None
            state = referee.state
            assert (searched.state.squares, searched.state.overwrites, searched.state.bombs) == \
                (state.squares, state.overwrites, state.bombs)
            action, player = referee.next_action()
        assert strategy.over(searched) and phases == {1, 2}
        (rank, first, points), *_ = referee.ranking()
        final = strategy.value(searched, first)
        assert final == 0.0 if referee.ranking()[1][0] == 1 else final > WIN


def test_the_requests_time_guards_the_search_and_its_depth_caps_it(monkeypatch):
    calls = []
    monkeypatch.setattr(reversixt_bot.search, "best_move",
                        lambda strategy, position, rng, nodes, **limits: calls.append((nodes, limits)) or (3, 4, 0))
    game = ClientGame("search-short", random.Random(1))
    game.handle(wire.Frame(wire.MAP, load_map(map_file("classic_2p")).raw))
    game.handle(wire.Frame(wire.PLAYER, bytes([1])))
    assert game.handle(wire.Frame(wire.REQUEST, wire.encode_request(1000, 3)[5:])) == wire.encode_move(3, 4, 0)
    assert game.handle(wire.Frame(wire.REQUEST, wire.encode_request(0, 1)[5:])) is not None
    (nodes, timed), (_, untimed) = calls
    assert nodes == strategy.SHORT_NODES
    assert timed["max_depth"] == 3 and 0 < timed["seconds"] < 1.0
    assert untimed["max_depth"] > 3  # depth 1: the servers' default, no cap
    assert untimed["seconds"] == ladder.GUARD_SECONDS  # no clock: the guard bounds the move all the same


def test_search_short_beats_greedy():
    for seats in (["search-short", "greedy"], ["greedy", "search-short"]):
        _, ranking = play("classic_2p", seats, seed=1)
        (rank, first, points), (second_rank, _, _) = ranking
        assert seats[first - 1] == "search-short" and second_rank > 1


@pytest.mark.slow  # two bot processes and a door: several seconds on a loaded machine
async def test_search_short_plays_a_real_game_through_swc_match():
    config = MatchConfig(ENTRY.game_type, games=1, seed=2,
                         players=[ladder.command(ENTRY, "search-short"), ladder.command(ENTRY, "random")],
                         options=dict(time_limit=30.0, start_delay=0.0, turn_delay=0.0))
    report = await run_match(config)
    assert report.complete
    (record,) = report.records
    assert [seat.cause for seat in record.seats] == ["REGULAR", "REGULAR"]
