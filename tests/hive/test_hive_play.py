"""Hive 2020 end to end on our own tools: reference bots over TCP, ``swc match`` with replays
that ``swc replay --check`` accepts, ``--load-game`` from such a replay, and the pytest fixture."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
import trio

from swc_local.games import registry
from swc_local.client.bot import play_game
from swc_local.server.xml.replay import position_factory, read_replay
from swc_local.tools.replay_check import check_replay, score_tuples

from tests.reference_play import checked_match_replays, reference_bot_games, regular_rooms

PLUGIN = registry.get("swc_2020_hive")
GAMES = 16  # four rounds of four rooms at once: concurrency, not a count, is the claim
PARALLEL = 4


def test_short_name_resolves_and_the_seed_draws_the_blocked_fields():
    assert registry.resolve("hive") == "swc_2020_hive"
    assert PLUGIN.describe(PLUGIN.new_game(random.Random(1))).startswith("turn 0, RED to move")
    boards = {PLUGIN.new_game(random.Random(seed)).position.blocked for seed in range(40)}
    assert len(boards) > 30 and all(len(b) == 3 for b in boards)
    assert PLUGIN.new_game(random.Random(5)).position.blocked == PLUGIN.new_game(random.Random(5)).position.blocked


async def test_reference_bot_games_end_regular(start_server):
    """Games of two reference bots through ``<join gameType="swc_2020_hive"/>``, several at a time
    on one server: every bot gets a REGULAR result, two bots per room."""
    server = await start_server(seed=20, soft_timeout_ms=20000, hard_timeout_ms=30000)  # join rooms time out in 2020
    reports = await reference_bot_games(PLUGIN, server.door("xml").port, GAMES, PARALLEL, timeout=240)
    regular_rooms(reports, GAMES, {"red", "blue"})


async def test_swc_match_replays_check_and_load(tmp_path: Path, start_server):
    """``swc match hive`` with replays; each replay re-checks against the rules; a room loaded
    from turn 10 of one starts exactly there and plays to a REGULAR end."""
    files = await checked_match_replays(PLUGIN, tmp_path)
    expected = read_replay(files[0]).game_at(10).state_element().render()
    server = await start_server(game_factory=position_factory(files[0], 10), save_replay=True,
                                replay_dir=str(tmp_path / "loaded"))
    async with trio.open_nursery() as nursery:
        for seed in (1, 2):
            nursery.start_soon(play_game, PLUGIN, "127.0.0.1", server.door("xml").port, None, seed)
    with trio.fail_after(10):
        while not list((tmp_path / "loaded").glob("*.xml")):
            await trio.sleep(0.01)
    loaded = read_replay(next((tmp_path / "loaded").glob("*.xml")))
    # the room started at the loaded position; its players came by <join>, so they are "Unknown"
    unnamed = re.sub(r'displayName="[^"]*"', 'displayName="Unknown"', expected)
    assert loaded.states[0].render() == unnamed != expected
    checked = check_replay(loaded)
    assert checked.ok, checked.disagreement
    assert [score[0] for score in score_tuples(loaded.result)] == ["REGULAR", "REGULAR"]


@pytest.mark.swc_server(game="hive", seed=7, soft_timeout_ms=20000, hard_timeout_ms=30000)
def test_fixture_plays_hive(swc_server):
    bot = f"{sys.executable} -m swc_local.tools.cli bot hive --port {{port}} --reservation {{reservation}} --seed {{seed}}"
    game = swc_server.play(bot)
    assert game.result is not None
    assert game.bot.cause == "REGULAR" and game.opponent.cause == "REGULAR"
    assert game.bot.points + game.opponent.points == 2
