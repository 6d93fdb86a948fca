"""The search-short rung of Hase und Igel 2018 and 2025, Mississippi Queen 2024 and Hive 2020 as
a real client: one whole game each through ``swc match`` against the reference bot, the
reference bot's command at that rung (``client.ladder.command``) run as its own process on real
sockets.  Both seats end REGULAR (or STUCK, a Mississippi Queen ship that cannot move): the
search answers legally and within the soft limit."""

from __future__ import annotations

import pytest

from swc_local.client import ladder
from swc_local.games import registry
from swc_local.tools.match import MatchConfig, run_match
from swc_local.tools.results import REGULAR, STUCK

from tests.helpers import UNHURRIED


@pytest.mark.parametrize("name", ["hase_und_igel", "hase_und_igel_2025", "mississippi_queen", "hive"])
async def test_search_short_plays_a_whole_game_through_swc_match(name):
    entry = registry.entry(name)
    config = MatchConfig(entry.game_type, games=1, seed=4, options=UNHURRIED,
                         players=[ladder.command(entry, "search-short"), ladder.command(entry)])
    report = await run_match(config)
    (record,) = report.records
    assert record.error is None, record.error
    # an end by the rules: REGULAR, or STUCK for a ship that cannot move (Mississippi Queen's
    # regular="false" end, no rule broken)
    assert {record.seat_of(player).cause for player in ("player1", "player2")} <= {REGULAR, STUCK}
    assert record.move_times["player1"]  # it answered move requests
