"""Client archives for the tests, packed as the contest's teams pack them.

- :func:`reference_bot_zip`: the reference bot behind a ``start.sh`` that reads the contest's
  options GNU-getopt style (``-h/--host``, ``-p/--port``, ``-r/--reservation``, any order, also
  ``--port=N``), logs what it was given on stderr and passes the rest on: a team's script.
- :func:`java_player_zip`: tests/java/Player.java built into a runnable jar with Debian's JDK
  and zipped alone, as the Java template's documentation packs it.
- :func:`probing_bot_zip`: the reference bot's team archive that quits when it can read a host
  file and writes into its own folder first: it plays only sandboxed, on a private copy.
- :func:`pack`: any files (name -> bytes or text, or (data, mode)) into a ZIP.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

JAVA_SOURCE = Path(__file__).resolve().parent / "java" / "Player.java"

START_SH = r"""#!/bin/sh
# The contest starts this with -h HOST -p PORT -r RESERVATION (short or long, any order).
set -e
host=localhost; port=13050; reservation=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--host) host="$2"; shift 2 ;;
    -p|--port) port="$2"; shift 2 ;;
    -r|--reservation) reservation="$2"; shift 2 ;;
    --host=*) host="${1#*=}"; shift ;;
    --port=*) port="${1#*=}"; shift ;;
    --reservation=*) reservation="${1#*=}"; shift ;;
    *) break ;;
  esac
done
echo "start.sh host=$host port=$port reservation=$reservation extra=$*" >&2
exec PYTHON -m swc_local.tools.cli bot GAME --host "$host" --port "$port" --reservation "$reservation" "$@"
"""


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch) -> Path:
    """Each test unpacks into a cache of its own (SWC_ARCHIVE_CACHE), never the user's, and without
    the user's SWC_ARCHIVE_OPTIONS. A test module turns it on for its every test by importing it."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("SWC_ARCHIVE_CACHE", str(folder))
    monkeypatch.delenv("SWC_ARCHIVE_OPTIONS", raising=False)
    return folder


def pack(path: Path, files: dict[str, object]) -> Path:
    """A ZIP at ``path`` holding ``files`` (name -> text, bytes, or (text or bytes, unix mode))."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name, content in files.items():
            mode = None
            if isinstance(content, tuple):
                content, mode = content
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            if mode is not None:
                info.external_attr = mode << 16
            zipped.writestr(info, content.encode() if isinstance(content, str) else content)
    return path


def start_sh(game: str, python: str = sys.executable) -> str:
    return START_SH.replace("PYTHON", python).replace("GAME", game)


def reference_bot_zip(path: Path, game: str, folder: str | None = "team", mode: int | None = None) -> Path:
    """The reference bot of ``game`` as a team's archive: ``folder/start.sh`` (no x bit unless
    ``mode``: a ZIP made on Windows keeps none)."""
    name = f"{folder}/start.sh" if folder else "start.sh"
    script = start_sh(game)
    return pack(path, {name: (script, mode) if mode else script, f"{folder or '.'}/README.txt": "our player\n"})


PROBED_FILE = "written-by-the-bot"


def probing_bot_zip(path: Path, game: str, secret: Path) -> Path:
    """A team's archive (``team/start.sh``, the reference bot of ``game``, extra parameters passed
    on) that exits 3 when it can read ``secret`` (put it in the host's /tmp, which the sandbox
    hides) and writes :data:`PROBED_FILE` into its folder before it plays (read-only there
    without the sandbox's private copy): a regular game proves both."""
    if not secret.exists():
        secret.write_text("the teacher's\n")
    prelude = (f"if cat {secret} >/dev/null 2>&1; then echo 'read the host file' >&2; exit 3; fi\n"
               f"echo played > ./{PROBED_FILE}\n")
    return pack(path, {"team/start.sh": start_sh(game).replace("set -e\n", "set -e\n" + prelude, 1)})


def java_player_zip(path: Path, work: Path) -> Path:
    """tests/java/Player.java as the template packs it: a runnable jar, alone in a ZIP."""
    javac, jar = shutil.which("javac"), shutil.which("jar")
    assert javac and jar, "the JDK is missing: apt-get install default-jdk-headless"
    classes = work / "classes"
    classes.mkdir(parents=True, exist_ok=True)
    subprocess.run([javac, "-d", str(classes), str(JAVA_SOURCE)], check=True, capture_output=True)
    built = work / "my_player.jar"
    subprocess.run([jar, "--create", "--file", str(built), "--main-class", "Player", "-C", str(classes), "."],
                   check=True, capture_output=True)
    with zipfile.ZipFile(path, "w") as zipped:
        zipped.write(built, "my_player.jar")
    return path


SOCHA_START_SH = """#!/bin/sh

# Exit immediately if any command fails
set -e

# Sets the environment variable, which adds the directory to the list of paths that Python searches for modules and packages when they are imported.
export PYTHONPATH=./{folder}/packages:$PYTHONPATH

# Run the logic.py script with start arguments
{python3} ./{folder}/logic.py "$@"
"""


def socha_player_zip(path: Path, venv_python: Path, script: Path, folder: str = "my_player") -> Path:
    """A socha client packed as socha's package builder packs it (``socha/utils/package_builder.py``:
    ``FOLDER/logic.py``, ``FOLDER/packages/``, ``FOLDER/start.sh`` run from the archive's root).

    Two differences, both because the tests may not download: ``packages/`` is the socha venv's
    installed site-packages (the builder downloads wheels and its start.sh installs them with
    ``pip install --no-index`` at each start), and ``python3`` is the interpreter that venv was
    made from (a compiled socha needs that same Python version; the contest's image has one)."""
    site = subprocess.run([str(venv_python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    base = subprocess.run([str(venv_python), "-c", "import sys; print(sys._base_executable)"],
                          check=True, capture_output=True, text=True).stdout.strip()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zipped:
        zipped.writestr(f"{folder}/start.sh", SOCHA_START_SH.format(folder=folder, python3=base))
        zipped.write(script, f"{folder}/logic.py")
        for file in sorted(Path(site).rglob("*")):
            if file.is_file() and "__pycache__" not in file.parts:
                zipped.write(file, f"{folder}/packages/{file.relative_to(site).as_posix()}")
    return path


def unpack_at_a_barrier(archive: str, cache: str, barrier, results) -> None:
    """One process of a race of two unpacking ``archive`` into ``cache`` at once: it unpacks into
    its private folder, then waits at ``barrier`` until the other has unpacked too, and only then
    renames into place, so one of the two always loses the rename (a process's own copy of the
    module is patched, nothing else).  The folder it ends with goes to ``results``."""
    from swc_local.tools import archive_unpack

    made_readable = archive_unpack._readable_by_others

    def then_wait(root) -> None:  # the last step before the rename
        made_readable(root)
        barrier.wait(timeout=60)

    archive_unpack._readable_by_others = then_wait
    results.put(str(archive_unpack.unpack(Path(archive), Path(cache), archive_unpack.ArchiveLimits())))
