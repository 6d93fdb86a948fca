"""A fourth wire family goes all the way (tests/toy/): served, ``swc bot``, ``swc match``, ``swc
replay``, ``swc view``, ``swc tournament`` and a pytest fixture, with one file per layer and one
tuple entry per layer, nothing else (ARCHITECTURE.md, "Where new things go")."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest
import trio

from swc_local.games import registry, views
from swc_local.tools.cli import main

from tests import toy
from tests.toy import client as toy_client

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent.parent
BOT = shlex.join([sys.executable, "-m", "tests.toy.client", "--port", "{port}", "--name", "{player}"])


def test_the_toy_family_is_one_file_per_layer_and_one_tuple_entry_per_layer(monkeypatch):
    files = sorted(path.name for path in (ROOT / "tests" / "toy").glob("*.py"))
    assert files == sorted(("__init__.py", *toy.LAYER_FILES))
    touched = toy.register(monkeypatch)
    family_row = next(line for line in (ROOT / "ARCHITECTURE.md").read_text().splitlines() if line.startswith("| family |"))
    table = [(f"swc_local.{path[:-3].replace('/', '.')}", name) for path, name in re.findall(r"`([^`]+\.py)` `([A-Z_]+)`", family_row)]
    assert touched == table  # exactly the tuples the table names, one entry each
    for module, name in touched:
        value = getattr(sys.modules[module], name)
        entries = list(value.values()) if isinstance(value, dict) else list(value)
        assert sum(getattr(entry, "name", getattr(entry, "game_type", None)) in ("toy", "count_to_three")
                   or entry is toy.games for entry in entries) == 1, (module, name)


async def test_it_is_served_and_its_bot_plays_through_swc_bot(start_server, monkeypatch):
    toy.register(monkeypatch)
    server = await start_server(sections={"reversixt": {"enabled": False}})
    door = server.door("toy")
    assert [d.name for d in server.doors][-1] == "toy"  # the last family of server/families.py (no viewer here)
    argv = ["bot", "count_to_three", "--host", "127.0.0.1", "--port", str(door.port)]
    codes = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(lambda: _run(codes, argv))
            while door._waiting is None:  # noqa: SLF001 -- the first bot waits, then the second joins
                await trio.sleep(0.01)
            nursery.start_soon(lambda: _run(codes, argv))
    assert codes == [0, 0]  # both bots are called "bot": each saw "WON bot"
    assert door.logs and door.logs[-1].endswith("winner bot\n")


async def _run(codes: list, argv: list[str]) -> None:
    codes.append(await trio.to_thread.run_sync(main, argv))


def test_it_is_matched_replayed_and_drawn(monkeypatch, tmp_path, capsys):
    toy.register(monkeypatch)
    replays = tmp_path / "replays"
    assert main(["match", "count_to_three", "--games", "2", "--seed", "3", "--replays", str(replays),
                 "--player", BOT, "--player", BOT]) == 0
    files = sorted(replays.glob("*.toy"))
    assert [f.name for f in files] == ["game001.toy", "game002.toy"]
    capsys.readouterr()
    assert main(["replay", str(files[0])]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(" 3")  # the third count ends it
    assert main(["replay", "--check", str(files[0])]) == 0
    assert "3 counts agree with the rules" in capsys.readouterr().out

    from swc_local.tools.view import load_files  # what ``swc view FILE`` shows

    (record,) = load_files([files[0]]).records.values()
    steps = record.steps()
    assert record.family == "toy" and len(steps) == 3
    picture = views.render("count_to_three", steps[-1].state)
    assert picture.startswith("<svg") and steps[-1].last_move in picture


def test_it_is_played_in_a_tournament(monkeypatch, tmp_path, capsys):
    toy.register(monkeypatch)
    db = tmp_path / "toy.db"
    assert main(["tournament", "count_to_three", f"--bot=ann={BOT}", f"--bot=bob={BOT}", "--db", str(db),
                 "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["tournament", "report", str(db), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == data["scheduled"] == 2  # one pairing, seats swapped
    assert {row["bot"]: row["games"] for row in data["standings"]} == {"ann": 2, "bob": 2}


def test_its_fixture_joins_the_pytest_plugin(monkeypatch, pytester):
    toy.register(monkeypatch)
    pytester.makepyfile(test_toy_bot='''
import trio
from tests.toy.client import play


def test_two_bots_count_to_three(toy_door):
    async def both():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play, "127.0.0.1", toy_door.port, "ann")
            await trio.sleep(0.2)
            nursery.start_soon(play, "127.0.0.1", toy_door.port, "bob")
    trio.run(both)
    assert toy_door.logs[-1].endswith("winner ann\\n")
''')
    monkeypatch.syspath_prepend(str(ROOT))
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:randomly")
    result.assert_outcomes(passed=1)
    assert registry.entry("count_to_three") is toy.games.GAME and toy_client.FAMILY.name == "toy"
