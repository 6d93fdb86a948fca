"""``swc tournament`` with real bots on the real runner, as a fishtest or cutechess user checks it:
self-play of a seeded bot is no mirror, an opening book of three seeds plays three pairs, a 4-seat
ReversiXT tournament of 24 games uses all 24 seat orders, think times reach ``report --json``, a
CI log gets one line per pair, ``--resume --db`` alone finishes a killed run, and a Dask run
that loses a worker keeps every replay beside the database and records the retry."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from swc_local.games import registry
from swc_local.tools.tournament.schedule import schedule
from tests.dask_cluster import kill, local_cluster
from tests.tools.test_tournament_play import GREEDY, INSTANT_REVERSI, PIRANHAS, RANDOM, REVERSI, _wait_for_games, assert_every_game_once, report, rows, tournament

QUAD = Path(registry.__file__).parent / "reversixt" / "maps" / "quad_4p.map"


def test_self_play_of_a_seeded_bot_is_no_mirror_and_a_ci_log_gets_a_line_per_pair(tmp_path, capsys):
    db = tmp_path / "self.db"
    code = tournament("piranhas", f"--bot=a={PIRANHAS}", f"--bot=b={PIRANHAS}", "--db", str(db), "--seed", "4",
                      "--sprt", "elo0=0", "elo1=10", "--games-per-pairing", "4", "--concurrency", "2")
    assert code == 0
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.startswith("pair ")]
    assert len(lines) == 2 and all("LLR" in line and "Elo" in line for line in lines)  # one per finished pair
    assert captured.out.count("Standings") == 1  # the final block once
    data = report(db, capsys)
    assert not data["head_to_head"][0]["all_mirrors"] and not any("mirror" in note for note in data["notes"])
    seeds = rows(db, "SELECT record FROM games")
    assert len(seeds) == 4
    for row in data["standings"]:  # think times per bot, as swc match shows them
        assert row["moves"] > 0 and 0 <= row["think_avg_ms"] <= row["think_max_ms"]
    assert len(data["history"]) == 2 and [h["pair"] for h in data["history"]] == [1, 2]


def test_a_bot_that_ignores_its_seed_is_named_a_mirror(tmp_path, capsys):
    db = tmp_path / "mirror.db"
    fixed = PIRANHAS.replace("'{seed}'", "7")
    assert fixed != PIRANHAS
    # unhurried: a move over the 2 s soft limit on a loaded machine would end one game of a pair
    # otherwise (SOFT_TIMEOUT) and make it no mirror
    assert tournament("piranhas", f"--bot=a={fixed}", f"--bot=b={fixed}", "--db", str(db), "--seed", "4",
                      "--games-per-pairing", "4", "--concurrency", "2", "--soft-timeout", "60000",
                      "--hard-timeout", "120000") == 0
    assert "was a mirror" in capsys.readouterr().out
    data = report(db, capsys)
    assert data["head_to_head"][0]["all_mirrors"] and data["head_to_head"][0]["pentanomial"][2] == 2


def test_a_book_of_three_seeds_plays_three_pairs_with_seats_swapped_on_exactly_those_boards(tmp_path, capsys):
    book, db = tmp_path / "book.txt", tmp_path / "book.db"
    assert tournament("openings", str(book), "--count", "3", "--seed", "3") == 0
    seeds = [int(line) for line in book.read_text().splitlines() if not line.startswith("#")]
    assert len(seeds) == 3 and len(set(seeds)) == 3
    assert tournament("piranhas", f"--bot=a={PIRANHAS}", f"--bot=b={PIRANHAS}", "--db", str(db), "--openings", str(book),
                      "--concurrency", "2", "--seed", "1") == 0
    games = rows(db, "SELECT block, seed, bots, opening FROM games ORDER BY position")
    assert len(games) == 6 and [seed for _, seed, _, _ in games[::2]] == seeds
    for (block1, seed1, bots1, opening1), (block2, seed2, bots2, opening2) in zip(games[::2], games[1::2]):
        assert (block1, seed1, opening1) == (block2, seed2, opening2) == (block1, seed1, f"seed {seed1}")
        assert bots1.split(",") == bots2.split(",")[::-1]
    replays = sorted((tmp_path / "book-replays").iterdir())
    assert len(replays) == 6  # kept beside the database by default


def test_a_book_of_replay_positions_starts_every_game_there(tmp_path, capsys):
    matches, book, db = tmp_path / "matches", tmp_path / "positions.txt", tmp_path / "positions.db"
    assert tournament("piranhas", f"--bot=a={PIRANHAS}", f"--bot=b={PIRANHAS}", "--db", str(tmp_path / "m.db"),
                      "--replays", str(matches), "--seed", "2", "--concurrency", "2") == 0
    assert tournament("openings", str(book), "--from", str(matches), "--plies", "4") == 0
    lines = [line for line in book.read_text().splitlines() if not line.startswith("#")]
    assert len(lines) == 2 and all(line.endswith("@4") for line in lines)
    assert tournament("piranhas", f"--bot=a={PIRANHAS}", f"--bot=b={PIRANHAS}", "--db", str(db), "--openings", str(book),
                      "order=random", "--concurrency", "2", "--seed", "5") == 0
    openings = rows(db, "SELECT opening FROM games")
    assert len(openings) == 4 and {opening for (opening,) in openings} == set(lines)
    capsys.readouterr()
    for game in report(db, capsys)["game_list"]:  # the replay starts at the position: 4 moves in
        assert game["replay"] and Path(game["replay"]).is_file()


def test_a_four_seat_reversixt_tournament_of_24_games_uses_all_24_orders(tmp_path, capsys):
    db = tmp_path / "quad.db"
    bots = [f"--bot=g{i}={REVERSI} random" for i in range(1, 5)]
    assert tournament("reversixt", "--map", str(QUAD), *bots, "--games-per-pairing", "24", "--db", str(db),
                      "--seed", "1", "--concurrency", "3", *INSTANT_REVERSI) == 0
    assert "every one of the 24 seat orders" in capsys.readouterr().out
    orders = rows(db, "SELECT DISTINCT bots FROM games")
    assert len(orders) == 24
    data = report(db, capsys)
    assert any("every one of the 24 seat orders" in note for note in data["notes"])


def test_resume_with_the_database_alone_finishes_a_killed_run_with_every_game_once(tmp_path, capsys):
    db = tmp_path / "resume.db"
    args = ["reversixt", f"--bot=greedy={GREEDY}", f"--bot=random={RANDOM}", "--games-per-pairing", "6",
            "--db", str(db), "--seed", "9", "--start-delay", "0", "--turn-delay", "0.01"]
    process = subprocess.Popen([sys.executable, "-m", "swc_local.tools.cli", "tournament", *args],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait_for_games(db, 2, time.monotonic() + 120)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    before = rows(db, "SELECT COUNT(*) FROM games")[0][0]
    assert 2 <= before < 6
    assert tournament("--resume", "--db", str(db)) == 0
    assert_every_game_once(db, {slot.key for slot in schedule(["greedy", "random"], "roundrobin", 6, 2, 9)})
    assert tournament("--db", str(db)) == 2  # without --resume: one line saying what is missing
    assert "--resume" in capsys.readouterr().err


def test_dask_with_a_shared_replays_folder_keeps_every_replay_and_records_the_retry(tmp_path, capsys):
    from distributed import Client

    db, shared = tmp_path / "dask.db", tmp_path / "shared-replays"
    with local_cluster(tmp_path, 2) as (scheduler_file, workers):
        address = json.loads(scheduler_file.read_text())["address"]
        with Client(address, timeout=60) as watcher:
            watcher.wait_for_workers(2, timeout=60)
            number_of = {a: int(info["name"][1:]) for a, info in watcher.scheduler_info()["workers"].items()}
            cut_short: list[str] = []

            def kill_a_worker_mid_game() -> None:
                try:
                    _wait_for_games(db, 2, time.monotonic() + 180)
                except AssertionError:
                    return
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    busy = {a: tasks for a, tasks in watcher.processing().items() if tasks and a in number_of}
                    if busy:
                        victim, tasks = next(iter(busy.items()))
                        cut_short.extend(str(task) for task in tasks)
                        kill(workers[number_of[victim]])
                        return
                    time.sleep(0.01)

            killer = threading.Thread(target=kill_a_worker_mid_game, daemon=True)
            killer.start()
            code = tournament("reversixt", f"--bot=greedy={GREEDY}", f"--bot=random={RANDOM}", "--games-per-pairing", "6",
                              "--db", str(db), "--seed", "3", "--dask", address, "--concurrency", "2",
                              "--replays", str(shared), "--dask-files", "shared", "--start-delay", "0", "--turn-delay", "0.02")
            killer.join(timeout=5)
    assert code == 0 and cut_short
    err = capsys.readouterr().err
    games = rows(db, "SELECT key, replay, worker, retries FROM games")
    assert len(games) == 6
    for key, replay, worker, retries in games:
        assert Path(replay).parent == shared and Path(replay).is_file() and worker
    retried = {key: retries for key, _, _, retries in games if retries}
    assert retried and all(any(task.endswith(key) for task in cut_short) for key in retried)
    assert all(f"game {key} was played again" in err for key in retried)
    data = report(db, capsys)
    assert {row["game"]: row["retries"] for row in data["retries"]} == retried
    assert any("played again after a worker died" in note for note in data["notes"])


def test_a_bot_over_its_own_time_limit_loses_its_games(tmp_path, capsys):
    db = tmp_path / "limit.db"
    assert tournament("piranhas", f"--bot=slow={PIRANHAS}", f"--bot=free={PIRANHAS}", "--db", str(db), "--seed", "2",
                      "--bot-timeout", "slow=1", "--games-per-pairing", "2", "--concurrency", "2") == 0
    data = report(db, capsys)
    standings = {row["bot"]: row for row in data["standings"]}
    assert standings["slow"]["causes"] == {"TIME_LIMIT": 2} and standings["slow"]["losses"] == 2
    assert standings["free"]["wins"] == 2 and standings["slow"]["think_max_ms"] > 1
    assert tournament("reversixt", f"--bot=a={GREEDY}", f"--bot=b={RANDOM}", "--db", str(tmp_path / "r.db"),
                      "--bot-timeout", "a=10") == 2
    assert "moves are timed" in capsys.readouterr().err
