"""A random bot on the official ``socha`` 2.2.2 client (Mississippi Queen 2024), run in socha's
own venv: :mod:`socha_random_bot`'s bot, except where socha 2.2.2's own generator finds no move.

socha 2.2.2 offers no move in some positions where the official rules have one (spec §11: it
never offers a move without an acceleration).  A student's bot built on ``possible_moves()``
then has nothing to send; socha's client sends nothing when ``calculate_move`` returns None, and
this bot does just that, after a ``PEER nomove`` line that tells the test the game now waits for
ever (no timeouts for ``canTimeout="false"`` slots, as on the official 24.2.5 server).

``SOCHA_BOT_POLICY=thrifty`` chooses uniformly among the moves with the fewest turn actions and
coal-costing acceleration units (as the season's captures did): such ships last longer than
purely random ones, which burn their coal on chains of turns and are stuck within a few moves.
"""

import os
import re
import sys

from socha.starter import Starter

from socha_random_bot import Logic, _no_version_check, say


def thrift(move) -> int:
    """Turn actions plus acceleration units beyond the free one, read from socha's own repr."""
    text = repr(move)
    return text.count("Turn(Turn") + sum(max(abs(int(n)) - 1, 0) for n in re.findall(r"acc: (-?\d+)", text))


class MississippiLogic(Logic):
    def calculate_move(self):
        moves = self.state.possible_moves()
        if not moves:
            say("nomove", self.state.turn)
            return None
        if os.environ.get("SOCHA_BOT_POLICY") == "thrifty":
            costs = [thrift(move) for move in moves]
            moves = [move for move, cost in zip(moves, costs) if cost == min(costs)]
        move = self.rng.choice(moves)
        self.moves += 1
        say("move", self.moves, self.state.turn, repr(move))
        return move


if __name__ == "__main__":
    Starter.check_socha_version = staticmethod(_no_version_check)
    Starter(MississippiLogic(int(os.environ.get("SOCHA_BOT_SEED", "0")), lambda state, move: ()))
    sys.exit(0)
