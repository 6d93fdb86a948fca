"""Client archives (issue 44) playing real games wherever a bot command is taken: ``swc match``
(a team's ``start.sh`` in both option spellings with extra parameters; a Java player packed as
the template packs it, run by ``java -jar`` with Debian's JDK; the official socha client from
PyPI packed as socha's builder packs it), ``swc tournament --bot NAME=team.zip`` and the pytest
fixture."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from swc_local.tools import archive
from swc_local.tools.cli import main
from tests.archives import cache, java_player_zip, pack, reference_bot_zip, socha_player_zip, start_sh  # noqa: F401 (cache: the autouse fixture)
from tests.socha_clients import socha_client  # noqa: F401 -- the fixture
from tests.helpers import cli_errors

GAME = "swc_2026_piranhas"
SOCHA_BOT = Path(__file__).resolve().parent.parent / "socha_bots" / "hui25_random.py"


@pytest.fixture(scope="module")
def java_zip(tmp_path_factory) -> Path:
    """tests/java/Player.java packed as the template packs it (built once for the module)."""
    work = tmp_path_factory.mktemp("java")
    return java_player_zip(work / "player.zip", work / "build")


def _start_lines(logs: Path) -> list[str]:
    return [line for log in sorted(logs.glob("*player1*.log")) for line in log.read_text().splitlines()
            if line.startswith("start.sh ")]


@pytest.mark.parametrize("spelling", ["short", "long"])
def test_a_start_sh_archive_plays_with_either_spelling_and_its_extra_parameters(spelling, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SWC_ARCHIVE_OPTIONS", spelling)
    team = reference_bot_zip(tmp_path / "team.zip", GAME)
    logs = tmp_path / "logs"
    code = main(["match", "piranhas_2026", "--games", "1", "--seed", "4", "--logs", str(logs),
                 "--player1", f"{team} --seed 7"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "player1   " in out and "REGULAR 1" in out.split("player1   ", 1)[1].splitlines()[0]
    lines = _start_lines(logs)
    assert len(lines) == 1 and all("host=127.0.0.1 port=" in line and " extra=--seed 7" in line for line in lines)
    assert all(len(line.split("reservation=")[1].split()[0]) == 36 for line in lines)  # a reservation code reached it


def test_a_java_player_packed_as_the_template_packs_it_plays_a_game(java_zip, capsys):
    player = java_zip
    resolved = archive.resolve(str(player))
    assert resolved.command[3:6] == ["java", "-jar", "my_player.jar"]
    code = main(["match", "piranhas_2026", "--games", "2", "--seed", "1", "--player1", str(player),
                 "--fail-on-irregular", "player1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "REGULAR 2" in out.split("player1   ", 1)[1].splitlines()[0]


def test_main_named_after_a_colon_picks_one_of_several(tmp_path, capsys):
    team = pack(tmp_path / "two.zip", {"a/start.sh": start_sh(GAME), "b.jar": b"PK"})
    assert main(["match", "piranhas_2026", "--games", "1", "--player1", str(team)]) == 2
    (line,) = cli_errors(capsys, "swc match")
    assert line == f"player1 cannot start: {team}: several main files (a/start.sh, b.jar); name one with two.zip:PATH"
    code = main(["match", "piranhas_2026", "--games", "1", "--seed", "2", "--player1", f"{team}:a/start.sh"])
    assert code == 0, capsys.readouterr().out


def test_a_tournament_takes_archives_by_name(java_zip, tmp_path, capsys):
    team = reference_bot_zip(tmp_path / "team.zip", GAME)
    java = java_zip
    db = tmp_path / "t.db"
    code = main(["tournament", "piranhas_2026", "--bot", f"team={team}", "--bot", f"java={java}",
                 "--games-per-pairing", "2", "--seed", "3", "--db", str(db)])
    assert code == 0, capsys.readouterr()
    with sqlite3.connect(db) as connection:
        causes = connection.execute("SELECT bot, cause FROM seats").fetchall()
    assert sorted(causes) == [("java", "REGULAR")] * 2 + [("team", "REGULAR")] * 2


def test_the_pytest_fixture_plays_an_archive(pytester, tmp_path):
    team = reference_bot_zip(tmp_path / "team.zip", GAME)
    pytester.makepyfile(f"""
        import pytest

        @pytest.mark.swc_server(game="{GAME}")
        def test_archive(swc_play):
            game = swc_play({str(team)!r}, seed=5)
            assert game.bot.cause == "REGULAR", game
    """)
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_a_socha_client_packed_as_socha_packs_it_plays_a_game(socha_client, tmp_path, capsys):
    player = socha_player_zip(tmp_path / "my_player.zip", socha_client("3.7.2"), SOCHA_BOT)
    assert archive.resolve(str(player)).main == "my_player/start.sh"
    code = main(["match", "hase_und_igel_2025", "--games", "1", "--seed", "3", "--player1", str(player),
                 "--fail-on-irregular", "player1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "REGULAR 1" in out.split("player1   ", 1)[1].splitlines()[0]
