"""Client archives: a team's ZIP, as the contest system takes it, wherever a bot command is taken.

A bot command whose first word is ``path/team.zip`` or ``path/team.zip:MAIN`` is an archive
spec; the words after it are the team's extra parameters, passed through after the contest's
options.  :func:`resolve` turns it into the command the runner starts::

    team.zip                 ->  env -C CACHE/<sha256> ./team/start.sh -h {host} -p {port} -r {reservation}
    player.zip:bin/p.jar -v  ->  env -C CACHE/<sha256> java -jar bin/p.jar -h {host} -p {port} -r {reservation} -v

The archive is unpacked once into a cache keyed by its hash (tools/archive_unpack.py, which also
refuses zip bombs and paths that escape).  ``swc match``, ``swc tournament``, ``swc check``, the
pytest fixtures and the page's archives all start players through tools/players.py
:func:`~swc_local.tools.players.expand` and check them through tools/runner.py
``check_command``, which call :func:`resolve`; so a broken archive is refused with one line
before any game starts.

Conformance notes (the contest documentation, software-challenge/docs
``hyperbook/book/entwicklung/abgabe.md`` "Computerspieler abgabefertig machen", and the socha
package builder, player_python ``socha/utils/package_builder.py``):

* The main file is found as the upload form offers it: a single ``*.jar`` or ``start.sh`` at
  the top of the archive, or in its one top folder (the socha builder packs ``NAME/start.sh``);
  with several, or none, the archive is refused naming them; ``team.zip:MAIN`` names it.
* The player is started with ``-h HOST -p PORT -r RESERVATION`` (the documentation's example),
  GNU getopt style; ``SWC_ARCHIVE_OPTIONS=long`` (or ``spelling="long"``) gives
  ``--host --port --reservation`` instead, the other spelling the documentation says a player
  must read.  Extra parameters come after them.
* A jar is run as ``java -jar MAIN`` (the Java template's documented way); any other main file
  is run itself, so it must name its interpreter in its first line (the documentation: the
  script is not started by a shell) with UNIX line ends (CRLF fails on the contest's server):
  both are refused here with their line.  A ZIP keeps no x bit (the documentation says so), so
  the contest system must make the main file executable itself; here, too, the main file is
  made executable in the cache, and a main file without the bit is not an error.
* The working folder is the archive's unpacked root: the socha builder's ``start.sh`` names
  its files as ``./NAME/...``, which works only from there.
"""

from __future__ import annotations

import os
import re
import shlex
import stat
from dataclasses import dataclass, field
from pathlib import Path

from swc_local.tools.archive_unpack import ArchiveError, ArchiveLimits, cache_root, unpack

__all__ = ["ArchiveError", "ArchiveLimits", "Player", "is_archive_spec", "resolve", "resolve_command", "table_command"]

SPELLING_ENV = "SWC_ARCHIVE_OPTIONS"
SPELLINGS = {
    "short": ("-h", "-p", "-r"),
    "long": ("--host", "--port", "--reservation"),
}
MAIN_NAMES = ("start.sh",)
IGNORED_TOP = ("__MACOSX",)  # what macOS's "Compress" adds beside the folder
_SPEC = re.compile(r"(?P<zip>.+?\.zip)(?::(?P<main>.*))?", re.IGNORECASE)


@dataclass(frozen=True)
class Player:
    """A resolved bot: the command the runner starts (with its ``{host}`` ``{port}``
    ``{reservation}`` placeholders) and, for an archive, where it came from."""

    command: list[str]
    archive: Path | None = None  # the ZIP (None: a plain command)
    root: Path | None = None  # the unpacked folder, the player's working folder
    main: str | None = None  # the main file, relative to root
    extra: tuple[str, ...] = field(default=())

    @property
    def from_archive(self) -> bool:
        return self.archive is not None


def _words(command: str | list[str]) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else list(command)


def is_archive_spec(command: str | list[str]) -> bool:
    """True if the command's first word names a ZIP (``team.zip`` or ``team.zip:MAIN``)."""
    try:
        words = _words(command)
    except ValueError:
        return False
    return bool(words) and _SPEC.fullmatch(words[0]) is not None


def resolve(spec: str | list[str], *, cache: str | os.PathLike | None = None, spelling: str | None = None,
            limits: ArchiveLimits | None = None) -> Player:
    """The :class:`Player` of ``spec``: an archive spec unpacked and its command built, any other
    command as it is.  Raises :class:`ArchiveError` (a ValueError) with one line."""
    words = _words(spec)
    match = _SPEC.fullmatch(words[0]) if words else None
    if match is None:
        return Player(command=words)
    archive = Path(match["zip"]).expanduser().absolute()
    extra = tuple(words[1:])
    spelling = spelling or os.environ.get(SPELLING_ENV) or "short"
    if spelling not in SPELLINGS:
        raise ArchiveError(f"{SPELLING_ENV}={spelling!r}: expected {' or '.join(SPELLINGS)}")
    key = (str(archive), match["main"], _stamp(archive), str(cache_root(cache)), spelling, limits)
    found = _RESOLVED.get(key)
    if found is None:
        root = unpack(archive, cache_root(cache), limits or ArchiveLimits.from_environment())
        main = _main_file(archive, root, match["main"])
        found = _RESOLVED[key] = (root, main, _start_words(archive, root, main))
    root, main, start = found
    host, port, reservation = SPELLINGS[spelling]
    command = ["env", "-C", str(root), *start, host, "{host}", port, "{port}", reservation, "{reservation}", *extra]
    return Player(command=command, archive=archive, root=root, main=main, extra=extra)


def resolve_command(command: str | list[str]) -> str | list[str]:
    """The command to start: an archive spec's, or ``command`` itself (tools/players.py)."""
    return resolve(command).command if is_archive_spec(command) else command


def table_command(command: str) -> str:
    """A seat's command of the viewer's tables as one line: an archive spec resolved, any other
    as given (``swc serve`` lends this to the server's table host, tools/cli.py)."""
    return shlex.join(resolve(command).command) if is_archive_spec(command) else command


_RESOLVED: dict[tuple, tuple[Path, str, list[str]]] = {}
"""Resolved archives by (path, main, size and mtime, ...): a game start hashes nothing."""


def _stamp(archive: Path) -> tuple:
    try:
        info = archive.stat()
    except OSError:
        return ()
    return info.st_size, info.st_mtime_ns, info.st_ino


def _main_file(archive: Path, root: Path, named: str | None) -> str:
    """The main file, relative to ``root``: the one named, else the single candidate."""
    if named is not None:
        if not named:
            raise ArchiveError(f"{archive}: no main file after ':' (expected {archive.name}:PATH/IN/ARCHIVE)")
        path = (root / named).resolve()
        if not path.is_relative_to(root.resolve()):
            raise ArchiveError(f"{archive}: the main file {named!r} is outside the archive")
        if not path.is_file():
            raise ArchiveError(f"{archive}: no file {named!r} in the archive")
        return path.relative_to(root.resolve()).as_posix()
    found = _candidates(root)
    top = [p for p in root.iterdir() if p.is_dir() and p.name not in IGNORED_TOP]
    if len(top) == 1:  # both places count: a jar beside a folder with a start.sh is two candidates
        found += _candidates(top[0])
    names = sorted(p.relative_to(root).as_posix() for p in found)
    if not names:
        raise ArchiveError(f"{archive}: no main file (a single *.jar or start.sh at the top or in one top folder); "
                           f"name one with {archive.name}:PATH")
    if len(names) > 1:
        raise ArchiveError(f"{archive}: several main files ({', '.join(names)}); name one with {archive.name}:PATH")
    return names[0]


def _candidates(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.is_file() and (p.suffix.lower() == ".jar" or p.name in MAIN_NAMES)]


def _start_words(archive: Path, root: Path, main: str) -> list[str]:
    """How the main file is started (relative to ``root``, the working folder)."""
    if main.lower().endswith(".jar"):
        return ["java", "-jar", main]
    path = root / main
    with open(path, "rb") as file:
        first = file.readline(512)
    if not first.startswith(b"#!"):
        raise ArchiveError(f"{archive}: {main} is not executable: its first line names no interpreter "
                           "(e.g. #!/bin/sh); the contest starts it without a shell")
    if first.endswith(b"\r\n"):
        raise ArchiveError(f"{archive}: {main} has Windows line ends (CRLF); the contest needs UNIX (LF) line ends")
    os.chmod(path, path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return ["./" + main]
