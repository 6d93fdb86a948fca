"""The greedy-N rungs' rule (client/ladder.py lists them): ``greedy-N`` plays greedy's decision on
N % of its decisions and random's on the others.

Why a module of its own: every reference bot reads it, and client/ladder.py imports every
family's bot (client/bots.py), so a bot cannot import the ladder; and a random XML bot must not pay
the ladder's imports (about 0.5 s) to learn that its rung is not a mixed one.
"""

from __future__ import annotations

import random
import re

MIXED = re.compile(r"greedy-([1-9][0-9]?)")
"""A greedy-N rung's name: N, the percentage of greedy decisions, 1-99."""


def greedy_share(rung: str) -> float | None:
    """The share of greedy decisions of a greedy-N rung (0.25 for ``greedy-25``), None for any other."""
    found = MIXED.fullmatch(rung)
    return int(found.group(1)) / 100 if found else None


def unmixed(rung: str, rng: random.Random) -> str:
    """The rung whose move a greedy-N rung plays this time: ``greedy`` with probability N %, else
    ``random`` (one draw of the bot's seeded ``rng``, so the game stays deterministic from the
    seed); any other rung is itself, without a draw."""
    share = greedy_share(rung)
    if share is None:
        return rung
    return "greedy" if rng.random() < share else "random"
