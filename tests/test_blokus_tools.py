"""Blokus 2027 in the bot-author tools: the pytest fixture, ``swc match`` and its report."""

from __future__ import annotations

import sys

pytest_plugins = ["pytester"]

BOT = f"{sys.executable} -m swc_local.server.cli bot blokus --port {{port}} --reservation {{reservation}} --seed {{seed}}"

PROJECT_TEST = f'''
import pytest

@pytest.mark.swc_server(game="blokus", seed=7, soft_timeout_ms=20000, hard_timeout_ms=30000)
def test_my_blokus_bot_finishes(swc_server):
    game = swc_server.play("{BOT}")
    assert game.result is not None
    winner = game.result.element.find("data").find("winner")
    assert winner.get("regular") == "true"
    assert game.bot.points + game.opponent.points == 2
    assert int(game.bot.parts[1]) > 0 and int(game.opponent.parts[1]) > 0
'''


def test_the_fixture_plays_a_blokus_game(pytester):
    pytester.makepyfile(test_blokus_bot=PROJECT_TEST)
    result = pytester.runpytest_subprocess("-q")
    result.assert_outcomes(passed=1)


def test_match_report_reads_causes_of_2025_results():
    """2025+ scores carry no cause: the report takes REGULAR from ``<winner regular="true">``."""
    from swc_local.client.messages import parse
    from swc_local.protocol.element import parse as parse_xml
    from swc_local.tools.match_report import score_cause

    room = parse_xml(
        '<room roomId="r"><data class="result"><definition><fragment name="Siegpunkte"><aggregation>SUM'
        "</aggregation><relevantForRanking>true</relevantForRanking></fragment></definition><scores>"
        '<entry><player team="ONE"/><score><part>2</part><part>90</part></score></entry>'
        '<entry><player team="TWO"/><score><part>0</part><part>80</part></score></entry></scores>'
        '<winner team="ONE" regular="true" reason="ONE hat am meisten Punkte erzielt."/></data></room>'
    )
    result = parse(room)
    assert [score_cause(result, s) for s in result.scores] == ["REGULAR", "REGULAR"]
    irregular = parse(parse_xml(room.render().replace('regular="true"', 'regular="false"')))
    assert [score_cause(irregular, s) for s in irregular.scores] == ["IRREGULAR", "IRREGULAR"]
