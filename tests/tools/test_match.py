"""``swc match`` end to end: real bot processes, real sockets, an in-process server."""

from __future__ import annotations

import sys

import pytest
import trio

from swc_local.client import ladder
from swc_local.games import registry
from swc_local.tools.cli import main
from swc_local.tools.match import MatchConfig, run_match
from swc_local.tools.runner import CommandError
from swc_local.server.xml.replay import read_replay
from swc_local.tools.replay_check import check_replay

from tests.helpers import UNHURRIED

PIRANHAS = registry.get("swc_2019_piranhas")


def points(record, name: str) -> int:
    """2 won, 1 draw, 0 lost (from the ranks of a two-player game)."""
    mine, other = record.seat_of(name).rank, next(s.rank for s in record.seats if s.name != name)
    return 1 if mine == other else 2 if mine < other else 0


def red_is_player1(record) -> bool:
    return record.seats[0].name == "player1"

FAULTY_BOT = '''
"""A random bot that crashes on its N-th move request or stops answering at its M-th."""
import argparse, os, random, trio
from swc_local.client.client import Client
from swc_local.client.messages import MoveRequest

async def main(args):
    rng = random.Random(args.seed)
    async with await Client.connect("127.0.0.1", args.port) as client:
        await client.join_prepared(args.reservation)
        requests = 0
        async for message in client:
            if isinstance(message, MoveRequest):
                requests += 1
                if requests == args.crash_at:
                    os._exit(3)
                if requests == args.hang_at:
                    await trio.sleep_forever()
                await client.send_move(client.plugin.random_move(client.memento.game, rng))

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int)
parser.add_argument("--reservation")
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--crash-at", type=int, default=0)
parser.add_argument("--hang-at", type=int, default=0)
trio.run(main, parser.parse_args())
'''


def test_eight_reference_games_alternate_colours_and_write_replays(tmp_path, capsys):
    code = main(["match", "piranhas", "--games", "8", "--parallel", "4", "--seed", "7", "--replays", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "every game ended with a result" in out
    assert "seed 7" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith("player")}
    wins, draws, losses = (int(x) for x in rows["player1"][1:4])
    assert wins + draws + losses == 8
    assert (int(rows["player2"][1]), int(rows["player2"][3])) == (losses, wins)
    assert rows["player1"][4:6] == ["REGULAR", "8"]
    replays = sorted(tmp_path.glob("game*.xml"))
    assert len(replays) == 8
    for index, path in enumerate(replays[:4]):
        replay = read_replay(path)
        red_name = "player1" if index % 2 == 0 else "player2"
        assert replay.names == (red_name, "player2" if red_name == "player1" else "player1")
        assert check_replay(replay).ok


async def test_a_crashing_and_a_hanging_bot_cost_their_games_not_the_match(tmp_path):
    script = tmp_path / "faulty_bot.py"
    script.write_text(FAULTY_BOT)
    bot = f"{sys.executable} {script} --port {{port}} --reservation {{reservation}} --seed {{seed}}"
    config = MatchConfig(
        PIRANHAS, games=2, seed=3, parallel=2,
        players=[
            bot + " --crash-at 3",  # crashes on its third move
            bot + " --hang-at 3",  # never answers its third move request
        ],
        options=dict(soft_timeout_ms=5000, hard_timeout_ms=5000),  # far beyond a good move on a loaded machine
    )
    report = await run_match(config)
    assert report.complete
    first, second = report.records
    # game 1: player1 is red and moves first, so its third move comes before player2's
    assert red_is_player1(first)
    assert (first.seat_of("player1").cause, first.seat_of("player2").cause) == ("LEFT", "REGULAR")
    assert first.seat_of("player1").exit_code == 3
    assert points(first, "player2") == 2
    # game 2: player2 is red; its third request comes before player1's third
    assert not red_is_player1(second)
    assert (second.seat_of("player1").cause, second.seat_of("player2").cause) == ("REGULAR", "HARD_TIMEOUT")
    assert second.seat_of("player2").exit_code is None  # it was still hanging and got killed


async def test_a_command_that_cannot_start_stops_the_match_at_once():
    """Issue 22 item 2: exit 127 (or no such program) is not a game lost by timeout but the end
    of the match, with a reason that names the command."""
    reference = ladder.command(registry.entry("piranhas"))
    config = MatchConfig(PIRANHAS, games=4, seed=1, players=["/nonexistent/bot {port}", reference],
                         options=dict(hard_timeout_ms=500))
    with trio.fail_after(30), pytest.raises(CommandError) as caught:
        await run_match(config)
    message = str(caught.value)
    assert "player1" in message and "/nonexistent/bot" in message and "cannot start" in message
    assert "\n" not in message


async def test_the_same_seed_plays_the_same_games():
    config = MatchConfig(PIRANHAS, games=2, seed=11, parallel=2, options=UNHURRIED)  # a late move: no SOFT_TIMEOUT
    first, second = await run_match(config), await run_match(config)
    for a, b in zip(first.records, second.records):
        assert [(s.rank, s.score, s.cause) for s in a.seats] == [(s.rank, s.score, s.cause) for s in b.seats]
        assert len(a.move_times["player1"]) == len(b.move_times["player1"])
