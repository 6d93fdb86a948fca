"""The XML reference bot in a process that knows the toy season: ``swc bot`` with the toy known.

``python -m tests.toy_season GAME --host H --port P [--reservation R] [--seed S]`` adds the toy's
value to the registry's tuple of this process (what :func:`tests.toy_season.register` does in a
test) and runs the reference bot (``python -m swc_local.client.bot``'s ``main``) unchanged.
"""

from __future__ import annotations

import sys

from swc_local.games import registry
from swc_local.client.bot import main

from tests.toy_season.entry import ENTRY

if __name__ == "__main__":
    registry.GAMES = (*registry.GAMES, ENTRY)
    sys.exit(main(sys.argv[1:]))
