"""The toy family's games-layer part: its rules (tests/toy_family.py's), its view, its ``Game`` row."""

from __future__ import annotations

import sys

from swc_local.games.registry import PYTHON, Game

from tests.toy_family import CountToThree  # noqa: F401 -- the rules the toy door plays (Game.rules)


def render_svg(state: CountToThree, last_move=None, previous=None) -> str:
    """The count so far, as a picture (``views.render`` draws every game through its view)."""
    said = "".join(f'<text x="10" y="{20 * (n + 1)}">{move}</text>' for n, move in enumerate(state.moves))
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" class="toy">{said}</svg>'


def replayed(log: str) -> CountToThree:
    """The game a toy log (``name n`` per move, then how it ended) tells, move by move."""
    lines = [line for line in log.splitlines() if line.strip()]
    moves = [line.split() for line in lines if len(line.split()) == 2 and line.split()[1].isdigit()]
    players = list(dict.fromkeys(name for name, _ in moves))
    game = CountToThree(players or ["?"])
    for name, number in moves:
        if not game.play(name) or game.count != int(number):
            raise ValueError(f"{name} {number}: not the next count")
    return game


GAME = Game("count_to_three", "toy", ("count_to_three",), (2, 2),
            (PYTHON, "-m", "tests.toy.client", "--host", "{host}", "--port", "{port}", "--name", "{player}"),
            title="Count to three", rules=sys.modules[__name__])
