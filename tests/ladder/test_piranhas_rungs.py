"""What only Piranhas 2019's strategy has (games/piranhas/strategy.py): its evaluation; the rungs'
tests it shares with the other games are in test_rungs.py."""

from __future__ import annotations

from swc_local.games import registry

GAME = "piranhas"


def test_the_evaluation_prefers_a_gathered_swarm():
    strategy = registry.entry(GAME).strategy
    from swc_local.games.piranhas.rules import Position
    scattered = Position.from_text("""
        . B B B B B B B B .
        R . . . . . . . . R
        R . . . . . . . . R
        R . . . . . K . . R
        R . . . . . . . . R
        R . . K . . . . . R
        R . . . . . . . . R
        R . . . . . . . . R
        R . . . . . . . . R
        . B B B B B B B B .""")
    gathered = Position.from_text("""
        . B B B B B B B B .
        . . . . . . . . . .
        . . R R . . . . . .
        . . R R R R . K . .
        . R R R R R R . . .
        . R . K R R . . . .
        . . . . . . R . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . B B B B B B B B .""", turn=2)

    class Held:  # what the bot holds: the rules' position
        def __init__(self, position):
            self.position = position

    assert strategy.value(strategy.position(Held(gathered)), 0) > strategy.value(strategy.position(Held(scattered)), 0)
