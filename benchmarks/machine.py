"""The machine a table was measured on, printed above it (numbers mean nothing without it)."""

from __future__ import annotations

import os
import platform
from pathlib import Path

import trio


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def describe() -> str:
    """One markdown paragraph: CPU, cores, OS, Python, trio, and how busy the machine was."""
    cores = os.cpu_count() or 1
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cores
    load = os.getloadavg()[0]
    pinning = ("server pinned to one CPU, clients to the other(s)" if usable >= 2
               else "server and clients share the only CPU")
    return (
        f"Machine: {cpu_model()}, {cores} logical CPUs ({usable} usable; {pinning}); "
        f"{platform.system()} {platform.release()}; "
        f"{platform.python_implementation()} {platform.python_version()}, trio {trio.__version__}; "
        f"load average at start {load:.2f}."
    )
