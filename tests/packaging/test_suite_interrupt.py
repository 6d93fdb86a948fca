"""Ctrl-C (and SIGTERM) stop a test run within seconds, and the helper processes its tests
started do not outlive it (tests/processes.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import REPOSITORY, TESTS
from tests.processes import terminal_signals_at_default

SUITE = '''
import os, sys
import trio
from tests.processes import run_process

HELPER = "import os, time; open('helper.pid', 'w').write(str(os.getpid())); time.sleep(120)"

async def test_waits_on_a_helper_inside_a_nursery():
    async with trio.open_nursery() as nursery:
        nursery.start_soon(trio.sleep, 120)
        await run_process([sys.executable, "-c", HELPER])

async def test_never_reached():
    open("second_test_ran", "w").close()
'''


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_run_stops_at_once_and_leaves_no_process(signum, tmp_path):
    (tmp_path / "test_inner.py").write_text(SUITE)
    env = dict(os.environ, PYTHONPATH=str(REPOSITORY))
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.processes",
         "-o", "trio_mode=true", "test_inner.py"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        process_group=0, preexec_fn=terminal_signals_at_default,
    )
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / "helper.pid").exists() or not (tmp_path / "helper.pid").read_text():
            assert time.monotonic() < deadline and run.poll() is None, "the helper never started"
            time.sleep(0.1)
        helper = int((tmp_path / "helper.pid").read_text())
        # a terminal's Ctrl-C goes to the foreground group: pytest, not the helper's own group
        os.killpg(run.pid, signum)
        output, _ = run.communicate(timeout=20)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == pytest.ExitCode.INTERRUPTED, output
    assert not (tmp_path / "second_test_ran").exists(), output
    assert not _alive(helper), f"helper {helper} outlived the run"


def test_the_slow_list_names_tests_that_exist():
    from tests.conftest import SLOW_MODULES, SLOW_TESTS

    found = {path.name: path for path in TESTS.rglob("test_*.py")}  # by file name, in any folder
    assert all(module in found for module in SLOW_MODULES), SLOW_MODULES
    for module, names in SLOW_TESTS.items():
        source = found[module].read_text()
        assert all(f"def {name}(" in source for name in names), (module, names)
