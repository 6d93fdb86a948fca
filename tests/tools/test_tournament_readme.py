"""The tournament page's example (docs/manual/tournament.md), run as written (``my_bot.py`` is
the reference bot here)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.helpers import REPOSITORY

PAGE = REPOSITORY / "docs" / "manual" / "tournament.md"
MY_BOT = """
import sys
from swc_local.tools.cli import main

sys.exit(main(["bot", "piranhas", *sys.argv[1:]]))
"""


def tournament_examples() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", PAGE.read_text(), flags=re.S)


def test_the_gauntlet_example_runs_as_written(tmp_path):
    (tmp_path / "my_bot.py").write_text(MY_BOT)
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    gauntlet = tournament_examples()[0]
    assert "--format gauntlet" in gauntlet and "swc tournament report gauntlet.db" in gauntlet
    done = subprocess.run(["bash", "-e", "-c", gauntlet], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Standings") == 2  # the run's table and the report's
    report = subprocess.run(["swc", "tournament", "report", "gauntlet.db", "--json"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60)
    data = json.loads(report.stdout)
    assert data["games"] == 4 and {row["bot"] for row in data["standings"]} == {"mine", "ref1", "ref2"}
    assert {(h["first"], h["second"]) for h in data["head_to_head"]} == {("mine", "ref1"), ("mine", "ref2")}


def _run_example(tmp_path, marker: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    (example,) = [block for block in tournament_examples() if marker in block]
    done = subprocess.run(["bash", "-e", "-c", example], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done


def _report(tmp_path, db: str) -> dict:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    report = subprocess.run(["swc", "tournament", "report", db, "--json"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60)
    return json.loads(report.stdout)


def test_the_self_play_sanity_example_runs_as_written_and_is_no_mirror(tmp_path):
    done = _run_example(tmp_path, "--db self.db")
    assert done.stdout.count("Standings") == 1  # the final block once
    assert done.stderr.count("\npair ") + done.stderr.startswith("pair ") >= 1  # a line per pair off a terminal
    data = _report(tmp_path, "self.db")
    assert not data["head_to_head"][0]["all_mirrors"]
    assert sum(data["head_to_head"][0]["pentanomial"]) == len(data["history"]) <= 4


def test_the_openings_example_runs_as_written(tmp_path):
    _run_example(tmp_path, "--openings book.txt")
    seeds = [int(line) for line in (tmp_path / "book.txt").read_text().splitlines() if not line.startswith("#")]
    data = _report(tmp_path, "book.db")
    assert data["games"] == 2 * len(seeds) == 6 and sorted({game["seed"] for game in data["game_list"]}) == sorted(seeds)
    assert {game["opening"] for game in data["game_list"]} == {f"seed {seed}" for seed in seeds}
