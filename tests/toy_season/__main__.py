"""The toy season's reference bot in a process of its own: ``swc bot`` with the toy known.

``python -m tests.toy_season --host H --port P [--reservation R] [--seed S]`` adds the toy's value
to the registry's tuple of this process (what :func:`tests.toy_season.register` does in a test)
and runs ``swc bot GAME`` unchanged.
"""

from __future__ import annotations

import sys

from swc_local.games import registry
from swc_local.tools.cli import main

from tests.toy_season.entry import ENTRY

if __name__ == "__main__":
    registry.GAMES = (*registry.GAMES, ENTRY)
    sys.exit(main(["bot", ENTRY.game_type, *sys.argv[1:]]))
