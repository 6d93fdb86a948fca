"""The sandbox's command line, its choices and its errors, without starting a game (fast).

The hostile bots themselves play in tests/tools/test_sandbox_bots.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from swc_local.tools import sandbox
from swc_local.tools.cli import build_parser, main
from swc_local.tools.match import MatchConfig
from swc_local.tools.sandbox import Limits, default_sandbox, read_status, wrap
from swc_local.tools.tournament.arguments import settings_from
from swc_local.tools.tournament.executors import spec_for
from swc_local.tools.tournament.core import Settings
from tests.helpers import cli_errors


@pytest.fixture
def fresh_check():
    sandbox.unavailable.cache_clear()
    yield
    sandbox.unavailable.cache_clear()


def _wrapped(tmp_path: Path, monkeypatch, home: Path) -> list[str]:
    monkeypatch.setenv("HOME", str(home))
    bot = tmp_path / "bot"
    bot.mkdir()
    bot.chmod(0o755)
    (bot / "start.sh").write_text("#!/bin/sh\n")
    return wrap([str(bot / "start.sh"), "-p", "13050"], port=13050, relay=tmp_path / "relay" / "game.sock",
                status_fd=9, limits=Limits(memory_mb=100, processes=10, cpu_seconds=3))


def test_the_command_line_has_a_private_network_the_home_hidden_and_the_limits(tmp_path, monkeypatch):
    home = Path("/opt/teacher-home-that-is-nowhere")  # a home outside /home: still hidden
    is_dir = Path.is_dir
    monkeypatch.setattr(Path, "is_dir", lambda self: self == home or is_dir(self))
    line = _wrapped(tmp_path, monkeypatch, home)
    assert "--unshare-net" in line or "--unshare-all" in line
    assert "--die-with-parent" not in line  # follows the starting thread, which trio ends when idle
    pairs = list(zip(line, line[1:]))
    assert ("--tmpfs", str(home)) in pairs and ("--tmpfs", "/tmp") in pairs and ("--tmpfs", "/run") in pairs
    assert ("--ro-bind", "/") in pairs
    bot = str(tmp_path / "bot")
    assert line[line.index(bot) - 1] == "--ro-bind"  # the bot's folder, read-only, inside the hidden /tmp
    keeper = line[line.index("--"):]
    assert keeper[keeper.index("--memory") + 1] == str(100 << 20)
    assert keeper[keeper.index("--processes") + 1] == "10" and keeper[keeper.index("--cpu") + 1] == "3"
    assert keeper[-3:] == [f"{bot}/start.sh", "-p", "13050"]
    assert any(value.endswith("-XX:MaxRAM=100m") for value in line)  # Java sizes its heap as in a container


def test_a_bot_folder_that_holds_the_home_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "bot"))
    with pytest.raises(sandbox.SandboxUnavailable, match="holds the home folder"):
        _wrapped(tmp_path, monkeypatch, tmp_path / "bot")


def test_archives_are_sandboxed_by_default_and_plain_commands_not():
    class Archived:
        from_archive = True
        command = ["start.sh"]

    assert default_sandbox("python my_bot.py") is False
    assert default_sandbox(Archived()) is True
    config = MatchConfig(game="piranhas", players=["a", "b"])
    assert config.sandboxed(["a", "b"]) == {}
    config.sandbox = frozenset({"player2"})
    assert config.sandboxed(["a", "b"]) == {"player2": Limits()}


def test_the_keepers_status_line_names_only_known_limits():
    assert read_status(b"MEMORY_LIMIT\tit held 70 MiB\n") == ("MEMORY_LIMIT", "it held 70 MiB")
    assert read_status(b"") is None
    assert read_status(b"REGULAR\tforged by a bot\n") is None


@pytest.mark.parametrize(("argv", "message"), [
    (["--sandbox", "player3"], "--sandbox player3: no such player (player1, player2); put GAME before the flag"),
    (["--sandbox", "--no-sandbox"], "give --sandbox or --no-sandbox, not both"),
    (["--sandbox", "--memory-limit", "1"], "the sandbox's memory limit must be at least 16 (got 1)"),
    (["--sandbox", "--cpu-limit", "0"], "the sandbox's CPU seconds limit must be at least 1 (got 0)"),
])
def test_a_wrong_sandbox_flag_is_one_line_and_exit_2(capsys, argv, message):
    assert main(["match", "piranhas", "--games", "1", *argv]) == 2
    assert cli_errors(capsys, "swc match") == [message]


def test_without_bubblewrap_the_run_stops_in_one_line_and_nothing_runs_unsandboxed(capsys, monkeypatch, fresh_check):
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    assert main(["match", "piranhas", "--games", "1", "--sandbox"]) == 2
    (line,) = cli_errors(capsys, "swc match")
    assert line.startswith("--sandbox: bubblewrap (bwrap) is not installed")


def test_without_user_namespaces_the_reason_is_named(monkeypatch, fresh_check):
    failed = subprocess.CompletedProcess([], 1, b"", b"bwrap: No permissions to creating new namespace\n")
    monkeypatch.setattr(sandbox.subprocess, "run", lambda *a, **k: failed)
    assert sandbox.unavailable() == ("bubblewrap cannot create a sandbox here (user namespaces unavailable?): "
                                     "bwrap: No permissions to creating new namespace")


def test_a_tournament_passes_each_sandboxed_bots_limits_to_its_games():
    args = build_parser().parse_args([
        "tournament", "piranhas", "--bot", "a=python a.py", "--bot", "b=python b.py", "--db", "x.db",
        "--sandbox", "b", "--process-limit", "32"])
    settings = settings_from(args)
    assert settings.sandboxed == {"b": {"memory_mb": 2048, "processes": 32, "cpu_seconds": 600}}
    assert Settings.from_dict(settings.to_dict()).sandboxed == settings.sandboxed  # stored and resumed

    class Slot:
        index, seed, seating, options, bot_seeds = 0, 1, ("a", "b"), {}, ()

    class Tournament:
        def __init__(self):
            self.settings = settings

        def commands(self):
            return dict(settings.bots)

    assert spec_for(Tournament(), Slot()).sandboxed == {"b": Limits(processes=32)}


def test_run_by_root_a_bot_folder_others_cannot_read_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox.os, "geteuid", lambda: 0)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder = tmp_path / "team"
    folder.mkdir()
    folder.chmod(0o700)
    assert sandbox.check_folders([folder]) == (
        f"the bot's folder {folder} is not readable by others; run as root, the sandbox runs the bot as a user "
        f"of its own: chmod o+rx {folder}")
    folder.chmod(0o755)
    assert sandbox.check_folders([folder]) is None
