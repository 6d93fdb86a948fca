"""A season goes all the way from its folder and one tuple line (tests/toy_season/): served, a
person seated by pointing, ``swc match``, ``swc replay --check``, ``swc tournament`` and the
``swc_server`` pytest fixture, with no file of the package naming it (ARCHITECTURE.md, "Where new
things go")."""

from __future__ import annotations

import json
import random
import shlex
from pathlib import Path

import trio

from swc_local.client import ladder
from swc_local.games import registry, views
from swc_local.server.web.pointing import board_boxes, move_steps
from swc_local.tools.cli import main

from tests import toy_season
from tests.toy_season.entry import ENTRY
from tests.web_helpers import http, start_viewer_server

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGE_FOLDERS = ("protocol", "games", "server", "client", "tools", "swc_pytest")


def test_the_season_is_its_folder_and_one_tuple_line(monkeypatch):
    folder = ROOT / "tests" / "toy_season"
    assert sorted(path.name for path in folder.glob("*.py")) == sorted(toy_season.FOLDER_FILES)
    names = (ENTRY.game_type, *ENTRY.short_names, "toy_season")
    touched = [path for name in PACKAGE_FOLDERS for path in (ROOT / name).rglob("*.py")
               if any(word in path.read_text(encoding="utf-8") for word in names)]
    assert touched == []  # no file outside its folder names it
    assert registry.entry("linie") is None
    assert toy_season.register(monkeypatch) == [("swc_local.games.registry", "GAMES"), ("swc_local.client.ladder", "XML_BOT")]
    assert registry.entry("linie") is ENTRY and registry.get(ENTRY.game_type) is ENTRY.plugin
    plugin = ENTRY.plugin
    assert (plugin.dialect, plugin.envelope, plugin.season) == (ENTRY.dialect, ENTRY.envelope, 2000)
    assert ENTRY.game_type in registry.game_types() and plugin in registry.all_plugins()
    game = plugin.new_game(random.Random(1))
    assert registry.plugin_for_state(game.state_element()) is plugin
    assert views.render("linie", game).startswith("<svg")
    assert move_steps(ENTRY.game_type, game, plugin.legal_moves(game)[1]) == [{"cell": "0"}, {"cell": "2"}]
    assert set(board_boxes(ENTRY.game_type, game)) == {str(x) for x in range(10)}


async def test_a_person_takes_a_seat_and_plays_it_by_pointing(nursery, monkeypatch):
    toy_season.register(monkeypatch)
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, table = await http(f"{url}/api/tables", data=b'{"game": "linie", "seats": ["you", "bot"]}',
                               headers={"Content-Type": "application/json"})
    assert status == 200, table
    seat, rng, pointed = table["seats"][0]["seat"], random.Random(5), 0
    with trio.fail_after(120):
        status, data = await http(f"{url}/api/seats/{seat}?after=-1")
        while not data["over"]:
            if data["your_turn"]:
                cells = [move["cells"] for move in data["moves"]]
                assert len(set(map(tuple, cells))) == len(cells) and all(set(c) <= set(data["cells"]) for c in cells)
                clicks = rng.choice(cells)  # the page: the clicks name exactly one move
                index = next(move["index"] for move in data["moves"] if move["cells"] == clicks)
                status, data = await http(f"{url}/api/seats/{seat}/move", data=b'{"index": %d}' % index,
                                          headers={"Content-Type": "application/json"})
                assert status == 200, data
                pointed += 1
            else:
                status, data = await http(f"{url}/api/seats/{seat}?after={data['version']}")
        while data["result_rows"] is None:
            await trio.sleep(0.05)
            status, data = await http(f"{url}/api/seats/{seat}?after=-1")
    assert pointed == 3 and data["error"] is None
    assert [row["cause"] for row in data["result_rows"]] == ["REGULAR", "REGULAR"]


def test_it_is_matched_by_its_reference_bot_and_its_replay_checks(monkeypatch, tmp_path, capsys):
    toy_season.register(monkeypatch)
    replays = tmp_path / "replays"
    assert main(["match", "linie", "--games", "2", "--seed", "3", "--replays", str(replays)]) == 0
    files = sorted(replays.glob("*.xml"))
    assert len(files) == 2
    capsys.readouterr()
    assert main(["replay", "--check", str(files[0])]) == 0
    assert "agree" in capsys.readouterr().out


def test_it_is_played_in_a_tournament(monkeypatch, tmp_path, capsys):
    toy_season.register(monkeypatch)
    db = tmp_path / "linie.db"
    bot = shlex.join(ladder.command(ENTRY))
    assert main(["tournament", "linie", f"--bot=ann={bot}", "--bot=bob=reference", "--db", str(db), "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["tournament", "report", str(db), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == data["scheduled"] == 2
    assert {row["bot"]: row["games"] for row in data["standings"]} == {"ann": 2, "bob": 2}


def test_its_fixture_serves_it(monkeypatch, pytester):
    toy_season.register(monkeypatch)
    bot = shlex.join(ladder.command(ENTRY))
    pytester.makepyfile(test_linie_bot=f'''
import pytest


@pytest.mark.swc_server(game="linie", seed=4)
def test_the_reference_bot_plays_a_whole_game(swc_server):
    game = swc_server.play({bot!r})
    assert game.bot.cause == "REGULAR" and game.opponent.cause == "REGULAR"
''')
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the bots' processes run in pytester's folder
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:randomly")
    result.assert_outcomes(passed=1)
