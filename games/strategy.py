"""What a game tells the ladder's search rungs: the contract of a ``games/<game>/strategy.py``
module (:class:`Strategy`), which the game's entry loads (``Parts.strategy`` in ``load_parts``) and client/search.py
searches with.

Why in the games layer: the evaluation is knowledge of the game (its docs page writes it down)
and its fast paths (move generation, copy-make) are the rules'; the algorithm that searches is
the client's and knows no game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

WIN = 1_000_000.0
"""The value of a won end for the winner (-WIN for the loser, 0 a draw; a game may add its final
margin); an evaluation of a position that goes on stays strictly between -WIN and WIN."""


class Strategy(Protocol):
    """A game's strategy module.  A position is any value the module chooses; ``play`` never
    changes its argument (copy-make), so the search needs no undo."""

    SHORT_NODES: int
    """The search-short rung's budget of positions per move: about 0.2 s of the game's soft limit
    on a loaded 2-CPU machine (measured: benchmarks/README.md)."""
    LONG_NODES: int
    """The search-long rung's: about 1 s."""

    def position(self, game: Any) -> Any:
        """The search's position for what the reference bot holds when it is asked to move (an
        XML season: the running game it rebuilt from the memento)."""

    def seat(self, position: Any) -> int:
        """The seat (team) that chooses at ``position``."""

    def moves(self, position: Any) -> Sequence[Any]:
        """The legal moves, the likely best first; empty only when ``over``."""

    def play(self, position: Any, move: Any) -> Any:
        """The position after ``move`` (a new value)."""

    def over(self, position: Any) -> bool: ...

    def value(self, position: Any, seat: int) -> float:
        """How good ``position`` is for ``seat``: at the end +WIN / 0 / -WIN (plus a margin), else
        the game's evaluation, strictly between."""
