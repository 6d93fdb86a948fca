"""Ostseeschach 2022 through the server over TCP: the reference bot, ``swc match``, replays,
``--load-game`` and the pytest fixture, as a bot author uses them."""

from __future__ import annotations

import random
import sys

import trio

from swc_local.client.bot import play_game
from swc_local.games import registry
from swc_local.games.ostseeschach.entry import ENTRY as OSTSEESCHACH_ENTRY
from swc_local.tools.cli import main
from swc_local.server.xml.replay import read_replay
from swc_local.tools.replay_check import check_replay
from tests.xml.test_reference_bots import play_many

PLUGIN = OSTSEESCHACH_ENTRY.plugin


async def test_ostseeschach_games_eight_at_a_time_all_end_regular(server, autojump_clock):
    """24 games, 8 at a time, so rooms open while others play (three times the parallel rooms
    prove that as well as the hundred this test once played).  On trio's mock clock: the move
    time limits are virtual, so a loaded machine cannot turn a slow move into a SOFT_TIMEOUT (the
    server's speed is benchmarks/'s business)."""
    reports = await play_many(server.door("xml").port, "swc_2022_ostseeschach", games=24, parallel=8)
    assert len(reports) == 48
    assert len({report.room_id for report in reports}) == 24
    for report in reports:
        assert report.outcome is not None, report.error
        assert [score.cause for score in report.outcome.scores] == ["REGULAR", "REGULAR"], report.room_id
        assert 1 <= report.own_moves <= 30
    assert {report.color for report in reports} == {"ONE", "TWO"}
    assert server.door("xml").lobby.rooms == {}


async def play_pair(port: int, seeds=(1, 2)):
    reports = []
    async with trio.open_nursery() as nursery:
        for seed in seeds:
            async def bot(seed=seed):
                reports.append(await play_game(PLUGIN, "127.0.0.1", port, None, seed))
            nursery.start_soon(bot)
            await trio.sleep(0.05)  # the first bot is ONE
    return sorted(reports, key=lambda r: r.color != "ONE")


async def test_a_classic_and_a_modern_game_at_the_same_time(server):
    piranhas = registry.get("swc_2019_piranhas")
    results = {}

    async def one(plugin, seed):
        results.setdefault(plugin.game_type, []).append(await play_game(plugin, "127.0.0.1", server.door("xml").port, None, seed))

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            for seed, plugin in enumerate((piranhas, PLUGIN, piranhas, PLUGIN)):
                nursery.start_soon(one, plugin, seed)
    assert sorted(r.color for r in results["swc_2019_piranhas"]) == ["blue", "red"]
    assert sorted(r.color for r in results["swc_2022_ostseeschach"]) == ["ONE", "TWO"]
    for reports in results.values():
        assert all(r.outcome is not None and r.outcome.scores[0].cause == "REGULAR" for r in reports)


async def test_replays_round_trip_and_rebuild_the_start_board(start_server, tmp_path):
    server = await start_server(save_replay=True, replay_dir=str(tmp_path))
    with trio.fail_after(15):
        one, two = await play_pair(server.door("xml").port)
    (path,) = server.door("xml").replay_writer.paths.values()
    replay = read_replay(path)
    assert replay.game_type == "swc_2022_ostseeschach" and replay.plugin is PLUGIN
    assert replay.result.render() == one.result.render() == two.result.render()
    report = check_replay(replay)
    assert report.ok, report.disagreement
    assert report.moves_checked == len(replay.states) - 1 == one.own_moves + two.own_moves == one.moves
    start = PLUGIN.new_game(random.Random(replay.seed))
    assert start.state_element().render() == replay.states[0].render()


async def test_load_game_starts_every_room_at_the_loaded_turn(start_server, tmp_path):
    first = await start_server(save_replay=True, replay_dir=str(tmp_path / "first"))
    with trio.fail_after(15):
        await play_pair(first.door("xml").port)
    (source,) = first.door("xml").replay_writer.paths.values()
    expected = read_replay(source).game_at(11)
    server = await start_server(
        load_game_file=str(source), turn_to_load=11, save_replay=True, replay_dir=str(tmp_path / "loaded")
    )
    with trio.fail_after(15):
        one, two = await play_pair(server.door("xml").port, seeds=(5, 6))
    assert one.outcome is not None and two.outcome is not None
    assert two.own_moves in (one.own_moves, one.own_moves + 1)  # TWO moves first at turn 11
    (path,) = server.door("xml").replay_writer.paths.values()
    replay = read_replay(path)
    loaded = PLUGIN.game_from_state(replay.states[0])
    assert (loaded.turn, loaded.current_seat) == (11, 1)
    assert loaded.state_element().render() == expected.state_element().render()
    assert check_replay(replay).ok


def test_swc_match_and_swc_replay(tmp_path, capsys):
    assert main(["match", "ostseeschach", "--games", "4", "--parallel", "2", "--seed", "3", "--replays", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "4 games of swc_2022_ostseeschach, seed 3" in out and "every game ended with a result" in out
    assert "Bernsteine" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith("player")}
    assert rows["player1"][4:6] == ["REGULAR", "4"] and rows["player2"][4:6] == ["REGULAR", "4"]
    paths = sorted(tmp_path.glob("game*.xml"))
    assert len(paths) == 4
    assert main(["replay", str(paths[0]), "--check"]) == 0
    assert capsys.readouterr().out.startswith("ok: ")
    assert main(["replay", str(paths[0])]) == 0
    printed = capsys.readouterr().out
    assert "player1 (ONE) vs player2 (TWO)" in printed
    assert "turn 0, ONE to move, ambers ONE 0, TWO 0" in printed and "ONE moves: from(x=" in printed
    assert "  ONE REGULAR [" in printed


BOT = f"{sys.executable} -m swc_local.tools.cli bot ostseeschach --port {{port}} --reservation {{reservation}} --seed {{seed}}"

FIXTURE_TEST = f'''
import pytest

@pytest.mark.swc_server(game="ostseeschach", seed=7)
def test_my_bot_as_two(swc_server):
    game = swc_server.play("{BOT}", color="TWO")
    assert game.result is not None
    assert game.team == "TWO" and game.bot.cause == "REGULAR"
    assert game.bot.points + game.opponent.points == 2
    assert game.result.fragments == ("Siegpunkte", "Bernsteine", "Leichtfiguren Vorne")
'''


def test_the_pytest_fixture_plays_ostseeschach(pytester):
    pytester.makepyfile(test_bot=FIXTURE_TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=60)
    result.assert_outcomes(passed=1)
