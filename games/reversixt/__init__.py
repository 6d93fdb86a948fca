"""ReversiXT, the game of the university AI course, as served by its reference server.

``mapfile`` (maps and their load-time checks), ``rules`` (board, moves, bombs), ``referee`` (turn
order, time accounts, verdicts, move log and result file), ``text`` (a board for people) and
``bots`` (reference clients over the wire). The wire codec is ``swc_local.protocol.reversixt``;
the server side is ``swc_local.server.reversixt``. Contract: ``shared/spec/reversixt.md``.

What the server's door plays a game with, found through the registry (``entry.rules``):
:mod:`.play`.  This file imports nothing, so the registry's value (``entry.py``) costs nothing.
"""
