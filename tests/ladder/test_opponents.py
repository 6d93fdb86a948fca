"""Choose an opponent everywhere (issue 45): the reference bots' commands come from the client
layer (client/ladder.py ``command``, issue 42), and a rung is the opponent of ``swc match
--opponent``, of a tournament's ``--bot NAME=reference:RUNG``, of the fixture's ``opponent=`` and
of a table's bot seat; a rung the game does not offer is one line naming the rungs it offers."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys

import pytest

from swc_local.client import bots, ladder
from swc_local.games import registry
from swc_local.tools.cli import main
from swc_local.tools.match import MatchConfig

from tests.web_helpers import http, start_viewer_server

CONNECT = ["--host", "{host}", "--port", "{port}", "--seed", "{seed}"]


def test_every_reference_bots_command_comes_from_the_client_layer_as_before():
    for entry in registry.entries():
        command = ladder.command(entry)
        if entry.family == registry.XML:
            assert command == [sys.executable, "-m", "swc_local.client.bot", entry.game_type, "--host", "{host}",
                               "--port", "{port}", "--reservation", "{reservation}", "--seed", "{seed}"]
    # the other families' bots start as they did when the games layer held their commands
    assert ladder.command(registry.entry("reversixt")) == [
        sys.executable, "-m", "swc_local.client.reversixt_bot", "--strategy", "greedy", *CONNECT]
    assert ladder.command(registry.entry("roborally")) == [
        sys.executable, "-m", "swc_local.client.roborally_bot", "--greedy", *CONNECT]
    assert ladder.command(registry.entry("roborally"), "random") == [
        sys.executable, "-m", "swc_local.client.roborally_bot", *CONNECT]
    assert ladder.command(registry.entry("penguins"), "search-short")[-2:] == ["--strategy", "search-short"]


def test_the_games_layer_holds_no_bot_and_the_families_state_their_rungs():
    for entry in registry.entries():
        assert not any(hasattr(entry, name) for name in ("bot", "bot_flags", "strengths", "bot_command", "greedy"))
    assert bots.family("reversixt").default_rung == "greedy"
    assert ladder.default_rung(registry.entry("piranhas")) == "random"
    assert ladder.rungs(registry.entry("blokus_2021"))[:4] == ("random", "greedy-35", "greedy-70", "greedy")  # its
    # plugin's own greedy_move, and its strategy's GREEDY_SHARES


def test_a_rung_the_game_lacks_is_an_error_naming_the_rungs_it_offers():
    with pytest.raises(ValueError, match=r"rung 'clever': penguins offers random, greedy-50, greedy, search-short, search-long"):
        ladder.command(registry.entry("penguins"), "clever")
    assert ladder.opponent_command(registry.entry("penguins"), "python my_bot.py") == "python my_bot.py"
    piranhas = registry.entry("piranhas")
    with pytest.raises(ValueError, match=re.escape(f"rung 'clever': piranhas offers {', '.join(ladder.rungs(piranhas))}")):
        ladder.opponent_command(piranhas, "clever")


def test_the_xml_bot_starts_as_a_client_module_with_one_line_errors(capsys):
    from swc_local.client import bot

    done = subprocess.run([sys.executable, "-m", "swc_local.client.bot", "penguins", "--strategy", "clever",
                           "--port", "1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == ("swc bot: error: --strategy 'clever': the reference bot of penguins plays random, "
                                   "greedy-50, greedy, search-short, search-long; see swc bot --help")
    with pytest.raises(SystemExit) as exited:
        bot.main([])
    err = capsys.readouterr().err.strip()
    assert exited.value.code == 2 and len(err.splitlines()) == 1 and "game" in err


def test_swc_match_opponent_seats_the_rung_in_every_other_seat(capsys):
    entry = registry.entry("penguins")
    config = MatchConfig("penguins", players=["python mine.py {port}"], opponent="search-short")
    assert config.commands() == ["python mine.py {port}", ladder.command(entry, "search-short")]
    alone = MatchConfig("penguins", opponent="greedy").commands()
    assert alone == [ladder.command(entry), ladder.command(entry, "greedy")]
    assert main(["match", "penguins", "--opponent", "clever", "--games", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("swc match: error: --opponent rung 'clever': penguins offers random, greedy-50, greedy, search-short, "
                   "search-long; see swc match --help")
    assert main(["match", "penguins", "--opponent", "greedy", "--player2", "python x.py"]) == 2
    assert "--opponent" in capsys.readouterr().err


def test_swc_match_opponent_plays_a_real_game(tmp_path, capsys):
    json_path = tmp_path / "games.jsonl"
    assert main(["match", "piranhas", "--games", "1", "--seed", "3", "--opponent", "random", "--json", str(json_path)]) == 0
    (record,) = [json.loads(line) for line in json_path.read_text().splitlines()]
    assert [seat["cause"] for seat in record["seats"]] == ["REGULAR", "REGULAR"]
    assert "--strategy random" in capsys.readouterr().out  # player2's command, as the table names it


def test_a_tournaments_reference_bot_is_named_by_its_rung(tmp_path, capsys):
    from swc_local.tools.tournament.arguments import UsageError, _reference
    from swc_local.tools.tournament.schedule import parse_bot

    entry = registry.entry("penguins")
    assert _reference(parse_bot("ref=reference:greedy"), entry.game_type).command == \
        shlex.join(ladder.command(entry, "greedy"))
    assert _reference(parse_bot("ref=reference"), entry.game_type).command == shlex.join(ladder.command(entry))
    assert _reference(parse_bot("mine=python my_bot.py"), entry.game_type).command == "python my_bot.py"
    with pytest.raises(UsageError, match="--bot ref=reference:clever: rung 'clever': penguins offers random, greedy"):
        _reference(parse_bot("ref=reference:clever"), entry.game_type)
    code = main(["tournament", "penguins", "--bot", "a=reference:clever", "--bot", "b=reference",
                 "--db", str(tmp_path / "t.db")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "penguins offers random, greedy-50, greedy, search-short" in err


def test_the_fixture_takes_a_rung_as_opponent(pytester, monkeypatch):
    pytester.makepyfile(test_rungs='''
import pytest


@pytest.mark.swc_server(game="piranhas", seed=2)
def test_a_rung_it_lacks(swc_server):
    with pytest.raises(ValueError, match="rung 'clever': piranhas offers random"):
        swc_server.play("python -m swc_local.client.bot piranhas --port {port} --reservation {reservation}",
                        opponent="clever")


@pytest.mark.swc_server(game="piranhas", seed=2)
def test_a_rung_it_has(swc_server):
    game = swc_server.play("python -m swc_local.client.bot piranhas --port {port} --reservation {reservation}",
                           opponent="random")
    assert game.bot.cause == "REGULAR" and game.opponent.cause == "REGULAR"
''')
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:randomly")
    result.assert_outcomes(passed=2)


async def test_a_table_seats_a_rung_and_a_server_without_opponents_offers_no_bot(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, listed = await http(f"{url}/api/tables")
    assert "bot" in listed["kinds"]
    rungs = {row["game"]: row["rungs"] for row in listed["games"]}
    assert rungs["swc_2023_penguins"] == ["random", "greedy-50", "greedy", "search-short", "search-long"]
    assert rungs["swc_2027_blokus"] == ["random", "greedy-45", "greedy-80", "greedy", "search-short", "search-long"]
    assert rungs["swc_2020_hive"] == list(ladder.RUNGS)
    assert {row["game"]: row["rungs"] for row in listed["families"]} == {
        "reversixt": list(ladder.rungs(registry.entry("reversixt"))),
        "roborally": list(ladder.rungs(registry.entry("roborally")))}
    body = b'{"game": "penguins", "seats": ["you", {"kind": "bot", "rung": "search-short"}]}'
    status, table = await http(f"{url}/api/tables", data=body)
    assert status == 200, table
    (command,) = server.door("web").context.tables.tables[table["table"]].commands
    assert command[-2:] == ["--strategy", "search-short"] and "swc_2023_penguins" in command
    status, refused = await http(f"{url}/api/tables", data=b'{"game": "reversixt", "seats": ["you", '
                                                           b'{"kind": "bot", "rung": "clever"}]}')
    assert status == 400 and refused["error"] == "rung 'clever': the reference bot of reversixt plays " + \
        ", ".join(ladder.rungs(registry.entry("reversixt")))

    bare = await start_viewer_server(nursery, opponents=None)
    url = bare.door("web").url
    status, listed = await http(f"{url}/api/tables")
    assert "bot" not in listed["kinds"] and all(row["rungs"] == [] for row in listed["games"])
    status, refused = await http(f"{url}/api/tables", data=b'{"game": "piranhas", "seats": ["you", "bot"]}')
    assert status == 400 and "offers no reference bots" in refused["error"], refused


def test_swc_serve_hands_its_viewer_the_ladder_and_the_bare_server_none():
    from swc_local.server import cli as server_cli
    from swc_local.tools.cli import build_parser

    assert build_parser().parse_args(["serve"]).opponents is ladder
    parser, commands = server_cli.new_parser()
    server_cli.add_commands(commands)
    assert parser.parse_args(["serve"]).opponents is None  # python -m swc_local.server: no bot seats


def test_the_reversixt_and_robo_rally_fixtures_take_a_rung():
    from types import SimpleNamespace

    from swc_local.swc_pytest.reversixt import RunningReversi
    from swc_local.swc_pytest.roborally import RunningRoboRally

    class Portal:  # what the fixture hands the runner, without playing
        def call(self, play, specs, give_up_after=None):
            self.players = specs[0].players
            return [SimpleNamespace(raw=None, error="not played", seats=[], replay=None)]

    portal, door = Portal(), SimpleNamespace(port=1, game_map=SimpleNamespace(players=3))
    RunningReversi(portal, door, {"map": "m"}).play("python mine.py", seat=2, opponents="random")
    assert portal.players == [("opponent1", ladder.command(registry.entry("reversixt"), "random")),
                              ("bot", "python mine.py"),
                              ("opponent3", ladder.command(registry.entry("reversixt"), "random"))]
    RunningRoboRally(portal, door, {}, 10).play("python mine.py", opponents=2, opponent="random")
    assert [command for _, command in portal.players[1:]] == [ladder.command(registry.entry("roborally"), "random")] * 2
    RunningRoboRally(portal, door, {}, 10).play("python mine.py")
    assert portal.players[1][1] == ladder.command(registry.entry("roborally"))  # greedy, as before
    with pytest.raises(ValueError, match="rung 'clever': roborally offers random, greedy"):
        RunningRoboRally(portal, door, {}, 10).play("python mine.py", opponent="clever")
