"""A stuck ship ends the game ``regular="false"`` on the 24.2.5 server although no rule was broken
(spec §5, §10 D3): every tool shows the end as the server sent it, the stuck seat's cause
``STUCK`` (not regular, not a rule violation), the other seat REGULAR."""

from __future__ import annotations

import dataclasses
import gzip
import re
from collections import Counter

from swc_local.client.bot import BotReport, summary
from swc_local.client.messages import Result, parse
from swc_local.games.mississippi_queen.entry import ENTRY as MISSISSIPPI_QUEEN_ENTRY
from swc_local.protocol.element import parse as parse_element
from swc_local.server.xml.records import result_rows
from swc_local.tools.match import MatchConfig, run_match
from swc_local.tools.match_report import irregular_line, results_table
from swc_local.tools.rate import BOT, Session
from swc_local.tools.rate_report import game_words
from swc_local.tools.tournament.db import Stored
from swc_local.tools.tournament.report import standing_rows
from swc_local.tools.tournament.standings import Tally
from benchmarks.ladder import irregular_ends, irregular_lines

from tests.helpers import TESTS, StoredRecords

PLUGIN = MISSISSIPPI_QUEEN_ENTRY.plugin
CAPTURE = TESTS / "data" / "mississippi_queen" / "scenarios" / "socha_game" / "ONE_recv.xml.gz"
SLOW = {"soft_timeout_ms": 20_000, "hard_timeout_ms": 30_000}  # a loaded machine must not decide
STUCK_TEXT = "kann sich nicht mehr bewegen"


def captured_result() -> Result:
    """The official server's result of ``G/socha_game``: TWO stuck, ``regular="false"``."""
    text = gzip.decompress(CAPTURE.read_bytes()).decode()
    (room,) = re.findall(r'<room roomId="[^"]*">\s*<data class="result">.*?</room>', text, re.S)
    message = parse(parse_element(room.encode()))
    assert isinstance(message, Result)
    return message


def test_the_client_library_reads_the_stuck_seat_as_stuck_and_the_winner_as_regular():
    result = captured_result()
    assert [score.cause for score in result.scores] == ["REGULAR", "STUCK"]
    assert {score.reason for score in result.scores} == {"TWO kann sich nicht mehr bewegen."}
    assert result.winner_seat == 0
    won = summary(BotReport(room_id="r", color="ONE", moves=7, own_moves=4, outcome=result))
    assert "won as ONE" in won and "opponent STUCK: TWO kann sich nicht mehr bewegen." in won


def test_the_viewer_shows_the_stuck_seat_as_stuck():
    data = captured_result().element.find("data")
    rows = result_rows(data, ("", ""), ("ONE", "TWO"))
    assert [(row.rank, row.cause, row.score) for row in rows] == [(1, "REGULAR", ("2", "5", "0")),
                                                                   (2, "STUCK", ("0", "0", "0"))]


async def test_match_tournament_rate_and_ladder_count_a_stuck_ship_as_the_server_ends_it():
    report = await run_match(MatchConfig(PLUGIN, games=2, seed=1, parallel=2, options=dict(SLOW)))
    assert report.complete
    stuck = [r for r in report.records if any(STUCK_TEXT in (s.reason or "") for s in r.seats)]
    assert stuck, "seed 1's first games end by a stuck ship"
    for record in stuck:
        assert not record.regular
        loser = next(s for s in record.seats if s.cause == "STUCK")
        winner = next(s for s in record.seats if s is not loser)
        assert (winner.cause, winner.rank, loser.rank, loser.score) == ("REGULAR", 1, 2, ("0", "0", "0"))
    stuck_seats = Counter(s.name for r in stuck for s in r.seats if s.cause == "STUCK")

    # swc match: the causes column and the games not ended regularly
    table = results_table(report.records, game=PLUGIN.game_type, seed=report.seed, seconds=report.seconds,
                          commands=report.commands)
    assert "games not ended regularly:" in table
    for name, count in stuck_seats.items():
        assert re.search(rf"^{name} .*STUCK {count}", table, re.M), table
    assert "STUCK" in (irregular_line(report.records, None) or "")

    # swc tournament: the "not regular" column
    tally = Tally(sorted({s.name for r in report.records for s in r.seats}))
    for record in report.records:
        tally.add(Stored(str(record.index), str(record.index), record))
    rows = {row["bot"]: row for row in standing_rows(tally.standings())}
    for name, count in stuck_seats.items():
        assert rows[name]["causes"]["STUCK"] == count

    # swc rate: the bot's game against a rung is listed as not regular, with the server's reason
    record = stuck[0]
    loser = next(s for s in record.seats if s.cause == "STUCK")
    renamed = dataclasses.replace(record, seats=tuple(
        dataclasses.replace(s, name=BOT if s is loser else "random") for s in record.seats))
    session = Session(PLUGIN.game_type, "python my_bot.py", None, {}, 1, seed=1)
    played = session.record(renamed)
    assert played.cause == "STUCK" and played.score == 0.0
    words = game_words(played)  # a line of the report's "games that did not end regularly for the bot"
    assert words.startswith(f"vs random (bot {('first', 'second')[played.seat]}): lost (STUCK: ") and STUCK_TEXT in words

    # the ladder benchmark: counted apart from the irregular ends issue 45 wants none of
    lines = irregular_lines(irregular_ends(StoredRecords(report.records)), ["player1", "player2"])
    assert lines[0].startswith("irregular ends (time, illegal move, leaving, no result): ")
    assert "player1 0" in lines[0] and "player2 0" in lines[0]
    assert lines[1].startswith("stuck, the rules' end the server marks not regular")
    for name, count in stuck_seats.items():
        assert f"{name} {count}" in lines[1]


def test_the_ladder_benchmark_counts_leaving_and_no_result_as_irregular_and_stuck_apart():
    from swc_local.tools.results import GameResult, SeatResult

    def game(index, greedy_cause, error=None):
        seats = (SeatResult("greedy", "ONE", 2, ("0", "0", "0"), greedy_cause),
                 SeatResult("random", "TWO", 1, ("2", "3", "0"), "REGULAR"))
        return GameResult(PLUGIN.game_type, index, 1, seats, 1.0, error=error)

    games = [game(0, "STUCK"), game(1, "LEFT"), game(2, "STUCK"), game(3, "REGULAR", error="no result in time")]
    found = irregular_ends(StoredRecords(games))
    assert found["greedy"] == Counter({"STUCK": 2, "LEFT": 1, "no result": 1})
    assert irregular_lines(found, ["random", "greedy"]) == [
        "irregular ends (time, illegal move, leaving, no result): random 1 (no result 1), greedy 2 (LEFT 1, no result 1)",
        "stuck, the rules' end the server marks not regular (not counted above): greedy 2",
    ]
