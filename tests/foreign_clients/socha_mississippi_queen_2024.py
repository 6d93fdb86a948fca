"""A random bot on the official ``socha`` 2.2.2 client (Mississippi Queen 2024), run in socha's
own venv: :mod:`socha_random_bot`'s bot, except where socha 2.2.2's own generator finds no move.

socha 2.2.2 offers no move in some positions where the official rules have one (spec §11: it
never offers a move without an acceleration).  A student's bot built on ``possible_moves()``
then has nothing to send; socha's client sends nothing when ``calculate_move`` returns None, and
this bot does just that, after a ``PEER nomove`` line that tells the test the game now waits for
ever (no timeouts for ``canTimeout="false"`` slots, as on the official 24.2.5 server).
"""

import os
import sys

from socha.starter import Starter

from socha_random_bot import Logic, _no_version_check, say


class MississippiLogic(Logic):
    def calculate_move(self):
        moves = self.state.possible_moves()
        if not moves:
            say("nomove", self.state.turn)
            return None
        move = self.rng.choice(moves)
        self.moves += 1
        say("move", self.moves, self.state.turn, repr(move))
        return move


if __name__ == "__main__":
    Starter.check_socha_version = staticmethod(_no_version_check)
    Starter(MississippiLogic(int(os.environ.get("SOCHA_BOT_SEED", "0")), lambda state, move: ()))
    sys.exit(0)
