"""ReversiXT tools: swc match reversixt, swc replay of move logs, the pytest fixture, the bots."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from swc_local.tools import cli
from swc_local.tools.reversixt_replay import check, read_move_log
from tests.reversixt_golden import GOLDEN, MAPS

BOT = f"{sys.executable} -m swc_local.client.reversixt_bot --port {{port}} --seed {{seed}}"


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*/log_game.txt")), ids=lambda p: p.parent.name)
def test_every_reference_move_log_checks(path):
    ok, message = check(read_move_log(path.read_text()))
    assert ok == (path.parent.name != "fault_no_answer_no_limit"), message


def test_replay_command_prints_and_checks(capsys):
    path = str(GOLDEN / "rules_specials" / "log_game.txt")
    assert cli.main(["replay", path]) == 0
    out = capsys.readouterr().out
    assert "move 44: player 1 -> (4,0,0)" in out and "1. player 1 (group 0): 20 stones" in out
    assert cli.main(["replay", "--check", path]) == 0
    assert capsys.readouterr().out.startswith("ok: 45 moves")


def test_replay_check_finds_a_wrong_move(tmp_path, capsys):
    text = (GOLDEN / "rules_groups" / "log_game.txt").read_text().replace("player 2 moved (1,0,0)", "player 2 moved (0,0,0)", 1)
    (tmp_path / "log.txt").write_text(text)
    assert cli.main(["replay", "--check", str(tmp_path / "log.txt")]) == 1
    assert "disagreement" in capsys.readouterr().out


def test_match_plays_games_and_prints_a_table(tmp_path, capsys):
    status = cli.main([
        "match", "reversixt", "--map", str(MAPS / "trio_3p.map"), "--games", "2", "--parallel", "2",
        "--player", BOT + " --strategy greedy", "--player", BOT + " --strategy random", "--player", BOT,
        "--start-delay", "0", "--turn-delay", "0", "--seed", "5",
        "--results", str(tmp_path / "results"), "--replays", str(tmp_path / "replays"),
    ])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert "[2/2] game" in captured.err
    table = captured.out.splitlines()
    header = next(line for line in table if line.startswith("player "))
    assert header.split()[:6] == ["player", "wins", "draws", "losses", "causes", "avg"]
    rows = [line.split() for line in table if line.split()[:1] in (["player1"], ["player2"], ["player3"])]
    assert [row[0] for row in rows] == ["player1", "player2", "player3"]
    assert all(sum(int(n) for n in row[1:4]) == 2 for row in rows)  # every player played both games
    results = sorted((tmp_path / "results").iterdir())
    assert len(results) == 2 and results[0].read_text().startswith("trio_3p.map\n")
    replays = sorted((tmp_path / "replays").glob("game*.log"))
    assert len(replays) == 2
    for replay in replays:
        assert check(read_move_log(replay.read_text()))[0]


def test_match_reports_a_player_that_never_joins(capsys, caplog):
    """A command that exits at once in every seat never joined: the match stops, naming it."""
    status = cli.main(["match", "reversixt", "--map", str(MAPS / "tiny_2p.map"), "--games", "1", "--player", "true",
                       "--start-timeout", "5"])
    err = capsys.readouterr().err
    assert status == 2 and "before it joined" in err and "command: true" in err


@pytest.mark.reversixt_server(map=str(MAPS / "quad_4p.map"))
def test_fixture_plays_a_game(reversixt_server):
    game = reversixt_server.play(BOT + " --strategy random", seat=2, opponents="greedy")
    assert game.error is None and not game.disqualified
    assert sorted(game.ranks) == [1, 2, 3, 4] and game.result.startswith(Path(reversixt_server.map_path).name)
    assert reversixt_server.port > 0
