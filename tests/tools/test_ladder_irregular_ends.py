"""The ladder benchmark's tally of irregular ends: what is no rung's fault is counted apart."""

from collections import Counter

from benchmarks.ladder import irregular_ends, irregular_lines
from swc_local.client import ladder
from swc_local.games import registry
from swc_local.tools.match import MatchConfig, run_match
from swc_local.tools.results import ROUND_LIMIT, GameResult, SeatResult

from tests.helpers import StoredRecords


def game(index: int, cause: str) -> GameResult:
    """A two-robot Robo Rally game whose seats both end with ``cause``."""
    seats = (SeatResult("random", "1", 1, ("0", "0"), cause), SeatResult("greedy-15", "2", 2, ("0", "1"), cause))
    return GameResult("roborally", index, 1, seats, 1.0)


def test_a_robo_rally_game_without_a_winner_after_the_rounds_is_counted_apart_not_as_irregular():
    found = irregular_ends(StoredRecords([game(0, ROUND_LIMIT), game(1, ROUND_LIMIT), game(2, "LEFT"), game(3, "REGULAR")]))
    assert found["random"] == Counter({ROUND_LIMIT: 2, "LEFT": 1})
    assert irregular_lines(found, ["random", "greedy-15", "greedy"]) == [
        "irregular ends (time, illegal move, leaving, no result): random 1 (LEFT 1), greedy-15 1 (LEFT 1)",
        "no winner after the runner's rounds, a result (not counted above): random 2, greedy-15 2",
    ]


async def test_a_real_robo_rally_game_stopped_by_the_rounds_is_counted_apart():
    """Two random robots and one round: nobody reaches the checkpoint (about a second)."""
    entry = registry.entry("roborally")
    config = MatchConfig(entry.game_type, games=1, seed=3,
                         players=[ladder.command(entry, "random"), ladder.command(entry, "random")],
                         options=dict(map="Dizzy Highway", max_rounds=1))
    report = await run_match(config)
    assert report.complete
    (record,) = report.records
    assert [seat.cause for seat in record.seats] == [ROUND_LIMIT, ROUND_LIMIT]
    lines = irregular_lines(irregular_ends(StoredRecords(report.records)), ["player1", "player2"])
    assert lines == ["irregular ends (time, illegal move, leaving, no result): player1 0, player2 0",
                     "no winner after the runner's rounds, a result (not counted above): player1 1, player2 1"]
