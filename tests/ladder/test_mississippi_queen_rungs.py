"""What only Mississippi Queen 2024's strategy has (games/mississippi_queen/strategy.py): it
searches the river a player can see, and where that river has no move although the server asks
for one, every rung plays into the next segment (games/mississippi_queen/horizon.py); the rungs'
tests it shares with the other games are in test_rungs.py."""

from __future__ import annotations

import random

import pytest
import trio

from swc_local.client import ladder
from swc_local.client.bot import choose_move
from swc_local.games import registry
from swc_local.games.mississippi_queen.rules import Position, Ship, generate_board
from tests.ladder.rung_games import positions_along_a_game

NAME = "mississippi_queen"


def test_the_search_sees_only_the_revealed_segments():
    """A player's memento shows the revealed segments only; the search plays on the same river
    even when it is handed the server's game, which holds all eight."""
    strategy = registry.entry(NAME).strategy
    game = next(positions_along_a_game(NAME, seed=2))
    board = game.position.board
    assert board.visible < len(board.segments) == 8
    known = strategy.position(game).position.board
    assert len(known.segments) == board.visible == known.visible
    assert set(known.fields) < set(board.fields) and known.current <= board.current
    assert len(game.position.board.segments) == 8  # the server's game is left alone


def fast_ship_at_the_revealed_edge() -> Position:
    """The server's game after ONE ran to the front of segment 0 at full speed with its coal
    spent (seed 5's river, segments 0 and 1 revealed): every move it has leaves the revealed
    river (turn DOWN_RIGHT and advance 5 or 6 fields, into segment 2)."""
    server = Position(generate_board(random.Random(5)), [Ship(0, 2, 0, speed=6, coal=0), Ship(1, -2, 1)],
                      turn=4)
    assert server.board.visible == 2 and server.can_move()
    return server


@pytest.mark.parametrize("rung", ladder.RUNGS)
def test_every_rung_moves_when_only_the_unrevealed_river_has_a_move(rung):
    """The server asks ONE for a move (it is not stuck on the whole river, spec §3, §10 D1), the
    player's memento shows no move on the revealed segments: the bot sends a move the server
    accepts instead of leaving."""
    plugin = registry.entry(NAME).plugin
    server = fast_ship_at_the_revealed_edge()
    state = plugin.game_class(server).state_element()
    game = plugin.game_from_state(state)  # what the bot rebuilds from the memento
    assert game.legal_moves() == []
    move = choose_move(plugin, game, random.Random(3), rung)
    assert move is not None
    after = server.copy()
    after.push(move)  # raises RuleViolation if the server refuses it
    assert after.ships[0].position != (2, 0)


@pytest.mark.parametrize("rung", ladder.RUNGS)
async def test_the_reference_bot_process_plays_on_from_there(nursery, rung):
    """The same position in a room of the server, the rung's reference bot a real process on ONE
    (its memento shows no move): it moves, so the game ends by the rules, never by its leaving."""
    import json

    from swc_local.games.mississippi_queen.plugin import MississippiQueenGame
    from swc_local.server.app import Server
    from swc_local.server.config import Settings
    from swc_local.server.xml.door import XmlDoor
    from swc_local.server.xml.settings import door_settings
    from tests.conftest import PASSWORD
    from tests.web_helpers import http, renderer

    plugin = registry.entry(NAME).plugin

    def factory(game_plugin, rng):
        return MississippiQueenGame(fast_ship_at_the_revealed_edge()) if game_plugin is plugin else None

    settings = Settings(free_ports=True, password=PASSWORD, seed=1, sections={"web": {"port": 0}})
    server = Server(settings, prepared={XmlDoor.name: XmlDoor(door_settings(settings), factory)}, opponents=ladder)
    server.web_renderer = renderer()
    server = await nursery.start(server.run)
    url = server.door("web").url
    body = {"game": NAME, "seats": [{"kind": "bot", "rung": rung}, {"kind": "bot", "rung": "random"}]}
    status, table = await http(f"{url}/api/tables", json.dumps(body).encode(), {"Content-Type": "application/json"})
    assert status == 200, table
    with trio.fail_after(120):  # a guard against a hang, not a speed limit
        while True:
            _, listing = await http(f"{url}/api/games")
            (game,) = listing["games"]
            if game["result"] is not None and game["status"] == "finished":
                break
            await trio.sleep(0.1)
    causes = [row["cause"] for row in game["result"]]
    assert "LEFT" not in causes and causes[0] in ("REGULAR", "STUCK"), game["result"]
