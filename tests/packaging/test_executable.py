"""The self-contained ``swc`` executable where no Python is reachable (issue 43, "no Python needed").

Each test runs the executable inside a bubblewrap sandbox that binds only the executable and the
system's shared libraries (tests/executable.py): the reference bots a match starts are the same
executable (``sys.executable -m swc_local.client.bot GAME ...``, handled by the bundle's entry), the
ReversiXT map, the Robo Rally courses and the viewer's pages come from the bundle's package data.
"""

from __future__ import annotations

import json
import subprocess
import urllib.request
from pathlib import Path

import pytest
import trio

from tests.executable import INSIDE, built_swc, sandbox
from tests.helpers import DATA
from tests.packaging.test_packaging import _one_game_of_every_family, _read_ports, _viewer_lists_the_games

OFFICIAL_PIRANHAS = DATA / "piranhas_2019" / "game_seed2_admin_observer_recv.xml"  # as tests/web_helpers.py names it


@pytest.fixture(scope="module")
def swc() -> Path:
    return built_swc()


def run(command: list[str], timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def test_the_sandbox_has_no_python_and_the_executable_needs_none(swc):
    for python in ("python3", "/usr/bin/python3", "/usr/local/bin/python3", "/root/.pyenv/shims/python3"):
        tried = run(sandbox(swc, python, "--version"))
        assert tried.returncode != 0 and "No such file" in tried.stderr, (python, tried.stdout, tried.stderr)
    version = run(sandbox(swc, INSIDE, "--version"))
    assert version.returncode == 0 and version.stdout.startswith("swc "), version.stdout + version.stderr
    unknown = run(sandbox(swc, INSIDE, "-m", "os"))
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1 and "swc_local.tools.cli" in unknown.stderr, unknown.stderr


def test_swc_match_plays_a_whole_piranhas_game_between_two_reference_bots_in_the_sandbox(swc):
    played = run(sandbox(swc, INSIDE, "match", "piranhas_2026", "--games", "1", "--seed", "5",
                         "--fail-on-irregular", "player1"))
    out = played.stdout + played.stderr
    assert played.returncode == 0, out
    assert f"player1: {INSIDE} -m swc_local.client.bot swc_2026_piranhas" in out, out
    assert "player1 (ONE) REGULAR" in out and "player2 (TWO) REGULAR" in out, out
    assert "every game ended with a result" in out, out


@pytest.mark.parametrize("game", ["reversixt", "roborally"])
def test_swc_match_plays_the_other_families_on_their_bundled_maps_in_the_sandbox(swc, game):
    """Their reference bots are ``sys.executable -m swc_local.client.<family>_bot``; the default
    map (ReversiXT's classic_2p, Robo Rally's Dizzy Highway) is the bundle's package data."""
    played = run(sandbox(swc, INSIDE, "match", game, "--games", "1", "--seed", "2"))
    out = played.stdout + played.stderr
    assert played.returncode == 0, out
    assert f"{INSIDE} -m swc_local.client.{game}_bot" in out and "Traceback" not in out, out
    assert "every game ended with a result" in out, out


def _viewer_reads_an_upload_in_a_child_process(port: int) -> None:
    """An uploaded XML file is read by ``sys.executable -m swc_local.server.web.read_apart``:
    inside the executable, the executable itself with that ``-m``."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/upload", data=OFFICIAL_PIRANHAS.read_bytes(),
                                     headers={"X-File-Name": "official.xml"}, method="POST")
    with urllib.request.urlopen(request, timeout=60) as response:
        assert json.load(response)["game"] == "swc_2019_piranhas"


def test_swc_serve_in_the_sandbox_opens_every_door_and_the_viewer(swc, tmp_path):
    """Its doors, reached from outside the sandbox, each play a whole game (XML, ReversiXT on the
    bundled default map, Robo Rally on a bundled course) and the viewer serves its pages and reads
    an uploaded replay."""
    log_path = tmp_path / "serve.log"
    command = sandbox(swc, INSIDE, "serve", "--port", "0", "--reversixt-port", "0", "--roborally-port", "0",
                      "--viewer-port", "0", "--roborally-timer", "0.05", "--roborally-map", "Dizzy Highway",
                      network=True)
    with log_path.open("w") as log_file:
        process = subprocess.Popen(command, stdout=log_file, stderr=subprocess.STDOUT)
        try:
            ports = _read_ports(log_path, process, timeout=120)
            trio.run(_one_game_of_every_family, ports)
            _viewer_lists_the_games(ports["viewer"])
            _viewer_reads_an_upload_in_a_child_process(ports["viewer"])
        finally:
            process.terminate()
            process.wait(timeout=30)
    log = log_path.read_text()
    assert "classic_2p.map" in log and "Traceback" not in log and "internal error" not in log, log


def test_the_start_time_benchmark_measures_every_way_of_starting(swc):
    from benchmarks.executable import measure

    result = measure(swc, samples=1)
    assert set(result) == {"executable", "pip install", "executable in the sandbox"}, result
    assert all(wall > 0 for wall, _ in result.values()) and result["executable"][1] > 0, result
