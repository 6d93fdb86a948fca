"""In-process speed of the rules engines and of the server's per-move hot path.

Why in-process: these numbers isolate pure Python work (no sockets, no event loop), so a change to
a rules engine or to the XML code shows up here even when the end-to-end figures are noisy.
Every rate here is per second of this process's CPU time (``time.process_time``), not of wall
time: the machine is often shared, and a single-threaded loop's CPU time does not count the
moments other processes held the CPU.

* legal-move generations/s: ``plugin.legal_moves(game)`` over positions sampled from seeded random
  games (every ply of each game), cycled until the time budget is used;
* random playouts/s: ``new_game`` then ``random_move`` + ``apply`` until ``outcome()`` decides (or
  the side to move has no move);
* memento rendering: what the room does per move to build the bytes it sends
  (``state_element`` -> ``<room><data class="memento">`` -> ``render(1)`` -> ``encode``), timed
  alone on consecutive positions so the renderer's column cache behaves as in a real game;
* move parsing: what the server does with a move's bytes before the rules see it (stream reader,
  ``decode_request``, ``decode_move``);
* search nodes/s (a game with a ladder strategy, ``games/<game>/strategy.py``): the ladder's
  search (client/search.py) at the search-short budget from the same sampled positions; a node is
  a position the search makes (one ``strategy.play``), counted by wrapping the strategy, so the
  figure is what the rungs get, with the evaluation and the move ordering included.
"""

from __future__ import annotations

import copy
import random
import time
from dataclasses import dataclass

from swc_local.games import registry
from swc_local.protocol import messages as msg
from swc_local.protocol.reader import StreamReader


@dataclass
class EngineResult:
    game_type: str
    generations_per_second: float = 0.0
    moves_per_generation: float = 0.0
    playouts_per_second: float = 0.0
    plies_per_playout: float = 0.0
    search_nodes_per_second: float | None = None  # None: the game has no ladder strategy
    searches: int = 0  # moves searched for that figure
    error: str | None = None


def _playout(plugin, rng: random.Random, keep: list | None = None) -> int:
    game = plugin.new_game(rng)
    plies = 0
    while game.outcome() is None:
        if keep is not None:
            keep.append(copy.deepcopy(game))
        move = plugin.random_move(game, rng)
        if move is None:
            break
        game.apply(game.current_seat, move)
        plies += 1
    return plies


def measure_game(game_type: str, budget: float) -> EngineResult:
    """Generation and playout rates of one game, each given ``budget`` seconds."""
    result = EngineResult(game_type)
    try:
        plugin = registry.get(game_type)
        positions: list = []
        for seed in range(8):
            _playout(plugin, random.Random(seed), positions)
    except Exception as error:  # a game still in progress must not stop the other benchmarks
        result.error = f"{type(error).__name__}: {error}"
        return result
    legal_moves = plugin.legal_moves
    count = found = 0
    start = time.process_time()
    while time.process_time() - start < budget:
        for game in positions:
            found += len(legal_moves(game))
        count += len(positions)
    result.generations_per_second = count / (time.process_time() - start)
    result.moves_per_generation = found / count
    rng, playouts, plies = random.Random(1), 0, 0
    start = time.process_time()
    while time.process_time() - start < budget or not playouts:
        plies += _playout(plugin, rng)
        playouts += 1
    result.playouts_per_second = playouts / (time.process_time() - start)
    result.plies_per_playout = plies / playouts
    searched = search_nodes_per_second(game_type, positions, budget)
    if searched is not None:
        result.search_nodes_per_second, result.searches = searched
    return result


class CountingStrategy:
    """A strategy whose ``play`` is counted: the search makes one position per node."""

    def __init__(self, strategy) -> None:
        self._strategy = strategy
        self.nodes = 0

    def __getattr__(self, name: str):
        return getattr(self._strategy, name)

    def play(self, position, move):
        self.nodes += 1
        return self._strategy.play(position, move)


def search_nodes_per_second(game_type: str, positions: list, budget: float) -> tuple[float, int] | None:
    """(nodes/s, moves searched) of the ladder's search-short rung over ``positions`` for
    ``budget`` seconds of CPU time (at least one move); None without a strategy."""
    entry = registry.entry(game_type)
    strategy = entry.strategy if entry is not None else None
    if strategy is None:
        return None
    return nodes_per_second(strategy, [game for game in positions if game.outcome() is None], budget,
                            strategy.position)


def nodes_per_second(strategy, games: list, budget: float, position=lambda game: game) -> tuple[float, int] | None:
    """(nodes/s, moves searched) of search-short on ``strategy`` from ``position(game)`` of each
    of ``games`` in turn, for ``budget`` seconds of CPU time (at least one move); None without a
    game.  The XML games' rows and ReversiXT's (benchmarks/reversixt.py) measure alike."""
    from swc_local.client import search

    counting = CountingStrategy(strategy)
    searched = 0
    start = time.process_time()
    while games and (time.process_time() - start < budget or not searched):
        for game in games[searched % len(games)::7]:  # every 7th: more games than one in the budget
            search.best_move(counting, position(game), random.Random(searched), strategy.SHORT_NODES)
            searched += 1
            if time.process_time() - start >= budget:
                break
    if not searched:
        return None
    return counting.nodes / (time.process_time() - start), searched


def measure_engines(budget: float) -> list[EngineResult]:
    return [measure_game(game_type, budget) for game_type in registry.game_types()]


ROOM_ID = "8a0a8a7e-6a7c-4a8e-9a51-3e1c2a9b7f00"


def memento_render_seconds(budget: float, game_type: str = "swc_2019_piranhas") -> tuple[float, int]:
    """(seconds per memento, bytes per memento) over the positions of random games."""
    plugin = registry.get(game_type)
    rng, total, renders, size = random.Random(2), 0.0, 0, 0
    while total < budget:
        game = plugin.new_game(rng)
        game.set_display_names(("red bot", "blue bot"))
        while True:
            start = time.process_time()
            data = msg.memento(ROOM_ID, game.state_element()).render(1).encode()
            total += time.process_time() - start
            renders, size = renders + 1, size + len(data)
            move = plugin.random_move(game, rng)
            if move is None or game.outcome() is not None:
                break
            game.apply(game.current_seat, move)
    return total / renders, size // renders


def move_parse_seconds(budget: float, game_type: str = "swc_2019_piranhas") -> float:
    """Seconds to turn one move's bytes into a move object, as the server does."""
    plugin = registry.get(game_type)
    rng = random.Random(3)
    game = plugin.new_game(rng)
    packets = []
    for move in plugin.legal_moves(game):
        packets.append(msg.room(ROOM_ID, plugin.move_element(move)).render(0).encode())
    reader = StreamReader()
    reader.feed(b"<protocol>")
    count = 0
    start = time.process_time()
    while time.process_time() - start < budget:
        for packet in packets:
            (event,) = reader.feed(packet)
            request = msg.decode_request(event.element)
            game.decode_move(request.data)
        count += len(packets)
    return (time.process_time() - start) / count


def server_game_seconds(game_type: str, games: int, seed: int = 4) -> tuple[float, float]:
    """(server CPU seconds per random game, moves per game): what the lobby, the referee, the
    rules and the mementos cost for whole games of random moves, in-process and without sockets
    (two connections whose output is dropped), timed with ``time.process_time``.

    The moves are chosen outside the timed part (``random_move`` is the bot's work, not the
    server's); the timed part is what the server does with a move's bytes: parse, route, check,
    apply, end-of-game test, the memento to both players and the next move request.
    """
    import trio

    from swc_local.protocol.element import Element
    from swc_local.server.xml.settings import XmlDoorSettings
    from swc_local.server.xml import connection as connections
    from swc_local.server.xml.lobby import Lobby

    Connection = connections.Connection
    # builds before issue 23 had no batches (benchmarks/ab.py measures them too)
    begin_batch = getattr(connections, "begin_batch", lambda: None)
    end_batch = getattr(connections, "end_batch", lambda: None)

    plugin = registry.get(game_type)
    rng = random.Random(seed)
    spent, moves = 0.0, 0

    async def play() -> None:
        nonlocal spent, moves
        lobby = Lobby(XmlDoorSettings(port=0, password="benchmark", seed=seed), spawn=lambda *args: None)
        for _ in range(games):
            players = [Connection(None), Connection(None)]
            readers = [StreamReader(), StreamReader()]
            for connection, reader in zip(players, readers):
                reader.feed(b"<protocol>")
                (event,) = reader.feed(f'<join gameType="{game_type}"/>'.encode())
                start = time.process_time()
                begin_batch()
                lobby.receive(connection, event.element)
                end_batch()
                spent += time.process_time() - start
            room = players[0].slots[0].room
            while room.status.value == "running":
                seat = room.game.current_seat
                move = plugin.random_move(room.game, rng)
                packet = Element("room", {"roomId": room.id}, [plugin.move_element(move)]).render(0).encode()
                for connection in players:
                    connection._queue.clear()  # the output goes nowhere
                    connection._queued = 0
                start = time.process_time()
                (event,) = readers[seat].feed(packet)
                begin_batch()
                lobby.receive(players[seat], event.element)
                end_batch()
                spent += time.process_time() - start
                moves += 1

    trio.run(play)
    return spent / games, moves / games
