"""SIGINT, SIGTERM and SIGHUP to ``swc serve`` (issue 43): the bots its viewer's tables started end
with everything they started, a plain line says which games were finished, exit 128 + N."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from tests.processes import terminal_signals_at_default
from tests.tools.test_stop_signals import STOP_SIGNALS, hanging_bot, marked_processes


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        pytest.fail(f"{url}: {error.code} {error.read()!r}")


def _wait_for(log, pattern: str, process: subprocess.Popen) -> re.Match:
    for _ in range(6000):
        found = re.search(pattern, log.read_text())
        if found:
            return found
        assert process.poll() is None, log.read_text()
        time.sleep(0.01)
    pytest.fail(f"no {pattern!r} in the log:\n{log.read_text()}")


@pytest.mark.parametrize("signum", STOP_SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_swc_serve_stopped_by_a_signal_ends_its_tables_bots_and_counts_the_finished_games(tmp_path, signum):
    command, marker = hanging_bot(tmp_path)
    (tmp_path / "server.properties").write_text("reversixt = false\nroborally.port = -1\n")
    log = tmp_path / "server.log"
    with open(log, "wb") as err:
        process = subprocess.Popen([sys.executable, "-m", "swc_local.tools.cli", "serve", "--port", "0"], cwd=tmp_path,
                                   stderr=err, preexec_fn=terminal_signals_at_default)
    try:
        url = _wait_for(log, r"viewer on (http://[^\s]+)", process).group(1)
        reference = f"{sys.executable} -m swc_local.tools.cli bot piranhas --host {{host}} --port {{port}} --reservation {{reservation}}"
        _post(f"{url}/api/tables", {"game": "piranhas", "seats": [{"kind": "command", "command": reference}] * 2})
        _wait_for(log, r"room \S+ ended: ", process)  # one game finished by the rules
        _post(f"{url}/api/tables", {"game": "piranhas", "seats": ["you", {"kind": "command", "command": command + " {host} {port} {reservation}"}]})
        for _ in range(3000):
            if len(marked_processes(marker)) >= 2:
                break
            time.sleep(0.01)
        assert len(marked_processes(marker)) >= 2
        process.send_signal(signum)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    text = log.read_text()
    assert process.returncode == 128 + signum, text
    assert marked_processes(marker) == [], "a bot a table started outlived swc serve"
    name = signal.Signals(signum).name
    assert f"\nswc serve stopped by {name}: 1 game finished (xml 1" in text, text
    summary = text[text.index(f"swc serve stopped by {name}"):].splitlines()
    # the one game finished by the rules, its game type and result; the game the signal cut off is not there
    assert re.fullmatch(r"  xml: swc_2019_piranhas room \S+: RED REGULAR \d+, BLUE REGULAR \d+", summary[1]), summary
    assert not any(line.startswith("  ") for line in summary[2:]), summary
    assert "Traceback" not in text


class _Door:
    """A door that finished ``count`` games and keeps the last of them (server/finished_games.py)."""

    def __init__(self, name: str, count: int):
        from swc_local.server.finished_games import RecentGames

        self.name, self.count, self.recent = name, count, RecentGames()
        for number in range(count):
            self.recent.add(f"{name}_game room {number}: ONE 2, TWO 0")

    def games_finished(self) -> int:
        return self.count

    def recent_games(self):
        return self.recent.lines()


def test_the_summary_names_the_last_twenty_games_of_all_doors_and_counts_the_rest():
    from swc_local.server.shutdown import finished_summary

    xml, reversixt = _Door("xml", 23), _Door("reversixt", 2)  # the two reversixt games ended last
    lines = finished_summary([xml, reversixt], "SIGTERM").splitlines()
    assert lines[0] == "swc serve stopped by SIGTERM: 25 games finished (xml 23, reversixt 2)"
    assert lines[1] == "  ... and 5 earlier games"
    assert lines[2:] == [f"  xml: xml_game room {n}: ONE 2, TWO 0" for n in range(5, 23)] + [
        f"  reversixt: reversixt_game room {n}: ONE 2, TWO 0" for n in range(2)]
    assert finished_summary([_Door("xml", 1)], "SIGINT").splitlines() == [
        "swc serve stopped by SIGINT: 1 game finished (xml 1)", "  xml: xml_game room 0: ONE 2, TWO 0"]
