"""The toy family's games-layer part: its rules (tests/toy_family.py's), its view, its ``Game`` row."""

from __future__ import annotations

import sys

from swc_local.games.entry import GameEntry, Parts

from tests.toy_family import CountToThree  # the rules the toy door plays (GAME.rules)


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


class CountToThreeEntry(GameEntry):
    game_type, family, short_names, title = "count_to_three", "toy", ("count_to_three",), "Count to three"

    def load_parts(self):
        return Parts(rules=sys.modules[__name__], view=sys.modules[__name__])


GAME = CountToThreeEntry()
