"""A random bot on the official ``socha`` 5.x client (Blokus 2027), run in socha's own venv.

The bot itself is :mod:`socha_random_bot`; a Blokus move line names the turn and the colour
that moved (``PEER move <n> <turn> <COLOUR>``), so the test can see both colours of a seat move.

socha 5.1.0 cannot parse the memento after a colour placed all 21 pieces with the MONO last
(``lastMoveMono``, see ``test_socha_5_1_0_lastmovemono_crash_is_the_clients``), so with two
pieces left the bot never holds the MONO back: wherever the other piece fits, the MONO fits
too, so it is placed then and can never be the last piece.  Which games reach that position
then no longer depends on the pairing of clients or on chance.
"""

from socha_random_bot import main

def holds_back_the_mono(state, move) -> bool:
    """A move of the other piece while the colour's last two pieces are it and the MONO."""
    left = state.undeployed_piece_shapes(move.get_color())
    piece = move.as_piece()
    return len(left) == 2 and "Mono" in {shape.name() for shape in left} and (
        piece is None or piece.kind.name() != "Mono")


if __name__ == "__main__":
    main(lambda state, move: (state.turn, move.get_color().name()), holds_back_the_mono)
