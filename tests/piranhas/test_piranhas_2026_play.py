"""Piranhas 2026 end to end on our own tools: reference bots over TCP, ``swc match`` with replays
that ``swc replay --check`` accepts, ``--load-game`` from such a replay, and the pytest fixture."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
import trio

from swc_local.games import registry
from swc_local.games.piranhas_2026.plugin import Piranhas2026Game
from swc_local.games.piranhas_2026.rules import GameState
from swc_local.tools.replay_check import score_tuples

from tests.helpers import UNHURRIED
from tests.reference_play import checked_match_replays, play_loaded_position, reference_bot_games, regular_rooms

PLUGIN = registry.get("swc_2026_piranhas")
GAMES = 16  # two rounds of eight rooms at once: concurrency, not a count, is the claim
PARALLEL = 8


def test_short_name_resolves():
    assert registry.resolve("piranhas_2026") == "swc_2026_piranhas"
    assert PLUGIN.describe(PLUGIN.new_game(random.Random(1))).startswith("turn 0, ONE to move")


async def test_sixteen_reference_bot_games_eight_at_a_time(start_server):
    """16 games of two reference bots through ``<join gameType="swc_2026_piranhas"/>``, 8 at a
    time on one server: every bot gets a REGULAR result, two bots per room, 16 rooms."""
    server = await start_server(seed=26, **UNHURRIED)
    reports = await reference_bot_games(PLUGIN, server.door("xml").port, GAMES, PARALLEL, timeout=240)
    regular_rooms(reports, GAMES, {"ONE", "TWO"})
    for report in reports:
        assert report.outcome.element.find("data").find("winner").get("regular") == "true"


async def test_swc_match_replays_check_and_load(tmp_path: Path, start_server):
    """``swc match piranhas_2026`` with replays; each replay re-checks against the rules; a room
    loaded from turn 10 of one starts exactly there and plays to a REGULAR end."""
    files = await checked_match_replays(PLUGIN, tmp_path)

    loaded = await play_loaded_position(PLUGIN, start_server, files[0], 10, tmp_path / "loaded", timeout=10)
    assert [score[0] for score in score_tuples(loaded.result)] == ["REGULAR", "REGULAR"]


@pytest.mark.swc_server(game="piranhas_2026", seed=7)
def test_fixture_plays_piranhas_2026(swc_server):
    bot = f"{sys.executable} -m swc_local.tools.cli bot piranhas_2026 --port {{port}} --reservation {{reservation}} --seed {{seed}}"
    game = swc_server.play(bot)
    assert game.result is not None
    assert game.bot.cause == "REGULAR" and game.opponent.cause == "REGULAR"
    assert game.bot.points + game.opponent.points == 2


async def test_cancel_scores_the_current_leader(start_server):
    """An admin cancels a running game: no violator, so the result names who leads now
    (``currentWinner()``, the win reason with the display name), REGULAR."""
    cells = ["."] * 100
    for (x, y), char in {(0, 2): "a", (5, 5): "c", (0, 9): "A", (9, 9): "A", (9, 0): "B"}.items():
        cells[y * 10 + x] = char
    position = "".join(cells)  # nobody united, ONE's heaviest swarm weighs 3, TWO's 2

    def factory(plugin, rng):
        return Piranhas2026Game(GameState.from_string(position)) if plugin is PLUGIN else None

    server = await start_server(password="examplepassword", game_factory=factory)

    async def read_until(stream, marker: bytes, received: bytearray) -> None:
        with trio.fail_after(10):
            while marker not in received:
                received += await stream.receive_some(65536)

    admin = await trio.open_tcp_stream("127.0.0.1", server.door("xml").port)
    got_admin = bytearray()
    await admin.send_all(
        b'<protocol><authenticate password="examplepassword"/><prepare gameType="swc_2026_piranhas" pause="false">'
        b'<slot displayName="a" canTimeout="true" reserved="true"/><slot displayName="b" canTimeout="true" reserved="true"/>'
        b"</prepare>"
    )
    await read_until(admin, b"</prepared>", got_admin)
    text = got_admin.decode()
    room = text.split('prepared roomId="')[1].split('"')[0]
    codes = [part.split("<")[0] for part in text.split("<reservation>")[1:]]
    players = []
    for code in codes:
        stream = await trio.open_tcp_stream("127.0.0.1", server.door("xml").port)
        await stream.send_all(f'<protocol><joinPrepared reservationCode="{code}"/>'.encode())
        players.append((stream, bytearray()))
    await read_until(players[0][0], b'class="moveRequest"', players[0][1])
    await admin.send_all(f'<cancel roomId="{room}"/>'.encode())
    for stream, received in players:
        await read_until(stream, b"<left ", received)
        assert '<winner team="ONE" regular="true" reason="a hat den größeren zusammenhängenden Schwarm"/>'.encode() in received
        assert b"<part>2</part>\n            <part>3</part>" in received
        assert b"<part>0</part>\n            <part>2</part>" in received
        await stream.aclose()
    await admin.aclose()
