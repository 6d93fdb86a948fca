"""``python -m swc_local.tools.measure OUT -- COMMAND...``: run a bot, record its peak memory and CPU.

``swc check`` starts the bot under test through this wrapper, as the contest system's test reports
a client's memory and CPU.  The wrapper starts COMMAND as its child and, every
:data:`SAMPLE_SECONDS`, adds up the resident memory (RSS) of the child's whole process tree from
``/proc`` (a ``start.sh`` that starts ``java`` or ``python3`` is a tree: the script alone would say
nothing); the largest sum is the peak.  CPU time is the user + system time of the tree: from the
live processes' ``/proc/PID/stat`` while they run, and the kernel's total of the waited-for
children (``getrusage(RUSAGE_CHILDREN)``) once the child has ended.  OUT (JSON:
``{"peak_rss": bytes, "cpu_seconds": s, "exit_code": n|null}``) is rewritten as the figures grow,
by rename, so a bot stopped with SIGKILL leaves its last figures behind.

Conformance notes: a sample every 50 ms misses a peak shorter than that; a process that left the
tree (a double fork) is no longer counted.  Linux only (``/proc``), as the sandbox is.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

SAMPLE_SECONDS = 0.05
PAGE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[int, int, float]]:
    """Every process: pid -> (parent pid, RSS bytes, CPU seconds)."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as file:
                text = file.read().decode(errors="replace")
        except OSError:
            continue
        fields = text[text.rfind(")") + 2:].split()  # after the command name, which may hold spaces
        out[int(name)] = (int(fields[1]), int(fields[21]) * PAGE, (int(fields[11]) + int(fields[12])) / TICKS)
    return out


def tree_usage(root: int) -> tuple[int, float]:
    """(RSS bytes, CPU seconds) of ``root`` and all its descendants, as /proc shows them now."""
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    rss, cpu, todo = 0, 0.0, [root]
    while todo:
        pid = todo.pop()
        if pid in table:
            rss += table[pid][1]
            cpu += table[pid][2]
        todo.extend(children.get(pid, ()))
    return rss, cpu


class Figures:
    def __init__(self, out: Path) -> None:
        self.out, self.peak_rss, self.cpu, self.exit_code = out, 0, 0.0, None

    def update(self, rss: int, cpu: float) -> None:
        if rss > self.peak_rss or cpu > self.cpu + 0.05:
            self.peak_rss, self.cpu = max(self.peak_rss, rss), max(self.cpu, cpu)
            self.write()

    def write(self) -> None:
        partial = self.out.with_name(self.out.name + ".partial")
        partial.write_text(json.dumps({"peak_rss": self.peak_rss, "cpu_seconds": round(self.cpu, 3),
                                       "exit_code": self.exit_code}))
        os.replace(partial, self.out)


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print("usage: python -m swc_local.tools.measure OUT -- COMMAND [ARG...]", file=sys.stderr)
        return 2
    figures = Figures(Path(argv[0]))
    figures.write()
    try:
        child = subprocess.Popen(argv[2:])
    except OSError as error:
        print(f"measure: cannot start {argv[2]}: {error.strerror}", file=sys.stderr)
        return 127

    def forward(signum, _frame) -> None:  # the runner stops the group; write what was seen first
        figures.write()
        child.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    while child.poll() is None:
        figures.update(*tree_usage(child.pid))
        time.sleep(SAMPLE_SECONDS)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    figures.peak_rss = max(figures.peak_rss, usage.ru_maxrss * 1024)
    figures.cpu = max(figures.cpu, usage.ru_utime + usage.ru_stime)
    figures.exit_code = child.returncode
    figures.write()
    return child.returncode if child.returncode >= 0 else 128 - child.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
