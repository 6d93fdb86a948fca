"""Player commands for ``swc match`` and the pytest helper: templates, launching, killing.

A command is a string (split like a shell would, with :func:`shlex.split`) or a list of
arguments.  ``{host}``, ``{port}``, ``{reservation}``, ``{seed}``, ``{game}`` (the game type) and
``{color}`` (the seat's label: ``red``/``blue``, ``ONE``/``TWO`` in 2022+ games, the player number
in ReversiXT) and ``{player}`` (ReversiXT's player number) are replaced in every argument;
nothing else is touched, so a command may contain other braces.

A command's leading bare ``python`` or ``python3`` is the interpreter that runs this tool
(``sys.executable``, :func:`own_python`): the one ``swc match`` or the test was started with,
which has swc-local and its client library installed, rather than whatever ``python`` comes
first on PATH (a system Python without them, or none: the bot then crashed before joining with a
reason few read). A Python named by a path (``.venv/bin/python``, ``/usr/bin/python3``) or with
a version (``python3.12``) is run as written; so is every command of a frozen ``swc`` executable,
whose ``sys.executable`` is no Python.

Each process gets its own session (process group), so a command that is a shell script and the
bot it starts are stopped together: SIGTERM first, SIGKILL after a grace period.  Every group
still running is in :data:`LIVE_GROUPS`, so a command stopped by a signal can kill what an
interrupted unwind left (:func:`kill_every_group`).
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import sys

import trio

from swc_local.tools.archive import resolve_command


OWN_PYTHON_NAMES = ("python", "python3")


def own_python(argv: list[str]) -> list[str]:
    """``argv`` with a leading bare ``python``/``python3`` replaced by ``sys.executable`` (see above)."""
    if argv and argv[0] in OWN_PYTHON_NAMES and sys.executable and not getattr(sys, "frozen", False):
        return [sys.executable, *argv[1:]]
    return argv


def expand(command: str | list[str], **values: object) -> list[str]:
    """The argument list of ``command`` with the placeholders filled in, run by :func:`own_python`;
    a client archive's spec (``team.zip``, tools/archive.py) is its start command first."""
    command = resolve_command(command)
    argv = own_python(shlex.split(command) if isinstance(command, str) else list(command))
    out = []
    for arg in argv:
        for key, value in values.items():
            arg = arg.replace("{" + key + "}", str(value))
        out.append(arg)
    return out


LIVE_GROUPS: set[int] = set()
"""The process groups of the commands started here that have not been stopped yet."""


async def wait_or_stop(process: trio.Process) -> int:
    """The process's exit code; if the caller is cancelled first, the process group is stopped
    (SIGTERM, then SIGKILL) before the cancellation goes on.  Either way the group is stopped
    once its leader is gone: a bot's child that outlived it (a shell script's java) ends too."""
    LIVE_GROUPS.add(process.pid)
    try:
        return await process.wait()
    finally:
        with trio.CancelScope(shield=True):
            if process.returncode is None:
                await stop(process)
            _signal(process.pid, signal.SIGKILL)
        LIVE_GROUPS.discard(process.pid)


def kill_every_group() -> None:
    """SIGKILL to every process group still in :data:`LIVE_GROUPS` (the last resort of a stop)."""
    for group in list(LIVE_GROUPS):
        _signal(group, signal.SIGKILL)
        LIVE_GROUPS.discard(group)


def command_text(command: str | list[str]) -> str:
    """A command as one line, whole (two versions of a bot differ somewhere in it): a string as
    given, a list quoted like a shell would need it."""
    if isinstance(command, str):
        return command
    return " ".join(a if _PLAIN.fullmatch(a) else shlex.quote(a) for a in command)


_PLAIN = re.compile(r"[\w@%+=:,./{}-]+")  # placeholders like {port} need no quotes


async def stop(process: trio.Process, grace: float = 1.0) -> None:
    """SIGTERM to the process group, SIGKILL after ``grace`` seconds."""
    _signal(process.pid, signal.SIGTERM)
    with trio.move_on_after(grace):
        await process.wait()
        return
    _signal(process.pid, signal.SIGKILL)
    with trio.move_on_after(grace):
        await process.wait()


def _signal(group: int, sig: int) -> None:
    """``sig`` to the process group ``group`` (its leader's pid: start_new_session)."""
    try:
        os.killpg(group, sig)
    except (ProcessLookupError, PermissionError):
        pass
