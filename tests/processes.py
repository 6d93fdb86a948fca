"""Ctrl-C stops the test run within seconds, and no process a test started outlives it.

Two things kept a run going after Ctrl-C.  A trio test (pytest-trio) that was waiting inside a
nursery got the KeyboardInterrupt wrapped in an exception group, which pytest takes for a plain
test failure, so the run went on with the next test; the hooks below turn such a group back into
the KeyboardInterrupt it carries.  And helper processes (the official socha clients, bots) could
be left behind by a killed run: :func:`run_process` starts each in its own process group and kills
the whole group with SIGKILL when the test is cancelled (failure, timeout, Ctrl-C), and at the end
of the run every process still below the pytest process is killed.  SIGTERM (``timeout``, a CI
runner giving up) is handled as Ctrl-C, so those teardowns run then too; only SIGKILL of pytest
itself cannot be cleaned up after.

``tests/conftest.py`` imports the hooks; another pytest run can load them with
``-p tests.processes``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
import trio


def stop_within_seconds(process: subprocess.Popen, seconds: float = 5) -> None:
    """SIGTERM to a ``swc`` process a test started (its stdout a pipe): it must end, and within
    ``seconds``."""
    process.terminate()
    started = time.monotonic()
    process.wait(10)
    assert time.monotonic() - started < seconds
    process.stdout.close()


def kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


async def _kill_own_group(process: trio.Process) -> None:
    kill_group(process.pid)  # the process is its group's leader (start_new_session)


def terminal_signals_at_default() -> None:
    """``preexec_fn`` for a process a test stops with SIGINT or SIGHUP as a terminal would.

    A shell starts a background job with SIGINT ignored, and ``nohup`` starts one with SIGHUP
    ignored; the process inherits that, and then Python installs no KeyboardInterrupt handler and
    ``swc`` rightly keeps SIGHUP ignored (tools/stopping.py): without this the test would depend
    on how pytest was started."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


async def run_process(command, **options) -> subprocess.CompletedProcess:
    """``trio.run_process`` in a process group of its own, killed as a whole on cancellation."""
    options.setdefault("check", False)
    return await trio.run_process(command, start_new_session=True, deliver_cancel=_kill_own_group, **options)


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (Linux /proc; elsewhere none are found)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])  # the field after the state
        children.setdefault(parent, []).append(int(entry.name))
    found, queue = [], list(children.get(pid, []))
    while queue:
        child = queue.pop()
        found.append(child)
        queue.extend(children.get(child, []))
    return found


def command_lines(pid: int) -> dict[int, str]:
    """The command line of every live process below ``pid``, its arguments joined by spaces."""
    found = {}
    for child in descendants(pid):
        try:
            found[child] = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            pass
    return found


def kill_descendants() -> None:
    for pid in descendants(os.getpid()):
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


# -- hooks -------------------------------------------------------------------------------------


def _sigterm_as_ctrl_c(signum, frame) -> None:
    os.kill(os.getpid(), signal.SIGINT)  # trio and pytest handle SIGINT safely at their own points


def pytest_configure(config) -> None:
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _sigterm_as_ctrl_c)


def pytest_unconfigure(config) -> None:
    kill_descendants()


def _interrupt_if_carried():
    """Around a test phase: an exception group that carries a KeyboardInterrupt is one."""
    try:
        return (yield)
    except BaseExceptionGroup as group:
        if group.subgroup(KeyboardInterrupt) is not None:
            raise KeyboardInterrupt("interrupted inside a trio nursery") from group
        raise


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    return (yield from _interrupt_if_carried())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    return (yield from _interrupt_if_carried())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    return (yield from _interrupt_if_carried())
