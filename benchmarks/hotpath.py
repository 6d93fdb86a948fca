"""Profile the server process under load: ``python -m benchmarks --profile [K]``.

Why cProfile on the real server process rather than on an in-process loop: the hot path includes
the trio event loop, socket reads and writes and the lobby's dispatch, which only show up when
real clients drive a real server.  The profiler is set up inside the server process (a prelude,
:class:`~benchmarks.serverproc.ServerProcess`), switched on at the first move (start-up and
imports are not the hot path) and runs with ``time.process_time`` as its clock, so it attributes the process's CPU time and not the moments
other processes held the CPU (the machine is often shared); the stats are written at exit (the
server is stopped with SIGINT, so the CLI returns normally).  cProfile adds a fixed cost per
Python call, so it exaggerates many-small-calls code; read the shares, not the absolute times.

The report starts with the CPU per move split into kinds of work (by the function's module), per
move the server handled (calls of the rooms' ``on_data``), then the usual top lists.
"""

from __future__ import annotations

import io
import pstats
import tempfile
from pathlib import Path

from benchmarks.load import run_load, summary

PRELUDE = """
import atexit, cProfile, time
from swc_local.server.xml.room import GameRoom as _Room
_profile = cProfile.Profile(time.process_time)
_on_data = _Room.on_data
def _first_move(self, *args):  # profile from the first move on: start-up is not the hot path
    _Room.on_data = _on_data
    _profile.enable()
    return _on_data(self, *args)
_Room.on_data = _first_move
atexit.register(lambda: (_profile.disable(), _profile.dump_stats({path!r})))
"""
KINDS = (  # (kind, test on "file:function"), first match wins
    ("socket and epoll system calls", lambda f: any(k in f for k in (
        "method 'poll' of 'select.epoll'", "method 'modify' of 'select.epoll'", "method 'register' of 'select.epoll'",
        "posix.write", "posix.read", "method 'send' of '_socket", "method 'recv' of '_socket"))),
    ("trio: run loop, scheduling, socket wrappers", lambda f: "/trio/" in f),
    ("parsing client messages (expat + reader)", lambda f: "pyexpat" in f or "protocol/reader.py" in f),
    ("rendering mementos and messages", lambda f: "xmlmap.py" in f or "protocol/element.py" in f
        or "protocol/writer.py" in f or "protocol/messages.py" in f or "protocol/modern.py" in f),
    ("rules (check, apply, end of game)", lambda f: "rules.py" in f or "/games/" in f),
    ("lobby, room, connection, read loop", lambda f: "/server/" in f),
)


def _kind_of(key: tuple[str, int, str]) -> str:
    filename, _, function = key
    name = f"{filename}:{function}"
    for kind, test in KINDS:
        if test(name):
            return kind
    if filename == "~":
        return "Python built-ins called by all of the above (str, dict, list methods, ...)"
    if filename == "<string>":
        return "dataclass constructors (Element, PendingRequest, ...)"
    return "other (logging, standard library)"


def kinds_per_move(stats: pstats.Stats) -> tuple[int, list[tuple[str, float]]]:
    """(moves handled, [(kind, CPU µs per move)]) from a profile of a server run."""
    table = stats.stats  # type: ignore[attr-defined]
    moves = sum(calls for (filename, _, function), (calls, *_rest) in table.items()
                if function == "on_data" and filename.endswith("room.py"))
    totals: dict[str, float] = {}
    for key, (_, _, tottime, _, _) in table.items():
        kind = _kind_of(key)
        totals[kind] = totals.get(kind, 0.0) + tottime
    per_move = [(kind, seconds / max(moves, 1) * 1e6) for kind, seconds in totals.items()]
    return moves, sorted(per_move, key=lambda item: -item[1])


def profile_server(rooms: int = 10, seconds: float = 8.0, top: int = 25) -> str:
    """Drive a profiled server with ``rooms`` rooms; return the report text."""
    with tempfile.TemporaryDirectory(prefix="swc-prof-") as folder:
        path = Path(folder) / "server.prof"
        result = run_load(rooms, seconds, prelude=PRELUDE.format(path=str(path)))
        stats = pstats.Stats(str(path), stream=(out := io.StringIO()))
        out.write(f"profiled server, {summary(result)}\n")
        moves, kinds = kinds_per_move(stats)
        out.write(f"CPU per move by kind of work (profiler clock: process CPU time; {moves:,} moves handled "
                  "from the first move to the end of the run):\n")
        for kind, micros in kinds:
            out.write(f"  {micros:8.1f} µs  {kind}\n")
        out.write(f"  {sum(m for _, m in kinds):8.1f} µs  total (cProfile's own overhead included)\n")
        stats.strip_dirs()
        for key in ("tottime", "cumulative"):
            out.write(f"\n=== top {top} by {key} ===\n")
            stats.sort_stats(key).print_stats(top)
        return out.getvalue()
