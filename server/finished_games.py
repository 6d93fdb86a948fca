"""The last games a door finished, one short line each, for the summary ``swc serve`` prints when
a signal stops it (server/shutdown.py, issue 43): a person or a CI job that stopped the server
sees which games ended and how, not only how many.

Each door keeps its own :class:`RecentGames` (at most :data:`SHOWN` lines, so a server that runs
for weeks keeps no more); one counter shared by every door orders the lines of all doors, so the
summary shows the last ones of the whole server in the order they ended.
"""

from __future__ import annotations

import collections
import itertools

SHOWN = 20
"""The summary names at most this many games, the last ones; a count stands for the rest."""

_ENDED = itertools.count()  # one order for the lines of every door


class RecentGames:
    """The last :data:`SHOWN` finished games of one door, each ``(order, line)``."""

    def __init__(self) -> None:
        self._lines: collections.deque[tuple[int, str]] = collections.deque(maxlen=SHOWN)

    def add(self, line: str) -> None:
        """One finished game: ``piranhas_2026 room R: ONE 2, TWO 0`` (game type first)."""
        self._lines.append((next(_ENDED), line))

    def lines(self) -> list[tuple[int, str]]:
        return list(self._lines)


def last_games(doors, total: int) -> list[str]:
    """The summary's lines after its counts line: the last :data:`SHOWN` games of all ``doors``
    that keep them (``recent_games()``), oldest first, each led by its door's name, and, when
    ``total`` counts more, one line saying how many are left out."""
    ordered = sorted(
        (order, f"  {door.name}: {line}")
        for door in doors if callable(getattr(door, "recent_games", None))
        for order, line in door.recent_games())
    shown = [line for _, line in ordered[-SHOWN:]]
    rest = total - len(shown)
    return ([f"  ... and {rest} earlier game{'' if rest == 1 else 's'}"] if rest > 0 and shown else []) + shown
