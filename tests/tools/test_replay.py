"""Replays: written by the server, read back, re-run against the rules, printed, and loaded as a
start position (``loadGameFile``/``turnToLoad``), all through real sockets."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import trio

from swc_local.client.bot import play_game
from swc_local.games import registry
from swc_local.server.app import Server
from swc_local.tools.cli import main
from swc_local.server.config import Settings
from swc_local.tools.match import MatchConfig, run_match
from swc_local.server.xml.replay import ReplayError, read_replay
from swc_local.tools.replay_check import check_replay

PIRANHAS = registry.get("swc_2019_piranhas")


async def play_pair(port: int, plugin=PIRANHAS, seeds=(1, 2)):
    reports = []
    async with trio.open_nursery() as nursery:
        for seed in seeds:
            async def bot(seed=seed):
                reports.append(await play_game(plugin, "127.0.0.1", port, None, seed))
            nursery.start_soon(bot)
            await trio.sleep(0.05)  # the first bot is red
    return sorted(reports, key=lambda r: r.color != "red")


async def recorded_game(start_server, tmp_path, plugin=PIRANHAS, **settings):
    server = await start_server(save_replay=True, replay_dir=str(tmp_path), **settings)
    with trio.fail_after(15):
        reports = await play_pair(server.door("xml").port, plugin)
    (path,) = server.door("xml").replay_writer.paths.values()
    return reports, path


@pytest.mark.parametrize("game_type", ["swc_2019_piranhas", "swc_2018_hase_und_igel"])
async def test_round_trip_reproduces_the_recorded_result(start_server, tmp_path, game_type):
    plugin = registry.get(game_type)
    reports, path = await recorded_game(start_server, tmp_path, plugin)
    replay = read_replay(path)
    assert replay.game_type == game_type
    # the recorded result is the one both players received
    assert replay.result.render() == reports[0].result.render() == reports[1].result.render()
    # and re-running every move against the rules gives it again
    report = check_replay(replay)
    assert report.ok, report.disagreement
    assert report.moves_checked == len(replay.states) - 1 == reports[0].own_moves + reports[1].own_moves
    # the bot counts the game's moves as swc replay counts them, not only its own
    assert reports[0].moves == reports[1].moves == report.moves_checked
    # the header's seed rebuilds the start board
    start = plugin.new_game(random.Random(replay.seed))
    start.set_display_names(replay.names)
    assert start.state_element().render() == replay.states[0].render()


async def test_the_check_reports_the_first_disagreement(start_server, tmp_path):
    _, path = await recorded_game(start_server, tmp_path)
    replay = read_replay(path)
    state = replay.states[10]
    cell = next(f for column in state.find("board").findall("fields") for f in column.findall("field") if f.get("state") == "EMPTY")
    cell.attrs["state"] = "OBSTRUCTED"  # a tenth move that no rule explains
    report = check_replay(replay)
    assert not report.ok
    assert report.moves_checked == 9
    assert report.disagreement.startswith("turn 9 ")


async def test_a_room_cancelled_before_it_started_writes_no_replay(start_server, tmp_path):
    from swc_local.client.admin import Admin
    from tests.conftest import PASSWORD

    server = await start_server(save_replay=True, replay_dir=str(tmp_path))
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        room = await admin.prepare("piranhas", ["A", "B"])
        await admin.cancel(room.room_id)  # never started: no file
        await admin.set_test_mode(False)
    assert server.door("xml").replay_writer.paths == {}


def test_swc_replay_prints_boards_and_checks(tmp_path, capsys):
    assert main(["match", "piranhas", "--games", "1", "--seed", "4", "--replays", str(tmp_path)]) == 0
    (path,) = tmp_path.glob("game001_*.xml")
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    printed = capsys.readouterr().out
    assert "player1 (red) vs player2 (blue)" in printed
    assert "turn 0, RED to move" in printed and re.search(r"^RED moves: \(\d,\d\) [A-Z_]+$", printed, re.M)
    assert "result:" in printed
    assert main(["replay", str(path), "--check"]) == 0
    assert capsys.readouterr().out.startswith("ok: ")
    path.write_text(path.read_text().replace('direction="', 'direction="X', 1))  # first recorded move
    assert main(["replay", str(path), "--check"]) == 1
    assert "disagreement after 0 agreeing moves" in capsys.readouterr().out


async def test_rooms_start_from_the_loaded_turn_with_the_right_side_to_move(start_server, tmp_path):
    _, source = await recorded_game(start_server, tmp_path / "first")
    expected = read_replay(source).game_at(11)
    server = await start_server(
        load_game_file=str(source), turn_to_load=11, save_replay=True, replay_dir=str(tmp_path / "loaded")
    )
    with trio.fail_after(15):
        red, blue = await play_pair(server.door("xml").port, seeds=(5, 6))
    assert red.result is not None and blue.result is not None
    assert blue.own_moves == red.own_moves + 1 or blue.own_moves == red.own_moves  # blue moves first at turn 11
    (path,) = server.door("xml").replay_writer.paths.values()
    replay = read_replay(path)
    assert replay.header["loadGameFile"] == str(source) and replay.header["turnToLoad"] == "11"
    first = PIRANHAS.game_from_state(replay.states[0])
    assert (first.turn, first.current_seat) == (11, 1)
    assert first.state_element().find("board").render() == expected.state_element().find("board").render()
    assert check_replay(replay).ok


async def test_match_takes_the_same_options(start_server, tmp_path):
    _, source = await recorded_game(start_server, tmp_path / "first")
    config = MatchConfig(PIRANHAS, games=2, seed=2, parallel=2, options=dict(load_game=str(source), turn=20),
                         replays=tmp_path / "out")
    report = await run_match(config)
    assert report.complete
    for record in report.records:
        assert PIRANHAS.game_from_state(read_replay(Path(record.replay)).states[0]).turn == 20


async def test_a_turn_that_is_not_in_the_replay_is_refused(start_server, tmp_path, capsys):
    _, source = await recorded_game(start_server, tmp_path)
    with pytest.raises(ReplayError, match="turn 99 is not in the replay"):
        Server(Settings(free_ports=True, load_game_file=str(source), turn_to_load=99))
    with pytest.raises(ReplayError, match="already decided"):
        Server(Settings(free_ports=True, load_game_file=str(source), turn_to_load=len(read_replay(source).states) - 1))


async def test_server_properties_keys_load_and_save(start_server, tmp_path):
    from swc_local.server.config import load_settings

    _, source = await recorded_game(start_server, tmp_path / "first")
    properties = tmp_path / "server.properties"
    properties.write_text(
        f"password = x\nloadGameFile = {source}\nturnToLoad = 5\nsaveReplay = true\nreplayDir = {tmp_path / 'saved'}\n",
        encoding="latin-1",
    )
    settings = load_settings(properties, free_ports=True)
    server = await start_server(**settings.model_dump())
    with trio.fail_after(15):
        await play_pair(server.door("xml").port, seeds=(3, 4))
    (path,) = (tmp_path / "saved").glob("*.xml")
    assert PIRANHAS.game_from_state(read_replay(path).states[0]).turn == 5
