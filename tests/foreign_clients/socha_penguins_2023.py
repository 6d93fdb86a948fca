"""A random bot on the official ``socha`` 1.0.8 client (Penguins 2023), run in socha's own venv.

The bot is :mod:`socha_random_bot`'s, with the two things socha 1.x does differently: its
``possible_moves`` is a property (a method from 2.x on), and its result has no
``<winner regular reason>`` (the 2022 envelope): the ``PEER result`` line says the winner's
team (``None`` without a winner), whether both scores are REGULAR, and every score as
``TEAM=CAUSE,part,part`` (the format of the golden captures' ``*.client.log``).
"""

import os
import sys

from socha.starter import Starter
from socha_random_bot import Logic, _no_version_check, say


class PenguinsLogic(Logic):
    def calculate_move(self):
        moves = self.state.possible_moves
        move = self.rng.choice(moves)
        self.moves += 1
        say("move", self.moves, self.state.turn, move.from_value, move.to_value)
        return move

    def on_game_over(self, result) -> None:
        scores = [(e.player.team, e.score.cause, ",".join(map(str, e.score.part))) for e in result.scores.entry]
        regular = all(cause == "REGULAR" for _, cause, _ in scores)
        winner = result.winner.team if result.winner is not None else None
        say("result", winner, regular, " ".join(f"{team}={cause},{parts}" for team, cause, parts in scores))


if __name__ == "__main__":  # as socha_random_bot.main, with this Logic
    Starter.check_socha_version = staticmethod(_no_version_check)
    Starter(PenguinsLogic(int(os.environ.get("SOCHA_BOT_SEED", "0")), lambda state, move: ()))
    sys.exit(0)
