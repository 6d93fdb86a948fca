"""What a client archive costs a game start: the first unpack, and every start after it.

A tournament starts an archive hundreds of times; the first start unpacks it into the cache
(tools/archive_unpack.py), every later one hashes the ZIP (a new process) or finds it in the
process's memo (the runner's own starts). The archive is a socha-sized one: ``--files`` files of
random bytes (incompressible, ``--megabytes`` in all) in one top folder with a ``start.sh``.
Each figure is the median of ``--runs`` runs, against the plain command's ``expand`` in the same run.

    python -m benchmarks.archive_start [--runs 20] [--files 2000] [--megabytes 20]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
import zipfile
from pathlib import Path

from swc_local.tools import archive
from swc_local.tools.archive_unpack import ArchiveLimits, unpack
from swc_local.tools.players import expand

PLAIN = "python3 my_bot.py --host {host} --port {port} --reservation {reservation}"
VALUES = {"host": "127.0.0.1", "port": 13050, "reservation": "code", "seed": 1, "game": "g"}


def build(path: Path, files: int, megabytes: int) -> Path:
    size = megabytes * 1024 * 1024 // files
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("team/start.sh", "#!/bin/sh\nexec true\n")
        for i in range(files):
            zipped.writestr(f"team/packages/lib{i // 100}/m{i}.py", os.urandom(size))
    return path


def median_of(runs: int, action) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--megabytes", type=int, default=20)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="swc-archive-bench-"))
    try:
        team = build(work / "team.zip", args.files, args.megabytes)
        runs = max(3, args.runs // 5)
        first = median_of(runs, lambda: unpack(team, Path(tempfile.mkdtemp(dir=work)), ArchiveLimits()))
        cache = work / "cache"
        archive.resolve(str(team), cache=cache)
        archive._RESOLVED.clear()
        fresh = median_of(args.runs, lambda: (archive._RESOLVED.clear(), archive.resolve(str(team), cache=cache)))
        os.environ["SWC_ARCHIVE_CACHE"] = str(cache)
        memo = median_of(args.runs * 50, lambda: expand(str(team), **VALUES))
        plain = median_of(args.runs * 50, lambda: expand(PLAIN, **VALUES))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"archive: {args.files} files, {args.megabytes} MiB")
    print(f"first start (unpack):            {first * 1000:9.1f} ms")
    print(f"start in a new process (hash):   {fresh * 1000:9.1f} ms")
    print(f"start in the same process:       {memo * 1e6:9.1f} us  ({memo / plain:.1f}x a plain command's {plain * 1e6:.1f} us)")


if __name__ == "__main__":
    main()
