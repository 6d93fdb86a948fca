"""Penguins 2023 end to end on our own tools: reference-bot games over TCP, eight at a time (every
one ends REGULAR), ``swc match`` with replays that ``swc replay --check`` accepts and prints,
``--load-game``/``--turn`` from such a replay, the pytest fixture, and the board seed: the room's
seed gives the board, and the board is the official one of the seed it logs."""

from __future__ import annotations

import io
import logging
import random
import re
import sys
from pathlib import Path

import pytest

from swc_local.client.messages import parse as parse_message
from swc_local.games import registry
from swc_local.games.penguins import rules
from swc_local.games.penguins.plugin import random_seed
from swc_local.protocol.element import Element
from swc_local.server.xml.replay import read_replay
from swc_local.tools.replay_check import check_replay, print_replay
from tests.helpers import UNHURRIED
from tests.reference_play import checked_match_replays, play_loaded_position, reference_bot_games, regular_rooms
from tests.wire import Raw

PLUGIN = registry.get("swc_2023_penguins")
GAMES = 24  # three times the rooms that run at once: later rooms open while earlier ones play
PARALLEL = 8


def test_short_name_resolves():
    assert registry.resolve("penguins") == "swc_2023_penguins"
    described = PLUGIN.describe(PLUGIN.new_game(random.Random(1)))
    assert described.startswith("turn 0, ONE to move, fish ONE 0, TWO 0, board seed ")


def test_the_room_seed_gives_the_board_and_the_logged_board_seed_gives_it_again(caplog):
    caplog.set_level(logging.INFO, logger="swc.penguins")
    a, b = PLUGIN.new_game(random.Random(42)), PLUGIN.new_game(random.Random(42))
    assert a.state_element().render() == b.state_element().render()
    logged = int(re.search(r"Board Seed: (-?\d+)", caplog.text)[1])
    assert logged == a.board_seed == random_seed(random.Random(42))
    assert PLUGIN.game_from_seed(logged).position.board == a.position.board == rules.start_board(logged)
    assert PLUGIN.new_game(random.Random(43)).position.board != a.position.board


def test_a_random_game_ends_with_every_penguin_stuck():
    for seed in range(20):
        game, rng = PLUGIN.new_game(random.Random(seed)), random.Random(seed)
        while game.outcome() is None:
            game.apply(game.current_seat, PLUGIN.random_move(game, rng))
        position = game.position
        assert position.is_stuck(rules.ONE) and position.is_stuck(rules.TWO) and not position.legal_moves()


async def test_reference_bot_games_eight_at_a_time(start_server):
    """24 games of two reference bots through ``<join gameType="swc_2023_penguins"/>``, 8 at a
    time on one server: every bot gets a regular result, two bots per room, 24 rooms."""
    server = await start_server(seed=23, **UNHURRIED)
    reports = await reference_bot_games(PLUGIN, server.door("xml").port, GAMES, PARALLEL, timeout=600)
    regular_rooms(reports, GAMES, {"ONE", "TWO"})
    assert server.door("xml").lobby.rooms_finished == GAMES


async def test_swc_match_replays_check_print_and_load(tmp_path: Path, start_server):
    """``swc match penguins`` with replays; each replay re-checks against the rules and prints;
    a room loaded from turn 10 of one starts exactly there and plays to a regular end."""
    files = await checked_match_replays(PLUGIN, tmp_path)
    for path in files:
        printed = io.StringIO()
        print_replay(read_replay(path), printed)
        assert "ONE moves: " in printed.getvalue() and "fish ONE" in printed.getvalue()

    tampered = tmp_path / "tampered.xml"
    original = files[0].read_text(encoding="utf-8")
    tampered.write_text(original.replace("<part>2</part>", "<part>1</part>", 1), encoding="utf-8")
    assert check_replay(read_replay(tampered)).disagreement.startswith("result: recorded")
    tampered.unlink()

    loaded = await play_loaded_position(PLUGIN, start_server, files[0], 10, tmp_path / "loaded", timeout=120)
    typed = parse_message(Element("room", {"roomId": ""}, [loaded.result]))
    assert [score.cause for score in typed.scores] == ["REGULAR", "REGULAR"]


async def test_join_without_game_type_on_a_penguins_server(start_server):
    """``defaultGame = swc_2023_penguins`` makes a bare ``<join/>`` a Penguins room (a 23.x
    server); without it ``<join/>`` still goes to the newest season."""
    server = await start_server(default_game="swc_2023_penguins")
    one = await Raw.connect(server.door("xml").port)
    await one.send("<protocol><join/>")
    await one.read_until(b"<joined")
    room = next(iter(server.door("xml").lobby.rooms.values()))
    assert room.plugin is PLUGIN
    await one.aclose()
    plain = await start_server()
    two = await Raw.connect(plain.door("xml").port)
    await two.send("<protocol><join/>")
    await two.read_until(b"<joined")
    assert next(iter(plain.door("xml").lobby.rooms.values())).plugin.game_type != "swc_2023_penguins"
    await two.aclose()


@pytest.mark.swc_server(game="penguins", seed=7)
def test_fixture_plays_penguins(swc_server):
    bot = (f"{sys.executable} -m swc_local.tools.cli bot penguins --port {{port}} "
           "--reservation {reservation} --seed {seed}")
    game = swc_server.play(bot)
    assert game.result is not None
    assert game.bot.cause == "REGULAR" and game.opponent.cause == "REGULAR"
    assert game.bot.points + game.opponent.points == 2
