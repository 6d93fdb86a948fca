"""Property tests for Ostseeschach 2022: random playouts, and the generator against the validator.

The oracle here is written from spec A.2 alone (literal vector sets, the official check order),
independently of :mod:`swc_local.games.ostseeschach.rules`: if the generator, the validator and the
oracle agree on every position random games reach, none of them can quietly drift from the spec.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swc_local.games.ostseeschach import rules, xmlmap
from swc_local.games.ostseeschach.entry import ENTRY as OSTSEESCHACH_ENTRY
from swc_local.games.ostseeschach.plugin import MoveMistake
from swc_local.games.ostseeschach.rules import Move
from swc_local.games.plugin import MalformedMove
from swc_local.protocol.element import Element
from tests.helpers import random_playout

PLUGIN = OSTSEESCHACH_ENTRY.plugin

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

KNIGHT = {(1, 2), (1, -2), (-1, 2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)}


def oracle_vectors(type_name: str, team: int) -> set[tuple[int, int]]:
    fwd = 1 if team == rules.ONE else -1
    return {
        "Herzmuschel": {(fwd, 1), (fwd, -1)},
        "Moewe": {(1, 0), (-1, 0), (0, 1), (0, -1)},
        "Seestern": {(1, 1), (1, -1), (-1, 1), (-1, -1), (fwd, 0)},
        "Robbe": KNIGHT,
    }[type_name]


def oracle(position: rules.Position, move: Move) -> str | None:
    """The mistake spec A.2 predicts for ``move``, or None when it is legal."""
    team = position.turn % 2
    piece = position.pieces.get(move.from_)
    if piece is None or piece.team != team:
        return rules.WRONG_COLOR
    x, y = move.to
    if not (0 <= x <= 7 and 0 <= y <= 7):
        return rules.OUT_OF_BOUNDS
    if (x - move.from_[0], y - move.from_[1]) not in oracle_vectors(piece.type.name, piece.team):
        return rules.INVALID_MOVEMENT
    target = position.pieces.get(move.to)
    if target is not None and target.team == team:
        return rules.DESTINATION_BLOCKED
    return None


def playout(seed: int):
    """Every position (before each move) of one random legal game, and the finished game."""
    positions, game, stuck = random_playout(PLUGIN, seed, lambda game: game.position.copy())
    assert not stuck, "stuck: no legal move"
    return positions, game


@SLOW
@given(SEEDS)
def test_random_playouts_never_raise_and_end_by_turn_60(seed):
    positions, game = playout(seed)
    position = game.position
    assert position.turn <= rules.TURN_LIMIT and position.turn % 2 == 0
    assert position.turn == rules.TURN_LIMIT or max(position.ambers) >= 2
    assert sum(p.count for p in position.pieces.values()) <= 16  # towers only stack, never grow
    outcome = game.outcome()
    assert outcome is not None
    for seat in (0, 1):
        ambers, distance = map(int, game.score_parts(seat))
        assert ambers == position.ambers[seat] and 0 <= distance <= 7
    # the state survives its own XML, piece order included
    again = PLUGIN.game_from_state(game.state_element())
    assert again.state_element().render() == game.state_element().render()
    assert again.outcome() == outcome


@SLOW
@given(SEEDS, st.data())
def test_generator_and_validator_agree(seed, data):
    positions, _ = playout(seed)
    position = data.draw(st.sampled_from(positions))
    generated = position.legal_moves()
    assert len(set(generated)) == len(generated)
    for move in generated:  # every generated move validates and matches the oracle
        assert oracle(position, move) is None
        position.copy().push(move)
    # every legal move is generated: all 8x8 from-squares against every target in reach
    legal = {
        Move((fx, fy), (fx + dx, fy + dy))
        for fx in range(8) for fy in range(8) for dx in range(-2, 3) for dy in range(-2, 3)
        if oracle(position, Move((fx, fy), (fx + dx, fy + dy))) is None
    }
    assert legal == set(generated)


@SLOW
@given(SEEDS, st.data())
def test_wrong_moves_are_rejected_with_the_right_text_and_change_nothing(seed, data):
    positions, _ = playout(seed)
    position = data.draw(st.sampled_from(positions))
    coordinate = st.integers(min_value=-3, max_value=10)
    own = [c for c, p in position.pieces.items() if p.team == position.turn % 2]
    start = st.one_of(st.sampled_from(own), st.tuples(coordinate, coordinate)) if own else st.tuples(coordinate, coordinate)
    for _ in range(20):
        move = Move(data.draw(start), data.draw(st.tuples(coordinate, coordinate)))
        expected = oracle(position, move)
        game = PLUGIN.game_from_state(xmlmap.state_element(position))
        before = game.state_element().render()
        if expected is None:
            game.apply(game.current_seat, move)
            assert game.turn == position.turn + 1
            continue
        try:
            game.apply(game.current_seat, move)
        except MoveMistake as mistake:
            assert mistake.mistake == expected
            assert mistake.reason == f"{expected} bei Zug '{move}'"
        else:
            raise AssertionError(f"{move} was accepted, expected {expected!r}")
        assert game.state_element().render() == before


_INTS = st.one_of(
    st.integers(min_value=-10, max_value=10).map(str),
    st.sampled_from(["", " 1", "1.0", "0x7", "#3", "07", "-0", "2147483648", "4294967295", "99999999999", "x"]),
)
_COORDINATE_ATTRS = st.dictionaries(st.sampled_from(["x", "y", "z", "class"]), _INTS, max_size=3)


@st.composite
def move_data(draw):
    """A ``<data class="move">`` with arbitrary children, attributes and values."""
    children = [
        Element(draw(st.sampled_from(["from", "to", "hint", "coordinates"])), draw(_COORDINATE_ATTRS),
                draw(st.lists(st.just(Element("x", text="1")), max_size=1)))
        for _ in range(draw(st.integers(min_value=0, max_value=3)))
    ]
    return Element("data", {"class": "move"}, children, draw(st.sampled_from(["", "junk"])))


@settings(max_examples=300, deadline=None)
@given(move_data(), SEEDS)
def test_any_move_data_is_a_move_a_malformed_move_or_a_verdict(data, seed):
    game = PLUGIN.new_game(random.Random(seed))
    before = game.state_element().render()
    try:
        move = game.decode_move(data)
    except MalformedMove:
        return
    try:
        game.apply(game.current_seat, move)
    except (MoveMistake, MalformedMove):
        assert game.state_element().render() == before
        return
    assert game.turn == 1
    assert PLUGIN.move_element(move).render() == xmlmap.move_element(move).render()
