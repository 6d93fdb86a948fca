"""Seat labels of ``swc match``, its report, ``{color}`` and the pytest helper: the game's own
names (red/blue in the classic games, ONE/TWO in the 2022+ ones), from one function."""

from __future__ import annotations

import sys

import pytest

from swc_local.client import ladder
from swc_local.games import registry
from swc_local.games.plugin import MODERN, SEASON_2021, seat_labels
from swc_local.tools.cli import main
from swc_local.swc_pytest.server import start_server
from swc_local.tools.match import MatchConfig, run_match
from swc_local.tools.match_report import results_table

OSTSEESCHACH = registry.get("swc_2022_ostseeschach")
PIRANHAS = registry.get("swc_2019_piranhas")

RECORDING_BOT = '''
"""Append the {color} it was given to a file, then become the reference bot."""
import os, sys
color_file, color, *bot = sys.argv[1:]
with open(color_file, "a") as out:
    out.write(color + "\\n")
os.execv(sys.executable, [sys.executable, *bot])
'''


def recording_bot(tmp_path, game: str, colors_file: str) -> str:
    script = tmp_path / "recording_bot.py"
    script.write_text(RECORDING_BOT)
    return (
        f"{sys.executable} {script} {tmp_path / colors_file} {{color}} -m swc_local.tools.cli bot {game}"
        " --port {port} --reservation {reservation} --seed {seed}"
    )


def test_seat_labels_follow_the_dialect():
    for game_type in registry.game_types():
        plugin = registry.get(game_type)
        if plugin is None or not hasattr(plugin, "dialect"):
            continue
        expected = ("ONE", "TWO") if plugin.dialect in (MODERN, SEASON_2021) else ("red", "blue")  # 2021: 2022 team names
        assert seat_labels(plugin) == expected, game_type
    assert seat_labels(OSTSEESCHACH) == ("ONE", "TWO")
    assert seat_labels(PIRANHAS) == ("red", "blue")
    assert seat_labels(object()) == ("red", "blue")


def test_a_modern_match_speaks_of_one_and_two(tmp_path, capsys):
    bot = recording_bot(tmp_path, "ostseeschach", "colors1")
    code = main(["match", "ostseeschach", "--games", "2", "--seed", "5", "--player1", bot])
    captured = capsys.readouterr()
    assert code == 0, captured.out
    lines = [line for line in captured.err.splitlines() if line.startswith("[")]
    assert lines[0].startswith("[1/2] game 1: player1 (ONE) REGULAR ") and ", player2 (TWO) REGULAR " in lines[0]
    assert lines[1].startswith("[2/2] game 2: player1 (TWO) REGULAR ") and ", player2 (ONE) REGULAR " in lines[1]
    assert "red" not in captured.err and "blue" not in captured.err
    assert (tmp_path / "colors1").read_text().split() == ["ONE", "TWO"]  # {color}, game by game


CRASHING_BOT = '''
"""Join the prepared seat, then crash on the first move request."""
import os, sys, trio
from swc_local.client.client import Client
from swc_local.client.messages import MoveRequest

async def main(port, reservation):
    async with await Client.connect("127.0.0.1", port) as client:
        await client.join_prepared(reservation)
        async for message in client:
            if isinstance(message, MoveRequest):
                os._exit(3)

trio.run(main, int(sys.argv[1]), sys.argv[2])
'''


async def test_the_results_table_names_modern_seats_one_and_two(tmp_path):
    script = tmp_path / "crashing_bot.py"
    script.write_text(CRASHING_BOT)
    reference = ladder.command(registry.entry("ostseeschach"))
    config = MatchConfig(OSTSEESCHACH, games=1, seed=2, players=[reference, f"{sys.executable} {script} {{port}} {{reservation}}"])
    report = await run_match(config)
    assert report.complete
    table = results_table(report.records, game=OSTSEESCHACH.game_type, seed=report.seed, seconds=report.seconds,
                          commands=report.commands)
    assert "  game 1: player1 (ONE) REGULAR " in table
    assert ", player2 (TWO) LEFT " in table and "(player2 exit 3)" in table


async def test_classic_color_placeholder_stays_red_and_blue(tmp_path):
    config = MatchConfig(
        PIRANHAS, games=1, seed=4,
        players=[recording_bot(tmp_path, "piranhas", "colors1"), recording_bot(tmp_path, "piranhas", "colors2")],
    )
    report = await run_match(config)
    assert report.complete
    assert (tmp_path / "colors1").read_text().split() == ["red"]
    assert (tmp_path / "colors2").read_text().split() == ["blue"]
    assert report.records[0].seat_of("player1").seat == "red"


BOT = f"{sys.executable} -m swc_local.tools.cli bot ostseeschach --port {{port}} --reservation {{reservation}} --seed {{seed}}"


def test_the_fixture_names_modern_seats_one_and_two_and_accepts_red_blue():
    with start_server("ostseeschach", seed=3) as server:
        second = server.play(BOT, color="blue")  # the classic name is an alias of TWO
        assert second.result is not None
        assert second.color == "TWO" and second.team == "TWO"
        first = server.play(BOT, color="one")
        assert first.color == "ONE" and first.bot.cause == "REGULAR"
        with pytest.raises(ValueError, match="red/blue or ONE/TWO"):
            server.play(BOT, color="green")


async def test_a_2022_player_that_never_joins_loses_instead_of_hanging_the_match():
    """The 2022 server ignores a forced step in a half-empty room; the runner's silent stand-in
    takes the free seat, the move timer scores it, and the runner names the real cause."""
    sleeper = f"{sys.executable} -c 'import time; time.sleep(60)' {{port}}"
    config = MatchConfig(
        registry.get("swc_2022_ostseeschach"), games=1, seed=1,
        players=[ladder.command(registry.entry("ostseeschach")), sleeper],
        start_timeout=8, game_timeout=60, options=dict(soft_timeout_ms=5000, hard_timeout_ms=5000),
    )
    report = await run_match(config)
    (record,) = report.records
    assert record.error is None, record.error
    assert record.seat_of("player2").cause == "NEVER_JOINED"
    assert record.seat_of("player1").cause == "REGULAR"
    assert record.seat_of("player1").rank == 1 and record.seat_of("player2").rank == 2
