"""Command-line errors in plain words (issue 43): one line without a timestamp, naming the value,
what is accepted and the subcommand's help; ``swc --help`` counts the games of the registry."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from swc_local.games import registry
from swc_local.tools.cli import main

TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


@pytest.mark.parametrize("argv, prog", [
    (["match", "piranhas", "--bogus"], "swc match"),
    (["tournament", "piranhas", "--gamez", "3"], "swc tournament"),
    (["serve", "--prot", "1"], "swc serve"),
    (["admin", "prepare", "piranhas", "--nope"], "swc admin prepare"),
])
def test_a_bad_flag_points_to_the_help_of_its_subcommand(argv, prog, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"{prog}: error: unrecognized arguments: {argv[-1] if argv[-1].startswith('-') else argv[-2]}")
    assert line.endswith(f"; see {prog} --help"), line


@pytest.mark.parametrize("argv, prog, named", [
    (["match", "blokuss"], "swc match", "unknown game 'blokuss'"),
    (["match", "piranhas", "--games", "0"], "swc match", "--games and --parallel must be at least 1 (got 0 and 1)"),
    (["match", "piranhas", "--player1", "no-such-program-43"], "swc match", "no-such-program-43: command not found"),
    (["match", "piranhas", "--fail-on-irregular", "player9"], "swc match", "--fail-on-irregular player9: no such player"),
    (["replay", "nothing.bin"], "swc replay", "nothing.bin is no replay or game log"),
    (["tournament", "piranhas", "--db", "x.db"], "swc tournament", "at least 2 bots, got 0"),
    (["bot", "piranhaz"], "swc bot", "unknown game 'piranhaz'"),
    (["bot", "piranhas", "--strategy", "clever"], "swc bot", "--strategy 'clever': the reference bot of piranhas"),
])
def test_a_cli_error_is_one_plain_line_naming_the_value_and_the_help(argv, prog, named, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"{prog}: error: ") and named in line and line.endswith(f"; see {prog} --help"), line
    assert not TIMESTAMP.search(line) and "ERROR" not in line


def test_as_users_run_it_the_whole_stderr_is_that_line():
    done = subprocess.run([sys.executable, "-m", "swc_local.tools.cli", "match", "piranhas", "--games", "0"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == ("swc match: error: --games and --parallel must be at least 1 (got 0 and 1); "
                           "see swc match --help\n")


def test_swc_help_counts_the_games_of_the_registry(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    count = len(registry.entries())
    assert count >= 12 and "eight" not in out
    assert f"any of the {count} games" in out
