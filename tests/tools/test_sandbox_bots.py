"""Hostile bots through ``swc match --sandbox`` against the reference bot: each loses its own game
with its cause named, the other seat and the server play on, nothing outside is touched.

The limits are small (64 MiB, 16 processes, 1 CPU second), so a sandbox that failed would still
not hurt the machine much; every bot is a tiny Python script in a folder of its own."""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path

import pytest

from swc_local.swc_pytest.server import start_server
from swc_local.tools.cli import main
from swc_local.tools.results import GameResult
from swc_local.tools.sandbox import Limits, unavailable


PROBE_BOT = '''
"""Look at what the sandbox hides, say what was seen, then play as the reference bot."""
import os, socket, sys
secret = os.environ["SWC_TEST_SECRET"]
try:
    print("SECRET:", open(secret).read(), flush=True)
except OSError as error:
    print("SECRET: unreadable", type(error).__name__, flush=True)
home = os.path.expanduser("~")
print("HOME:", sorted(os.listdir(home)) if os.path.isdir(home) else "missing", flush=True)
try:
    socket.create_connection(("127.0.0.1", int(os.environ["SWC_TEST_ELSEWHERE"])), timeout=2).close()
    print("ELSEWHERE: connected", flush=True)
except OSError as error:
    print("ELSEWHERE: refused", type(error).__name__, flush=True)
try:
    socket.create_connection(("192.0.2.1", 80), timeout=2).close()  # TEST-NET-1: any outside address
    print("OUTSIDE: connected", flush=True)
except OSError as error:
    print("OUTSIDE: refused", type(error).__name__, flush=True)
try:
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "left_behind.txt"), "w") as out:
        out.write("written by the bot")
    print("WRITE: written", flush=True)
except OSError as error:
    print("WRITE: refused", type(error).__name__, flush=True)
os.execv(sys.executable, [sys.executable, "-m", "swc_local.tools.cli", "bot", *sys.argv[1:]])
'''

LIMIT_BOT = '''
"""Break a limit: before joining, or on the first move request after joining (``move``)."""
import os, sys, time

def misbehave(kind):
    if kind == "memory":
        hoard = []
        while True:
            hoard.append(b"x" * (1 << 20))  # touched: resident
    if kind == "cpu":
        while True:
            pass
    if kind == "fork":
        while True:
            try:
                os.fork()
            except OSError:
                time.sleep(0.01)

kind, when = sys.argv[1], sys.argv[2]
if when == "start":
    misbehave(kind)
import trio
from swc_local.client.client import Client
from swc_local.client.messages import MoveRequest

async def play(port, reservation):
    async with await Client.connect("127.0.0.1", port) as client:
        await client.join_prepared(reservation)
        async for message in client:
            if isinstance(message, MoveRequest):
                misbehave(kind)

trio.run(play, int(sys.argv[3]), sys.argv[4])
'''


def _bot(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / "bots"
    folder.mkdir(exist_ok=True)
    folder.chmod(0o755)  # run by root, the sandbox runs the bot as a user of its own
    script = folder / name
    script.write_text(text)
    return script


def _match(tmp_path: Path, player1: str, *extra: str) -> tuple[int, list[GameResult]]:
    records = tmp_path / "games.jsonl"
    code = main(["match", "piranhas", "--games", "1", "--seed", "5", "--logs", str(tmp_path / "logs"),
                 "--start-timeout", "90", "--json", str(records), "--player1", player1, *extra])  # a loaded machine
    return code, [GameResult.from_dict(json.loads(line)) for line in records.read_text().splitlines()]


def test_bubblewrap_makes_sandboxes_here():
    assert unavailable() is None


def test_a_probing_bot_sees_no_home_and_no_network_and_both_sandboxed_bots_play_a_whole_game(
        tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    home.mkdir()
    secret = home / "secret.txt"
    secret.write_text("the teacher's password")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("SWC_TEST_SECRET", str(secret))
    elsewhere = socket.create_server(("127.0.0.1", 0))
    elsewhere.settimeout(0)
    monkeypatch.setenv("SWC_TEST_ELSEWHERE", str(elsewhere.getsockname()[1]))
    probe = _bot(tmp_path, "probe.py", PROBE_BOT)
    code, (record,) = _match(
        tmp_path, f"{sys.executable} {probe} swc_2019_piranhas --port {{port}} --reservation {{reservation}}", "--sandbox")
    assert code == 0, capsys.readouterr().err
    assert record.regular and record.error is None  # both sandboxed bots played the game to its end
    log = (tmp_path / "logs" / "game001_player1.log").read_text()
    assert "SECRET: unreadable" in log and "password" not in log
    assert "HOME: []" in log or "HOME: missing" in log
    assert "ELSEWHERE: refused" in log and "OUTSIDE: refused" in log
    assert "WRITE: refused" in log and not (probe.parent / "left_behind.txt").exists()  # its folder is read-only
    with pytest.raises(BlockingIOError):
        elsewhere.accept()  # nobody knocked
    elsewhere.close()


@pytest.mark.parametrize(("kind", "when", "limit", "cause"), [
    ("memory", "move", ["--memory-limit", "64"], "MEMORY_LIMIT"),
    ("cpu", "start", ["--cpu-limit", "1"], "CPU_TIME_LIMIT"),
    ("fork", "start", ["--process-limit", "16"], "PROCESS_LIMIT"),
])
def test_a_bot_over_a_limit_loses_its_own_game_with_the_limit_named(tmp_path, capsys, kind, when, limit, cause):
    script = _bot(tmp_path, "hostile.py", LIMIT_BOT)
    code, (record,) = _match(tmp_path, f"{sys.executable} {script} {kind} {when} {{port}} {{reservation}}",
                             "--sandbox", "player1", *limit)  # the reference bot unsandboxed: a 1 s CPU limit is its too
    out = capsys.readouterr().out
    hostile, reference = record.seat_of("player1"), record.seat_of("player2")
    assert record.error is None, out  # the game has its result: the server and the other bot are fine
    assert hostile.cause == cause, out
    assert hostile.rank == 2 and reference.rank == 1
    assert "the sandbox" in hostile.reason
    assert f"player1 ({hostile.seat}) {cause}" in out  # the table's line names it
    assert code == 0


def test_the_fixture_sandboxes_a_bot_and_names_the_limit_that_ended_it(tmp_path):
    script = _bot(tmp_path, "hostile.py", LIMIT_BOT)
    with start_server(seed=3) as server:
        game = server.play(f"{sys.executable} {script} cpu start {{port}} {{reservation}}", sandbox=True,
                           limits=Limits(cpu_seconds=1), start_timeout=90)
    assert game.bot.cause == "CPU_TIME_LIMIT", game
    assert game.bot.points == 0 and game.opponent.points == 2  # it lost its own game; the other won
