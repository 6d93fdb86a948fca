"""The server under test as a separate OS process, plus what we read about it from /proc.

Why a subprocess (``python -m swc_local.server``) rather than a task in the benchmark's own trio loop: the
load generator must not share the server's interpreter and core, and start-up time is only
meaningful from a real process spawn.  With two or more CPUs the server is pinned to CPU 0 and the
benchmark process to the others, so the two never steal each other's core.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "benchpassword"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_CPUS = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []  # before any pinning


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_cpus() -> tuple[set[int] | None, set[int] | None]:
    """(server CPUs, benchmark CPUs) when there are at least two CPUs to split, else (None, None)."""
    if len(_CPUS) < 2:
        return None, None
    return {_CPUS[0]}, set(_CPUS[1:])


def machine_busy_seconds() -> float:
    """CPU seconds all processes on the machine have used (from /proc/stat), to spot other load."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / CLOCK_TICKS


@dataclass
class ServerProcess:
    """``python -m swc_local.server`` on a free port with a throw-away properties file and working dir."""

    properties: dict[str, str] = field(default_factory=dict)
    profile_to: Path | None = None  # run under cProfile and write the stats here
    prelude: str | None = None  # Python run in the server process before it starts (a variant to compare)
    pin: bool = True
    port: int = 0
    process: subprocess.Popen | None = None
    spawned_at: float = 0.0
    ready_at: float = 0.0

    def start(self, timeout: float = 20.0) -> ServerProcess:
        self._dir = tempfile.TemporaryDirectory(prefix="swc-bench-")
        workdir = Path(self._dir.name)
        # the viewer is measured on its own (benchmarks/viewer.py): the table is the game server's;
        # the other doors on free ports, since a busy port stops swc serve (two servers at once, a
        # server of someone else on 7777 or 52020)
        props = {"password": PASSWORD, "maxConnections": "5000", "viewerPort": "-1", "reversixtPort": "0",
                 "roborally.port": "0"} | self.properties
        (workdir / "server.properties").write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        self.port = free_port()
        command = [sys.executable]
        if self.profile_to is not None:
            command += ["-m", "cProfile", "-o", str(self.profile_to)]
        if self.prelude is not None:
            command += ["-c", f"{self.prelude}\nimport runpy\nrunpy.run_module('swc_local.server', run_name='__main__')"]
        else:
            command += ["-m", "swc_local.server"]
        command += ["--port", str(self.port), "--properties", str(workdir / "server.properties")]
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        cpus, _ = server_cpus() if self.pin else (None, None)
        self._log = open(workdir / "server.log", "wb")
        self.spawned_at = time.perf_counter()
        self.process = subprocess.Popen(
            command, cwd=workdir, env=env, stdout=self._log, stderr=subprocess.STDOUT,
            preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None,
        )
        self.ready_at = self.wait_listening(self.port, self.spawned_at + timeout)
        return self

    def wait_listening(self, port: int, deadline: float | None = None) -> float:
        """When ``port``, one of this server's doors, first accepted a connection (perf_counter).

        The main port listening says nothing of the other doors: each binds in its own task, and
        on a loaded machine the web door can take seconds more (its imports)."""
        deadline = time.perf_counter() + 20.0 if deadline is None else deadline
        while time.perf_counter() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.log_text()}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    return time.perf_counter()
            except OSError:
                time.sleep(0.0005)
        raise RuntimeError(f"server did not listen on {port} in time:\n{self.log_text()}")

    @property
    def startup_seconds(self) -> float:
        return self.ready_at - self.spawned_at

    def log_text(self) -> str:
        self._log.flush()
        return (Path(self._dir.name) / "server.log").read_text(errors="replace")[-4000:]

    def rss_kib(self) -> int:
        """Resident set size of the server process (VmRSS, KiB)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def cpu_seconds(self) -> float:
        """User + system CPU time the server process has used so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def stop(self) -> None:
        """SIGINT (the server's Ctrl-C path, which also lets cProfile write its stats), then kill."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        self._dir.cleanup()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
