"""Player commands for ``swc match`` and the pytest helper: templates, launching, killing.

A command is a string (split like a shell would, with :func:`shlex.split`) or a list of
arguments.  ``{host}``, ``{port}``, ``{reservation}``, ``{seed}``, ``{game}`` (the game type) and
``{color}`` (``red``/``blue``, ``ONE``/``TWO`` in 2022+ games) are replaced in every argument; nothing else is touched, so a
command may contain other braces.

Each process gets its own session (process group), so a command that is a shell script and the
bot it starts are stopped together: SIGTERM first, SIGKILL after a grace period.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
from typing import IO

import trio

def reference_bot_command(game_type: str) -> list[str]:
    """The reference random bot as a command (``python -m swc_local.tools.cli bot ...``, venv-safe)."""
    return [
        sys.executable, "-m", "swc_local.tools.cli", "bot", game_type,
        "--host", "{host}", "--port", "{port}", "--reservation", "{reservation}", "--seed", "{seed}",
    ]


def expand(command: str | list[str], **values: object) -> list[str]:
    """The argument list of ``command`` with the placeholders filled in."""
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    out = []
    for arg in argv:
        for key, value in values.items():
            arg = arg.replace("{" + key + "}", str(value))
        out.append(arg)
    return out


async def run_player(
    argv: list[str],
    output: IO | int | None = subprocess.DEVNULL,
    *,
    exited: trio.Event | None = None,
    task_status=trio.TASK_STATUS_IGNORED,
) -> int | None:
    """Run one player process until it exits (its return code) or the caller cancels (then it is
    terminated, killed if need be, and None is returned).  A command that cannot be started
    counts as an immediate exit with code 127."""
    try:
        process = await trio.lowlevel.open_process(
            argv, stdin=subprocess.DEVNULL, stdout=output, stderr=output,
            start_new_session=True,
        )
    except OSError:
        task_status.started(None)
        if exited is not None:
            exited.set()
        return 127
    task_status.started(process)
    try:
        code = await process.wait()
        if exited is not None:
            exited.set()
        return code
    finally:
        if process.returncode is None:
            with trio.CancelScope(shield=True):
                await stop(process)


async def stop(process: trio.Process, grace: float = 1.0) -> None:
    """SIGTERM to the process group, SIGKILL after ``grace`` seconds."""
    _signal(process, signal.SIGTERM)
    with trio.move_on_after(grace):
        await process.wait()
        return
    _signal(process, signal.SIGKILL)
    with trio.move_on_after(grace):
        await process.wait()


def _signal(process: trio.Process, sig: int) -> None:
    try:
        if hasattr(os, "killpg"):
            os.killpg(process.pid, sig)
        else:  # pragma: no cover -- Windows
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass
