"""Profile the server process under load: ``python -m benchmarks --profile [K]``.

Why cProfile on the real server process (``python -m cProfile -m server``) rather than on an
in-process loop: the hot path includes the trio event loop, socket reads and writes and the
lobby's dispatch, which only show up when real clients drive a real server.  The server is
stopped with SIGINT, so the CLI returns normally and cProfile writes its stats.  cProfile adds
a fixed cost per Python call, so it exaggerates many-small-calls code; read the shares, not the
absolute times.
"""

from __future__ import annotations

import io
import pstats
import tempfile
from pathlib import Path

from benchmarks.load import run_load, summary


def profile_server(rooms: int = 10, seconds: float = 8.0, top: int = 25) -> str:
    """Drive a profiled server with ``rooms`` rooms; return the report text."""
    with tempfile.TemporaryDirectory(prefix="swc-prof-") as folder:
        path = Path(folder) / "server.prof"
        result = run_load(rooms, seconds, profile_to=path)
        stats = pstats.Stats(str(path), stream=(out := io.StringIO()))
        moves = max(result.moves, 1)
        out.write(f"profiled server, {summary(result)}\n")
        out.write(f"(times below are for the whole server run, ~{moves:,} moves in the window)\n")
        stats.strip_dirs()
        for key in ("tottime", "cumulative"):
            out.write(f"\n=== top {top} by {key} ===\n")
            stats.sort_stats(key).print_stats(top)
        return out.getvalue()
