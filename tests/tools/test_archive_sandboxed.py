"""Client archives run sandboxed by default (issue 44: "an option, on by default for archives").

An archive spec (``team.zip``, ``team.zip:MAIN``) is sandboxed in ``swc match``, ``swc tournament``,
``swc check`` and the pytest fixture unless ``--no-sandbox`` (``sandbox=False``) says otherwise; a
plain command is not.  The player plays on a private writable copy of its unpacked folder (a
socha client's ``start.sh`` writes there), so the cache stays as unpacked.
"""

from __future__ import annotations

import argparse
import stat
from pathlib import Path

import pytest

from swc_local.tools import archive
from swc_local.tools.cli import main
from swc_local.tools.sandbox import default_sandbox
from swc_local.tools.tournament.arguments import _sandboxed
from swc_local.tools.sandbox_flags import add_sandbox_flags
from tests.archives import PROBED_FILE, cache, pack, probing_bot_zip, start_sh  # noqa: F401 (cache: the autouse fixture)

GAME = "swc_2019_piranhas"


def nosy_team_zip(tmp_path: Path) -> Path:
    return probing_bot_zip(tmp_path / "nosy.zip", GAME, tmp_path / "secret")


def test_an_archive_spec_is_sandboxed_by_default_and_a_plain_command_is_not():
    for command in ["team.zip", "dir/team.ZIP:bin/p.jar -v", ["team.zip", "--fast"], ("team.zip",)]:
        assert default_sandbox(command), command
    for command in ["python bot.py", ["java", "-jar", "p.jar"], "", "python zip.py"]:
        assert not default_sandbox(command), command


def test_a_tournament_sandboxes_its_archives_unless_told_not_to():
    def sandboxed(*flags: str) -> set[str]:
        parser = argparse.ArgumentParser()
        add_sandbox_flags(parser)  # as swc tournament's parser has them
        args = parser.parse_args(list(flags))
        bots = [type("Bot", (), {"name": name, "command": command}) for name, command in
                (("team", "team.zip"), ("mine", "python bot.py"))]
        return set(_sandboxed(args, bots))

    assert sandboxed() == {"team"}
    assert sandboxed("--no-sandbox") == set()
    assert sandboxed("--sandbox") == {"team", "mine"}


def test_the_unpacked_folder_is_readable_by_others(tmp_path):
    """Run as root, the sandbox's player is a user id of its own: it must enter and read the cache."""
    team = pack(tmp_path / "team.zip", {"team/start.sh": (start_sh(GAME), 0o700), "team/data/secret.bin": (b"x", 0o600)})
    root = archive.resolve(str(team)).root
    for path in [root, *root.rglob("*")]:
        mode = path.stat().st_mode
        assert mode & 0o004, path
        assert not mode & 0o002, path
        if stat.S_ISDIR(mode):
            assert mode & 0o001, path


def test_swc_match_sandboxes_an_archive_on_a_private_copy(tmp_path, cache, capsys):
    team = nosy_team_zip(tmp_path)
    code = main(["match", "piranhas", "--games", "1", "--seed", "3", "--player1", str(team),
                 "--fail-on-irregular", "player1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "REGULAR 1" in out.split("player1   ", 1)[1].splitlines()[0]
    assert not list(cache.rglob(PROBED_FILE))  # it wrote into its private copy, not into the cache
    main(["match", "piranhas", "--games", "1", "--seed", "3", "--player1", str(team), "--no-sandbox"])
    out = capsys.readouterr().out
    assert "REGULAR 1" not in out.split("player1   ", 1)[1].splitlines()[0]  # unsandboxed: it read the file, quit


def test_swc_check_sandboxes_an_archive(tmp_path, cache, capsys):
    team = nosy_team_zip(tmp_path)
    code = main(["check", str(team), "--game", "piranhas", "--games", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert not list(cache.rglob(PROBED_FILE))
