"""The distribution as a bot author installs it: one import package, ``swc_local``, and nothing
else at top level, so a bot project's own ``server.py``, ``client.py``, ``protocol.py`` or
``games/`` never collides with ours (and ours never shadows theirs)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import trio

from tests.helpers import REPOSITORY

ROOT = REPOSITORY
FOLDERS = ("protocol", "games", "server", "client", "tools", "swc_pytest")

BOT_CLIENT = '''
"""The bot's own connection code: the most common name for it is client.py."""
import sys

import trio

from swc_local.client.bot import play_game
from swc_local.games import registry

OWNER = "the bot project"


def main(argv):
    port = int(argv[argv.index("--port") + 1])
    reservation = argv[argv.index("--reservation") + 1]
    plugin = registry.get("swc_2019_piranhas")
    report = trio.run(play_game, plugin, "127.0.0.1", port, reservation, 3)
    return 0 if report.result is not None else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
'''

BOT_TEST = f'''
import client
import games
import protocol
import server


def test_the_project_imports_its_own_modules():
    assert client.OWNER == "the bot project"
    assert server.OWNER == protocol.OWNER == games.OWNER == "the bot project"


def test_server_runs(swc_server):
    assert swc_server.port > 0
    game = swc_server.play(r"{sys.executable} client.py --port {{port}} --reservation {{reservation}}")
    assert game.result is not None
    assert game.bot.cause == "REGULAR" and game.opponent.cause == "REGULAR"
'''


def test_a_bot_project_with_generic_module_names(pytester):
    pytester.makepyfile(
        client=BOT_CLIENT,
        server='OWNER = "the bot project"\n',
        protocol='OWNER = "the bot project"\n',
        test_bot=BOT_TEST,
    )
    pytester.mkpydir("games").joinpath("__init__.py").write_text('OWNER = "the bot project"\n')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=120)
    result.assert_outcomes(passed=2)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The distribution built as a wheel, once for this module."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    # built from a copy, so the build leaves no egg-info or build/ folder in the working tree
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__", "data",
                                                             ".socha-clients", "site"))  # other workers write there
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v", "-w", str(tmp_path), str(source)],
        capture_output=True, text=True, timeout=300,
    )
    assert built.returncode == 0, built.stderr
    (tmp_path / "build.log").write_text(built.stdout + built.stderr)
    (path,) = tmp_path.glob("swc_local-*.whl")
    return path


def test_the_wheel_installs_only_swc_local(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {name.split("/")[0] for name in names}
    dist_info = {name for name in top_level if name.endswith(".dist-info")}
    assert top_level - dist_info == {"swc_local"}
    assert len(dist_info) == 1
    # every package of the source folders is in the wheel, under swc_local (a new game included)
    packages = {
        "swc_local/" + str(init.parent.relative_to(ROOT))
        for folder in FOLDERS for init in (ROOT / folder).rglob("__init__.py")
    }
    assert packages and all(f"{package}/__init__.py" in names for package in packages)
    # the console script and the pytest plugin point into the namespace
    entry_points = zipfile.ZipFile(wheel).read(f"{dist_info.pop()}/entry_points.txt").decode()
    assert "swc = swc_local.tools.cli:main" in entry_points
    assert "swc = swc_local.swc_pytest.plugin" in entry_points


def test_the_build_lists_every_folder_it_installs(wheel):
    # a data folder (maps/, static/) that is not a listed package is installed only by a
    # deprecated fallback of setuptools, with a "Package would be ignored" warning per folder
    log = (wheel.parent / "build.log").read_text()
    assert "is absent from the `packages` configuration" not in log, log


def test_every_data_file_of_the_source_folders_is_in_the_wheel(wheel):
    # a file a game reads at run time (maps, ...) that is not declared as package data is missing
    # from a regular install although the editable install of the suite has it
    names = set(zipfile.ZipFile(wheel).namelist())
    data = {
        "swc_local/" + str(path.relative_to(ROOT))
        for folder in FOLDERS for path in (ROOT / folder).rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    }
    assert data and sorted(data - names) == []


def _read_ports(log_path: Path, process: subprocess.Popen, timeout: float = 60) -> dict[str, int]:
    """The ports ``swc serve --port 0`` chose, from its log lines."""
    import re
    import time

    patterns = {"xml": r"INFO swc.server: listening on [^:]+:(\d+)", "reversixt": r"ReversiXT door listening on [^:]+:(\d+)",
                "roborally": r"Robo Rally listening on [^:]+:(\d+)", "viewer": r"swc.web: viewer on http://[^:]+:(\d+)"}
    ports: dict[str, int] = {}
    deadline = time.monotonic() + timeout
    while len(ports) < len(patterns):
        assert process.poll() is None, log_path.read_text()
        assert time.monotonic() < deadline, log_path.read_text()
        text = log_path.read_text()
        for name, pattern in patterns.items():
            match = re.search(pattern, text)
            if match:
                ports[name] = int(match.group(1))
        time.sleep(0.05)
    return ports


async def _one_game_of_every_family(ports: dict[str, int]) -> None:
    from swc_local.client.bot import play_game
    from swc_local.games import registry
    from swc_local.client.reversixt_bot import play as play_reversixt
    from swc_local.client.roborally_bot import RoboRallyBot

    piranhas = registry.get("swc_2019_piranhas")
    xml, reversixt, roborally = [], [], [RoboRallyBot(greedy=True, seed=seat) for seat in range(2)]

    async def xml_player(seed):
        xml.append(await play_game(piranhas, "127.0.0.1", ports["xml"], None, seed))

    async def reversixt_player(seed):
        reversixt.append(await play_reversixt("127.0.0.1", ports["reversixt"], seed=seed))

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for seed in (1, 2):
                nursery.start_soon(xml_player, seed)
                nursery.start_soon(reversixt_player, seed)
            for bot in roborally:
                nursery.start_soon(bot.play, "127.0.0.1", ports["roborally"])
                await trio.sleep(0.05)
    assert len(xml) == 2 and all(report.result is not None for report in xml), xml
    assert len(reversixt) == 2 and all(game.over and not game.disqualified for game in reversixt), reversixt
    assert all(bot.report.finished and not bot.report.errors for bot in roborally), [bot.report for bot in roborally]


def _viewer_lists_the_games(port: int) -> None:
    """The installed viewer serves its pages and assets (package data) and lists the games."""
    import json
    import urllib.request

    base = f"http://127.0.0.1:{port}"
    for path in ("/", "/static/viewer.js", "/static/list.js", "/static/style.css"):
        with urllib.request.urlopen(base + path, timeout=10) as response:
            assert response.status == 200 and response.read(), path
    with urllib.request.urlopen(base + "/api/games", timeout=10) as response:
        games = {game["game"] for game in json.load(response)["games"]}
    assert {"reversixt", "roborally"} <= games and len(games) >= 3, games


def test_a_regular_install_plays_every_family(wheel, tmp_path):
    """``pip install`` of the wheel into a fresh venv; its ``swc serve`` plays one game of each
    family (XML, ReversiXT on the bundled map, Robo Rally on a bundled map) against the suite's
    reference clients. The venv never sees the source tree. The suite's own pip installs into it
    (``--python``): a venv's own copy of pip (ensurepip) costs about 7 s of CPU, and Python writes
    the bytecode of what it imports on first use instead of pip compiling every file
    (``--no-compile``)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
                                "--no-compile", str(wheel)], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    located = subprocess.run([str(venv / "bin" / "python"), "-c", "import swc_local; print(swc_local.__path__[0])"],
                             cwd=run_dir, env=env, capture_output=True, text=True, timeout=60)
    assert str(venv) in located.stdout, located.stdout + located.stderr
    log_path = run_dir / "serve.log"
    with log_path.open("w") as log_file:
        process = subprocess.Popen(
            [str(venv / "bin" / "swc"), "serve", "--port", "0", "--reversixt-port", "0", "--roborally-port", "0",
             "--roborally-timer", "0.05", "--roborally-map", "Dizzy Highway"],
            cwd=run_dir, env=env, stdout=log_file, stderr=subprocess.STDOUT,
        )
        try:
            ports = _read_ports(log_path, process)
            trio.run(_one_game_of_every_family, ports)
            _viewer_lists_the_games(ports["viewer"])
        finally:
            process.terminate()
            process.wait(timeout=30)
    log = log_path.read_text()
    assert "Traceback" not in log and "internal error" not in log, log
    _tournament_runs(venv, run_dir, env)


def _tournament_runs(venv: Path, run_dir: Path, env: dict) -> None:
    """The installed ``swc tournament`` (its own dependencies: openskill, rich) plays a pair of the
    reference bot and reports it from its database."""
    import json

    swc = str(venv / "bin" / "swc")
    bot = f"{swc} bot piranhas --host {{host}} --port {{port}} --reservation {{reservation}} --seed {{seed}}"
    played = subprocess.run([swc, "tournament", "piranhas", f"--bot=a={bot}", f"--bot=b={bot}", "--db", "t.db",
                             "--seed", "1"], cwd=run_dir, env=env, capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stdout + played.stderr
    report = subprocess.run([swc, "tournament", "report", "t.db", "--json"], cwd=run_dir, env=env,
                            capture_output=True, text=True, timeout=60)
    assert json.loads(report.stdout)["games"] == 2, report.stdout + report.stderr
