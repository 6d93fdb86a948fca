"""The ladder's calibration benchmark (``python -m benchmarks.ladder``) at a reduced size: a round
robin of two of Penguins' rungs through the tournament machinery, the fitted table written into
the ratings file and a docs page, resumable from its database, and rated against by ``swc rate``."""

from __future__ import annotations

import json
import sqlite3
import sys

import pytest

from benchmarks import ladder as calibration
from swc_local.games import registry
from swc_local.tools import ladder_table

pytestmark = pytest.mark.slow


def test_a_reduced_calibration_writes_the_table_and_resumes(tmp_path, capsys):
    page, ratings, db = tmp_path / "penguins.md", tmp_path / "elo.json", tmp_path / "cal.db"
    page.write_text("# Penguins\n\nThe rules.\n")
    args = ["--game", "penguins", "--rungs", "random,greedy", "--games-per-pairing", "2", "--seed", "3",
            "--db", str(db), "--ratings", str(ratings), "--page", str(page)]
    code = calibration.main(args)
    out = capsys.readouterr().out
    found = ladder_table.load("swc_2023_penguins", ratings)
    assert [rung.rung for rung in found.rungs] == ["random", "greedy"]
    assert found.games == found.scheduled == 2 and found.games_per_pairing == 2
    random_rung, greedy = found.rungs
    assert (random_rung.elo, random_rung.low, random_rung.high) == (0, 0, 0)
    assert greedy.low < greedy.elo < greedy.high
    assert code == (0 if greedy.elo >= 100 else 1)  # the 100-Elo check decides the exit status
    text = page.read_text()
    assert text.startswith("# Penguins\n\nThe rules.\n") and ladder_table.START in text
    assert f"| greedy | {greedy.elo:+.0f} | {greedy.low:+.0f} .. {greedy.high:+.0f} |" in text
    assert "python -m benchmarks.ladder --game penguins --games-per-pairing 2 --seed 3 --rungs random,greedy" in text
    assert "| greedy |" in out
    with sqlite3.connect(db) as connection:
        stored = connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert stored == 2
    assert calibration.main([*args, "--fit-only"]) == code  # the stored games again: the same table
    assert ladder_table.load("swc_2023_penguins", ratings) == found
    assert page.read_text().count(ladder_table.START) == 1


def test_the_games_of_other_calibration_databases_join_the_fit(tmp_path, capsys):
    page, ratings = tmp_path / "penguins.md", tmp_path / "elo.json"
    page.write_text("# Penguins\n")
    common = ["--game", "penguins", "--games-per-pairing", "2", "--ratings", str(ratings), "--page", str(page)]
    calibration.main([*common, "--rungs", "random,greedy", "--seed", "3", "--db", str(tmp_path / "a.db")])
    calibration.main([*common, "--rungs", "random,greedy", "--seed", "4", "--db", str(tmp_path / "b.db")])
    alone = ladder_table.load("swc_2023_penguins", ratings)
    calibration.main([*common, "--rungs", "random,greedy", "--seed", "3", "--db", str(tmp_path / "a.db"),
                      "--fit-only", "--also", str(tmp_path / "b.db")])
    joined = ladder_table.load("swc_2023_penguins", ratings)
    assert alone.games == 2 and joined.games == joined.scheduled == 4
    assert sum(int(float(x)) for x in joined.pairs["random~greedy"].split("-")) == 4
    assert joined.command.endswith("--also b.db") and "--also databases" in page.read_text()
    capsys.readouterr()
    assert calibration.main([*common, "--rungs", "random,greedy", "--db", str(tmp_path / "a.db"), "--seed", "3",
                             "--fit-only", "--also", str(tmp_path / "none.db")]) == 2
    assert "--also" in capsys.readouterr().err


def test_a_database_made_with_other_commands_fits_but_does_not_resume(tmp_path, capsys):
    # A calibration played in another checkout or venv stores that python's path in its bots'
    # commands: --fit-only reads its games as stored; playing on would mix two setups: one line.
    page, ratings, db = tmp_path / "penguins.md", tmp_path / "elo.json", tmp_path / "elsewhere.db"
    page.write_text("# Penguins\n")
    args = ["--game", "penguins", "--rungs", "random,greedy", "--games-per-pairing", "2", "--seed", "3",
            "--db", str(db), "--ratings", str(ratings), "--page", str(page)]
    calibration.main(args)
    played = ladder_table.load("swc_2023_penguins", ratings)
    with sqlite3.connect(db) as connection:
        (value,) = connection.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()
        connection.execute("UPDATE meta SET value = ? WHERE key = 'settings'",
                           (value.replace(sys.executable, "/elsewhere/.venv/bin/python"),))
    capsys.readouterr()
    assert calibration.main([*args, "--fit-only"]) in (0, 1)
    assert ladder_table.load("swc_2023_penguins", ratings).pairs == played.pairs
    assert calibration.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("benchmarks.ladder: error: --resume: bots differ") and err.count("\n") == 1
    elsewhere = args.index("--db") + 1
    assert calibration.main([*args[:elsewhere], str(tmp_path / "none.db"), *args[elsewhere + 1:], "--fit-only"]) == 2
    assert "--db" in capsys.readouterr().err


def test_a_reversixt_calibration_plays_without_the_watchers_pauses(tmp_path, capsys):
    db = tmp_path / "rx.db"
    calibration.main(["--game", "reversixt", "--rungs", "random,greedy", "--games-per-pairing", "2", "--db", str(db),
                      "--ratings", str(tmp_path / "elo.json"), "--page", str(tmp_path / "reversixt.md")])
    with sqlite3.connect(db) as connection:
        settings = json.loads(connection.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()[0])
        causes = [row[0] for row in connection.execute("SELECT cause FROM seats")]
    assert settings["options"] == {"start_delay": 0.0, "turn_delay": 0.0}  # no move depends on them
    assert causes == ["REGULAR"] * 4
    assert calibration.no_pauses(registry.entry("penguins")) == {}  # the XML runner has no such pauses
