"""Starting a league from the viewer (``swc view --leagues DIR``): the request checked as ``swc
tournament`` checks its arguments, the admin passphrase, another site's page refused, and a
league that starts, runs as its own process and stops with the viewer."""

from __future__ import annotations

import json
import shlex

import pytest
import trio

from swc_local.client import ladder
from swc_local.games import registry
from swc_local.server.web.book import GameBook
from swc_local.tools.tournament.launch import Launcher
from swc_local.tools.view import serve_book
from tests.web_helpers import http

PIRANHAS = shlex.join(ladder.command(registry.entry("piranhas")))


def request(**changes) -> dict:
    return {"game": "piranhas", "format": "final-eight", "games_per_encounter": 2, "seed": 1,
            "teams": [f"t{i}={PIRANHAS}" for i in range(4)]} | changes


@pytest.mark.parametrize("changes, message", [
    ({"format": "roundrobin"}, "format 'roundrobin': accepted are league, champions, final-eight, contest"),
    ({"teams": "a=b"}, "teams: a list of NAME=COMMAND lines"),
    ({"games_per_encounter": "6"}, "games_per_encounter: a whole number"),
    ({"games_per_encounter": 5}, "--games-per-encounter 5: must be a positive even number"),
    ({"teams": ["a=x", "b=x", "c=x"]}, "needs 8 teams (or 4"),
    ({"teams": ["bad name=x", "b=x", "c=x", "d=x"]}, "may use letters"),
    ({"teams": ["a=/no/such/bot", "b=x", "c=x", "d=x"]}, "--bot a: the command cannot be started"),
    ({"game": "chess"}, "chess"),
])
def test_a_request_is_checked_as_the_command_line_checks_it(tmp_path, changes, message):
    launcher = Launcher(tmp_path, {}, lambda db: db)
    with pytest.raises(ValueError, match=message.replace("(", r"\(")) as found:
        launcher.start(request(**changes))
    assert "\n" not in str(found.value)
    assert not list(tmp_path.iterdir())  # nothing started, nothing written


async def test_the_page_needs_the_passphrase_refuses_other_sites_and_starts_a_league(tmp_path):
    book = GameBook()
    async with trio.open_nursery() as nursery:
        door = await nursery.start(lambda task_status: serve_book(book, "127.0.0.1", 0, "secret", leagues=tmp_path,
                                                                  task_status=task_status))
        url = door.url
        status, options = await http(f"{url}/api/tournaments/options")
        assert status == 200 and options["needs_passphrase"] and "final-eight" in options["formats"]
        assert options["defaults"]["games_per_encounter"] == 6
        body = json.dumps(request()).encode()
        headers = {"Content-Type": "application/json"}
        status, answer = await http(f"{url}/api/tournaments", body, headers)
        assert status == 403 and answer["error"] == "wrong admin passphrase"
        with_passphrase = json.dumps(request() | {"passphrase": "secret"}).encode()
        status, answer = await http(f"{url}/api/tournaments", with_passphrase,
                                    headers | {"Origin": "http://evil.example"})
        assert status == 403 and "another site's page" in answer["error"]
        status, answer = await http(f"{url}/api/tournaments", json.dumps(request(format="cup") | {"passphrase": "secret"}).encode(), headers)
        assert status == 400 and "format 'cup'" in answer["error"]
        assert not list(tmp_path.iterdir())
        status, answer = await http(f"{url}/api/tournaments", with_passphrase, headers)
        assert status == 200 and answer["url"] == f"/tournament/{answer['id']}"
        assert answer["id"].startswith("league-") and (tmp_path / f"{answer['id']}.db").is_file()
        status, listing = await http(f"{url}/api/tournaments")
        assert [t["id"] for t in listing["tournaments"]] == [answer["id"]]
        status, data = await http(f"{url}{answer['url'].replace('/tournament/', '/api/tournaments/')}")
        assert status == 200 and data["report"]["settings"]["format"] == "final-eight"
        assert data["report"]["league"]["stages"][0]["title"] == "Final Four"
        launcher = door.context.tournament_starter
        nursery.cancel_scope.cancel()
    assert len(launcher.processes) == 1
    assert launcher.processes[0].poll() is not None  # the league stopped with the viewer


async def test_a_viewer_without_leagues_offers_no_start(tmp_path):
    async with trio.open_nursery() as nursery:
        door = await nursery.start(lambda task_status: serve_book(GameBook(), "127.0.0.1", 0, None,
                                                                  task_status=task_status))
        status, _ = await http(f"{door.url}/tournament/new")
        assert status == 404
        status, answer = await http(f"{door.url}/api/tournaments", b"{}", {"Content-Type": "application/json"})
        assert status == 404 and "--leagues" in answer["error"]
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("args, message", [
    ([], "give the files to show (replays, logs, tournament databases), --archives DIR for the archives page or --leagues DIR"),
    (["--leagues", "no/such/folder"], "--leagues no/such/folder: no such folder"),
])
def test_swc_view_without_files_or_with_a_missing_leagues_folder_is_a_one_line_error(tmp_path, monkeypatch, capsys,
                                                                                      args, message):
    from swc_local.tools.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["view", "--port", "0", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
