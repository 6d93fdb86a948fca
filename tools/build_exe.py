"""Builds ``dist/swc``: one self-contained executable of swc-local for Linux x86-64, for a machine
without Python (a student with only the Java of the contest, a CI image without pip).

    pip install -e '.[exe]' && python -m tools.build_exe        # from the repository's root

Why PyInstaller: it is the maintained, widely used bundler that makes one file of an interpreter,
its standard library, compiled extensions (pydantic-core, the trio stack) and package data, with
community hooks for the libraries we use; the result runs on any glibc Linux as new as the build
machine's. (Nuitka compiles to C and needs a C compiler and minutes of CPU per build; a zipapp
(shiv, pex) still needs a Python on the target.)

What is bundled is what a user installs, not the source tree: the script builds the wheel, installs
it into a staging folder and bundles that, so the executable has exactly the wheel's modules and
package data (found at run time through ``importlib.resources``, as an install finds them).
The optional extras stay out (``swc tournament --dask`` says to ``pip install 'swc-local[dask]'``),
and so does the pytest plugin (``swc_pytest``: it runs inside pytest, which has a Python).

The bundle's entry point is :data:`ENTRY`: ``swc ARGS`` as the console script, and the ``-m MODULE``
forms that the tools start with ``sys.executable`` (the reference bots of every family, the
viewer's file reader), since a frozen ``sys.executable`` is the executable itself.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPOSITORY / "dist" / "swc"
LEFT_OUT = (
    "swc_local.swc_pytest", "swc_local.tools.build_exe",  # the pytest plugin; this script
    "pytest", "_pytest", "hypothesis", "selenium", "mkdocs", "material",  # the test and docs extras
    "dask", "distributed", "PyInstaller", "setuptools", "pip", "tkinter",
)

ENTRY = '''"""The frozen ``swc``: the console script, and the ``-m MODULE`` forms the tools start."""
import sys

from swc_local.client import bot, reversixt_bot, roborally_bot
from swc_local.server.xml import read_apart
from swc_local.tools import cli, measure

MODULES = {
    "swc_local.tools.cli": lambda argv: cli.main(argv),
    "swc_local.client.bot": lambda argv: bot.main(argv),
    "swc_local.client.reversixt_bot": lambda argv: reversixt_bot.main(argv),
    "swc_local.client.roborally_bot": lambda argv: roborally_bot.main(argv),
    "swc_local.server.xml.read_apart": lambda argv: read_apart.main(argv),
    "swc_local.tools.measure": lambda argv: measure.main(argv),  # swc check's bot under test
}


def main(argv):
    if argv[:1] != ["-m"]:
        return cli.main(argv)
    name = argv[1] if len(argv) > 1 else ""
    if name not in MODULES:
        print(f"swc: -m {name!r}: this executable runs only {', '.join(sorted(MODULES))}", file=sys.stderr)
        return 2
    sys.argv = [sys.argv[0], *argv[2:]]
    return MODULES[name](argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
'''


def run(command: list[str], cwd: Path | None = None) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"build_exe: {' '.join(command[:4])} ... failed:\n{done.stdout}{done.stderr}")


def stage(work: Path) -> Path:
    """The wheel of the repository installed into ``work/site`` (without dependencies)."""
    source = work / "source"
    shutil.copytree(REPOSITORY, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "site", "tests", "benchmarks", "docs",
        ".socha-clients", "replays"))  # a copy: the build leaves no build/ or egg-info in the tree
    wheels = work / "wheel"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels), str(source)])
    (wheel,) = wheels.glob("swc_local-*.whl")
    site = work / "site"
    run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-compile", "-q", "--target", str(site), str(wheel)])
    return site


def data_files(site: Path) -> list[tuple[Path, str]]:
    """Every package data file of the install, with its folder inside the bundle."""
    package = site / "swc_local"
    return [(path, str(path.parent.relative_to(site))) for path in sorted(package.rglob("*"))
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
            and "swc_pytest" not in path.parts]


def pyinstaller_args(site: Path, work: Path, output: Path) -> list[str]:
    entry = work / "swc_entry.py"
    entry.write_text(ENTRY)
    args = ["--onefile", "--name", output.name, "--distpath", str(output.parent), "--workpath", str(work / "build"),
            "--specpath", str(work), "--paths", str(site), "--noconfirm", "--log-level", "WARN"]
    for path, folder in data_files(site):
        args += ["--add-data", f"{path}:{folder}"]
    for module in LEFT_OUT:
        args += ["--exclude-module", module]
    return [*args, str(entry)]


def build(output: Path) -> Path:
    try:
        from PyInstaller.__main__ import run as pyinstaller
    except ImportError:
        raise SystemExit("build_exe: PyInstaller is missing: pip install -e '.[exe]'") from None
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="swc-exe-") as temporary:
        work = Path(temporary)
        pyinstaller(pyinstaller_args(stage(work), work, output))
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.build_exe", description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help=f"the executable to write (default {DEFAULT_OUTPUT})")
    args = parser.parse_args(argv)
    path = build(args.output.resolve())
    print(f"built {path} ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
