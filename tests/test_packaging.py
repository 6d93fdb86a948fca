"""The distribution as a bot author installs it: one import package, ``swc_local``, and nothing
else at top level, so a bot project's own ``server.py``, ``client.py``, ``protocol.py`` or
``games/`` never collides with ours (and ours never shadows theirs)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
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


def test_the_wheel_installs_only_swc_local(tmp_path):
    # built from a copy, so the build leaves no egg-info or build/ folder in the working tree
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__", "data"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), str(source)],
        capture_output=True, text=True, timeout=300,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("swc_local-*.whl")
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
