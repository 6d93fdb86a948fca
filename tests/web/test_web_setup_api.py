"""The seat API's side of issue 41's setup flows, without a browser: "play from here" on loopback
needs no passphrase only when the server has none of its own; a table's ``start``; the favicon."""

from __future__ import annotations

import json

import pytest
import trio

from swc_local.server.config import DEFAULT_PASSWORD
from tests.web_helpers import OFFICIAL_PIRANHAS, PASSWORD, http, start_viewer_server


async def uploaded_game(url: str) -> str:
    """The official Piranhas 2019 capture opened in the viewer (a game to play from)."""
    data = OFFICIAL_PIRANHAS.read_bytes().rstrip() + b"\n</protocol>\n"
    status, opened = await http(url + "/api/upload", data, {"X-File-Name": "official.xml"}, "POST")
    assert status == 200, opened
    return opened["id"]


@pytest.mark.parametrize("password, without, needs", [(None, 200, False), (DEFAULT_PASSWORD, 200, False),
                                                       (PASSWORD, 403, True)])
async def test_play_from_here_on_loopback_asks_a_passphrase_only_of_a_server_that_has_its_own(
        nursery, password, without, needs):
    server = await start_viewer_server(nursery, password=password)
    url = server.door("web").url
    game_id = await uploaded_game(url)
    assert (await http(f"{url}/api/games/{game_id}"))[1]["play_from_needs_passphrase"] is needs
    status, answer = await http(f"{url}/api/games/{game_id}/play-from/2", b"{}", {"Content-Type": "application/json"}, "POST")
    assert status == without, answer
    if needs:  # its own passphrase still opens it
        body = json.dumps({"passphrase": PASSWORD}).encode()
        status, answer = await http(f"{url}/api/games/{game_id}/play-from/2", body, {"Content-Type": "application/json"}, "POST")
        assert status == 200, answer
    assert len(answer["reservations"]) == 2


async def test_a_table_start_that_is_neither_now_paused_nor_a_pace_is_refused_naming_what_is_accepted(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    for start in ("later", 0, 1000, True):
        body = json.dumps({"game": "swc_2026_piranhas", "seats": ["bot", "bot"], "start": start}).encode()
        status, answer = await http(url + "/api/tables", body, {"Content-Type": "application/json"}, "POST")
        assert status == 400 and answer["error"].startswith('start: "now", "paused" or seconds a move'), answer


async def test_every_page_names_the_favicon_and_the_browsers_default_address_serves_it(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, icon = await http(url + "/favicon.ico")
    assert status == 200 and icon.startswith(b"<svg")
    assert (await http(url + "/static/favicon.svg"))[1] == icon
    for page in ("/", "/login", "/game/nothing", "/seat/nothing"):
        status, body = await http(url + page)
        assert b'<link rel="icon" href="/static/favicon.svg"' in body, page


async def test_the_manuals_paced_bot_table_command_runs_as_written(nursery):
    import shlex
    import subprocess

    from tests.packaging.test_readme_examples import _shell_block

    server = await start_viewer_server(nursery)
    address = server.door("web").url.removeprefix("http://")
    (line,) = [line for line in _shell_block('"start": 1').splitlines() if line.strip()]
    argv = shlex.split(line.replace("localhost:13080", address))
    done = await trio.to_thread.run_sync(lambda: subprocess.run(argv, capture_output=True, text=True, timeout=30))
    table = json.loads(done.stdout)
    record = server.door("web").context.book.get(table["game_id"])
    assert record.pace == 1 and record.controls() in (["start", "cancel"], ["pause", "unpause", "cancel"])
