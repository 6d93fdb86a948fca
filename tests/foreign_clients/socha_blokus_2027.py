"""A random bot on the official ``socha`` 5.x client (Blokus 2027), run in socha's own venv.

The bot itself is :mod:`socha_random_bot`; a Blokus move line names the turn and the colour
that moved (``PEER move <n> <turn> <COLOUR>``), so the test can see both colours of a seat move.
"""

from socha_random_bot import main

if __name__ == "__main__":
    main(lambda state, move: (state.turn, move.get_color().name()))
