"""The worked examples of spec §9 (checked there against the original Java rules), one test each.

Why so literal: each example pins a rule a naive implementation gets wrong (bonus timing, no
rollback, look-ahead, tie-breaks); the assertions mirror the spec's result columns.
"""

from __future__ import annotations

import pytest

from swc_local.games.hase_und_igel import movegen, rules
from swc_local.games.hase_und_igel.board import HARE, POSITION_2
from swc_local.games.hase_und_igel.xmlgame import HaseUndIgelGame
from swc_local.games.hase_und_igel.rules import (
    EAT,
    FALL,
    HURRY,
    TAKE,
    RuleViolation,
    advance,
    card,
    eat_salad,
    exchange,
    fall_back,
    perform_move,
    skip,
)
from tests.hase_und_igel.test_hase_und_igel_support import EXAMPLE_BOARD, mv, pos, setup, start


def play(state, *actions):
    perform_move(state, mv(*actions))


def fails(state, message, *actions):
    turn = state.turn
    with pytest.raises(RuleViolation) as failure:
        play(state, *actions)
    assert failure.value.message == message
    assert state.turn == turn


def legal(state, *actions):
    """The generator offers the move too (normalised card values)."""
    return mv(*actions) in movegen.legal_moves(state)


# ------------------------------------------------------------------ Example 1

def test_example1_opening_bonuses_exchange():
    s = start()
    play(s, advance(1))
    assert pos(s.red) == (1, 67, 5) and s.turn == 1
    play(s, advance(4))
    assert pos(s.blue) == (4, 58, 5) and s.turn == 2 and s.red.carrots == 67
    play(s, advance(4))
    assert pos(s.red) == (5, 57, 5) and s.turn == 3
    assert pos(s.blue) == (4, 88, 5)  # on POSITION_2 and behind: +30 at the start of its turn
    play(s, advance(3))
    assert pos(s.blue) == (7, 82, 5) and s.turn == 4
    assert pos(s.red) == (5, 57, 5)  # POSITION_1 but behind: nothing
    play(s, advance(1))
    assert pos(s.red) == (6, 56, 5) and s.turn == 5
    play(s, exchange(-10))
    assert pos(s.blue) == (7, 72, 5) and s.turn == 6
    play(s, exchange(10))
    assert pos(s.red) == (6, 66, 5) and s.turn == 7
    fails(s, "Es können nicht 20 Karotten aufgenommen werden.", exchange(20))


# ------------------------------------------------------------------ Example 2

def test_example2_hare_needs_a_card_and_the_advance_stays_applied():
    s = start()
    fails(s, "Es muss eine Karte ausgespielt werden.", advance(2))
    assert pos(s.red) == (2, 65, 5)


def test_example2_cards():
    s = start()
    play(s, advance(2), card(TAKE, 20, 1))
    assert pos(s.red) == (2, 85, 5)
    assert s.red.cards == [EAT, HURRY, FALL]
    assert s.red.last == card(TAKE, 20, 1)
    play(s, advance(3), card(EAT, 0, 1))
    assert pos(s.blue) == (3, 72, 4)
    assert s.blue.cards == [TAKE, HURRY, FALL]
    fails(s, "Das Ausspielen der EAT_SALAD Karte ist nicht möglich.", card(EAT))


@pytest.mark.parametrize("value, carrots", [(-20, 45), (0, 65)])
def test_example2_take_variants(value, carrots):
    s = start()
    play(s, advance(2), card(TAKE, value, 1))
    assert pos(s.red) == (2, carrots, 5)
    assert TAKE not in s.red.cards


def test_example2_failing_variants():
    fails(start(), "Das Ausspielen der TAKE_OR_DROP_CARROTS Karte ist nicht möglich.",
          advance(3), card(TAKE, 10, 1))
    fails(start(), "Das Ausspielen der EAT_SALAD Karte ist nicht möglich.",
          advance(1), card(EAT, 0, 1))


# ------------------------------------------------------------------ Example 3

def test_example3_salad_field():
    s = start()
    play(s, advance(10))
    assert pos(s.red) == (10, 13, 5)
    play(s, advance(1))
    assert pos(s.blue) == (1, 67, 5)
    fails(s, "Vorwärtszug um 3 Felder ist nicht möglich", advance(3))
    fails(s, "Es kann gerade kein Rückzug gemacht werden.", fall_back())
    fails(s, "Spieler kann noch einen anderen Zug ausführen, aussetzen ist nicht erlaubt.", skip())
    assert movegen.legal_moves(s) == [mv(eat_salad())]
    play(s, eat_salad())
    assert pos(s.red) == (10, 23, 4) and s.red.last == eat_salad()
    play(s, advance(4))
    assert pos(s.blue) == (5, 57, 5)
    fails(s, "Es kann gerade kein Salat (mehr) gegessen werden.", eat_salad())
    fails(s, "Es kann gerade kein Rückzug gemacht werden.", fall_back())
    play(s, advance(3))
    assert pos(s.red) == (13, 17, 4)


def test_example3_behind_player_eats_for_30():
    s = setup((20, 60, 5), (9, 60, 5))
    play(s, advance(1))
    assert pos(s.red) == (21, 59, 5)
    play(s, advance(1))
    assert pos(s.blue) == (10, 59, 5)
    play(s, advance(2))
    assert pos(s.red) == (23, 56, 5)
    play(s, eat_salad())
    assert pos(s.blue) == (10, 89, 4)


def test_example3_no_salad_left_closes_salad_fields():
    s = setup((0, 68, 0), (0, 68, 5), red_last=None, blue_last=None)
    fails(s, "Vorwärtszug um 10 Felder ist nicht möglich", advance(10))


# ------------------------------------------------------------------ Example 4

def test_example4_fall_back_chain():
    s = setup((17, 20, 5), (3, 20, 5))
    play(s, fall_back())
    assert pos(s.red) == (15, 40, 5)
    play(s, advance(4))
    assert pos(s.blue) == (7, 10, 5)
    play(s, fall_back())
    assert pos(s.red) == (11, 80, 5)
    play(s, advance(1), card(TAKE, 0, 1))
    assert pos(s.blue) == (8, 9, 5)
    fails(s, "Es kann gerade kein Rückzug gemacht werden.", fall_back())


def test_example4_nearest_hedgehog_occupied():
    s = setup((14, 50, 5), (11, 50, 5))
    fails(s, "Es kann gerade kein Rückzug gemacht werden.", fall_back())


def test_example4_fall_back_from_hare_and_after_eating():
    s = setup((12, 20, 5), (3, 20, 5), red_last=card(TAKE, 20), red_cards=[EAT])
    play(s, fall_back())
    assert pos(s.red) == (11, 30, 5)
    s = setup((22, 20, 4), (3, 20, 5), red_last=eat_salad())
    play(s, fall_back())
    assert pos(s.red) == (19, 50, 4)


# ------------------------------------------------------------------ Example 5

def test_example5a_four_action_chain_in_any_xml_order():
    actions = [advance(5), card(HURRY, 0, 1), card(FALL, 0, 2), card(EAT, 0, 3)]
    for ordering in (actions, [actions[3], actions[2], actions[0], actions[1]]):
        s = setup((55, 40, 1), (61, 40, 0))
        assert legal(s, *actions)
        play(s, *ordering)
        assert pos(s.red) == (60, 55, 0)
        assert s.red.cards == [TAKE]
        assert s.red.last == card(EAT, 0, 3)
        assert s.last_move.actions == tuple(actions)


def test_example5a_failures():
    s = setup((55, 40, 1), (61, 40, 0))
    fails(s, "Es muss eine Karte ausgespielt werden.",
          advance(5), card(HURRY, 0, 1), card(FALL, 0, 2))
    s = setup((55, 40, 0), (61, 40, 0))
    fails(s, "Das Ausspielen der EAT_SALAD Karte ist nicht möglich.",
          advance(5), card(HURRY, 0, 1), card(FALL, 0, 2), card(EAT, 0, 3))


def test_example5b_hurry_needs_behind_fall_back_needs_ahead():
    s = setup((55, 40, 1), (50, 40, 0))
    fails(s, "Das Ausspielen der HURRY_AHEAD Karte ist nicht möglich.",
          advance(5), card(HURRY, 0, 1))
    s = setup((55, 40, 1), (50, 40, 0))
    play(s, advance(5), card(FALL, 0, 1))
    assert pos(s.red) == (49, 25, 1)
    s = setup((55, 40, 1), (51, 40, 0))
    fails(s, "Das Ausspielen der FALL_BACK Karte ist nicht möglich.",
          advance(5), card(FALL, 0, 1))


def test_example5c_look_ahead_needs_a_card_after_hurry():
    s = setup((55, 40, 0), (61, 40, 0), red_cards=[HURRY])
    fails(s, "Vorwärtszug um 5 Felder ist nicht möglich", advance(5))
    s = setup((55, 40, 0), (61, 40, 0), red_cards=[HURRY, TAKE])
    play(s, advance(5), card(HURRY, 0, 1), card(TAKE, -20, 2))
    assert pos(s.red) == (62, 5, 0) and s.red.cards == []


def test_example5d_fall_back_card_onto_start_is_illegal():
    s = setup((0, 68, 5), (1, 67, 5), red_last=None)
    fails(s, "Das Ausspielen der FALL_BACK Karte ist nicht möglich.",
          advance(2), card(FALL, 0, 1))


def test_example5e_hurry_onto_salad_then_eat():
    s = setup((0, 68, 5), (9, 67, 5), red_last=None)
    play(s, advance(2), card(HURRY, 0, 1))
    assert pos(s.red) == (10, 65, 5) and s.red.last == card(HURRY, 0, 1)
    play(s, advance(3), card(TAKE, 20, 1))
    assert pos(s.blue) == (12, 81, 5)
    assert movegen.legal_moves(s) == [mv(eat_salad())]
    play(s, eat_salad())
    assert pos(s.red) == (10, 95, 4)


# ------------------------------------------------------------------ Example 6

def _game(state):
    return HaseUndIgelGame(state)


def test_example6_both_in_goal_equal_carrots_red_wins():
    g = _game(setup((61, 16, 0), (58, 31, 0)))
    g.apply(0, mv(advance(3)))
    assert pos(g.state.red) == (64, 10, 0) and g.turn == 1
    assert g.outcome() is None
    g.apply(1, mv(advance(6)))
    assert pos(g.state.blue) == (64, 10, 0) and g.turn == 2
    outcome = g.outcome()
    assert outcome.winner == 0
    assert outcome.reason == "Das Spiel ist beendet.\nEin Spieler ist im Ziel"
    assert g.score_parts(0) == ["64", "10"] and g.score_parts(1) == ["64", "10"]


def test_example6_fewer_carrots_in_goal_wins():
    g = _game(setup((61, 16, 0), (58, 30, 0)))
    g.apply(0, mv(advance(3)))
    g.apply(1, mv(advance(6)))
    assert pos(g.state.blue) == (64, 9, 0)
    assert g.outcome().winner == 1


def test_example6_goal_conditions():
    fails(setup((61, 17, 0), (58, 31, 0)), "Vorwärtszug um 3 Felder ist nicht möglich", advance(3))
    fails(setup((61, 16, 1), (58, 31, 0)), "Vorwärtszug um 3 Felder ist nicht möglich", advance(3))


def test_example6_blue_in_goal_wins_at_once():
    g = _game(setup((50, 40, 0), (61, 10, 0)))
    g.apply(0, mv(advance(1)))
    assert pos(g.state.red) == (51, 39, 0)
    g.apply(1, mv(advance(3)))
    assert pos(g.state.blue) == (64, 4, 0) and g.turn == 2
    assert g.outcome().winner == 1


def test_example6_hurry_ahead_into_goal():
    s = setup((59, 11, 0), (63, 10, 0))
    play(s, advance(1), card(HURRY, 0, 1))
    assert pos(s.red) == (64, 10, 0)
    s = setup((59, 12, 0), (63, 10, 0))
    fails(s, "Das Ausspielen der HURRY_AHEAD Karte ist nicht möglich.",
          advance(1), card(HURRY, 0, 1))


def test_example6_goal_is_shareable():
    s = setup((64, 10, 0), (61, 16, 0), turn=1)
    play(s, advance(3))
    assert pos(s.blue) == (64, 10, 0)


# ------------------------------------------------------------------ Example 7

def test_example7_skip_at_start_is_illegal():
    fails(start(), "Spieler kann noch einen anderen Zug ausführen, aussetzen ist nicht erlaubt.",
          skip())


def test_example7_skip_only_when_stuck():
    s = setup((18, 0, 5), (15, 0, 5), blue_last=fall_back())
    red_last = s.red.last
    assert movegen.legal_moves(s) == [mv(skip())]
    play(s, skip())
    assert s.turn == 1 and pos(s.red) == (18, 0, 5) and s.red.last == red_last
    fails(s, "Spieler kann noch einen anderen Zug ausführen, aussetzen ist nicht erlaubt.", skip())
    play(s, fall_back())
    assert pos(s.blue) == (11, 40, 5)
    assert pos(s.red) == (18, 0, 5)  # ahead: no POSITION_2 bonus
    fails(s, "Spieler kann noch einen anderen Zug ausführen, aussetzen ist nicht erlaubt.", skip())
    play(s, fall_back())
    assert pos(s.red) == (15, 30, 5)


def test_example7_skip_on_hare_with_must_advance():
    s = setup((26, 0, 5), (24, 0, 5), red_last=card(TAKE, 20), red_cards=[EAT])
    play(s, skip())
    assert s.turn == 1


def test_example7_never_skip_on_a_carrot_field():
    s = setup((27, 0, 5), (3, 0, 5))
    fails(s, "Spieler kann noch einen anderen Zug ausführen, aussetzen ist nicht erlaubt.", skip())
    play(s, exchange(10))
    assert pos(s.red) == (27, 10, 5)


# ------------------------------------------------------------------ Example 8

def test_example8a_round_limit_higher_index_wins():
    g = _game(setup((40, 30, 2), (38, 30, 2), turn=58))
    g.apply(0, mv(advance(1)))
    assert pos(g.state.red) == (41, 29, 2) and g.turn == 59 and g.outcome() is None
    g.apply(1, mv(advance(1), card(TAKE, 20, 1)))
    assert pos(g.state.blue) == (39, 49, 2) and g.turn == 60
    outcome = g.outcome()
    assert outcome.winner == 0 and outcome.reason == "Das Rundenlimit wurde erreicht."
    assert g.score_parts(0) == ["41", "29"] and g.score_parts(1) == ["39", "49"]


def test_example8b_bonus_after_the_final_move():
    g = _game(setup((44, 30, 2), (40, 30, 2), turn=58))
    g.apply(0, mv(advance(2)))
    assert pos(g.state.red) == (46, 27, 2) and g.turn == 59
    assert pos(g.state.blue) == (40, 60, 2)
    g.apply(1, mv(advance(1)))
    assert pos(g.state.blue) == (41, 59, 2) and g.turn == 60
    assert pos(g.state.red) == (46, 37, 2)
    assert g.outcome().winner == 0
    assert g.score_parts(0) == ["46", "37"] and g.score_parts(1) == ["41", "59"]


# ------------------------------------------------------------------ Example 9

def test_example9_structural_errors():
    fails(start(), "Keine Aktionen vorhanden.")
    fails(start(), "Das order Attribut wurde nicht richtig gesetzt.", advance(2, 1))
    s = start()
    fails(s, "Das order Attribut wurde nicht richtig gesetzt.", advance(2), card(TAKE, 20, 2))
    assert (s.red.index, s.red.carrots) == (2, 65)
    s = start()
    fails(s, "Das order Attribut wurde nicht richtig gesetzt.", advance(2), card(TAKE, 20, 0))
    assert (s.red.index, s.red.carrots) == (2, 65)
    fails(start(), "Nach der ersten Aktion können nur noch Karten folgen.",
          advance(1), advance(1, 1))
    fails(start(), "Das Ausspielen der EAT_SALAD Karte ist nicht möglich.",
          advance(2), card(TAKE, 20, 1), card(EAT, 0, 2))
    for distance in (0, 11, 12):
        fails(start(), f"Vorwärtszug um {distance} Felder ist nicht möglich", advance(distance))
    fails(setup((5, 68, 5), (9, 68, 5)), "Vorwärtszug um 4 Felder ist nicht möglich", advance(4))
    fails(setup((60, 68, 0), (9, 68, 5)), "Vorwärtszug um 5 Felder ist nicht möglich", advance(5))


# ------------------------------------------------------------------ Example 10

def test_example10_double_card_from_salad_to_salad():
    board = list(EXAMPLE_BOARD)
    board[40], board[41], board[45] = HARE, POSITION_2, HARE
    s = setup((42, 34, 1), (41, 50, 5), red_last=eat_salad(), red_cards=[HURRY, FALL],
              board=tuple(board))
    actions = (advance(3), card(FALL, 0, 1), card(HURRY, 0, 2))
    assert legal(s, *actions)
    blue_carrots = s.blue.carrots
    play(s, *actions)
    assert pos(s.red) == (42, 28, 1) and s.red.cards == [] and s.red.last == card(HURRY, 0, 2)
    assert s.blue.carrots == blue_carrots + 30
    play(s, advance(3))  # BLUE moves on; RED must now eat on the same salad again
    assert movegen.legal_moves(s) == [mv(eat_salad())]


# ------------------------------------------------------------------ other official tests

def test_first_round_has_no_outcome():
    g = _game(start())
    assert g.outcome() is None
    assert g.score_parts(0) == ["0", "68"]


def test_goal_reason_beats_round_limit():
    g = _game(setup((61, 16, 0), (40, 30, 2), turn=58))
    g.apply(0, mv(advance(3)))
    g.apply(1, mv(advance(1)))
    outcome = g.outcome()
    assert g.turn == 60 and outcome.winner == 0
    assert outcome.reason == "Das Spiel ist beendet.\nEin Spieler ist im Ziel"


def test_round_limit_tie_breaks():
    s = setup((41, 20, 2), (41, 30, 2), turn=60)
    assert rules.outcome(s) == (0, "Das Rundenlimit wurde erreicht.")
    s = setup((41, 30, 2), (41, 20, 2), turn=60)
    assert rules.outcome(s) == (1, "Das Rundenlimit wurde erreicht.")
    s = setup((41, 30, 2), (41, 30, 2), turn=60)
    assert rules.outcome(s) == (0, "Das Rundenlimit wurde erreicht.")


def test_red_in_goal_on_odd_turn_is_not_over_yet():
    s = setup((64, 5, 0), (40, 30, 2), turn=1)
    assert rules.outcome(s) is None
    s.turn = 2
    assert rules.outcome(s) == (0, "Das Spiel ist beendet.\nEin Spieler ist im Ziel")


def test_direct_move_onto_hedgehog_is_illegal():
    fails(setup((9, 68, 5), (3, 68, 5)), "Vorwärtszug um 2 Felder ist nicht möglich", advance(2))
