"""A client archive unpacked once, safely, into a cache folder keyed by the archive's SHA-256.

Why a cache keyed by the hash: a tournament starts the same archive hundreds of times, and two
teams may hand in archives of the same name; the content names the folder, so an archive changed
in place gets a folder of its own and an unchanged one is never unpacked twice.

Safe against two processes unpacking the same archive at once (``swc tournament --parallel``,
Dask workers sharing a home folder): each unpacks into a private temporary folder beside the
target and renames it into place; the loser of the race removes its copy and uses the winner's.

Refused, each with one line naming what is wrong, before anything is written where a bot runs:
not a ZIP file; an entry whose path escapes the folder (absolute, ``..``, a drive letter) or is
a symbolic link; more files than :attr:`ArchiveLimits.max_files` or more bytes unpacked than
:attr:`ArchiveLimits.max_bytes` (a zip bomb: the sizes an archive declares can lie, so the
bytes are counted as they are written, not read from its directory).

Conformance notes (choices where the contest documentation is silent):

* The contest system names no limits for an upload's unpacked size; the defaults here (512 MiB,
  20,000 files) are above a socha client packed with its dependencies (a few thousand files,
  well under 100 MiB) and a Java player's fat jar; ``SWC_ARCHIVE_MAX_BYTES`` and
  ``SWC_ARCHIVE_MAX_FILES`` change them.
* The unix permission bits an archive stores are kept (a ``zip -r`` on Linux keeps a binary's x
  bit); the contest documentation says a ZIP keeps no x bit, so its ``start.sh`` makes its
  binaries executable itself, and that works here too.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
import uuid
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

CACHE_ENV = "SWC_ARCHIVE_CACHE"
MAX_BYTES_ENV = "SWC_ARCHIVE_MAX_BYTES"
MAX_FILES_ENV = "SWC_ARCHIVE_MAX_FILES"
CHUNK = 1 << 16
DONE_MARK = ".swc-unpacked"  # written last into a complete folder (never a name a team's file has)


class ArchiveError(ValueError):
    """An archive that cannot be played; the text is one line naming the archive and the fault."""


@dataclass(frozen=True)
class ArchiveLimits:
    max_bytes: int = 512 * 1024 * 1024  # SWC_ARCHIVE_MAX_BYTES
    max_files: int = 20_000  # SWC_ARCHIVE_MAX_FILES

    @classmethod
    def from_environment(cls) -> "ArchiveLimits":
        default = cls()
        return cls(max_bytes=_int_env(MAX_BYTES_ENV, default.max_bytes),
                   max_files=_int_env(MAX_FILES_ENV, default.max_files))


def _int_env(name: str, default: int) -> int:
    text = os.environ.get(name)
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ArchiveError(f"{name}={text!r}: expected a whole number") from None
    if value < 1:
        raise ArchiveError(f"{name}={text!r}: expected a number of at least 1")
    return value


def cache_root(override: str | os.PathLike | None = None) -> Path:
    """Where archives are unpacked: ``override``, else ``$SWC_ARCHIVE_CACHE``, else the user's
    cache folder (``$XDG_CACHE_HOME/swc-local/archives``, ``~/.cache/...`` without it)."""
    if override:
        return Path(override)
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "swc-local" / "archives"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def unpack(archive: Path, cache: Path, limits: ArchiveLimits) -> Path:
    """The folder ``archive`` is unpacked in (unpacked now unless an earlier call did it)."""
    if not archive.is_file():
        raise ArchiveError(f"{archive}: no such file")
    if not zipfile.is_zipfile(archive):
        raise ArchiveError(f"{archive}: not a ZIP archive")
    target = cache / sha256_of(archive)
    if (target / DONE_MARK).is_file():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".partial-{target.name[:12]}-{uuid.uuid4().hex[:8]}-", dir=cache))
    try:
        _extract(archive, partial, limits)
        (partial / DONE_MARK).write_text(f"{archive.name}\n")
        try:
            os.rename(partial, target)
        except OSError:
            if not (target / DONE_MARK).is_file():  # a stale half folder of a killed process: replace it
                shutil.rmtree(target, ignore_errors=True)
                os.rename(partial, target)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return target


def _extract(archive: Path, into: Path, limits: ArchiveLimits) -> None:
    try:
        with zipfile.ZipFile(archive) as zipped:
            entries = zipped.infolist()
            files = [entry for entry in entries if not entry.is_dir()]
            if len(files) > limits.max_files:
                raise ArchiveError(f"{archive}: {len(files)} files, more than the {limits.max_files} allowed "
                                   f"({MAX_FILES_ENV}); a zip bomb?")
            for entry in entries:
                _check_entry(archive, entry)
            written = 0
            for entry in entries:
                path = into / entry.filename
                if entry.is_dir():
                    path.mkdir(parents=True, exist_ok=True)
                    continue
                path.parent.mkdir(parents=True, exist_ok=True)
                with zipped.open(entry) as source, open(path, "wb") as sink:
                    for block in iter(lambda: source.read(CHUNK), b""):
                        written += len(block)
                        if written > limits.max_bytes:
                            raise ArchiveError(f"{archive}: unpacks to more than {limits.max_bytes} bytes "
                                               f"({MAX_BYTES_ENV}); a zip bomb?")
                        sink.write(block)
                mode = (entry.external_attr >> 16) & 0o777
                if mode:
                    os.chmod(path, mode | stat.S_IRUSR | stat.S_IWUSR)
    except zipfile.BadZipFile as error:
        raise ArchiveError(f"{archive}: a broken ZIP archive ({error})") from None
    except OSError as error:  # a name both a file and a folder, a name too long, ...
        raise ArchiveError(f"{archive}: cannot unpack {Path(error.filename or '?').name!r}: "
                           f"{error.strerror or error}") from None


def _check_entry(archive: Path, entry: zipfile.ZipInfo) -> None:
    name = entry.filename
    if stat.S_ISLNK(entry.external_attr >> 16):
        raise ArchiveError(f"{archive}: {name!r} is a symbolic link; an archive may hold files and folders only")
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or (path.parts and ":" in path.parts[0]):
        raise ArchiveError(f"{archive}: {name!r} escapes the archive's folder (an absolute path or '..')")
    if "\x00" in name:
        raise ArchiveError(f"{archive}: an entry's name holds a NUL byte")
