"""ReversiXT, the game of the university AI course, as served by its reference server.

``mapfile`` (maps and their load-time checks), ``rules`` (board, moves, bombs), ``referee`` (turn
order, time accounts, verdicts, move log and result file), ``text`` (a board for people) and
``bots`` (reference clients over the wire). The wire codec is ``swc_local.protocol.reversixt``;
the server side is ``swc_local.server.reversixt``. Contract: ``shared/spec/reversixt.md``.

What the server's door plays a game with, found through the registry (``Game.rules``): a map
(:func:`load_map`) and a :class:`Referee` per game.
"""

from .mapfile import GameMap, MapError, load_map
from .referee import Referee

__all__ = ["GameMap", "MapError", "Referee", "load_map"]
