"""A random bot on the official ``socha`` 5.x client (Blokus 2027), run in socha's own venv.

It is what a student's first bot looks like: ``Starter(Logic())`` with ``calculate_move``
picking one of ``state.possible_moves()``.  Only two things differ from a student's bot, both
for the test suite: the start-up version check (a request to pypi.org) is replaced by a log
line, so the suite never reaches the network; and every event is printed as a ``PEER`` line
for the test to read.

Arguments are socha's own (``--host``, ``--port``, ``--reservation``); the environment
variable ``SOCHA_BOT_SEED`` seeds the move choice.
"""

import logging
import os
import random
import sys

from socha.api.networking.game_client import IClientHandler
from socha.starter import Starter


def say(*parts: object) -> None:
    print("PEER", *parts, flush=True)


class Logic(IClientHandler):
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.state = None
        self.moves = 0

    def on_game_joined(self, room_id) -> None:
        say("joined", room_id)

    def on_update(self, state) -> None:
        self.state = state

    def calculate_move(self):
        moves = self.state.possible_moves()
        move = self.rng.choice(moves)
        self.moves += 1
        say("move", self.moves, self.state.turn, move.get_color().name())
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


Starter.check_socha_version = staticmethod(_no_version_check)

if __name__ == "__main__":
    Starter(Logic(int(os.environ.get("SOCHA_BOT_SEED", "0"))))
    sys.exit(0)
