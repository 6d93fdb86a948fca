"""The contest's formats with real bots on the real runner: eight reference bots through groups,
Champions League and Final Eight; a Final Four killed half way and resumed; a Final Four on a
Dask cluster. ReversiXT's greedy and random strategies without the reference server's pauses,
two games an encounter (the least that swaps the seats)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from swc_local.tools.cli import main
from tests.dask_cluster import local_cluster
from tests.tools.test_tournament_play import GREEDY, INSTANT_REVERSI, RANDOM, _wait_for_games, rows

FOUR = [f"--bot=g1={GREEDY}", f"--bot=r1={RANDOM}", f"--bot=g2={GREEDY}", f"--bot=r2={RANDOM}"]


def report(db: Path, capsys) -> dict:
    capsys.readouterr()
    assert main(["tournament", "report", str(db), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_eight_reference_bots_play_groups_champions_league_and_final_eight(tmp_path, capsys):
    db = tmp_path / "contest.db"
    bots = [f"--bot={kind}{i}={GREEDY if kind == 'g' else RANDOM}" for i in range(1, 5) for kind in "gr"]
    code = main(["tournament", "reversixt", "--format", "contest", *bots, "--games-per-encounter", "2",
                 "--group-size", "4", "--advance", "4", "--db", str(db), "--seed", "2", "--concurrency", "2",
                 *INSTANT_REVERSI])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Group A: standings after 3 of 3 match days" in out and "Final Eight: knockout" in out
    data = report(db, capsys)
    league = data["league"]
    assert league["complete"] and [s["key"] for s in league["stages"]] == ["A", "B", "CL", "KO"]
    assert data["games"] == data["scheduled"] == (2 * 6 + 28 + 8) * 2 and data["no_result"] == 0
    keys = [key for (key,) in rows(db, "SELECT key FROM games")]
    assert len(keys) == len(set(keys)) == data["games"]
    for stage in league["stages"][:3]:
        for day in stage["days"]:  # every team plays one encounter a match day
            teams = [t for e in day["encounters"] for t in (e["home"], e["away"])]
            assert sorted(teams) == sorted(stage["teams"])
    for game_key, seats in rows(db, "SELECT game_key, GROUP_CONCAT(bot, ',') FROM seats GROUP BY game_key"):
        home, away = game_key.split("/")[2].split("~")
        number = int(game_key.split("/")[3])
        assert seats.split(",") == ([home, away] if number % 2 == 0 else [away, home])  # the first move alternates
    places = league["stages"][3]["places"]
    assert sorted(p["team"] for p in places) == sorted(league["stages"][2]["teams"])
    assert Counter(p["place"] for p in places) == {1: 1, 2: 1, 3: 1, 4: 1, 5: 4}


def test_a_final_four_killed_half_way_resumes_to_the_same_end(tmp_path, capsys):
    db = tmp_path / "ko.db"
    args = ["reversixt", "--format", "final-eight", *FOUR, "--games-per-encounter", "2", "--db", str(db), "--seed", "4",
            "--start-delay", "0", "--turn-delay", "0.01"]
    process = subprocess.Popen([sys.executable, "-m", "swc_local.tools.cli", "tournament", *args],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait_for_games(db, 2, time.monotonic() + 120)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    before = {key for (key,) in rows(db, "SELECT key FROM games")}
    assert 2 <= len(before) < 8
    assert main(["tournament", *args, "--resume"]) == 0
    data = report(db, capsys)
    assert data["games"] == 8 and data["league"]["complete"]
    assert before <= {key for (key,) in rows(db, "SELECT key FROM games")}
    stage = data["league"]["stages"][0]
    assert [e["title"] for day in stage["days"] for e in day["encounters"]] == [
        "semi-final 1", "semi-final 2", "third place", "final"]
    # the same end as the plan rebuilt from the stored games: resume keeps every key and index
    assert [p["place"] for p in stage["places"]] == [1, 2, 3, 4]


def test_a_final_four_on_a_dask_cluster_plays_round_after_round(tmp_path, capsys):
    db = tmp_path / "dask.db"
    with local_cluster(tmp_path, 2) as (scheduler_file, _):
        address = json.loads(scheduler_file.read_text())["address"]
        code = main(["tournament", "reversixt", "--format", "final-eight", *FOUR, "--games-per-encounter", "2",
                     "--db", str(db), "--seed", "6", "--dask", address, "--concurrency", "2", *INSTANT_REVERSI])
    assert code == 0
    data = report(db, capsys)
    assert data["games"] == 8 and data["league"]["complete"]
    workers = {worker for (worker,) in rows(db, "SELECT worker FROM games")}
    assert workers and None not in workers
    assert all(Path(replay).is_file() for (replay,) in rows(db, "SELECT replay FROM games"))
