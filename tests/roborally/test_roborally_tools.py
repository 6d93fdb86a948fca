"""``swc match roborally`` and ``swc replay`` of a Robo Rally game log."""

import io

import pytest

import trio

from swc_local.tools.cli import main
from swc_local.client import ladder
from swc_local.games import registry
from swc_local.tools.match import MatchConfig, run_match
from swc_local.tools.match_report import results_table
from swc_local.tools.roborally_replay import print_log

from tests.roborally_wire import running_door
from swc_local.client.roborally_bot import RoboRallyBot


def greedy_bot_command():
    return ladder.command(registry.entry("roborally"))


async def test_match_runs_bot_processes_and_reports(tmp_path):
    config = MatchConfig("roborally", players=[greedy_bot_command()] * 3, games=2, seed=11, parallel=2,
                         replays=tmp_path, options={"map": "Dizzy Highway", "timer": 0.2})
    with trio.fail_after(90):
        report = await run_match(config)
    games = report.records
    assert [g.index for g in games] == [0, 1]
    for game in games:
        winners = [k for k, seat in enumerate(game.seats) if seat.rank == 1]
        assert len(winners) == 1, game
        checkpoints, reboots = zip(*(seat.score for seat in game.seats))
        assert checkpoints[winners[0]] == "1" and len(reboots) == 3 and game.raw["rounds"] >= 1
        assert game.replay and game.replay.endswith(".jsonl")
    table = results_table(games, game="roborally", seed=report.seed, seconds=report.seconds, commands=report.commands)
    assert "avg checkpoints" in table and "avg reboots" in table and table.splitlines()[-1] == "every game ended with a result"


async def test_replay_prints_the_board_round_by_round(tmp_path):
    async with running_door(map="Death Trap", single_game=True, timer=0.05, log_dir=str(tmp_path)) as door:
        bots = [RoboRallyBot(greedy=True, seed=seat) for seat in range(2)]
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                for bot in bots:
                    nursery.start_soon(bot.play, "127.0.0.1", door.port)
                    await trio.sleep(0.01)
                with trio.move_on_after(3):
                    while not door.log_files:
                        await trio.sleep(0.05)
                nursery.cancel_scope.cancel()
    logs = list(tmp_path.glob("*.jsonl"))
    if not logs:  # the game needed more than 3 s: end it by leaving, which also writes the log
        await trio.sleep(0.3)
        logs = list(tmp_path.glob("*.jsonl"))
    assert logs
    out = io.StringIO()
    assert print_log(logs[0], out) == 0
    text = out.getvalue()
    assert text.startswith("Robo Rally on Death Trap")
    assert "== setup" in text and "== after round 1" in text
    assert "@1" in text and "@2" in text


def test_swc_replay_dispatches_jsonl(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text('{"game": "roborally", "map": "Dizzy Highway", "seed": 1, "players": [1, 2], "winner": 1}\n'
                   '{"t": 0.1, "dir": "out", "peer": "all", "messageType": "StartingPointTaken", "messageBody": {"x": 1, "y": 4, "clientID": 1}}\n'
                   '{"t": 0.2, "dir": "out", "peer": "all", "messageType": "ActivePhase", "messageBody": {"phase": 2}}\n')
    assert main(["replay", str(log)]) == 0
    assert "@1>" in capsys.readouterr().out


@pytest.mark.roborally_server(map="Dizzy Highway", timer=0.2, seed=3)
def test_pytest_fixture_plays_a_client_command(roborally_server):
    assert roborally_server.port
    game = roborally_server.play(greedy_bot_command(), opponents=1)
    assert game.winner in (0, 1) and game.rounds >= 1


def test_swc_replay_names_each_register_of_each_round(tmp_path, capsys):
    """A round's moves are its registers, each robot's card in the order the server runs them
    (issue 41: before, a round showed only its reboots and checkpoints, never what was played)."""
    import gzip
    from pathlib import Path

    log = tmp_path / "death_trap.jsonl"
    log.write_bytes(gzip.decompress((Path(__file__).parent.parent / "data" / "roborally" / "death_trap_game.jsonl.gz").read_bytes()))
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    round_1 = out.split("== after round 1")[1].split("==")[0]
    assert [line.strip() for line in round_1.splitlines() if line.strip().startswith("register ")] == [
        "register 1: robot 2 TurnLeft, robot 1 MoveII",
        "register 2: robot 2 MoveII, robot 1 Again",
        "register 3: robot 2 TurnRight, robot 1 MoveI",
        "register 4: robot 2 MoveII, robot 1 MoveII",
        "register 5: robot 2 MoveI, robot 1 MoveI",
    ]
