"""Ostseeschach 2022 rules: every worked fact of spec A.2, on small hand-made positions."""

from __future__ import annotations

import random

import pytest

from swc_local.games.ostseeschach import rules, xmlmap
from swc_local.games.ostseeschach.entry import ENTRY as OSTSEESCHACH_ENTRY
from swc_local.games.ostseeschach.plugin import MoveMistake, OstseeschachGame
from swc_local.games.ostseeschach.rules import (
    DESTINATION_BLOCKED, INVALID_MOVEMENT, ONE, OUT_OF_BOUNDS, TWO, WRONG_COLOR, Move, Piece, PieceType, Position,
)
from swc_local.games.plugin import MalformedMove
from swc_local.protocol.element import parse

PLUGIN = OSTSEESCHACH_ENTRY.plugin

H, M, S, R = PieceType.Herzmuschel, PieceType.Moewe, PieceType.Seestern, PieceType.Robbe

# The vectors of spec A.2 for team ONE, written out; team TWO mirrors dx ("forward" is -x).
ONE_VECTORS = {
    H: {(1, 1), (1, -1)},
    M: {(1, 0), (-1, 0), (0, 1), (0, -1)},
    S: {(1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0)},
    R: {(1, 2), (1, -2), (-1, 2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)},
}
TWO_VECTORS = {
    H: {(-1, 1), (-1, -1)},
    M: ONE_VECTORS[M],
    S: {(1, 1), (1, -1), (-1, 1), (-1, -1), (-1, 0)},
    R: ONE_VECTORS[R],
}


def position(*pieces, turn=0, ambers=(0, 0)):
    """``position(((x, y), type, team[, count]), ...)`` with ``turn`` deciding who is on move."""
    return Position([(c, Piece(t, team, *count)) for c, t, team, *count in pieces], turn=turn, ambers=ambers)


def turn_of(team):
    return 0 if team == ONE else 1


def mistake(pos, move):
    with pytest.raises(rules.RuleViolation) as caught:
        pos.push(move)
    return caught.value.mistake


# -- movement --------------------------------------------------------------------------------


@pytest.mark.parametrize("team,expected", [(ONE, ONE_VECTORS), (TWO, TWO_VECTORS)])
@pytest.mark.parametrize("piece_type", list(PieceType))
def test_each_piece_has_exactly_its_vectors(piece_type, team, expected):
    pos = position(((3, 3), piece_type, team), turn=turn_of(team))
    assert {(m.to[0] - 3, m.to[1] - 3) for m in pos.legal_moves()} == expected[piece_type]
    for dx in range(-3, 4):
        for dy in range(-3, 4):
            probe = position(((3, 3), piece_type, team), turn=turn_of(team))
            move = Move((3, 3), (3 + dx, 3 + dy))
            if (dx, dy) in expected[piece_type]:
                assert probe.push(move) == 0
                assert probe.pieces == {(3 + dx, 3 + dy): Piece(piece_type, team)}
            else:
                assert mistake(probe, move) == INVALID_MOVEMENT


def test_pieces_jump_over_others_and_nothing_blocks_but_own_pieces():
    pos = position(((3, 3), R, ONE), ((4, 3), M, ONE), ((3, 4), M, TWO), ((4, 4), S, ONE))
    assert Move((3, 3), (5, 4)) in pos.legal_moves()
    assert mistake(pos.copy(), Move((3, 3), (4, 4))) == INVALID_MOVEMENT
    assert mistake(pos.copy(), Move((4, 3), (4, 4))) == DESTINATION_BLOCKED


def test_moves_off_the_board_are_not_generated_and_are_out_of_bounds():
    pos = position(((7, 0), S, TWO), ((0, 0), H, ONE), turn=1)
    assert {m.to for m in pos.legal_moves()} == {(6, 0), (6, 1)}
    assert mistake(pos.copy(), Move((7, 0), (6, -1))) == OUT_OF_BOUNDS
    assert mistake(pos.copy(), Move((7, 0), (8, 1))) == OUT_OF_BOUNDS
    assert mistake(pos.copy(), Move((7, 0), (2**31 - 1, 0))) == OUT_OF_BOUNDS  # before the vector check


def test_validation_order():
    pos = position(((0, 0), H, ONE), ((0, 1), M, ONE), ((7, 7), H, TWO))
    assert mistake(pos.copy(), Move((3, 3), (4, 4))) == WRONG_COLOR  # empty start, not START_EMPTY
    assert mistake(pos.copy(), Move((-1, 0), (0, 0))) == WRONG_COLOR  # off-board start
    assert mistake(pos.copy(), Move((7, 7), (6, 6))) == WRONG_COLOR  # the opponent's piece
    assert mistake(pos.copy(), Move(None, (1, 1))) == WRONG_COLOR  # no <from> at all
    assert mistake(pos.copy(), Move((7, 7), (9, 9))) == WRONG_COLOR  # colour before bounds
    assert mistake(pos.copy(), Move((0, 0), (-1, -1))) == OUT_OF_BOUNDS
    assert mistake(pos.copy(), Move((0, 0), (0, 0))) == INVALID_MOVEMENT  # from = to: vector first
    assert mistake(pos.copy(), Move((0, 0), (0, 1))) == INVALID_MOVEMENT  # vector before own piece
    assert mistake(pos.copy(), Move((0, 1), (0, 0))) == DESTINATION_BLOCKED
    with pytest.raises(rules.RuleCrash):
        pos.copy().push(Move((0, 0), None))


def test_a_failed_move_changes_nothing():
    pos = position(((0, 0), H, ONE), ((0, 1), M, ONE))
    before = xmlmap.state_element(pos).render()
    for move in (Move((0, 1), (0, 0)), Move((0, 0), (2, 2)), Move((5, 5), (6, 6))):
        with pytest.raises(rules.RuleViolation):
            pos.push(move)
    assert xmlmap.state_element(pos).render() == before


def test_mistake_texts_as_sent():
    game = OstseeschachGame(position(((0, 0), H, ONE)))
    with pytest.raises(MoveMistake) as caught:
        game.apply(0, Move((0, 0), (0, 2)))
    assert caught.value.reason == "%s kann sich nicht um %s bewegen bei Zug 'Zug von [0|0] zu [0|2]'"
    assert caught.value.error_message == (
        "InvalidMoveException(mistake=%s kann sich nicht um %s bewegen, move=Zug von [0|0] zu [0|2])"
    )
    with pytest.raises(MoveMistake) as caught:
        game.apply(0, Move(None, (1, 1)))
    assert caught.value.reason == "Nur eigene Spielfiguren können gezogen werden bei Zug 'Zug von null zu [1|1]'"
    with pytest.raises(MalformedMove):
        game.apply(0, Move((0, 0), None))
    with pytest.raises(ValueError):
        game.apply(1, Move((0, 0), (1, 1)))


# -- towers and ambers ----------------------------------------------------------------------


def test_capture_builds_a_tower_with_the_movers_type_and_team_in_the_captured_entry():
    pos = position(((2, 2), M, ONE), ((3, 2), R, TWO), ((2, 1), S, TWO))
    order = [c for c, _ in pos.ordered_pieces()]
    assert pos.push(Move((2, 2), (3, 2))) == 0
    assert pos.pieces == {(3, 2): Piece(M, ONE, 2), (2, 1): Piece(S, TWO)}
    assert [c for c, _ in pos.ordered_pieces()] == [c for c in order if c != (2, 2)]  # replaced in place
    # the tower moves whole, like its top piece (a Moewe), and TWO's Robbe is gone from the moves
    pos.turn = 0
    assert {m.to for m in pos.legal_moves()} == {(4, 2), (2, 2), (3, 3), (3, 1)}


def test_a_move_to_an_empty_square_appends_to_its_bucket():
    pos = position(((0, 0), H, ONE), ((7, 7), H, TWO), ((1, 3), M, ONE))
    pos.push(Move((0, 0), (1, 1)))  # same diagonal (bucket 0): to the end of it
    assert [c for c, _ in pos.ordered_pieces()] == [(7, 7), (1, 1), (1, 3)]


@pytest.mark.parametrize("mover,victim", [(2, 1), (1, 2), (2, 2), (5, 1)])
def test_an_amber_for_a_tower_of_three_or_more_removes_it(mover, victim):
    pos = position(((3, 3), R, ONE, mover), ((4, 5), M, TWO, victim), ((0, 0), M, ONE))
    assert pos.push(Move((3, 3), (4, 5))) == 1
    assert set(pos.pieces) == {(0, 0)}
    assert (4, 5) not in pos.buckets[rules.bucket_of((4, 5))]
    assert pos.ambers == [1, 0]
    board = xmlmap.state_element(pos).find("board").render()
    assert '<coordinates x="4" y="5"/>' not in board and '<coordinates x="0" y="0"/>' in board


def test_two_single_pieces_make_no_amber():
    pos = position(((3, 3), M, ONE), ((4, 3), M, TWO))
    assert pos.push(Move((3, 3), (4, 3))) == 0
    assert pos.pieces[(4, 3)] == Piece(M, ONE, 2)


@pytest.mark.parametrize("piece_type,team,start,to", [
    (M, ONE, (6, 4), (7, 4)), (H, ONE, (6, 4), (7, 5)), (S, ONE, (6, 4), (7, 4)),
    (M, TWO, (1, 4), (0, 4)), (H, TWO, (1, 4), (0, 3)), (S, TWO, (1, 4), (0, 4)),
])
def test_a_light_piece_on_the_opponents_start_line_is_an_amber(piece_type, team, start, to):
    pos = position((start, piece_type, team), turn=turn_of(team))
    assert pos.push(Move(start, to)) == 1
    assert pos.pieces == {}
    assert pos.ambers[team] == 1 and pos.ambers[1 - team] == 0


def test_own_start_line_and_robbe_give_no_amber():
    pos = position(((1, 4), M, ONE), ((5, 4), R, ONE), ((6, 0), M, TWO))
    assert pos.push(Move((1, 4), (0, 4))) == 0  # ONE back on its own line
    pos.turn = 0
    assert pos.push(Move((5, 4), (7, 5))) == 0  # a Robbe on the far line stays
    assert pos.pieces[(7, 5)] == Piece(R, ONE)


def test_tower_height_does_not_matter_for_the_line_rule():
    pos = position(((6, 4), M, ONE, 2))
    assert pos.push(Move((6, 4), (7, 4))) == 1


def test_both_amber_rules_in_one_move_give_two():
    pos = position(((6, 4), S, ONE, 2), ((7, 5), H, TWO))
    assert pos.push(Move((6, 4), (7, 5))) == 2
    assert pos.pieces == {} and pos.ambers == [2, 0]


def test_ambers_appear_in_the_memento_once_a_team_has_moved():
    pos = Position.start(random.Random(5))
    renders = []
    for _ in range(3):
        renders.append(xmlmap.ambers_element(pos).render())
        pos.push(pos.legal_moves()[0])
    assert renders[0] == '<ambers enum-type="team"/>'
    assert "ONE" in renders[1] and "TWO" not in renders[1]
    assert "ONE" in renders[2] and "TWO" in renders[2]


# -- the end --------------------------------------------------------------------------------


def quiet_game(turn):
    """A position at ``turn`` where both teams can shuffle their Moewe back and forth."""
    return position(((2, 2), M, ONE), ((5, 5), M, TWO), turn=turn)


def test_round_limit_turns_58_59_60():
    pos = quiet_game(58)
    assert not pos.is_over() and pos.round == 29
    pos.push(Move((2, 2), (2, 3)))
    assert pos.turn == 59 and pos.round == 30 and not pos.is_over()
    pos.push(Move((5, 5), (6, 5)))
    assert pos.turn == 60 and pos.is_over()
    assert pos.light_distances(ONE) == [2] and pos.light_distances(TWO) == [1]
    assert pos.decision() == rules.Decision(ONE, "DIFFERING_POSITIONS")


def test_a_second_amber_of_one_at_an_odd_turn_lets_two_reply():
    pos = position(((6, 4), M, ONE), ((5, 5), M, TWO), turn=46, ambers=(1, 0))
    pos.push(Move((6, 4), (7, 4)))
    assert pos.turn == 47 and pos.ambers == [2, 0] and not pos.is_over()
    pos.push(Move((5, 5), (5, 4)))
    assert pos.is_over() and pos.decision() == rules.Decision(ONE, "DIFFERING_SCORES")


def test_a_second_amber_of_two_ends_the_game_at_once():
    pos = position(((2, 2), M, ONE), ((1, 4), M, TWO), turn=39, ambers=(1, 1))
    pos.push(Move((1, 4), (0, 4)))
    assert pos.turn == 40 and pos.is_over()
    assert pos.decision() == rules.Decision(TWO, "DIFFERING_SCORES")


def test_distance_tie_break_compares_sorted_distances_from_the_own_line():
    # ONE: distances 5, 3 (and a Robbe, which does not count); TWO: 5 (x=2), 4 (x=3)
    pos = position(((5, 0), M, ONE), ((3, 1), S, ONE), ((6, 6), R, ONE), ((2, 2), H, TWO), ((3, 3), M, TWO), turn=60)
    assert pos.light_distances(ONE) == [5, 3] and pos.light_distances(TWO) == [5, 4]
    assert pos.decision() == rules.Decision(TWO, "DIFFERING_POSITIONS")
    assert pos.score_parts(ONE) == [0, 5] and pos.score_parts(TWO) == [0, 5]


def test_distance_tie_break_stops_at_the_shorter_list_then_draws():
    pos = position(((4, 0), M, ONE), ((1, 1), S, ONE), ((3, 2), H, TWO), turn=60, ambers=(1, 1))
    assert pos.decision() == rules.Decision(None, "EQUAL_SCORE")
    game = OstseeschachGame(pos)
    assert game.outcome().winner is None and game.outcome().reason == ""


def test_more_ambers_win_regardless_of_positions():
    pos = position(((1, 0), M, ONE), ((0, 2), H, TWO), turn=60, ambers=(1, 0))
    assert pos.decision() == rules.Decision(ONE, "DIFFERING_SCORES")
    assert pos.score_parts(ONE) == [1, 1] and pos.score_parts(TWO) == [0, 7]


def test_no_light_piece_is_a_draw_with_distance_zero():
    pos = position(((4, 0), R, ONE), ((3, 2), H, TWO), turn=60)
    assert pos.decision() == rules.Decision(None, "EQUAL_SCORE")
    assert pos.score_parts(ONE) == [0, 0] and pos.score_parts(TWO) == [0, 4]


def test_turn_zero_parts():
    game = PLUGIN.new_game(random.Random(1))
    assert game.score_parts(0) == ["0", "0"] and game.score_parts(1) == ["0", "0"]
    assert game.outcome() is None


# -- setup, wire and text -------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_start_setup_is_point_symmetric_with_two_of_each_type(seed):
    pos = Position.start(random.Random(seed))
    assert len(pos.pieces) == 16
    for i in range(8):
        one, two = pos.pieces[(0, i)], pos.pieces[(7, 7 - i)]
        assert (one.team, two.team, one.type, one.count) == (ONE, TWO, two.type, 1)
    assert sorted(pos.pieces[(0, i)].type.name for i in range(8)) == sorted([t.name for t in PieceType] * 2)
    # insertion order: ONE's (0, i) before TWO's (7, 7 - i); bucket 0 holds (0, 0) then (7, 7)
    assert pos.buckets[0] == [(0, 0), (7, 7)]
    assert xmlmap.state_element(pos).render() == xmlmap.state_element(Position.start(random.Random(seed))).render()


def test_seeds_give_different_boards():
    boards = {tuple(Position.start(random.Random(seed)).pieces[(0, i)].type for i in range(8)) for seed in range(30)}
    assert len(boards) > 20


def test_decode_move_reads_java_ints_and_defaults():
    decode = xmlmap.decode_move
    assert decode(parse('<data class="move"><from x="0" y="1"/><to x="1" y="2"/></data>')) == Move((0, 1), (1, 2))
    assert decode(parse('<data class="move"><to x="0x1" y="-1"/><from y="07"/></data>')) == Move((0, 7), (1, -1))
    assert decode(parse('<data class="move" foo="bar"><from x="1" y="1" z="9"/></data>')) == Move((1, 1), None)
    assert decode(parse('<data class="move"/>')) == Move(None, None)
    assert decode(parse('<data class="move"><from x="4294967295" y="0"/></data>')) == Move((-1, 0), None)
    for bad in (
        '<data class="move"><from x="a" y="1"/><to x="1" y="2"/></data>',
        '<data class="move"><from x="1.0" y="1"/><to x="1" y="2"/></data>',
        '<data class="move"><from x="9999999999" y="1"/></data>',
        '<data class="move"><from x="1" y="1"/><to x="1" y="2"/><hint/></data>',
        '<data class="move"><from x="1" y="1"/><from x="1" y="2"/></data>',
        '<data class="move"><from x="1" y="1"><x>2</x></from></data>',
    ):
        with pytest.raises(MalformedMove):
            decode(parse(bad))


def test_move_text_is_the_official_to_string():
    assert str(Move((7, 0), (6, -1))) == "Zug von [7|0] zu [6|-1]"
    assert str(Move(None, None)) == "Zug von null zu null"


def test_game_from_state_keeps_order_names_and_ambers():
    pos = position(((2, 2), M, ONE), ((5, 5), M, TWO, 2), turn=7, ambers=(1, 0))
    pos.amber_entries = [True, True]
    pos.last_move = Move((1, 2), (2, 2))
    game = PLUGIN.game_from_state(xmlmap.state_element(pos))
    assert game.turn == 7 and game.current_seat == 1
    assert game.position.ambers == [1, 0] and game.position.last_move == pos.last_move
    assert game.state_element().render() == xmlmap.state_element(pos).render()


@pytest.mark.parametrize("bad", [
    '<state class="state" turn="0"/>',
    '<state class="state" turn="x"><board><pieces/></board></state>',
    '<state class="state" turn="0"><board><pieces><entry><coordinates x="9" y="0"/>'
    '<piece type="Moewe" team="ONE" count="1"/></entry></pieces></board></state>',
    '<state class="state" turn="0"><board><pieces><entry><coordinates x="1" y="0"/>'
    '<piece type="Dame" team="ONE" count="1"/></entry></pieces></board></state>',
    '<state class="state" turn="0"><board><pieces><entry><coordinates x="1" y="0"/>'
    '<piece type="Moewe" team="ONE"/></entry><entry><coordinates x="1" y="0"/>'
    '<piece type="Moewe" team="TWO"/></entry></pieces></board></state>',
])
def test_game_from_state_refuses_broken_states(bad):
    with pytest.raises(ValueError):
        PLUGIN.game_from_state(parse(bad))


def test_describe_shows_the_board():
    game = OstseeschachGame(position(((0, 0), H, ONE), ((7, 7), R, TWO, 2), turn=1))
    text = PLUGIN.describe(game)
    lines = text.splitlines()
    assert lines[0] == "turn 1, TWO to move, ambers ONE 0, TWO 0"
    assert lines[1] == "7 --------------r2" and lines[8] == "0 HH--------------"
    game.position.turn = 60
    assert "game over: draw (EQUAL_SCORE)" in PLUGIN.describe(game)  # TWO has no light piece


def test_plugin_identity_and_registry():
    from swc_local.games import registry
    from swc_local.games.plugin import MODERN

    assert registry.resolve("ostseeschach") == "swc_2022_ostseeschach"
    assert registry.get("swc_2022_ostseeschach") is PLUGIN
    assert PLUGIN.dialect == MODERN and PLUGIN.error_echoes_move
    assert [f.name for f in PLUGIN.score_fragments] == ["Siegpunkte", "Bernsteine", "Leichtfiguren Vorne"]
    assert PLUGIN.move_element(Move((0, 1), (1, 2))).render() == (
        '<data class="move">\n  <from x="0" y="1"/>\n  <to x="1" y="2"/>\n</data>'
    )
    assert PLUGIN.new_game(random.Random(0)).winner_element(1).render() == '<winner team="TWO"/>'
