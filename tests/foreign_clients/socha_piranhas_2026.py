"""A random bot on the official ``socha`` 4.x client (Piranhas 2026), run in socha's own venv.

The bot itself is :mod:`socha_random_bot`; a Piranhas move line prints the client's own move
(``PEER move <n> <move>``).
"""

from socha import GameState, Move  # noqa: F401  (the client's own types)
from socha_random_bot import main

if __name__ == "__main__":
    main(lambda state, move: (move,))
