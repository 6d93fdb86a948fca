"""Client archives (issue 44), without a game: the command an archive becomes, every broken
archive refused with its one line before any game (``swc match`` and ``swc tournament``: exit 2,
no traceback), and the cache unpacked once even by two processes at once.  The games are in
test_archive_games.py."""

from __future__ import annotations

import multiprocessing
import os
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swc_local.tools import archive
from swc_local.tools.archive_unpack import ArchiveLimits, unpack
from swc_local.tools.cli import main
from tests.archives import cache, pack, reference_bot_zip, start_sh, unpack_at_a_barrier  # noqa: F401 (cache: the autouse fixture)
from tests.helpers import cli_errors

GAME = "swc_2026_piranhas"


def test_the_command_has_the_contest_options_in_each_spelling(tmp_path):
    team = reference_bot_zip(tmp_path / "team.zip", GAME)
    short = archive.resolve(f"{team} -v", spelling="short")
    long = archive.resolve(str(team), spelling="long")
    assert short.from_archive and short.main == "team/start.sh" and short.root == long.root
    assert short.command[:3] == ["env", "-C", str(short.root)]
    assert short.command[3:] == ["./team/start.sh", "-h", "{host}", "-p", "{port}", "-r", "{reservation}", "-v"]
    assert long.command[4:] == ["--host", "{host}", "--port", "{port}", "--reservation", "{reservation}"]
    assert os.access(short.root / "team" / "start.sh", os.X_OK)  # the zip kept no x bit; the main file gets it
    assert not archive.resolve("python3 bot.py").from_archive


BROKEN = {
    "not_a_zip": (lambda p: p.write_text("no zip"), "not a ZIP archive"),
    "no_main": (lambda p: pack(p, {"team/README.txt": "hi"}), "no main file (a single *.jar or start.sh"),
    "no_interpreter": (lambda p: pack(p, {"start.sh": "python3 bot.py \"$@\"\n"}),
                       "start.sh is not executable: its first line names no interpreter"),
    "crlf": (lambda p: pack(p, {"start.sh": "#!/bin/sh\r\nexec true\r\n"}), "start.sh has Windows line ends (CRLF)"),
    "dotdot": (lambda p: pack(p, {"start.sh": start_sh(GAME), "../evil.sh": "x"}),
               "'../evil.sh' escapes the archive's folder"),
    "absolute": (lambda p: pack(p, {"start.sh": start_sh(GAME), "/tmp/evil.sh": "x"}),
                 "'/tmp/evil.sh' escapes the archive's folder"),
    "symlink": (lambda p: pack(p, {"start.sh": start_sh(GAME), "home": ("/home", 0o120777)}),
                "'home' is a symbolic link"),
    "bomb": (lambda p: pack(p, {"start.sh": start_sh(GAME), "zeros.bin": b"\0" * 3_000_000}),
             "unpacks to more than 1000000 bytes (SWC_ARCHIVE_MAX_BYTES); a zip bomb?"),
    "many_files": (lambda p: pack(p, {"start.sh": start_sh(GAME), **{f"f{i}": "" for i in range(30)}}),
                   "31 files, more than the 20 allowed (SWC_ARCHIVE_MAX_FILES); a zip bomb?"),
    "main_outside": (lambda p: pack(p, {"start.sh": start_sh(GAME)}), "the main file '../x' is outside the archive"),
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_archive_is_one_line_before_any_game(kind, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SWC_ARCHIVE_MAX_BYTES", "1000000")
    monkeypatch.setenv("SWC_ARCHIVE_MAX_FILES", "20")
    make, expected = BROKEN[kind]
    path = tmp_path / "team.zip"
    make(path)
    spec = f"{path}:../x" if kind == "main_outside" else str(path)
    assert main(["match", "piranhas_2026", "--games", "3", "--player1", spec]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "] game " not in err  # no game was played
    assert len(err.strip().splitlines()) == 1
    capsys_err = type("Captured", (), {"readouterr": lambda self: type("R", (), {"err": err})()})()
    (line,) = cli_errors(capsys_err, "swc match")
    assert line.startswith(f"player1 cannot start: {path}: ") and expected in line, line
    assert not list((tmp_path / "cache").glob(".partial*"))  # nothing half unpacked is left


def test_a_tournament_refuses_a_broken_archive_by_its_bot_name(tmp_path, capsys):
    broken = pack(tmp_path / "broken.zip", {"README.txt": "no player"})
    team = reference_bot_zip(tmp_path / "team.zip", GAME)
    assert main(["tournament", "piranhas_2026", "--bot", f"team={team}", "--bot", f"broken={broken}",
                 "--db", str(tmp_path / "t.db")]) == 2
    (line,) = cli_errors(capsys, "swc tournament")
    assert line.startswith(f"--bot broken: the command cannot be started: {broken}: no main file")


def test_two_processes_unpacking_at_once_share_one_folder(tmp_path):
    """Both processes have unpacked before either renames (a barrier), so one always loses the
    race; spawned, not forked: a fork of the test process (threads of its own, under xdist)
    may inherit a lock another thread held and hang."""
    team = pack(tmp_path / "big.zip", {"team/start.sh": start_sh(GAME),
                                       **{f"team/lib/{i}.txt": os.urandom(2000) for i in range(300)}})
    cache = tmp_path / "c"
    spawn = multiprocessing.get_context("spawn")
    barrier, results = spawn.Barrier(2), spawn.Queue()
    racers = [spawn.Process(target=unpack_at_a_barrier, args=(str(team), str(cache), barrier, results))
              for _ in range(2)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(timeout=120)
    assert [racer.exitcode for racer in racers] == [0, 0]  # neither raised (its traceback is on stderr)
    folders = [results.get(timeout=10) for _ in racers]
    assert len(set(folders)) == 1
    assert str(unpack(team, cache, ArchiveLimits())) == folders[0]  # found unpacked, not unpacked again
    assert [p.name for p in cache.iterdir()] == [Path(folders[0]).name]  # no partial folder left
    with zipfile.ZipFile(team) as zipped:
        assert len(list(Path(folders[0], "team", "lib").iterdir())) == len(zipped.namelist()) - 1


PARTS = st.sampled_from(["..", ".", "", "a", "b.jar", "start.sh", "/", "\\", "C:", "..\\x", "~"])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(st.lists(PARTS, min_size=1, max_size=4).map("/".join), min_size=1, max_size=4, unique=True))
def test_no_entry_name_writes_outside_the_cache_folder(names, tmp_path):
    """Whatever names an archive holds, unpacking refuses it or writes only inside its folder."""
    case = tmp_path / f"case{len(list(tmp_path.iterdir()))}"
    case.mkdir()
    path = case / "team.zip"
    with zipfile.ZipFile(path, "w") as zipped:
        for name in names:
            zipped.writestr(zipfile.ZipInfo(name or "x"), b"data")
    cache = case / "cache"
    try:
        folder = unpack(path, cache, ArchiveLimits())
    except archive.ArchiveError as error:  # one line, never a traceback
        assert "\n" not in str(error)
        folder = None
    outside = [p for p in case.rglob("*") if not p.is_relative_to(cache) and p != path]
    assert outside == []
    if folder is not None:
        assert all(p.resolve().is_relative_to(folder.resolve()) for p in folder.rglob("*"))
