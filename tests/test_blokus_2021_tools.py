"""Blokus 2021 through the registry: the reference bot over TCP, ``swc bot``, ``swc match``,
``swc replay --check``, the pytest fixture and the view."""

from __future__ import annotations

import random
import sys

import pytest
import trio

from swc_local.client.bot import play_game
from swc_local.games import registry
from swc_local.games.blokus_2021.plugin import PLUGIN

pytest_plugins = ["pytester"]

SLOW = {"soft_timeout_ms": 20_000, "hard_timeout_ms": 30_000}


async def test_reference_bots_play_whole_games_over_tcp(start_server):
    """Six games of the random reference bot against itself: every game ends REGULAR, both
    players see the same result, the winner (if any) has more points."""
    server = await start_server(**SLOW)
    reports = []

    async def bot(seed: int) -> None:
        reports.append(await play_game(PLUGIN, "127.0.0.1", server.port, seed=seed))

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for seed in range(12):
                nursery.start_soon(bot, seed)
    rooms: dict[str, list] = {}
    for report in reports:
        assert report.error is None, report.error
        assert [score.cause for score in report.outcome.scores] == ["REGULAR", "REGULAR"]
        rooms.setdefault(report.room_id, []).append(report)
    assert len(rooms) == 6
    for one, two in rooms.values():
        assert one.result.render() == two.result.render()
        points = [int(score.parts[1]) for score in one.outcome.scores]
        winners = one.result.findall("winner")
        assert len(winners) == (2 if points[0] == points[1] else 1)
        if len(winners) == 1:
            assert winners[0].find("color").text == ("ONE" if points[0] > points[1] else "TWO")


def test_the_registry_names_it():
    game = registry.entry("blokus_2021")
    assert game is not None and game.game_type == "swc_2021_blokus"
    assert registry.get("swc_2021_blokus") is PLUGIN
    assert registry.entry("blokus").game_type == "swc_2027_blokus"


def test_a_2021_state_is_claimed_by_2021_and_a_2027_state_by_2027():
    from swc_local.games.blokus.plugin import PLUGIN as PLUGIN_2027

    state_2021 = PLUGIN.new_game(random.Random(1)).state_element()
    state_2027 = PLUGIN_2027.new_game(random.Random(1)).state_element()
    assert registry.plugin_for_state(state_2021) is PLUGIN
    assert registry.plugin_for_state(state_2027) is PLUGIN_2027
