"""A bot command in a sandbox: only the game's port, a read-only system, the home hidden, limits.

:func:`wrap` turns one expanded bot command into a bubblewrap command line (Debian's
``bubblewrap``, ``/usr/bin/bwrap``; ``.ci/run`` installs it) around the keeper
(``tools/sandbox_init.py``), which starts the bot under its limits.  The runner
(:mod:`swc_local.tools.runner`, through :mod:`swc_local.tools.sandbox_relay`) serves the relay's
unix socket and reads the keeper's status line (:func:`read_status`) after the bot has ended.

What the bot sees:

- **Network: nothing but the game port.**  A private network namespace (``--unshare-net``: only
  loopback) and a relay: inside, ``localhost:PORT`` is the keeper, which forwards to a unix
  socket in a folder bound into the sandbox; outside, the runner forwards that socket to the
  server.  Chosen over Landlock's TCP rules (ABI 4, which this kernel has) because Landlock
  filters TCP port numbers only: UDP (DNS), other hosts on the same port number, and unix
  sockets of the host (``/run/docker.sock``, abstract sockets) would stay reachable, and it
  needs an LSM boot setting a teacher's machine may not have.  A network namespace also gives
  the bot a private abstract-socket namespace.
- **Files.**  ``--ro-bind / /``: the system read-only.  Hidden under empty private tmpfs: the
  user's home (``$HOME``), ``/root``, ``/home``, ``/run`` (the host's sockets), ``/tmp`` and
  ``/var/tmp``; ``/proc`` and ``/dev`` are the sandbox's own.  Readable again: the bot's folders
  (each folder a command argument names: the unpacked archive, the script's folder) and this
  interpreter with its packages (a Python bot, the reference bots, the keeper need them).
  Writable: ``/tmp`` (``TMPDIR``) and the hidden home, both private and gone after the game.
- **User.**  Run by a user, the sandbox is a fresh user namespace (``--unshare-user``) and the
  bot keeps that user's id: ``RLIMIT_NPROC`` then counts the sandbox's own processes only.  Run
  by root (CI), there is no user namespace (root mapped into one would still read every
  root-only file of the read-only system, and the kernel never counts root's processes against
  ``RLIMIT_NPROC``): the keeper starts the bot as a user id of its own, random in a range no
  account uses, so two sandboxes never share a process count.  The bot's folders must then be
  readable by others (an archive's cache is).
- **Limits** (:class:`Limits`).  The official contest runs each player in a container of its own
  (a Docker image chosen at upload, "Computerspieler abgabefertig machen",
  docs.software-challenge.de/entwicklung/abgabe); its documentation that we could read names no
  memory, process or CPU figure, so the defaults here are our choice: 2 GiB of resident memory
  (Java sizes its heap from it, ``-XX:MaxRAM``, as in a container), 256 tasks (threads count:
  a JVM starts dozens) and 600 CPU seconds per process (300 moves of 2 s, the contest's time per
  move).  Memory is watched as resident memory by the keeper (never ``RLIMIT_AS``, which breaks
  the JVM; cgroups need privileges a teacher's machine does not grant).

When a limit ends a bot, its cause is one of :data:`LIMIT_CAUSES`; the runner puts it in the
seat's result, the bot loses that game and the other seats play on.

Conformance notes: the contest names no limits we could find (see above: chosen, and said so in
``docs/differences.md``); the contest machine's network rules are not published either: "only
the game server" is what a player needs, so it is all it gets.
"""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MEMORY_LIMIT = "MEMORY_LIMIT"
CPU_TIME_LIMIT = "CPU_TIME_LIMIT"
PROCESS_LIMIT = "PROCESS_LIMIT"
LIMIT_CAUSES = (MEMORY_LIMIT, CPU_TIME_LIMIT, PROCESS_LIMIT)

KEEPER = Path(__file__).with_name("sandbox_init.py")
HIDDEN = ("/root", "/home", "/run", "/tmp", "/var/tmp")  # and the user's $HOME
FIRST_OWN_UID, OWN_UIDS = 1 << 28, 1 << 24  # root's sandboxes: a user id from this unused range


@dataclass(frozen=True)
class Limits:
    """What one sandboxed bot may use (module docstring: where the defaults come from)."""

    memory_mb: int = 2048  # resident memory of all its processes
    processes: int = 256  # tasks: processes and threads
    cpu_seconds: int = 600  # CPU time of each of its processes

    def problem(self) -> str | None:
        """None, or one line naming the value that is not a limit."""
        for name, value, low in (("memory", self.memory_mb, 16), ("processes", self.processes, 4),
                                 ("CPU seconds", self.cpu_seconds, 1)):
            if value < low:
                return f"the sandbox's {name} limit must be at least {low} (got {value})"
        return None


class SandboxUnavailable(Exception):
    """The sandbox cannot be made here: one line, and no bot runs unsandboxed instead."""


def default_sandbox(player: object) -> bool:
    """Whether a player runs sandboxed when neither ``--sandbox`` nor ``--no-sandbox`` is given:
    yes for a client archive (what a team hands in: someone else's code), no for a plain command
    (the user's own bot).  ``player`` is a command, or an archive's resolved player, which says
    so on itself (``from_archive``)."""
    return bool(getattr(player, "from_archive", False))


@functools.cache
def unavailable() -> str | None:
    """None when bubblewrap can make a sandbox here, else one line saying why (checked once)."""
    if getattr(sys, "frozen", False):
        return "the sandbox is not available in the self-contained executable (it runs its keeper on Python)"
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed: apt-get install bubblewrap, or run with --no-sandbox"
    try:
        trial = subprocess.run([bwrap, *_namespaces(), "--ro-bind", "/", "/", "true"],
                               capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap cannot start: {error}"
    if trial.returncode != 0:
        why = trial.stderr.decode("utf-8", "replace").strip().splitlines()
        return ("bubblewrap cannot create a sandbox here (user namespaces unavailable?): "
                + (why[-1] if why else f"exit {trial.returncode}"))
    return None


def _namespaces() -> list[str]:
    """Every namespace but, for root, the user's (see the module's docstring).  Never
    ``--die-with-parent``: its signal follows the *thread* that started bubblewrap, and trio
    starts processes from worker threads that end when idle (the bot died mid-game).  The
    runner stops the sandbox by its process group instead (bubblewrap's init is in it: its end
    ends every process of the sandbox's pid namespace), so no ``--new-session`` either: the
    runner already starts each command in a session of its own, without a terminal."""
    if os.geteuid() == 0:
        return ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    return ["--unshare-all", "--unshare-user"]


def _home() -> Path | None:
    home = os.environ.get("HOME")
    return Path(home).resolve() if home else None


def _hidden() -> list[Path]:
    places = [Path(p) for p in HIDDEN]
    home = _home()
    if home is not None and home != Path("/") and not any(_within(home, p) for p in places):
        places.append(home)
    return places


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def bot_folders(argv: list[str]) -> list[Path]:
    """The folders a command names: each argument (or ``--opt=VALUE``'s value) that is an existing
    file (its folder) or folder, absolute; the program's own folder when named by a path."""
    found: list[Path] = []
    for arg in argv:
        value = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
        if not value or value.startswith("-"):
            continue
        path = Path(value)
        try:
            if not path.exists():
                continue
        except OSError:
            continue
        named = Path(os.path.abspath(path))  # as named (a venv's python), and where a link leads
        for folder in (named, path.resolve()) if path.is_dir() else (named.parent, path.resolve().parent):
            if folder not in found:
                found.append(folder)
    return found


def _runtime_folders() -> list[Path]:
    """This interpreter and its packages (the keeper, a Python bot, the reference bots)."""
    places = [Path(sys.prefix), Path(sys.base_prefix), Path(__file__).resolve().parent.parent,
              Path(sys.executable).resolve().parent]
    out: list[Path] = []
    for place in places:
        place = place.resolve()
        if place not in out:
            out.append(place)
    return out


def check_folders(folders: list[Path]) -> str | None:
    """One line when a bot folder would expose what the sandbox hides, or cannot be read by it."""
    home = _home()
    for folder in folders:
        if home is not None and _within(home, folder):
            return (f"the bot's folder {folder} holds the home folder {home}, which the sandbox hides: "
                    "put the bot into a folder of its own")
        if folder == Path("/"):
            return "the bot's folder is / : put the bot into a folder of its own"
        if os.geteuid() == 0 and folder.stat().st_mode & 0o005 != 0o005:
            return (f"the bot's folder {folder} is not readable by others; run as root, the sandbox runs the bot "
                    f"as a user of its own: chmod o+rx {folder}")
    return None


def preflight(argv: list[str]) -> str | None:
    """One line when ``argv`` cannot run sandboxed here (before a run), else None."""
    return unavailable() or check_folders(bot_folders(argv))


def wrap(argv: list[str], *, port: int, relay: Path, status_fd: int, limits: Limits,
         folders: list[Path] | None = None) -> list[str]:
    """``argv`` (expanded, placeholders filled in) run in a sandbox whose only network is the
    game ``port``, relayed to the unix socket ``relay`` (served by the runner); the keeper writes
    the cause of a limit to ``status_fd``.  Raises :class:`SandboxUnavailable` (one line)."""
    problem = unavailable()
    if problem:
        raise SandboxUnavailable(problem)
    folders = list(folders if folders is not None else bot_folders(argv))
    problem = check_folders(folders)
    if problem:
        raise SandboxUnavailable(problem)
    line = [shutil.which("bwrap") or "bwrap", *_namespaces(),
            "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev"]
    hidden = [place for place in _hidden() if place.is_dir()]
    for place in hidden:  # empty, private, writable by the bot (its home, its /tmp)
        line += ["--perms", "1777", "--tmpfs", str(place)]
    shown = [*_runtime_folders(), *folders, relay.parent]
    made: set[Path] = set()
    bound: list[Path] = []
    for folder in sorted(set(shown), key=lambda path: len(path.parts)):
        place = next((place for place in hidden if _within(folder, place)), None)
        if place is None or any(_within(folder, done) for done in bound):
            continue
        bound.append(folder)
        for between in reversed(folder.parents):  # bubblewrap would make them 0700: the bot could not pass
            if place in between.parents and between not in made:
                made.add(between)
                line += ["--perms", "0755", "--dir", str(between)]
        line += ["--ro-bind", str(folder), str(folder)]
    line += ["--chdir", str(_working_folder(folders, shown, hidden))]
    java = " ".join(filter(None, [os.environ.get("JAVA_TOOL_OPTIONS", ""), f"-XX:MaxRAM={limits.memory_mb}m"]))
    line += ["--setenv", "TMPDIR", "/tmp", "--setenv", "JAVA_TOOL_OPTIONS", java]
    line += ["--", sys.executable, "-I", "-S", str(KEEPER), "--port", str(port), "--socket", str(relay),
             "--status-fd", str(status_fd), "--memory", str(limits.memory_mb << 20),
             "--processes", str(limits.processes), "--cpu", str(limits.cpu_seconds), *_own_user(), "--", *argv]
    return line


def _own_user() -> list[str]:
    if os.geteuid() != 0:
        return []
    return ["--user", str(FIRST_OWN_UID + secrets.randbelow(OWN_UIDS))]


def _working_folder(folders: list[Path], shown: list[Path], hidden: list[Path]) -> Path:
    """The caller's working folder when the sandbox shows it (relative paths keep working),
    else the bot's first folder, else the private /tmp."""
    here = Path.cwd().resolve()
    if not any(_within(here, place) for place in hidden):
        return here
    if any(_within(here, folder) or _within(folder, here) for folder in shown):
        return here
    return folders[0] if folders else Path("/tmp")


def read_status(data: bytes) -> tuple[str, str] | None:
    """The keeper's status line as (cause, reason), or None when no limit ended the bot."""
    text = data.decode("utf-8", "replace").strip()
    if not text:
        return None
    cause, _, reason = text.partition("\t")
    return (cause, reason) if cause in LIMIT_CAUSES else None
