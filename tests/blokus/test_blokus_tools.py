"""Blokus 2027 in the bot-author tools: the pytest fixture, ``swc match`` and its report."""

from __future__ import annotations

import sys

BOT = f"{sys.executable} -m swc_local.tools.cli bot blokus --port {{port}} --reservation {{reservation}} --seed {{seed}}"

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


def test_2025_results_get_causes_for_the_match_report():
    """2025+ scores carry no cause: the client derives it from ``<winner regular reason>`` (both
    REGULAR for a regular result; after a fault the winner REGULAR and the violator's cause read
    from the violation text), so the match report and the fixture see causes as for 2022."""
    from swc_local.client.messages import parse
    from swc_local.protocol.element import parse as parse_xml

    room = parse_xml(
        '<room roomId="r"><data class="result"><definition><fragment name="Siegpunkte"><aggregation>SUM'
        "</aggregation><relevantForRanking>true</relevantForRanking></fragment></definition><scores>"
        '<entry><player team="ONE"/><score><part>2</part><part>90</part></score></entry>'
        '<entry><player team="TWO"/><score><part>0</part><part>80</part></score></entry></scores>'
        '<winner team="ONE" regular="true" reason="ONE hat am meisten Punkte erzielt."/></data></room>'
    )
    result = parse(room)
    assert [s.cause for s in result.scores] == ["REGULAR", "REGULAR"]
    violation = room.render().replace('regular="true" reason="ONE hat am meisten Punkte erzielt."',
                                      'regular="false" reason="Regelverletzung von TWO: Feld ist belegt."')
    irregular = parse(parse_xml(violation))
    assert [s.cause for s in irregular.scores] == ["REGULAR", "RULE_VIOLATION"]
