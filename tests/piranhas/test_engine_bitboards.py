"""The bitboard answers of the Piranhas 2026 engine equal the field-by-field reading (issue 23).

``GameState.legal_moves``, ``has_legal_move``, ``swarm_weights`` and ``is_connected`` work on
bitboards for speed; ``GameState._targets`` and the breadth-first search below read the rules
field by field, as the spec states them.  Positions: every ply of seeded random games, and
random boards (any mix of fish, squids and empty fields, including teams without fish).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from swc_local.games.piranhas_2026.rules import NEIGHBOURS, ONE, TEAM_OF, TWO, WEIGHT, GameState
from tests.random_plies import random_plies


def swarms_by_search(state: GameState, team: int) -> list[int]:
    unseen = {c for c, v in enumerate(state.cells) if TEAM_OF[v] == team}
    weights = []
    while unseen:
        stack, weight = [min(unseen)], 0
        unseen.discard(stack[0])
        while stack:
            c = stack.pop()
            weight += WEIGHT[state.cells[c]]
            for n in NEIGHBOURS[c]:
                if n in unseen:
                    unseen.remove(n)
                    stack.append(n)
        weights.append(weight)
    return weights


def check(state: GameState) -> None:
    expected = list(state._targets(state.team_to_move))
    assert state.legal_moves() == expected
    assert [str(m) for m in state.legal_moves()] == [str(m) for m in expected]
    assert state.has_legal_move() == bool(expected)
    for team in (ONE, TWO):
        weights = swarms_by_search(state, team)
        assert sorted(state.swarm_weights(team)) == sorted(weights)
        assert state.is_connected(team) == (len(weights) == 1)
        assert state.greatest_swarm(team) == max(weights, default=-1)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_ply_of_a_random_game(seed):
    for game in random_plies("swc_2026_piranhas", seed):
        check(game.state)


@settings(max_examples=200, deadline=None)
@given(cells=st.lists(st.sampled_from([0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7]), min_size=100, max_size=100),
       turn=st.integers(0, 59))
def test_random_boards(cells, turn):
    check(GameState(cells, turn))
