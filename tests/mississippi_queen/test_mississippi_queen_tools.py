"""Mississippi Queen 2024 in the tools, through the registry: the reference bot (``swc bot``),
``swc match``, replays and ``swc replay --check``, ``--load-game``/``--turn``, the pytest fixture."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
import trio

from swc_local.client.bot import play_game
from swc_local.client import ladder
from swc_local.games import registry
from swc_local.games.mississippi_queen.entry import ENTRY as MISSISSIPPI_QUEEN_ENTRY
from swc_local.server.xml.replay import read_replay
from swc_local.tools.cli import main
from swc_local.tools.match import MatchConfig, run_match
from swc_local.tools.replay_check import check_replay

PLUGIN = MISSISSIPPI_QUEEN_ENTRY.plugin

pytest_plugins = ["pytester"]

GAME = "swc_2024_mississippi_queen"
SLOW = {"soft_timeout_ms": 20_000, "hard_timeout_ms": 30_000}  # a loaded machine must not decide


async def recorded_game(start_server, folder: Path, seeds=(1, 2), **settings):
    server = await start_server(save_replay=True, replay_dir=str(folder), **(SLOW | settings))
    reports = []
    async with trio.open_nursery() as nursery:
        for seed in seeds:
            async def bot(seed=seed):
                reports.append(await play_game(PLUGIN, "127.0.0.1", server.door("xml").port, None, seed))
            nursery.start_soon(bot)
            await trio.sleep(0.05)  # the first bot is ONE
    (path,) = server.door("xml").replay_writer.paths.values()
    return reports, path


def test_the_registry_knows_it():
    game = registry.entry("mississippi_queen")
    assert game.game_type == GAME and registry.get(GAME) is PLUGIN
    command = ladder.command(game)
    assert "swc_local.client.bot" in command and GAME in command and "--seed" in command


async def test_reference_bots_play_and_the_replay_checks(start_server, tmp_path):
    reports, path = await recorded_game(start_server, tmp_path)
    replay = read_replay(path)
    assert replay.game_type == GAME
    assert replay.result.render() == reports[0].result.render() == reports[1].result.render()
    report = check_replay(replay)
    assert report.ok, report.disagreement
    assert report.moves_checked == len(replay.states) - 1 == reports[0].own_moves + reports[1].own_moves
    # the header's seed rebuilds the whole river, the unrevealed segments included
    start = PLUGIN.new_game(random.Random(replay.seed))
    start.set_display_names(replay.names)
    assert start.state_element().render() == replay.states[0].render()
    assert main(["replay", str(path), "--check"]) == 0


async def test_rooms_start_from_the_loaded_turn(start_server, tmp_path):
    _, source = await recorded_game(start_server, tmp_path / "first", seeds=(3, 4))
    expected = read_replay(source).game_at(2)
    _, path = await recorded_game(start_server, tmp_path / "loaded", seeds=(5, 6), load_game_file=str(source),
                                  turn_to_load=2)
    replay = read_replay(path)
    first = PLUGIN.game_from_state(replay.states[0])
    assert (first.turn, first.current_seat) == (2, expected.current_seat)
    assert [s.key() for s in first.position.ships] == [s.key() for s in expected.position.ships]
    assert check_replay(replay).ok


async def test_swc_match_plays_reference_bots_and_writes_replays(tmp_path):
    config = MatchConfig(PLUGIN, games=2, seed=2, parallel=2, replays=tmp_path, options=dict(SLOW))
    report = await run_match(config)
    assert report.complete and len(report.records) == 2
    for record in report.records:
        assert main(["replay", record.replay, "--check"]) == 0


BOT = f"{sys.executable} -m swc_local.tools.cli bot mississippi_queen --port {{port}} --reservation {{reservation}} --seed {{seed}}"

PROJECT_TEST = f'''
import pytest

@pytest.mark.swc_server(game="mississippi_queen", seed=7, soft_timeout_ms=20000, hard_timeout_ms=30000)
def test_my_bot_finishes(swc_server):
    game = swc_server.play("{BOT}")
    assert game.result is not None
    assert game.bot.points + game.opponent.points == 2
'''


def test_the_fixture_plays_a_mississippi_queen_game(pytester):
    pytester.makepyfile(test_mq_bot=PROJECT_TEST)
    result = pytester.runpytest_subprocess("-q")
    result.assert_outcomes(passed=1)
