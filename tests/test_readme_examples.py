"""Every Python example in README.md runs, so the README cannot drift from the code.

The examples are taken from the README itself at test time.  They talk to ``localhost:13050``
as a reader would; the test gives each its own server on a free port and rewrites ``13050`` to
that port, and starts whatever else the example needs (an opponent bot for the bot example; the
fixture example runs in a fresh pytest project with a ``my_bot.py`` of its own).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

README = Path(__file__).resolve().parent.parent / "README.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)

MY_BOT = """
import sys
from swc_local.tools.cli import main

sys.exit(main(["bot", "piranhas", *sys.argv[1:]]))
"""


def _environment() -> dict[str, str]:
    """The commands an example starts (``swc``, ``python``) are this virtual environment's."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def _example(*needles: str) -> str:
    (found,) = [code for code in EXAMPLES if all(needle in code for needle in needles)]
    return found


def _run(code: str, port: int, timeout: float = 60) -> subprocess.CompletedProcess:
    assert "13050" in code
    return subprocess.run(
        [sys.executable, "-c", code.replace("13050", str(port))],
        capture_output=True, text=True, timeout=timeout, env=_environment(),
    )


def test_the_readme_has_three_python_examples_and_each_is_covered():
    assert len(EXAMPLES) == 3
    covered = {_example("Client.connect"), _example("Admin.connect"), _example("def test_")}
    assert covered == set(EXAMPLES)


def test_bot_example(swc_server):
    opponent = subprocess.Popen(
        [sys.executable, "-m", "swc_local.tools.cli", "bot", "piranhas", "--port", str(swc_server.port)],
        env=_environment(),
    )
    try:
        done = _run(_example("Client.connect"), swc_server.port)
    finally:
        opponent.wait(timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Result(") and "cause='REGULAR'" in done.stdout, done.stdout


def test_admin_example(swc_server):
    assert swc_server.password == "examplepassword"
    done = _run(_example("Admin.connect"), swc_server.port, timeout=90)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line for line in lines if line.startswith("turn ")] == [
        "turn 0, RED to move", "turn 1, BLUE to move", "turn 2, RED to move"
    ]  # one board per step
    assert lines[-1].startswith("[('REGULAR', (") and lines[-1].count("'REGULAR'") == 2


def test_fixture_example(pytester, monkeypatch):
    monkeypatch.setenv("PATH", _environment()["PATH"])
    pytester.makepyfile(my_bot=MY_BOT, test_my_bot=_example("def test_"))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s", timeout=120)
    result.assert_outcomes(passed=1)
