"""The command line's rough edges of issue 35, each as a bot author or a CI job meets it:
``swc --version``, did-you-mean for options, parents' options after a subcommand,
``--fail-on-irregular`` and an honest last line, the ``{reservation}`` hint, bundled maps by
name and ``swc maps``, one policy for a busy port on every door, temporary log folders, and the
bots' last lines (``swc bot``'s move count, the ReversiXT bot's verdict, the wrong game)."""

from __future__ import annotations

import json
import re
import socket
import sys
import tempfile
from importlib.metadata import version

import pytest
import trio

from swc_local.client.admin import Admin
from swc_local.client.bot import play_game
from swc_local.client.reversixt_bot import ClientGame, verdict
from swc_local.games import registry
from swc_local.games.reversixt.mapfile import load_map
from swc_local.games.reversixt.rules import State
from swc_local.server.app import Server
from swc_local.server.config import Settings
from swc_local.server.door import CannotListen
from swc_local.tools.cli import build_parser, main
from tests.helpers import cli_errors
from tests.conftest import PASSWORD
from tests.tools.test_match_cli import BROKEN_BOT, FAST_REVERSI


def test_swc_version_prints_the_installed_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"swc {version('swc-local')}\n"


@pytest.mark.parametrize("argv, suggestion", [
    (["admin", "prepare", "piranhas", "--prot", "1"], "--port"),
    (["match", "piranhas", "--gmaes", "3"], "--games"),
    (["serve", "--reversixt-mpa", "quad_4p"], "--reversixt-map"),
])
def test_an_unknown_option_gets_the_closest_of_its_command(argv, suggestion, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert f"unrecognized arguments: {argv[-2]} {argv[-1]} (did you mean {suggestion}" in line


def test_a_mistyped_subcommand_gets_the_closest_one(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["mtach", "piranhas"])
    assert stop.value.code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "invalid choice: 'mtach'" in line and "(did you mean match?)" in line


def test_a_parents_option_is_taken_after_the_subcommand_too():
    parser = build_parser()
    after = parser.parse_args(["admin", "prepare", "piranhas", "--port", "1", "--host", "h"])
    before = parser.parse_args(["admin", "--port", "1", "--host", "h", "prepare", "piranhas"])
    assert (after.port, after.host, after.action) == (before.port, before.host, before.action) == (1, "h", "prepare")
    assert parser.parse_args(["admin", "prepare", "piranhas"]).port == 13050  # the parent's default stays
    assert parser.parse_args(["serve", "-v"]).verbose and parser.parse_args(["-v", "serve"]).verbose
    # a subcommand's own option of the same spelling wins: swc bot's --port is bot's, not ambiguous
    assert parser.parse_args(["bot", "piranhas", "--port", "5"]).port == 5


async def test_swc_admin_prepare_with_the_port_after_the_subcommand(start_server, capsys):
    server = await start_server()
    code = await trio.to_thread.run_sync(main, ["admin", "prepare", "piranhas", "--port", str(server.door("xml").port),
                                                "--password", PASSWORD])
    assert code == 0
    assert capsys.readouterr().out.startswith("room: ")


def _broken_bot(tmp_path) -> str:
    script = tmp_path / "broken_bot.py"
    script.write_text(BROKEN_BOT)
    return f"{sys.executable} {script} {{port}} {{reservation}}"


def test_fail_on_irregular_exits_1_and_names_the_cause(tmp_path, capsys):
    argv = ["match", "piranhas", "--games", "1", "--seed", "3", "--player1", _broken_bot(tmp_path),
            "--logs", str(tmp_path / "logs")]
    assert main(argv) == 0  # a game with a result: without the flag the exit stays 0
    capsys.readouterr()
    assert main([*argv, "--fail-on-irregular"]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == "player1 ended 1 of 1 games other than REGULAR (LEFT 1): exit 1 (--fail-on-irregular)"
    assert main([*argv, "--fail-on-irregular", "player2"]) == 0  # the chosen bot ended REGULAR


def test_fail_on_irregular_refuses_a_name_no_player_has(capsys):
    assert main(["match", "piranhas", "--fail-on-irregular", "player3"]) == 2
    (line,) = cli_errors(capsys, "swc match")
    assert "--fail-on-irregular player3: no such player (player1, player2" in line


def test_a_match_stopped_by_a_command_does_not_claim_every_game_ended(capsys):
    missing = "sh -c 'echo \"sh: 1: pyhton: not found\" >&2; exit 127' {port}"
    bot = f"{sys.executable} -m swc_local.client.reversixt_bot --port {{port}} --seed {{seed}}"
    assert main(["match", "reversixt", "--games", "10", "--player", missing, "--player", bot, *FAST_REVERSI]) == 2
    out = capsys.readouterr().out
    assert "every game ended with a result" not in out
    assert out.splitlines()[-1] == "stopped after 1 of 10 games: a command cannot play (see below)"


def test_a_command_without_reservation_that_never_joins_gets_the_hint(tmp_path):
    records = tmp_path / "games.jsonl"
    assert main(["match", "piranhas", "--games", "1", "--player1", f"{sys.executable} -c 'import time; time.sleep(60)'",
                 "--start-timeout", "10", "--json", str(records)]) == 0
    seat = next(s for s in json.loads(records.read_text())["seats"] if s["name"] == "player1")
    assert seat["cause"] == "NEVER_JOINED"
    assert "its command has no {reservation}" in seat["reason"] and "--reservation {reservation}" in seat["reason"]


def test_swc_maps_lists_the_bundled_maps_and_courses(capsys):
    assert main(["maps"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^  quad_4p +4 players, 14x14", out, re.M) and re.search(r"^  classic_2p +2 players", out, re.M)
    for course in ("Dizzy Highway", "Extra Crispy", "Lost Bearings", "Death Trap"):
        assert re.search(rf"^  {course} +6 start points", out, re.M)


def test_a_bundled_map_is_named_by_its_name_from_any_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no games/ folder here, as after a non-editable install
    assert load_map("quad_4p").players == load_map("quad_4p.map").players == 4
    assert main(["match", "reversixt", "--map", "quad_4p", "--games", "1", "--seed", "1", *FAST_REVERSI]) == 0
    out = capsys.readouterr().out
    assert "player4" in out and "every game ended with a result" in out


def _busy_port() -> socket.socket:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    return busy


@pytest.mark.parametrize("door, sections, flag", [
    ("XML door", None, "--port PORT (server.properties: port) moves it"),
    ("ReversiXT door", "reversixt", "--reversixt-port PORT (server.properties: reversixtPort) moves it, --no-reversixt turns it off"),
    ("Robo Rally door", "roborally", "--roborally-port PORT (server.properties: roborally.port) moves it, "
                                     "--roborally-port -1 turns it off"),
    ("web viewer", "web", "--viewer-port PORT (server.properties: viewerPort) moves it, --viewer-port -1 turns it off"),
])
async def test_a_busy_port_stops_the_server_the_same_way_on_every_door(door, sections, flag):
    with _busy_port() as busy:
        port = busy.getsockname()[1]
        settings = Settings(sections={"xml": {"port": port}}) if sections is None else Settings(free_ports=True, sections={sections: {"port": port}})
        with pytest.raises(BaseExceptionGroup) as raised:
            async with trio.open_nursery() as nursery:
                await nursery.start(Server(settings).run)
                nursery.cancel_scope.cancel()
    (error,) = _leaves(raised.value)
    assert isinstance(error, CannotListen)
    assert re.fullmatch(rf"cannot listen on 127\.0\.0\.1:{port} for the {door} \(.+\); {re.escape(flag)}", str(error))


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


def test_swc_serve_stops_with_one_line_on_a_busy_secondary_port(tmp_path, capsys, caplog):
    with _busy_port() as busy:
        port = busy.getsockname()[1]
        code = main(["serve", "--port", "0", "--reversixt-port", str(port), "--roborally-port", "-1", "--viewer-port", "-1"])
    assert code == 2
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []
    assert capsys.readouterr().err == (
        f"swc serve: error: cannot listen on 127.0.0.1:{port} for the ReversiXT door (Address already in use); "
        "--reversixt-port PORT (server.properties: reversixtPort) moves it, --no-reversixt turns it off\n")


def _match_log_folders(folder) -> list:
    return sorted(folder.glob("swc-match-logs-*"))


def test_the_temporary_log_folder_goes_after_regular_games_and_stays_after_others(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert main(["match", "piranhas", "--games", "1", "--seed", "3"]) == 0
    assert _match_log_folders(tmp_path) == []
    assert "bot output:" not in capsys.readouterr().out
    assert main(["match", "piranhas", "--games", "1", "--seed", "3", "--player1", _broken_bot(tmp_path)]) == 0
    (kept,) = _match_log_folders(tmp_path)
    assert f"bot output: {kept}" in capsys.readouterr().out  # the irregular game's output is read there


def test_the_reversixt_bot_says_whether_it_won_and_why():
    game = ClientGame(state=State.initial(load_map("classic_2p")), me=1, over=True)
    assert verdict(game).startswith("player 1 draw: 2 stones, the most, shared (player 2: 2)")
    game.state.squares[game.state.squares.index(0)] = 1
    assert verdict(game) == "player 1 won: 3 stones, the most (player 2: 2)"
    game.me = 2
    assert verdict(game) == "player 2 lost: 2 stones, fewer than the best 3 (player 1: 3)"
    game.disqualified = True
    assert verdict(game) == "player 2 lost: disqualified by the server"
    game.disqualified, game.over = False, False
    assert verdict(game).startswith("player 2: no result: the server closed the connection before the end")


async def test_a_bot_in_the_room_of_another_game_is_told_which_game_it_is(start_server):
    server = await start_server()
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        room = await admin.prepare("blokus", ["A", "B"])
    blokus, piranhas = registry.get(registry.resolve("blokus")), registry.get("swc_2019_piranhas")
    reports = {}
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            async def seat(name, plugin, code):
                reports[name] = await play_game(plugin, "127.0.0.1", server.door("xml").port, code, seed=1)
            nursery.start_soon(seat, "piranhas", piranhas, room.reservations[0])
            nursery.start_soon(seat, "blokus", blokus, room.reservations[1])
    assert reports["piranhas"].error == (
        f"this room plays {blokus.game_type}, but the client plays swc_2019_piranhas: "
        f"start the bot of {blokus.game_type} or join a room of swc_2019_piranhas")
