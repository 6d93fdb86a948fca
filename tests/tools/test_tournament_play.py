"""``swc tournament`` with real bots on the real runner: round robins in two game families, SPRT
runs that stop, bots that crash or never join, --resume after SIGKILL, and a Dask cluster that
loses a worker mid-game. Games are short: reference bots answer at once, ReversiXT runs without
the reference server's pauses."""

from __future__ import annotations

import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from swc_local.client import ladder
from swc_local.games import registry
from swc_local.tools.cli import main
from swc_local.tools.tournament.schedule import schedule
from tests.helpers import TESTS
from tests.dask_cluster import kill, local_cluster
from tests.processes import terminal_signals_at_default

PY = shlex.quote(sys.executable)
PIRANHAS = shlex.join(ladder.command(registry.entry("piranhas")))
REVERSI = shlex.join(ladder.command(registry.entry("reversixt"))) + " --strategy"
GREEDY, RANDOM = f"{REVERSI} greedy", f"{REVERSI} random"
INSTANT_REVERSI = ["--start-delay", "0", "--turn-delay", "0"]


def tournament(*args: str) -> int:
    return main(["tournament", *args])


def report(db: Path, capsys) -> dict:
    capsys.readouterr()
    assert tournament("report", str(db), "--json") == 0
    return json.loads(capsys.readouterr().out)


def rows(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute(sql).fetchall()


def assert_every_game_once(db: Path, expected_keys: set[str]) -> None:
    keys = [key for (key,) in rows(db, "SELECT key FROM games")]
    assert sorted(keys) == sorted(expected_keys), "each scheduled game exactly once"
    seats = rows(db, "SELECT game_key, COUNT(*) FROM seats GROUP BY game_key")
    assert {key for key, _ in seats} == expected_keys


def test_round_robin_of_three_reference_bots_in_piranhas(tmp_path, capsys):
    db = tmp_path / "rr.db"
    bots = [f"--bot={name}={PIRANHAS}" for name in ("alpha", "beta", "gamma")]
    assert tournament("piranhas", *bots, "--db", str(db), "--concurrency", "2", "--seed", "4") == 0
    out = capsys.readouterr().out
    assert "Standings" in out and "Crosstable" in out
    data = report(db, capsys)
    assert data["games"] == data["scheduled"] == 6
    assert {row["bot"]: row["games"] for row in data["standings"]} == {"alpha": 4, "beta": 4, "gamma": 4}
    for a in ("alpha", "beta", "gamma"):
        for b in ("alpha", "beta", "gamma"):
            if a < b:  # every game hands out 2 points between the two
                assert data["crosstable"][a][b][0] + data["crosstable"][b][a][0] == 2 * 2
    pairs = rows(db, "SELECT block, COUNT(*), COUNT(DISTINCT seed), COUNT(DISTINCT bots) FROM games GROUP BY block")
    assert len(pairs) == 3 and all(row[1:] == (2, 1, 2) for row in pairs)  # one board, seats swapped
    seats = rows(db, "SELECT DISTINCT seat FROM seats")
    assert {seat for (seat,) in seats} == {"red", "blue"}


def test_round_robin_of_three_reference_bots_in_reversixt(tmp_path, capsys):
    db = tmp_path / "rr.db"
    assert tournament("reversixt", f"--bot=greedy={GREEDY}", f"--bot=random={RANDOM}", f"--bot=greedy2={GREEDY}",
                      "--db", str(db), "--concurrency", "2", "--seed", "4", *INSTANT_REVERSI) == 0
    data = report(db, capsys)
    assert data["games"] == 6 and data["no_result"] == 0
    standings = {row["bot"]: row for row in data["standings"]}
    assert standings["random"]["rank"] == 3  # the random bot loses to both greedy ones
    assert len(data["head_to_head"]) == 3
    assert {seat for (seat,) in rows(db, "SELECT DISTINCT seat FROM seats")} == {"1", "2"}
    capsys.readouterr()
    assert tournament("report", str(db), "--csv") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("rank,bot,games,wins") and len(lines) == 4


def test_sprt_of_a_strong_against_a_weak_bot_stops_with_h1_well_before_its_cap(tmp_path, capsys):
    db = tmp_path / "sprt.db"
    code = tournament("reversixt", f"--bot=greedy={GREEDY}", f"--bot=random={RANDOM}", "--db", str(db),
                      "--sprt", "elo0=0", "elo1=300", "alpha=0.05", "beta=0.05", "--games-per-pairing", "60",
                      "--concurrency", "2", "--seed", "1", *INSTANT_REVERSI)
    assert code == 0
    assert "H1 accepted" in capsys.readouterr().out
    data = report(db, capsys)
    assert data["verdict"].startswith("SPRT: H1 accepted") and "greedy is stronger than random" in data["verdict"]
    assert data["sprt"]["llr"] >= data["sprt"]["upper_bound"]
    assert data["games"] <= 20 < 60  # decided in at most 10 pairs of a cap of 30
    assert data["games"] == 2 * sum(data["sprt"]["pentanomial"]) or data["games"] <= 2 * sum(data["sprt"]["pentanomial"]) + 1


def test_sprt_between_two_copies_of_one_bot_never_accepts_h1(tmp_path, capsys):
    db = tmp_path / "same.db"
    code = tournament("piranhas", f"--bot=one={PIRANHAS}", f"--bot=two={PIRANHAS}", "--db", str(db),
                      "--sprt", "elo0=0", "elo1=200", "model=normalized", "--games-per-pairing", "8",
                      "--concurrency", "2", "--seed", "2")
    assert code == 0
    data = report(db, capsys)
    assert data["verdict"] is None or "H1" not in data["verdict"]
    assert data["sprt"]["llr"] < 0 < data["sprt"]["upper_bound"]
    assert data["games"] == 8 and sum(data["sprt"]["pentanomial"]) == 4


def test_bots_that_crash_or_never_join_lose_with_their_cause_and_the_tournament_goes_on(tmp_path, capsys):
    db = tmp_path / "bad.db"
    crash_seed = next(dict(zip(slot.seating, slot.bot_seeds))["crash"]  # one game in which it crashes
                      for slot in schedule(["ref", "crash", "sleeper"], "roundrobin", 2, 2, 1) if "crash" in slot.seating)
    crash = f"--bot=crash=sh -c 'test \"$0\" = {crash_seed} && exit 3; exec \"$@\"' {{seed}} {PIRANHAS}"
    sleeper = f"--bot=sleeper={PY} -c 'import time; time.sleep(60)'"
    code = tournament("piranhas", f"--bot=ref={PIRANHAS}", crash, sleeper, "--db", str(db), "--concurrency", "4",
                      "--start-timeout", "10", "--soft-timeout", "60000", "--hard-timeout", "120000", "--seed", "1")
    assert code == 0
    data = report(db, capsys)
    assert data["games"] == 6
    standings = {row["bot"]: row for row in data["standings"]}
    assert standings["ref"]["causes"] == {}
    assert standings["crash"]["causes"] == {"CRASHED": 1}
    assert standings["sleeper"]["causes"] == {"NEVER_JOINED": 4} and standings["sleeper"]["losses"] == 4
    reasons = rows(db, "SELECT reason FROM seats WHERE bot = 'crash' AND cause = 'CRASHED'")
    assert all("exited with code 3" in reason for (reason,) in reasons)


@pytest.mark.parametrize("command, reason", [
    ("sh -c 'exit 127'", "broken's command cannot play"),
    (f"{PY} /no/such/dir/my_bot.py --port {{port}}", "crashed before joining in each of its first 2 games"),
])
def test_a_command_that_cannot_play_stops_the_tournament_at_once(tmp_path, capsys, command, reason):
    db = tmp_path / "broken.db"
    code = tournament("piranhas", f"--bot=ref={PIRANHAS}", f"--bot=broken={command}", "--db", str(db),
                      "--games-per-pairing", "20", "--concurrency", "2", "--seed", "1")
    err = capsys.readouterr().err
    assert code == 2 and reason in err and "the tournament stops" in err and "Traceback" not in err
    assert 1 <= rows(db, "SELECT COUNT(*) FROM games")[0][0] <= 4  # not 20: stopped at once


def test_a_command_that_cannot_start_is_reported_once_before_any_game(tmp_path, capsys):
    db = tmp_path / "never.db"
    code = tournament("piranhas", f"--bot=ref={PIRANHAS}", "--bot=ghost=/no/such/bot --port {port}", "--db", str(db))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "--bot ghost" in err and "/no/such/bot" in err
    assert not db.exists()


@pytest.mark.parametrize("args, message", [
    (["piranhas", "--bot=a=x", "--db", "x.db"], "at least 2 bots"),
    (["nosuchgame", "--bot=a=true", "--bot=b=true", "--db", "x.db"], "unknown game"),
    (["piranhas", "--bot=a=true", "--bot=b=true"], "--db FILE"),
    (["piranhas", "--bot=a=true", "--bot=b=true", "--db", "x.db", "--sprt", "elo0=5", "elo1=0"], "elo0 must be below elo1"),
    (["piranhas", "--bot=a=true", "--bot=b=true", "--db", "x.db", "--sprt", "model=bayes"], "logistic, normalized"),
    (["piranhas", "--bot=a=true", "--bot=b=true", "--db", "x.db", "--significance", "0.05", "--games-per-pairing", "200"], "at most 170"),
    (["piranhas", "--bot=a=true", "--bot=b=true", "--db", "x.db", "--games-per-pairing", "3"], "multiple of the 2 seats"),
    (["piranhas", "--bot=a=true", "--bot=b=true", "--bot=c=true", "--db", "x.db", "--sprt", "elo1=5"], "exactly two bots"),
    (["report", "missing.db"], "no such tournament database"),
    (["piranhas", "--bot=a=true", "--bot=b=true", "--db", "no/such/dir/x.db"], "the directory no/such/dir does not exist"),
])
def test_bad_arguments_are_one_line_errors(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    assert tournament(*args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def _wait_for_games(db: Path, count: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            if rows(db, "SELECT COUNT(*) FROM games")[0][0] >= count:
                return
        except sqlite3.Error:
            pass
        time.sleep(0.05)
    raise AssertionError(f"fewer than {count} games in {db} in time")


def test_resume_after_sigkill_plays_and_counts_every_game_exactly_once(tmp_path, capsys):
    db, logs = tmp_path / "resume.db", tmp_path / "logs-after"
    args = ["reversixt", f"--bot=greedy={GREEDY}", f"--bot=random={RANDOM}", "--games-per-pairing", "6",
            "--db", str(db), "--seed", "9", "--start-delay", "0", "--turn-delay", "0.01"]
    process = subprocess.Popen([sys.executable, "-m", "swc_local.tools.cli", "tournament", *args],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait_for_games(db, 2, time.monotonic() + 120)
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # the tournament and the bots it started
        process.wait()
    before = {key for (key,) in rows(db, "SELECT key FROM games")}
    assert 2 <= len(before) < 6
    assert tournament(*args, "--resume", "--logs", str(logs)) == 0
    expected = {slot.key: slot.index for slot in schedule(["greedy", "random"], "roundrobin", 6, 2, 9)}
    assert_every_game_once(db, set(expected))
    played_after = {int(path.name[4:7]) - 1 for path in logs.iterdir()}  # game001_greedy.log: index 0
    assert played_after == {index for key, index in expected.items() if key not in before}


def test_dask_cluster_losing_a_worker_mid_game_records_every_game_once(tmp_path, capsys):
    from distributed import Client

    db = tmp_path / "dask.db"
    with local_cluster(tmp_path, 2) as (scheduler_file, workers):
        address = json.loads(scheduler_file.read_text())["address"]
        with Client(address, timeout=60) as watcher:
            watcher.wait_for_workers(2, timeout=60)
            number_of = {a: int(info["name"][1:]) for a, info in watcher.scheduler_info()["workers"].items()}
            cut_short: list[str] = []  # the games the dead worker was playing
            killed: list[int] = []

            def kill_a_worker_mid_game() -> None:
                try:
                    _wait_for_games(db, 2, time.monotonic() + 180)
                except AssertionError:
                    return
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:  # whichever worker is playing a game now
                    busy = {a: tasks for a, tasks in watcher.processing().items() if tasks and a in number_of}
                    if busy:
                        victim, tasks = next(iter(busy.items()))
                        cut_short.extend(tasks)
                        killed.append(number_of[victim])
                        kill(workers[number_of[victim]])
                        return
                    time.sleep(0.01)

            killer = threading.Thread(target=kill_a_worker_mid_game, daemon=True)
            killer.start()
            code = tournament("reversixt", f"--bot=greedy={GREEDY}", f"--bot=random={RANDOM}", "--games-per-pairing", "6",
                              "--db", str(db), "--seed", "3", "--dask", address, "--concurrency", "2",
                              "--start-delay", "0", "--turn-delay", "0.02")
            killer.join(timeout=5)
    assert code == 0 and cut_short and workers[killed[0]].poll() is not None
    expected = {slot.key for slot in schedule(["greedy", "random"], "roundrobin", 6, 2, 3)}
    assert_every_game_once(db, expected)
    for task in cut_short:  # played again on the other worker, stored once
        assert str(task).split("-", 3)[3] in expected
    beside = tmp_path / "dask-replays"  # brought back from the workers (--dask-files return, the default)
    for replay, worker in rows(db, "SELECT replay, worker FROM games"):
        assert Path(replay).parent == beside and Path(replay).is_file() and worker


def test_a_three_seat_reversixt_map_rotates_every_bot_through_every_seat(tmp_path, capsys):
    db = tmp_path / "three.db"
    three = TESTS / "data" / "reversixt" / "maps" / "trio_3p.map"
    assert tournament("reversixt", "--map", str(three), f"--bot=greedy={GREEDY}", f"--bot=random={RANDOM}",
                      f"--bot=greedy2={GREEDY}", "--games-per-pairing", "3", "--db", str(db), "--concurrency", "3",
                      "--seed", "5", *INSTANT_REVERSI) == 0
    seats = rows(db, "SELECT bot, seat, COUNT(*) FROM seats GROUP BY bot, seat")
    assert sorted(seats) == sorted((bot, seat, 1) for bot in ("greedy", "random", "greedy2") for seat in "123")
    assert rows(db, "SELECT COUNT(DISTINCT seed) FROM games") == [(1,)]  # one board, three rotations
    data = report(db, capsys)
    assert data["games"] == 3 and data["head_to_head"] == []  # no pairs: ratings and crosstable only
    for row in data["standings"]:
        assert row["games"] == 3 and row["wins"] + row["draws"] + row["losses"] + row["no_result"] == 3
        assert row["rating_sigma"] < 25 / 3  # openskill has learnt from the ranks
    cross = data["crosstable"]
    assert all(cross[a][b][1] == 3 for a in cross for b in cross[a])  # each pair of bots met in 3 games


def test_ctrl_c_keeps_the_finished_games_and_says_how_to_go_on(tmp_path):
    db = tmp_path / "int.db"
    process = subprocess.Popen(
        [sys.executable, "-m", "swc_local.tools.cli", "tournament", "reversixt", f"--bot=greedy={GREEDY}",
         f"--bot=random={RANDOM}", "--games-per-pairing", "20", "--db", str(db), "--seed", "2",
         "--start-delay", "0", "--turn-delay", "0.01"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=terminal_signals_at_default,
    )
    try:
        _wait_for_games(db, 1, time.monotonic() + 120)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    stored = rows(db, "SELECT COUNT(*) FROM games")[0][0]
    assert f"stopped by SIGINT (Ctrl-C): {stored} games are in {db}; --resume continues" in err
    assert "Traceback" not in err and 1 <= stored < 20


@pytest.mark.parametrize("game", ["hase_und_igel", "ostseeschach", "piranhas_2026", "hase_und_igel_2025", "blokus",
                                  "penguins", "mississippi_queen", "hive", "roborally"])
def test_every_other_game_plays_a_pair_of_its_reference_bots(tmp_path, capsys, game):
    db = tmp_path / f"{game}.db"
    reference = shlex.join(ladder.command(registry.entry(game)))
    assert tournament(game, f"--bot=a={reference}", f"--bot=b={reference}", "--db", str(db), "--seed", "1",
                      "--concurrency", "2") == 0
    data = report(db, capsys)
    assert data["games"] == 2 and data["no_result"] == 0
    assert data["head_to_head"][0]["pentanomial"] != [0, 0, 0, 0, 0]  # one complete pair
    seats = rows(db, "SELECT game_key, COUNT(DISTINCT bot) FROM seats GROUP BY game_key")
    assert [count for _, count in seats] == [2, 2]


def test_the_test_clients_significance_rule_stops_once_one_bot_is_significantly_better(tmp_path, capsys):
    db = tmp_path / "significance.db"
    code = tournament("reversixt", f"--bot=random={RANDOM}", f"--bot=greedy={GREEDY}", "--db", str(db),
                      "--significance", "0.05", "--min-tests", "6", "--games-per-pairing", "40", "--seed", "1",
                      "--concurrency", "2", *INSTANT_REVERSI)
    assert code == 0
    data = report(db, capsys)
    assert data["verdict"].startswith("greedy is significantly better after")
    assert 6 <= data["games"] < 40
