"""The fixture as a bot's test reads it (issue 43): ``python`` is the test's own interpreter, a
crashed bot's reason is in what a failing assertion shows, and score parts are numbers."""

from __future__ import annotations

import os
import sys

import pytest

from swc_local.swc_pytest.causes import Cause, explain_comparison, typed_part
from swc_local.swc_pytest.server import PlayedGame, start_server
from swc_local.tools.players import expand, own_python
from swc_local.tools.results import GameResult, SeatResult
from swc_local.tools.runner import check_command
from tests.packaging.test_readme_examples import _example

CRASH = "exited with code 1 before it joined; last output: ModuleNotFoundError: No module named 'numpy'"


@pytest.mark.parametrize("command, first", [
    ("python my_bot.py --port {port}", sys.executable),
    ("python3 my_bot.py", sys.executable),
    ("/usr/bin/python3 my_bot.py", "/usr/bin/python3"),
    ("python3.12 my_bot.py", "python3.12"),
    ("pythonic my_bot.py", "pythonic"),
])
def test_a_leading_bare_python_is_the_running_interpreter(command, first):
    assert expand(command, port=1)[0] == first
    assert expand(command, port=1)[1] == "my_bot.py"


def test_a_frozen_swc_runs_python_as_written(monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)  # sys.executable is then the swc binary
    assert own_python(["python", "bot.py"]) == ["python", "bot.py"]


def test_python_is_found_even_where_path_has_none(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no python at all on PATH
    assert check_command("python my_bot.py") is None


def test_the_fixture_plays_the_readme_bot_with_its_own_python_when_path_has_a_wrong_one(tmp_path, monkeypatch):
    """A ``python`` first on PATH that cannot run the bot (a system Python without swc-local)."""
    wrong = tmp_path / "bin"
    wrong.mkdir()
    (wrong / "python").write_text("#!/bin/sh\necho 'ModuleNotFoundError: wrong python' >&2\nexit 1\n")
    (wrong / "python").chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrong}{os.pathsep}{os.environ['PATH']}")
    (tmp_path / "my_bot.py").write_text(_example("Client.connect"))
    monkeypatch.chdir(tmp_path)
    with start_server(seed=3) as server:
        game = server.play("python my_bot.py --port {port} --reservation {reservation}")
    assert game.bot.cause == "REGULAR", game
    assert all(isinstance(part, int) for part in game.bot.parts) and game.bot.parts[0] in (0, 1, 2)


def _played(cause: str, reason: str | None, score=("0", "8")) -> PlayedGame:
    seats = (SeatResult("player1", "red", 2, score, cause, reason, 1),
             SeatResult("player2", "blue", 1, ("2", "8.5"), "REGULAR"))
    return PlayedGame(GameResult(game="swc_2019_piranhas", index=0, seed=1, seats=seats, duration=1.0))


def test_a_crashed_bot_says_why_in_the_repr_of_the_game_and_of_its_cause():
    game = _played("CRASHED", CRASH)
    assert game.bot.cause == "CRASHED" and isinstance(game.bot.cause, str)
    assert CRASH in repr(game) and CRASH in repr(game.bot.cause)
    assert repr(game).startswith(f"<game: bot red CRASHED 0/8 ({CRASH}), opponent REGULAR 2/8.5")
    assert explain_comparison("==", game.bot.cause, "REGULAR") == [
        "'CRASHED' == 'REGULAR'", f"the cause CRASHED: {CRASH}"]
    assert explain_comparison("==", "x", "y") is None


def test_score_parts_are_numbers():
    game = _played("REGULAR", None, ("2", "7"))
    assert game.bot.parts == (2, 7) and game.opponent.parts == (2, 8.5)
    assert [typed_part(text) for text in ("12", "-1", "0.25", "n/a")] == [12, -1, 0.25, "n/a"]


def test_a_failing_cause_assertion_shows_the_reason_through_the_plugin(pytester):
    pytester.makepyfile(f'''
from swc_local.swc_pytest.causes import Cause

def test_bot():
    cause = Cause("CRASHED", {CRASH!r})
    assert cause == "REGULAR"
''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"E * the cause CRASHED: {CRASH}"])


def test_a_cause_survives_pickling():
    import pickle

    cause = pickle.loads(pickle.dumps(Cause("CRASHED", CRASH)))
    assert cause == "CRASHED" and cause.reason == CRASH


def test_the_other_families_fixtures_say_why_too():
    from swc_local.swc_pytest.reversixt import PlayedReversi
    from swc_local.swc_pytest.roborally import PlayedRoboRally

    seats = (SeatResult("player1", "1", 2, ("0", "0"), "CRASHED", CRASH, 1), SeatResult("player2", "2", 1, ("1", "0"), "REGULAR"))
    record = GameResult(game="roborally", index=0, seed=1, seats=seats, duration=1.0)
    assert CRASH in repr(PlayedRoboRally(record).causes[0])
    assert explain_comparison("==", PlayedReversi(record).causes[1], "REGULAR")[1] == f"the cause CRASHED: {CRASH}"
