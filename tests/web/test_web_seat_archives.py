"""A client archive at a table of ``swc serve``'s viewer (issue 44): the ``swc`` command lends the
server its archive resolution (tools/cli.py; server/ never imports tools/), so a command seat may
name ``team.zip``; a broken archive is the table's 400 with the archive's line."""

from __future__ import annotations

import json
import random

import trio

from swc_local.server.app import Server
from swc_local.server.config import Settings
from swc_local.tools import cli
from swc_local.tools.archive import table_command
from tests.archives import pack, reference_bot_zip
from tests.web.test_web_seats import play_seat
from tests.web_helpers import PASSWORD, http, renderer

GAME = "swc_2019_piranhas"


async def _server(nursery) -> Server:
    server = Server(Settings(free_ports=True, password=PASSWORD, seed=1, sections={"web": {"port": 0}}))
    server.web_renderer = renderer()
    server.command_resolver = table_command  # what swc serve gets from the swc command
    return await nursery.start(server.run)


def test_swc_serve_lends_the_archive_resolution_to_its_tables():
    args = cli.build_parser().parse_args(["serve"])
    assert args.run is cli._serve_with_archives


async def test_an_archive_takes_a_command_seat_and_plays_against_a_person(nursery, tmp_path, monkeypatch):
    monkeypatch.setenv("SWC_ARCHIVE_CACHE", str(tmp_path / "cache"))
    team = reference_bot_zip(tmp_path / "team.zip", GAME)
    url = (await _server(nursery)).door("web").url
    broken = pack(tmp_path / "broken.zip", {"notes.txt": "no player"})
    body = json.dumps({"game": "piranhas", "seats": [{"kind": "command", "command": str(broken)}, "you"]}).encode()
    status, data = await http(f"{url}/api/tables", body, {"Content-Type": "application/json"}, "POST")
    assert status == 400 and data["error"].startswith(f"{broken}: no main file")
    body = json.dumps({"game": "piranhas", "seats": [{"kind": "command", "command": f"{team} --seed 3"}, "you"]}).encode()
    status, table = await http(f"{url}/api/tables", body, {"Content-Type": "application/json"}, "POST")
    assert status == 200, table
    with trio.fail_after(120):
        data = await play_seat(url, table["seats"][1]["seat"], random.Random(2))
    assert [row["cause"] for row in data["result_rows"]] == ["REGULAR", "REGULAR"]
