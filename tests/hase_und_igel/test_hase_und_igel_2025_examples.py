"""The worked examples of the Hase und Igel 2025 spec (§9), each run on our rules.

They were checked on the official plugin classes; the golden vectors cover the same ground in
bulk, these keep the spec's own cases readable next to the code (hares are written
``position/salads/carrots`` plus cards, on the captured track of spec §2).
"""

from __future__ import annotations

import pytest

from swc_local.games.hase_und_igel_2025 import rules, track
from swc_local.games.hase_und_igel_2025.state import (
    Advance,
    CardAction,
    EatSalad,
    ExchangeCarrots,
    FallBack,
    Hare,
    State,
)

TRACK = track.from_letters("0HK2HK1KHMSIHKKI12MIKKS2IMHKK2IKKHH21IKKH2SIK2KHM1IMHK2KISHK1KHKZ")


def position(one=(0, 5, 68), two=(0, 5, 68), turn=0, one_cards=(), two_cards=(),
             one_last=None, two_last=None) -> State:
    return State(TRACK, turn, (Hare("ONE", *one, one_last, list(one_cards)),
                               Hare("TWO", *two, two_last, list(two_cards))))


def hare(state: State, seat: int) -> tuple[int, int, int]:
    h = state.hares[seat]
    return h.position, h.salads, h.carrots


def mistake(state: State, move) -> str:
    with pytest.raises(rules.RuleViolation) as error:
        rules.perform_move(state, move)
    return error.value.mistake.name


def test_h1_h2_first_moves():
    state = position()
    rules.perform_move(state, Advance(3))
    assert hare(state, 0) == (3, 5, 62) and state.turn == 1
    assert mistake(state, Advance(1)) == "CARD_NOT_OWNED"


def test_h3_to_h6_market():
    state = position()
    rules.perform_move(state, Advance(9, ("SWAP_CARROTS",)))
    assert hare(state, 0) == (9, 5, 13) and state.hares[0].cards == ["SWAP_CARROTS"]
    assert state.hares[0].last_action == Advance(9, ("SWAP_CARROTS",))
    assert mistake(position(), Advance(9)) == "MUST_BUY_ONE_CARD"
    assert mistake(position(), Advance(9, ("SWAP_CARROTS", "EAT_SALAD"))) == "MUST_BUY_ONE_CARD"
    assert mistake(position(one=(0, 5, 54)), Advance(9, ("SWAP_CARROTS",))) == "MISSING_CARROTS"


def test_h7_position_2_pays_the_hare_behind():
    state = position(one=(3, 5, 40), two=(6, 5, 40), turn=1)
    rules.perform_move(state, Advance(1))
    assert hare(state, 1) == (7, 5, 39) and hare(state, 0) == (3, 5, 70)


def test_h8_h9_salad():
    state = position(one=(7, 5, 40), two=(5, 5, 40))
    rules.perform_move(state, Advance(3))
    rules.perform_move(state, ExchangeCarrots(10))
    assert hare(state, 0) == (10, 5, 34) and hare(state, 1) == (5, 5, 50)
    assert mistake(state, Advance(1)) == "MUST_EAT_SALAD"
    assert mistake(position(one=(10, 4, 40), one_last=EatSalad()), EatSalad()) == "CANNOT_EAT_SALAD"


def test_h10_to_h13_hedgehogs_and_occupied_fields():
    assert mistake(position(one=(7, 5, 40)), Advance(4)) == "HEDGEHOG_ONLY_BACKWARDS"
    state = position(one=(14, 5, 10), two=(5, 5, 68))
    rules.perform_move(state, FallBack())
    assert hare(state, 0) == (11, 5, 40)
    assert mistake(position(one=(14, 5, 10), two=(11, 5, 68)), FallBack()) == "CANNOT_FALL_BACK"
    assert mistake(position(one=(5, 5, 68), two=(7, 5, 68)), Advance(2)) == "FIELD_OCCUPIED"


def test_h14_goal_after_a_full_round():
    state = position(one=(63, 0, 11), two=(60, 0, 30))
    rules.perform_move(state, Advance(1))
    assert hare(state, 0) == (64, 0, 10) and state.turn == 1 and not rules.is_over(state)
    rules.perform_move(state, Advance(1))
    assert hare(state, 1) == (61, 0, 29) and rules.is_over(state)
    assert rules.result(state).reason(("", "")) == "ONE hat das Ziel zuerst erreicht."
    assert rules.result(state).reason(("Alice", "Bob")) == "Alice hat das Ziel zuerst erreicht."


def test_h15_to_h18_goal_conditions():
    assert mistake(position(one=(63, 0, 12)), Advance(1)) == "GOAL_CONDITIONS"
    assert mistake(position(one=(63, 1, 11)), Advance(1)) == "GOAL_CONDITIONS"
    assert mistake(position(one=(63, 0, 11)), Advance(2)) == "FIELD_NONEXISTENT"


def test_h17_both_in_the_goal_with_equal_carrots_is_a_tie():
    state = position(one=(63, 0, 8), two=(61, 0, 13))
    rules.perform_move(state, Advance(1))
    rules.perform_move(state, Advance(3))
    assert hare(state, 0)[2] == hare(state, 1)[2] == 7
    result = rules.result(state)
    assert result.winner is None and result.reason(("", "")) == "Beide Spieler sind gleichauf"


def test_h19_round_limit():
    state = position(one=(40, 0, 20), two=(39, 0, 20), turn=59)
    rules.perform_move(state, ExchangeCarrots(10))
    assert state.turn == 60 and rules.is_over(state)
    assert rules.result(state).reason(("", "")) == "ONE ist weiter vorne."


def test_h20_to_h25_cards():
    state = position(one=(2, 5, 40), two=(13, 5, 68), one_cards=["HURRY_AHEAD"])
    rules.perform_move(state, Advance(2, ("HURRY_AHEAD",)))
    assert hare(state, 0) == (14, 5, 37) and state.hares[0].cards == []
    assert state.hares[0].last_action == CardAction("HURRY_AHEAD")
    assert mistake(position(one=(2, 5, 40), two=(1, 5, 68), one_cards=["HURRY_AHEAD"]),
                   Advance(2, ("HURRY_AHEAD",))) == "CANNOT_PLAY_HURRY_AHEAD"
    assert mistake(position(one=(2, 5, 40), two=(13, 5, 68)), Advance(2)) == "CARD_NOT_OWNED"
    state = position(one=(7, 5, 40), two=(5, 5, 68), one_cards=["FALL_BACK", "EAT_SALAD"])
    rules.perform_move(state, Advance(1, ("FALL_BACK", "EAT_SALAD")))
    assert hare(state, 0) == (4, 4, 69) and state.hares[0].last_action == CardAction("EAT_SALAD")
    assert mistake(position(one=(7, 5, 40), two=(5, 5, 68), one_cards=["FALL_BACK"]),
                   Advance(1, ("FALL_BACK",))) == "CARD_NOT_OWNED"
    assert mistake(position(one=(7, 5, 40), one_cards=["EAT_SALAD", "SWAP_CARROTS"]),
                   Advance(1, ("EAT_SALAD", "SWAP_CARROTS"))) == "CANNOT_PLAY_CARD"


def test_h26_to_h28_zero_and_negative_distances():
    state = position(one=(7, 5, 40))
    rules.perform_move(state, Advance(0))
    assert hare(state, 0) == (7, 5, 40) and state.hares[0].last_action == Advance(0)
    state = position(one=(7, 5, 40))
    rules.perform_move(state, Advance(-5))
    assert hare(state, 0) == (2, 5, 30)
    assert mistake(position(one=(7, 5, 40)), Advance(-7)) == "CANNOT_ENTER_FIELD"


def test_h29_h30_swap_carrots():
    state = position(one=(7, 5, 20), two=(3, 5, 60), one_cards=["SWAP_CARROTS"],
                     two_cards=["SWAP_CARROTS"])
    rules.perform_move(state, Advance(1, ("SWAP_CARROTS",)))
    assert hare(state, 0) == (8, 5, 60) and hare(state, 1) == (3, 5, 49)
    assert mistake(state, Advance(1, ("SWAP_CARROTS",))) == "CANNOT_PLAY_SWAP_CARROTS_ALREADY_PLAYED"
    assert mistake(position(one=(47, 0, 20), two=(57, 0, 68), one_cards=["SWAP_CARROTS"]),
                   Advance(5, ("SWAP_CARROTS",))) == "CANNOT_PLAY_SWAP_CARROTS_BEYOND_LAST_SALAD"


def test_h31_h32_exchange():
    assert mistake(position(one=(6, 5, 68)), ExchangeCarrots(10)) == "CANNOT_EXCHANGE_CARROTS"
    assert mistake(position(one=(7, 5, 5)), ExchangeCarrots(-10)) == "CANNOT_EXCHANGE_CARROTS"


def test_h33_skip():
    state = position(one=(7, 5, 40), two=(6, 5, 0))
    rules.perform_move(state, ExchangeCarrots(10))
    assert state.turn == 2 and hare(state, 0) == (7, 5, 50)


def test_h34_texts():
    with pytest.raises(rules.RuleViolation) as error:
        rules.perform_move(position(), Advance(11))
    assert error.value.error_text == (
        "InvalidMoveException(mistake=HEDGEHOG_ONLY_BACKWARDS, move=Vorwärts um 11)")
    assert error.value.reason == (
        "Ein Igelfeld kann nur mit einem Rückwärtzug betreten werden bei 'Vorwärts um 11'")
    assert str(Advance(1, ("EAT_SALAD", "FALL_BACK"))) == (
        "Vorwärts um 1 mit Karten [Salat fressen, Zurückfallen]")
    assert str(ExchangeCarrots(-10)) == "Karottenvorrat um -10 aendern"
