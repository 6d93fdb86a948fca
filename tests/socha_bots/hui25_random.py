"""A random Hase und Igel 2025 bot on the official ``socha`` 3.x client, as students write them.

Run with the python of a socha 3.7.2 venv (``tests/socha_clients.py``), never with the project's
own: ``python hui25_random.py --port P [--reservation CODE]``. ``SOCHA_BOT_SEED`` seeds the
choice. The bot prints one JSON line per game result and per error to stdout, so the test can
check what the real client understood; the client's own logging goes to stderr.

Two things differ from the plain client: its start-up check for a newer socha on pypi.org is
switched off (tests must not reach the network), and the bot repairs each hare's ``last_move``
before asking for ``possible_moves()``. socha 3.7.2 does not read the state's ``lastAction``; it
gives the state's ``lastMove`` to the hare that moved last *by turn parity*, which is wrong after
a skip (the opponent had no move, ``turn`` jumped by 2 and the hare to move made ``lastMove``
itself). A hare that ate a salad while its opponent was skipped is then offered ``eatsalad``
again, and the official server (like ours) refuses it with ``CANNOT_EAT_SALAD``. The bot tracks
who made each move (the side to move in the previous state) instead.
"""

import json
import logging
import os
import random

from socha import GameState, TeamEnum
from socha.api.networking.game_client import IClientHandler
from socha.starter import Starter

Starter.check_socha_version = staticmethod(lambda: None)
RNG = random.Random(int(os.environ.get("SOCHA_BOT_SEED", "0")))


def report(**fields):
    print(json.dumps(fields), flush=True)


class Logic(IClientHandler):
    game_state: GameState

    def __init__(self):
        self.moves = 0
        self.previous = None
        self.last_moves = [None, None]  # ONE, TWO: the last move each hare really made

    def calculate_move(self):
        moves = self.game_state.possible_moves()
        if not moves:
            report(event="no_moves", turn=self.game_state.turn)
            return None
        self.moves += 1
        return RNG.choice(moves)

    def on_update(self, state):
        if self.previous is not None and state.last_move is not None:
            self.last_moves[self.previous.turn % 2] = state.last_move
        for hare in (state.clone_current_player(), state.clone_other_player()):
            hare.last_move = self.last_moves[0 if hare.team == TeamEnum.One else 1]
            state.update_player(hare)
        self.previous = state
        self.game_state = state

    def on_game_over(self, roomMessage):
        winner = roomMessage.winner
        report(event="result",
               winner=None if winner is None else winner.team,
               regular=None if winner is None else winner.regular,
               reason=None if winner is None else winner.reason,
               scores=[[entry.player.team, list(entry.score.part)]
                       for entry in roomMessage.scores.entry],
               moves=self.moves)

    def on_error(self, logMessage):
        report(event="error", message=logMessage)

    def on_room_message(self, data):
        report(event="room_message", data=str(data)[:500])


if __name__ == "__main__":
    logging.getLogger().setLevel(logging.WARNING)
    Starter(logic=Logic(), log_level=logging.WARNING)
