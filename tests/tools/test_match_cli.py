"""``swc match`` and ``swc bot`` as a bot author types them: every game through the registry,
one table, machine-readable records, errors that say what to do, Ctrl-C that keeps the table."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys

import pytest

from swc_local.games import registry
from swc_local.tools.cli import main
from swc_local.tools.results import GameResult
from tests.helpers import cli_errors
from tests.processes import terminal_signals_at_default
from tests.reversixt_golden import MAPS

REVERSI_BOT = f"{sys.executable} -m swc_local.client.reversixt_bot --port {{port}} --seed {{seed}}"
FAST_REVERSI = ["--start-delay", "0", "--turn-delay", "0"]

BROKEN_BOT = '''
"""Join the prepared seat, then say why on stderr and crash on the first move request."""
import os, sys, trio
from swc_local.client.client import Client
from swc_local.client.messages import MoveRequest

async def main(port, reservation):
    async with await Client.connect("127.0.0.1", port) as client:
        await client.join_prepared(reservation)
        async for message in client:
            if isinstance(message, MoveRequest):
                print("Traceback: my bot broke on its first move", file=sys.stderr, flush=True)
                os._exit(3)

trio.run(main, int(sys.argv[1]), sys.argv[2])
'''


def test_match_help_lists_all_eight_games_with_their_short_names(capsys):
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for game in registry.entries():
        assert game.game_type in out
        for name in game.short_names:
            assert name in out
    assert "blokus = swc_2027_blokus" in out and "reversixt" in out and "roborally" in out


def test_an_unknown_game_is_one_line_with_the_closest_name(capsys):
    assert main(["match", "blokuss"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("swc match: error: unknown game 'blokuss'; did you mean blokus?")  # no timestamp
    assert line.endswith("; see swc match --help")
    assert registry.entry("Blokus").game_type == "swc_2027_blokus"  # names are not case-sensitive


def test_global_flags_before_match_reversixt(capsys):
    assert main(["-v", "match", "reversixt", "--games", "1", "--seed", "2", *FAST_REVERSI]) == 0
    assert "every game ended with a result" in capsys.readouterr().out


def test_a_flag_of_another_family_is_refused(capsys):
    assert main(["match", "reversixt", "--soft-timeout", "300"]) == 2
    assert cli_errors(capsys, "swc match") == ["--soft-timeout does not apply to reversixt (a reversixt game)"]


@pytest.mark.parametrize("game", ["reversixt", "roborally"])
def test_swc_bot_plays_the_games_of_the_other_families(game, capsys):
    bot = f"{sys.executable} -m swc_local.tools.cli bot {game} --host {{host}} --port {{port}} --seed {{seed}}"
    extra = FAST_REVERSI if game == "reversixt" else ["--timer", "0.2"]
    assert main(["match", game, "--games", "1", "--seed", "4", "--player", bot, *extra]) == 0
    assert "every game ended with a result" in capsys.readouterr().out


def test_a_command_that_cannot_run_is_caught_before_the_first_game(capsys):
    assert main(["match", "piranhas", "--games", "10", "--player1", "pyhton my_bot.py --port {port}"]) == 2
    err = capsys.readouterr().err
    (line,) = err.strip().splitlines()
    assert "player1 cannot start: pyhton: command not found (command: pyhton my_bot.py --port {port})" in line
    assert "[1/" not in err  # no game was played


def test_a_command_that_dies_with_127_stops_the_match_at_once(capsys):
    missing = "sh -c 'echo \"sh: 1: pyhton: not found\" >&2; exit 127' {port}"
    assert main(["match", "reversixt", "--games", "10", "--player", missing, "--player", REVERSI_BOT, *FAST_REVERSI]) == 2
    err = capsys.readouterr().err
    assert "exited with code 127 before it joined; last output: sh: 1: pyhton: not found" in err
    assert err.count("] game ") == 1  # stopped after the first game


def test_an_irregular_game_says_why_and_where_its_output_and_replay_are(tmp_path, capsys):
    script = tmp_path / "broken_bot.py"
    script.write_text(BROKEN_BOT)
    code = main(["match", "piranhas", "--games", "1", "--seed", "3", "--replays", str(tmp_path / "replays"),
                 "--player1", f"{sys.executable} {script} {{port}} {{reservation}}"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "games not ended regularly:" in out
    assert "  game 1: player1 (red) LEFT " in out and "(player1 exit 3)" in out
    assert "last output: Traceback: my bot broke on its first move" in out
    log = tmp_path / "replays" / "logs" / "game001_player1.log"
    assert f"output: {log}" in out and "my bot broke" in log.read_text()
    (replay,) = (tmp_path / "replays").glob("game001_*.xml")
    assert f"replay: {replay}" in out


def test_json_and_csv_have_one_record_per_game_and_seats_rotate(tmp_path, capsys):
    players = [REVERSI_BOT + " --strategy greedy", REVERSI_BOT + " --strategy random", REVERSI_BOT + " --group 7"]
    argv = ["match", "reversixt", "--map", str(MAPS / "trio_3p.map"), "--games", "3", "--seed", "9", *FAST_REVERSI,
            "--json", str(tmp_path / "games.jsonl"), "--csv", str(tmp_path / "games.csv")]
    for command in players:
        argv += ["--player", command]
    assert main(argv) == 0
    out = capsys.readouterr().out
    for k, command in enumerate(players, 1):  # whole commands: versions of a bot stay apart
        assert f"player{k}: {command}" in out
    records = [GameResult.from_dict(json.loads(line)) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert sorted(r.index for r in records) == [0, 1, 2]
    for record in records:
        i = record.index
        assert record.seed == 9 + i
        assert [s.name for s in record.seats] == [f"player{(k + i) % 3 + 1}" for k in range(3)]
        assert [s.seat for s in record.seats] == ["1", "2", "3"]
    rows = list(csv.DictReader((tmp_path / "games.csv").open()))
    assert len(rows) == 3 and {row["seat1_cause"] for row in rows} == {"REGULAR"}


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def test_ctrl_c_prints_the_table_of_the_games_played(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "swc_local.tools.cli", "match", "reversixt", "--games", "200", "--seed", "1",
         "--start-delay", "0", "--turn-delay", "0.01", "--logs", str(tmp_path / "logs")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=terminal_signals_at_default,
    )
    try:
        for line in process.stderr:
            if line.startswith("[2/200]"):
                break
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert "stopped after" in out and "of 200 games" in out
    played = int(out.split("stopped after ")[1].split()[0])
    assert out.splitlines()[-1] == f"stopped after {played} of 200 games: SIGINT (Ctrl-C)"  # never "every game ended ..."
    assert played >= 2 and f"{played} games of reversixt" in out


def test_swc_replay_names_the_kinds_it_reads(tmp_path, capsys):
    other = tmp_path / "game.bin"
    other.write_bytes(b"\0")
    assert main(["replay", str(other)]) == 2
    (line,) = cli_errors(capsys, "swc replay")
    assert "game.bin is no replay or game log" in line and ".xml (xml)" in line and ".jsonl (roborally)" in line


def test_the_xml_fixture_points_to_the_fixture_of_another_family():
    from swc_local.swc_pytest.server import start_server

    with pytest.raises(ValueError, match="reversixt is played with the reversixt_server fixture"):
        with start_server("reversixt"):
            pass


@pytest.mark.parametrize("argv, expected", [
    (["match", "piranhas", "--player", "a", "--player", "b", "--player", "c"], "piranhas has 2 seats, not 3"),
    (["match", "roborally", "--seats", "9"], "roborally has 2 to 6 seats, not 9"),
    (["match", "reversixt", "--map", str(MAPS / "trio_3p.map"), "--player", "a", "--player", "b"], "exactly 3"),
    (["match", "roborally", "--map", "Nowhere"], "unknown map 'Nowhere'"),
    (["match", "reversixt", "--map", "no/such.map"], "cannot load map no/such.map"),
])
def test_seat_and_option_errors_are_one_line(argv, expected, capsys):
    assert main(argv) == 2
    (line,) = cli_errors(capsys, "swc match")
    assert expected in line
