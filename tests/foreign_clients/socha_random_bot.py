"""The random bot both official ``socha`` client tests run (Piranhas 2026, Blokus 2027).

It is what a student's first bot looks like: ``Starter(Logic())`` with ``calculate_move``
picking one of ``state.possible_moves()``.  Only two things differ from a student's bot, both
for the test suite: the start-up version check (a request to pypi.org) is replaced by a log
line, so the suite never reaches the network; and every event is printed as a ``PEER`` line
(the format of the golden captures' ``*.client.log``) for the test to read.

Each game's script (``socha_<game>.py``, run in socha's own venv, which puts this folder first
on ``sys.path``) only says how a move is printed and calls :func:`main`.  Arguments are socha's
own (``--host``, ``--port``, ``--reservation``); the environment variable ``SOCHA_BOT_SEED``
seeds the move choice.
"""

import logging
import os
import random
import sys
from collections.abc import Callable

from socha.api.networking.game_client import IClientHandler
from socha.starter import Starter


def say(*parts: object) -> None:
    print("PEER", *parts, flush=True)


class Logic(IClientHandler):
    def __init__(self, seed: int, describe: Callable[[object, object], tuple], avoid=None) -> None:
        self.rng = random.Random(seed)
        self.describe = describe
        self.avoid = avoid
        self.state = None
        self.moves = 0

    def on_game_joined(self, room_id) -> None:
        say("joined", room_id)

    def on_update(self, state) -> None:
        self.state = state

    def calculate_move(self):
        moves = self.state.possible_moves()
        if self.avoid is not None:  # a game's known client crash kept out of the random play
            moves = [m for m in moves if not self.avoid(self.state, m)] or moves
        move = self.rng.choice(moves)
        self.moves += 1
        say("move", self.moves, *self.describe(self.state, move))
        return move

    def on_game_over(self, result) -> None:
        winner = result.winner
        say("result", winner.team, winner.regular, winner.reason)

    def on_error(self, message: str) -> None:
        say("error", message)

    def on_game_left(self) -> None:
        say("left")


def _no_version_check() -> None:
    logging.info("version check skipped (offline test run)")


def main(describe: Callable[[object, object], tuple], avoid=None) -> None:
    """Play one game as socha's ``Starter`` does; ``describe(state, move)`` gives the words
    printed after ``PEER move <n>``; ``avoid(state, move)`` marks moves the bot skips while it
    has others."""
    Starter.check_socha_version = staticmethod(_no_version_check)
    Starter(Logic(int(os.environ.get("SOCHA_BOT_SEED", "0")), describe, avoid))
    sys.exit(0)
