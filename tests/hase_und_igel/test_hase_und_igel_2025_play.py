"""Hase und Igel 2025 end to end on our own tools: reference-bot games over TCP, eight at a time,
``swc match`` with replays that ``swc replay --check`` accepts and prints, ``--load-game`` from such a replay,
and the pytest fixture."""

from __future__ import annotations

import io
import random
import re
import sys
from pathlib import Path

import pytest

from swc_local.games import registry
from swc_local.server.xml.replay import read_replay
from swc_local.client.messages import parse as parse_message
from swc_local.protocol.element import Element, parse
from swc_local.tools.replay_check import check_replay, print_replay

from tests.helpers import TESTS, UNHURRIED
from tests.reference_play import checked_match_replays, play_loaded_position, reference_bot_games, regular_rooms

PLUGIN = registry.get("swc_2025_hase_und_igel")
DATA = TESTS / "data" / "hase_und_igel_2025"
GAMES = 16  # twice the rooms that run at once: later rooms open while earlier ones play
PARALLEL = 8


def test_short_name_resolves():
    assert registry.resolve("hase_und_igel_2025") == "swc_2025_hase_und_igel"
    assert PLUGIN.describe(PLUGIN.new_game(random.Random(1))).startswith("turn 0, ONE to move")


async def test_reference_bot_games_eight_at_a_time(start_server):
    """16 games of two reference bots through ``<join gameType="swc_2025_hase_und_igel"/>``,
    8 at a time on one server: every bot gets a regular result, two bots per room, 16 rooms (or,
    rarely, the game reaches two stuck hares: see the test below)."""
    server = await start_server(seed=25, **UNHURRIED)
    reports = await reference_bot_games(PLUGIN, server.door("xml").port, GAMES, PARALLEL, timeout=600)
    rooms = regular_rooms(reports, GAMES, {"ONE", "TWO"}, plugin=PLUGIN)
    for seats in rooms.values():
        if any(report.error for report in seats):
            continue
        for report in seats:
            winner = report.outcome.element.find("data").find("winner")
            assert winner.get("regular") == "true" and winner.get("reason")
    assert server.door("xml").lobby.rooms_finished == GAMES


def both_hares_stuck():
    """A position random play reaches (one game in a few thousand): ONE to move on a market with 3
    carrots, TWO behind it with 2; neither hare has a sensible move (spec §4.7)."""
    game, rng = PLUGIN.new_game(random.Random(3746)), random.Random(4746)
    while (move := PLUGIN.random_move(game, rng)) is not None:
        game.apply(game.current_seat, move)
    return game


async def test_two_stuck_hares_the_bot_to_move_says_so_and_its_opponent_gets_the_result(start_server):
    """Where neither hare can move the server skips only once, so the hare to move still gets a
    move request it cannot answer with a legal move (as the official server; spec §4, step 4):
    the reference bot names it and leaves, and the other bot gets the result as the winner."""
    stuck = both_hares_stuck()
    assert stuck.outcome() is None and stuck.turn == 20 and stuck.current_seat == 0
    other = PLUGIN.copy_game(stuck)
    other.state.turn += 1  # the same board with TWO to move: stuck as well
    assert PLUGIN.legal_moves(other) == []
    server = await start_server(game_factory=lambda plugin, rng: PLUGIN.copy_game(stuck))
    reports = await reference_bot_games(PLUGIN, server.door("xml").port, 1, 1, timeout=60)
    (room,) = regular_rooms(reports, 1, {"ONE", "TWO"}, plugin=PLUGIN).values()
    one, two = sorted(room, key=lambda report: report.color)
    assert one.error == "no legal move" and PLUGIN.legal_moves(one.stuck) == []
    assert PLUGIN.describe(one.stuck) == PLUGIN.describe(stuck)  # what the bot saw is the served position
    winner = two.outcome.element.find("data").find("winner")
    assert two.error is None and winner.get("team") == "TWO"


async def test_swc_match_replays_check_print_and_load(tmp_path: Path, start_server):
    """``swc match hase_und_igel_2025`` with replays; each replay re-checks against the rules and
    prints; a room loaded from turn 10 of one starts exactly there and plays to a regular end."""
    files = await checked_match_replays(PLUGIN, tmp_path)
    for path in files:
        printed = io.StringIO()
        print_replay(read_replay(path), printed)
        assert "ONE moves: " in printed.getvalue() and "winner: " in printed.getvalue()

    tampered = tmp_path / "tampered.xml"
    original = files[0].read_text(encoding="utf-8")
    for old, new in ((' regular="true" reason="', ' regular="true" reason="X'),
                     ("<part>2</part>", "<part>1</part>")):
        tampered.write_text(original.replace(old, new), encoding="utf-8")
        assert check_replay(read_replay(tampered)).disagreement.startswith("result: recorded")
    tampered.unlink()

    loaded = await play_loaded_position(PLUGIN, start_server, files[0], 10, tmp_path / "loaded", timeout=120)
    typed = parse_message(Element("room", {"roomId": ""}, [loaded.result]))
    assert [score.cause for score in typed.scores] == ["REGULAR", "REGULAR"]


def test_2025_results_get_their_causes_back():
    """The 2025 envelope writes no cause; the client derives it from ``<winner regular reason>``."""
    capture = (DATA / "hui_invalid_cards" / "C2.raw").read_text(encoding="utf-8")
    result = re.search(r'<room roomId="[^"]*">\s*<data class="result">.*?</room>', capture, re.S)
    typed = parse_message(parse(result[0]))
    assert [score.cause for score in typed.scores] == ["RULE_VIOLATION", "REGULAR"]
    assert [score.parts for score in typed.scores] == [("0", "0", "0"), ("2", "0", "68")]
    assert typed.winner_seat == 1


@pytest.mark.swc_server(game="hase_und_igel_2025", seed=7)
def test_fixture_plays_hase_und_igel_2025(swc_server):
    bot = (f"{sys.executable} -m swc_local.tools.cli bot hase_und_igel_2025 --port {{port}} "
           "--reservation {reservation} --seed {seed}")
    game = swc_server.play(bot)
    assert game.result is not None
    assert game.bot.cause == "REGULAR" and game.opponent.cause == "REGULAR"
    assert game.bot.points + game.opponent.points == 2
