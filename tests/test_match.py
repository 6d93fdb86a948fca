"""``swc match`` end to end: real bot processes, real sockets, an in-process server."""

from __future__ import annotations

import sys

from swc_local.games import registry
from swc_local.tools.cli import main
from swc_local.tools.match import MatchConfig, run_match
from swc_local.server.replay import read_replay
from swc_local.tools.replay_check import check_replay

PIRANHAS = registry.get("swc_2019_piranhas")

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


def test_twenty_reference_games_alternate_colours_and_write_replays(tmp_path, capsys):
    code = main(["match", "piranhas", "--games", "20", "--parallel", "4", "--seed", "7", "--replays", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "every game ended with a result" in out
    assert "seed 7" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith("player")}
    wins, draws, losses = (int(x) for x in rows["player1"][1:4])
    assert wins + draws + losses == 20
    assert (int(rows["player2"][1]), int(rows["player2"][3])) == (losses, wins)
    assert rows["player1"][4:6] == ["REGULAR", "20"]
    replays = sorted(tmp_path.glob("game*.xml"))
    assert len(replays) == 20
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
        player1=bot + " --crash-at 3",  # crashes on its third move
        player2=bot + " --hang-at 3",  # never answers its third move request
        soft_timeout_ms=1500, hard_timeout_ms=2000,
    )
    report = await run_match(config)
    assert report.complete
    first, second = report.records
    # game 1: player1 is red and moves first, so its third move comes before player2's
    assert first.player1_seat == 0
    assert (first.score(0).cause, first.score(1).cause) == ("LEFT", "REGULAR")
    assert first.exit_codes[0] == 3
    assert first.score(1).points == 2
    # game 2: player2 is red; its third request comes before player1's third
    assert second.player1_seat == 1
    assert (second.score(0).cause, second.score(1).cause) == ("REGULAR", "HARD_TIMEOUT")
    assert second.exit_codes[1] is None  # it was still hanging and got killed


async def test_a_command_that_cannot_start_loses_by_timeout():
    config = MatchConfig(PIRANHAS, games=1, seed=1, player1="/nonexistent/bot {port}", hard_timeout_ms=500)
    report = await run_match(config)
    assert report.complete
    (record,) = report.records
    assert record.exit_codes[0] == 127
    assert record.score(0).cause == "HARD_TIMEOUT"
    assert record.score(1).points == 2


async def test_the_same_seed_plays_the_same_games():
    config = MatchConfig(PIRANHAS, games=2, seed=11, parallel=2)
    first, second = await run_match(config), await run_match(config)
    for a, b in zip(first.records, second.records):
        assert a.result.scores == b.result.scores
        assert len(a.move_times[0]) == len(b.move_times[0])
