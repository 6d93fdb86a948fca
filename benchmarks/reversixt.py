"""ReversiXT benchmarks: legal-move generation on a big 8-player map, and the door's time per move.

- **generations/s**: :meth:`State.legal_targets` for the player to move, over the positions of
  seeded random games on a generated 50x50 map for 8 players (holes, every special square,
  transitions around the edges), for as long as the budget allows.
- **time per move answered**: eight instant clients in this process play games on
  ``octo_8p.map`` (the 8-player golden map) through an in-process door without the reference's
  pauses; measured is the time from a MOVE written to the next REQUEST (or END_PHASE1/END_GAME)
  received, i.e. both loopback hops plus the server validating, applying, broadcasting the move
  and finding the next player.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

import trio

from swc_local.client.reversixt_bot import ClientGame
from swc_local.games.reversixt.mapfile import load_map, parse_map
from swc_local.games.reversixt.referee import Referee
from swc_local.protocol import reversixt as wire
from swc_local.server.reversixt.door import DoorSettings, ReversiDoor
from swc_local.server.reversixt.game import Timing

OCTO_MAP = Path(__file__).resolve().parent.parent / "tests" / "data" / "reversixt" / "maps" / "octo_8p.map"


def big_map_text(size: int = 50, players: int = 8, seed: int = 1) -> str:
    rng = random.Random(seed)
    rows = [[rng.choice("000000000000-cibx") for _ in range(size)] for _ in range(size)]
    for p in range(1, players + 1):  # a small start cluster per player, spread over the board
        cx, cy = rng.randrange(2, size - 2), rng.randrange(2, size - 2)
        for dx, dy in ((0, 0), (1, 1), (-1, 1), (1, -1)):
            rows[cy + dy][cx + dx] = str(p)
    for y in (0, size - 1):  # keep the edges usable for transitions
        for x in range(size):
            if rows[y][x] == "-":
                rows[y][x] = "0"
    lines = [str(players), "3", "2 2", f"{size} {size}"] + [" ".join(r) for r in rows]
    lines += [f"{x} 0 0 <-> {x} {size - 1} 4" for x in range(0, size, 3)]
    return "\n".join(lines) + "\n"


def generations_per_second(budget: float) -> tuple[float, float]:
    """(generations/s, average legal moves per generation)."""
    game_map = parse_map(big_map_text().encode())
    rng = random.Random(7)
    generations = moves = 0
    spent = 0.0
    while spent < budget:
        referee = Referee(game_map, [0] * game_map.players)
        for _ in range(400):
            action, player = referee.next_action()
            if action != "request" or referee.phase != 1:
                break
            started = time.perf_counter()
            targets = referee.state.legal_targets(player)
            spent += time.perf_counter() - started
            generations += 1
            moves += len(targets)
            referee.request(player)
            square = rng.choice(sorted(targets))
            code = referee.state.squares[square]
            special = rng.randint(1, 8) if code == 10 else 21 if code == 12 else 0
            referee.answer(player, square % game_map.width, square // game_map.width, special, 0.0)
            if spent >= budget:
                break
    return generations / spent, moves / max(generations, 1)


def search_rates(budget: float) -> tuple[float, float, int]:
    """(the strategy's move generations/s, search-short's nodes/s, moves searched) on the
    positions of seeded random two-player games, CPU time, each for about ``budget`` seconds."""
    from benchmarks.engine import nodes_per_second
    from swc_local.games.reversixt import strategy
    from swc_local.games.reversixt.mapfile import map_file

    game_map = load_map(map_file("classic_2p"))
    positions = []
    for seed in range(16):  # random games here are short: a bomb of reach 2 clears much of the 8x8 board
        referee, rng = Referee(game_map, [0] * game_map.players), random.Random(seed)
        while (turn := referee.next_action())[0] != "end_game":
            action, player = turn
            if action != "request":
                continue
            here = strategy.Position(referee.state.copy(), referee.phase, player)
            positions.append(here)
            referee.request(player)
            referee.answer(player, *rng.choice(strategy.moves(here)), 0.0)
    generations, start = 0, time.process_time()
    while time.process_time() - start < budget:
        for here in positions:
            strategy.moves(here)
        generations += len(positions)
    generated = generations / (time.process_time() - start)
    nodes, searched = nodes_per_second(strategy, positions, budget)
    return generated, nodes, searched


async def _seat(port: int, game: ClientGame, clock: dict, samples: list[float]) -> None:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    reader = wire.FrameReader(server_side=False, max_payload=1 << 20)
    async with stream:
        await stream.send_all(wire.encode_group(0))
        while not game.over:
            data = await stream.receive_some(65536)
            if not data:
                return
            reader.feed(data)
            for frame in reader.frames():
                if frame.type in (wire.REQUEST, wire.END_GAME) and clock.get("sent") is not None:
                    samples.append(time.perf_counter() - clock["sent"])
                    clock["sent"] = None
                answer = game.handle(frame)
                if answer is not None:
                    clock["sent"] = time.perf_counter()
                    await stream.send_all(answer)


async def _time_per_move(games: int) -> list[float]:
    game_map = load_map(str(OCTO_MAP))
    samples: list[float] = []
    settings = DoorSettings(port=0, map_path=str(OCTO_MAP), timing=Timing(start_delay=0, turn_delay=0))
    async with trio.open_nursery() as nursery:
        door = await nursery.start(ReversiDoor(settings, game_map).run)
        for number in range(games):
            clock: dict = {"sent": None}
            async with trio.open_nursery() as seats:
                for seat in range(game_map.players):
                    seats.start_soon(_seat, door.port, ClientGame("random", random.Random(number * 8 + seat)), clock, samples)
                    await trio.sleep(0.01)  # join in order
        nursery.cancel_scope.cancel()
    return samples


def reversixt_rows(plan) -> list:
    from benchmarks.table import Row

    budget = plan.engine_budget
    rate, per = generations_per_second(budget)
    samples = trio.run(_time_per_move, max(1, int(budget * 4)))
    generated, nodes, searched = search_rates(budget)
    median = statistics.median(samples) * 1000
    p99 = sorted(samples)[int(len(samples) * 0.99) - 1] * 1000 if len(samples) > 1 else median
    return [
        Row("ReversiXT: legal-move generations/s, 8 players, 50x50 map", f"{rate:,.0f} ({per:.1f} moves each)"),
        Row(
            "ReversiXT: time per move answered, octo_8p.map (door, 8 instant clients)",
            f"median {median:.2f} ms, p99 {p99:.2f} ms ({len(samples)} moves)",
        ),
        Row("ReversiXT: the ladder's search nodes/s (search-short budget), classic_2p",
            f"{nodes:,.0f} ({searched} moves searched; the strategy's move generations/s {generated:,.0f}, "
            f"{nodes / generated:.2f} nodes per generation)"),
    ]
