"""``swc check ARCHIVE --game G`` (issue 44): the contest system's test before activation.

A good archive passes with its memory and CPU measured; a client that never joins and one that
sends an illegal move fail with the criterion named and exit 1; a broken archive is one line
(exit 2) before any game.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from swc_local.tools.cli import main
from tests.archives import cache, pack, reference_bot_zip  # noqa: F401 (cache: the autouse fixture)
from tests.helpers import cli_errors

GAME = "swc_2019_piranhas"

ILLEGAL_BOT = '''
"""Join the prepared seat with the contest's options, then answer the first move request with
a move that moves nothing that is there."""
import getopt, sys, trio
from swc_local.client.client import Client
from swc_local.client.messages import MoveRequest
from swc_local.protocol.element import Element

options, _ = getopt.gnu_getopt(sys.argv[1:], "h:p:r:", ["host=", "port=", "reservation="])
given = {key.lstrip("-")[0]: value for key, value in options}

async def main():
    async with await Client.connect(given["h"], int(given["p"])) as client:
        await client.join_prepared(given["r"])
        async for message in client:
            if isinstance(message, MoveRequest):
                await client.send_move(Element("data", {"class": "move", "x": "5", "y": "5", "direction": "UP"}))

trio.run(main)
'''


def test_a_good_archive_passes_with_its_memory_and_cpu(tmp_path, capsys):
    team = reference_bot_zip(tmp_path / "team.zip", GAME)
    assert main(["check", str(team), "--game", "piranhas", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["passed"] and [row["seat"] for row in report["games"]] == ["red", "blue"]  # seats swapped
    for row in report["games"]:
        assert row["joined"] and row["moved_legally"] and row["kept_time"] and row["ended_regularly"]
        assert 5 * 2**20 < row["peak_rss"] < 2**31  # a python bot's tree: more than a shell, less than 2 GiB
        assert row["cpu_seconds"] > 0.05


def test_a_client_that_never_joins_fails_joined(tmp_path, capsys):
    sleeper = pack(tmp_path / "sleeper.zip", {"start.sh": "#!/bin/sh\nexec sleep 600\n"})
    assert main(["check", str(sleeper), "--game", "piranhas", "--games", "1", "--start-timeout", "1"]) == 1
    out = capsys.readouterr().out
    (row,) = [line for line in out.splitlines() if line.startswith("1 ")]
    assert row.split()[2:6] == ["NO", "NO", "NO", "NO"] and row.endswith("NEVER_JOINED")
    assert out.rstrip().endswith("FAILED: joined, moved legally, kept its time, ended regularly")


def test_a_client_that_moves_illegally_fails_moved_legally(tmp_path, capsys):
    bot = pack(tmp_path / "illegal.zip", {"start.sh": f'#!/bin/sh\nexec {sys.executable} bot.py "$@"\n',
                                          "bot.py": ILLEGAL_BOT})
    assert main(["check", f"{bot}", "--game", "piranhas", "--games", "1", "--json"]) == 1
    (row,) = json.loads(capsys.readouterr().out)["games"]
    assert row["cause"] == "RULE_VIOLATION" and row["joined"] and row["kept_time"]
    assert not row["moved_legally"] and not row["ended_regularly"]


def test_a_broken_archive_is_one_line_and_no_game(tmp_path, capsys):
    broken = pack(tmp_path / "broken.zip", {"bot.py": "print()"})
    assert main(["check", str(broken), "--game", "piranhas"]) == 2
    (line,) = cli_errors(capsys, "swc check")
    assert line.startswith(f"{broken}: no main file")
    assert main(["check", str(broken), "--game", "piranhass"]) == 2
    (line,) = cli_errors(capsys, "swc check")
    assert line.startswith("unknown game 'piranhass'")


def _processes_running(argv: list[bytes]) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as file:
                if file.read().split(b"\0")[:-1] == argv:
                    found.append(int(name))
        except (OSError, ValueError):
            pass
    return found


def test_sigterm_stops_the_check_and_its_client(tmp_path):
    """Sandboxed, as an archive is by default: the client is found by its unique command line (the
    sandbox hides the host's /tmp, so it cannot write its pid there)."""
    seconds = f"600.{secrets.randbelow(10**9)}"
    sleeper = pack(tmp_path / "sleeper.zip", {"start.sh": f"#!/bin/sh\nexec sleep {seconds}\n"})
    swc = Path(sys.executable).parent / "swc"
    process = subprocess.Popen([str(swc), "check", str(sleeper), "--game", "piranhas", "--start-timeout", "300"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=os.environ | {"SWC_ARCHIVE_CACHE": str(tmp_path / "cache")})
    deadline = time.monotonic() + 120
    while not _processes_running([b"sleep", seconds.encode()]) and time.monotonic() < deadline:
        time.sleep(0.05)
    (pid,) = _processes_running([b"sleep", seconds.encode()])
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert err.strip() == "swc check: stopped by SIGTERM; no verdict" and "Traceback" not in err
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
