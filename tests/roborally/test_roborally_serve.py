"""The Robo Rally door inside ``swc serve``: its own port beside the XML door, keys, CLI."""

import pytest
import trio

from swc_local.client.roborally_bot import RoboRallyBot
from swc_local.server.app import Server
from swc_local.tools.cli import build_parser
from swc_local.server.config import ConfigError, Settings, load_settings
from swc_local.server.roborally.settings import SECTION, RoboRallyKeys, roborally_settings, serve_default


def swc_serve_settings(settings, args=None):
    """What ``swc serve`` makes of the section: its flags over the keys, then its defaults and checks."""
    args = args or build_parser().parse_args(["serve"])
    part = SECTION.model.model_validate(SECTION.flags(args, settings.section("roborally").model_dump()))
    return settings.with_section("roborally", SECTION.serve(part, settings, args))


async def test_door_runs_beside_the_xml_server_and_keeps_serving():
    settings = Settings(free_ports=True, sections={"roborally": {"port": 0, "keys": {"timer": "0.05", "map": "Dizzy Highway"}}})
    async with trio.open_nursery() as nursery:
        server = await nursery.start(Server(settings).run)
        assert server.door("xml").port and server.door("roborally") is not None and server.door("roborally").port != server.door("xml").port
        for game in range(2):  # the door keeps serving after a game
            bots = [RoboRallyBot(greedy=True, seed=game * 2 + seat) for seat in range(2)]
            with trio.fail_after(30):
                async with trio.open_nursery() as games:
                    for bot in bots:
                        games.start_soon(bot.play, "127.0.0.1", server.door("roborally").port)
                        await trio.sleep(0.01)
            assert all(bot.report.finished for bot in bots)
        nursery.cancel_scope.cancel()


async def test_a_busy_port_stops_the_server_naming_the_flag():
    """One policy for every door (tests/tools/test_cli_points.py): the server stops with one line."""
    from swc_local.server.door import CannotListen

    blocker = trio.socket.socket()
    await blocker.bind(("127.0.0.1", 0))
    blocker.listen()
    port = blocker.getsockname()[1]
    with pytest.raises(BaseExceptionGroup) as raised:
        async with trio.open_nursery() as nursery:
            await nursery.start(Server(Settings(free_ports=True, sections={"roborally": {"port": port}})).run)
    blocker.close()
    assert raised.group_contains(CannotListen, match=f"{port}.*--roborally-port PORT .*moves it", depth=None)


def test_default_off_for_programmatic_servers_and_52020_for_swc_serve():
    assert Settings().section("roborally").port is None and roborally_settings(Settings()) is None
    assert serve_default(RoboRallyKeys()).port == 52020
    assert serve_default(RoboRallyKeys(keys={"port": "off"})).port == -1
    assert serve_default(RoboRallyKeys(port=6000)).port == 6000


def test_properties_keys(tmp_path):
    path = tmp_path / "server.properties"
    path.write_text("roborally.port=6001\nroborally.helloTimeout=3\nroborally.maxConnections=7\nroborally.timer=0.5\nroborally.minPlayers=3\nroborally.map=Death Trap\n"
                    "roborally.protocols=Version 1.0, Version 2.0\nroborally.playCardTimeout=0\n")
    settings = swc_serve_settings(load_settings(path))
    door = roborally_settings(settings)
    assert (door.port, door.timer, door.min_players, door.map, door.play_card_timeout) == (6001, 0.5, 3, "Death Trap", 0.0)
    assert door.protocols == ("Version 1.0", "Version 2.0") and door.single_game is False
    assert (door.hello_timeout, door.max_connections) == (3.0, 7)
    path.write_text("roborally.timer=0\n")
    with pytest.raises(ConfigError):
        swc_serve_settings(load_settings(path))
    path.write_text("roborally.map=Nowhere\n")
    with pytest.raises(ConfigError):
        swc_serve_settings(load_settings(path))


def test_drop_in_flags():
    args = build_parser().parse_args(["roborally", "--port", "0", "--MinPlayer", "3", "--timer", "0.5", "--seed", "4",
                                      "--map", "Extra Crispy", "--protocol", "Version 1.0", "--protocol", "Version 0.1"])
    from swc_local.server.roborally.cli import settings_from_args

    settings = settings_from_args(args, single_game=True)
    assert (settings.port, settings.min_players, settings.timer, settings.seed, settings.map) == (0, 3, 0.5, 4, "Extra Crispy")
    assert settings.protocols == ("Version 1.0", "Version 0.1")
    defaults = settings_from_args(build_parser().parse_args(["roborally"]))
    assert (defaults.port, defaults.alive_interval, defaults.timer, defaults.play_card_timeout, defaults.pick_damage_timeout,
            defaults.reboot_direction_wait, defaults.setup_timeout, defaults.programming_limit) == (52020, 5, 30, 5, 5, 2, 0, 0)
    assert build_parser().parse_args(["serve", "--roborally-port", "-1"]).roborally_port == -1


async def test_swc_roborally_plays_one_game_and_exits():
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "swc_local.tools.cli", "roborally", "--port", str(port), "--map", "Dizzy Highway",
               "--timer", "0.1", "--seed", "1"]
    async with trio.open_nursery() as nursery:
        process = await nursery.start(lambda task_status: trio.run_process(command, check=False, task_status=task_status,
                                                                            stderr=subprocess.DEVNULL))
        for _ in range(100):
            try:
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                await stream.aclose()
                break
            except OSError:
                await trio.sleep(0.1)
        bots = [RoboRallyBot(greedy=True, seed=seat) for seat in range(2)]
        with trio.fail_after(60):
            async with trio.open_nursery() as games:
                for bot in bots:
                    games.start_soon(bot.play, "127.0.0.1", port)
                    await trio.sleep(0.05)
            assert all(bot.report.finished for bot in bots)
            assert await process.wait() == 0


def test_swc_serve_flags_win_over_keys():
    args = build_parser().parse_args(["serve", "--roborally-timer", "0.5", "--roborally-map", "Death Trap",
                                      "--roborally-protocol", "Version 1.0", "--roborally-protocol", "Version 2.0"])
    settings = swc_serve_settings(Settings(sections={"roborally": {"keys": {"timer": "9", "minPlayers": "3"}}}), args)
    door = roborally_settings(settings)
    assert (door.timer, door.map, door.min_players, door.port) == (0.5, "Death Trap", 3, 52020)
    assert door.protocols == ("Version 1.0", "Version 2.0")
