"""A real Dask cluster on localhost for the tournament tests: ``dask scheduler`` and ``dask worker``
processes started as a user would start them, on free ports (a scheduler file, port 0)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path



def _dask_command() -> list[str]:
    script = Path(sys.executable).with_name("dask")
    return [str(script)] if script.exists() else [sys.executable, "-m", "dask"]


def _start(args: list[str], log: Path, env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        _dask_command() + args, stdout=open(log, "wb"), stderr=subprocess.STDOUT, env=env,
        start_new_session=True,  # its own process group: a kill takes its nanny and worker together
    )


def kill(process: subprocess.Popen) -> None:
    """SIGKILL the whole process group (nanny and worker): a machine that dies."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


@contextmanager
def local_cluster(directory: Path, workers: int = 2):
    """(scheduler file, worker processes) of a running cluster; everything is killed at the end."""
    env = dict(os.environ)
    scheduler_file = directory / "scheduler.json"
    processes = [_start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--dashboard-address", "127.0.0.1:0",
                         "--scheduler-file", str(scheduler_file)], directory / "scheduler.log", env)]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists():
            if time.monotonic() > deadline or processes[0].poll() is not None:
                raise RuntimeError("dask scheduler did not start: " + (directory / "scheduler.log").read_text())
            time.sleep(0.1)
        pool = []
        for number in range(workers):
            pool.append(_start(["worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1",
                                "--name", f"w{number}", "--dashboard-address", "127.0.0.1:0",
                                "--local-directory", str(directory / f"w{number}")], directory / f"worker{number}.log", env))
        processes += pool
        yield scheduler_file, pool
    finally:
        for process in reversed(processes):
            kill(process)
