"""Every verbatim violation text of spec §7, the fault mapping, and move decoding edge cases."""

from __future__ import annotations

import pytest

from swc_local.games.hase_und_igel import movegen, rules, xmlmap
from swc_local.games.hase_und_igel.xmlgame import HaseUndIgelGame
from swc_local.games.hase_und_igel.entry import ENTRY as HASE_UND_IGEL_ENTRY
from swc_local.games.hase_und_igel.rules import (
    EAT,
    FALL,
    HURRY,
    TAKE,
    advance,
    card,
    eat_salad,
    exchange,
    fall_back,
    skip,
)
from swc_local.games.plugin import InvalidMove, MalformedMove
from swc_local.protocol.element import parse
from swc_local.protocol.xstream import java_int
from tests.hase_und_igel.test_hase_und_igel_support import mv, pos, setup, start

PLUGIN = HASE_UND_IGEL_ENTRY.plugin

CASES = [
    ("Keine Aktionen vorhanden.", start, ()),
    ("Das order Attribut wurde nicht richtig gesetzt.", start, (advance(1, 1),)),
    ("Nach der ersten Aktion können nur noch Karten folgen.", start,
     (advance(1), skip(1))),
    ("Es muss eine Karte ausgespielt werden.", start, (advance(2),)),
    ("Vorwärtszug um 64 Felder ist nicht möglich", start, (advance(64),)),
    ("Vorwärtszug um -3 Felder ist nicht möglich", start, (advance(-3),)),
    ("Das Ausspielen der TAKE_OR_DROP_CARROTS Karte ist nicht möglich.", start, (card(TAKE, 20),)),
    ("Das Ausspielen der EAT_SALAD Karte ist nicht möglich.", start, (card(EAT),)),
    ("Das Ausspielen der HURRY_AHEAD Karte ist nicht möglich.", start, (card(HURRY),)),
    ("Das Ausspielen der FALL_BACK Karte ist nicht möglich.", start, (card(FALL),)),
    ("Es können nicht 10 Karotten aufgenommen werden.", start, (exchange(10),)),
    ("Es können nicht -10 Karotten aufgenommen werden.",
     lambda: setup((27, 9, 5), (3, 9, 5)), (exchange(-10),)),
    ("Es können nicht 20 Karotten aufgenommen werden.",
     lambda: setup((27, 30, 5), (3, 9, 5)), (exchange(20),)),
    ("Es kann gerade kein Salat (mehr) gegessen werden.", start, (eat_salad(),)),
    ("Es kann gerade kein Rückzug gemacht werden.", start, (fall_back(),)),
    ("Spieler kann noch einen anderen Zug ausführen, aussetzen ist nicht erlaubt.", start,
     (skip(),)),
]


@pytest.mark.parametrize("message, make, actions", CASES, ids=[c[0][:40] for c in CASES])
def test_violation_message(message, make, actions):
    game = HaseUndIgelGame(make())
    with pytest.raises(InvalidMove) as failure:
        game.apply(0, mv(*actions))
    assert failure.value.reason == message


def test_unreachable_skip_message_from_the_action_itself():
    # A move with a skip at order > 0 is stopped by the structural check first (above);
    # the skip's own text only shows when the action is performed directly.
    with pytest.raises(rules.RuleViolation) as failure:
        rules.perform_action(start(), skip(1))
    assert failure.value.message == (
        "Nur das ausspielen von Karten ist nach der ersten Aktion erlaubt.")


def test_not_a_move_message():
    assert rules.not_a_move("Alice") == "Alice hat kein Zug-Objekt gesendet."


def test_take_card_values_other_than_20_minus_20_0_are_illegal():
    for value in (10, 19, 21, -10, 40):
        game = HaseUndIgelGame(start())
        with pytest.raises(InvalidMove) as failure:
            game.apply(0, mv(advance(2), card(TAKE, value, 1)))
        assert failure.value.reason.startswith("Das Ausspielen der TAKE_OR_DROP_CARROTS")


def test_drop_20_needs_20_carrots():
    s = setup((2, 19, 5), (0, 68, 5), red_last=advance(2))
    s.red.must_play_card = False
    game = HaseUndIgelGame(s)
    with pytest.raises(InvalidMove):
        game.apply(0, mv(card(TAKE, -20)))


def test_card_at_order_zero_on_a_hare_in_a_constructed_state():
    # official test playDropCarrotsCard: a loaded state may allow a card without an advance
    s = setup((2, 30, 5), (0, 68, 5), red_last=advance(2))
    assert mv(card(TAKE, -20)) in movegen.legal_moves(s)
    HaseUndIgelGame(s).apply(0, mv(card(TAKE, -20)))
    assert pos(s.red) == (2, 10, 5)


def test_card_without_type_crashes_after_earlier_actions():
    game = HaseUndIgelGame(start())
    data = parse('<data class="move"><advance order="0" distance="2"/><card order="1"/></data>')
    move = game.decode_move(data)
    with pytest.raises(MalformedMove):
        game.apply(0, move)
    assert pos(game.state.red) == (2, 65, 5) and game.turn == 0


def test_out_of_turn_apply_is_refused():
    with pytest.raises(ValueError):
        HaseUndIgelGame(start()).apply(1, mv(advance(1)))


# ---------------------------------------------------------------- decoding

def decode(xml: str) -> rules.Move:
    return xmlmap.decode_move(parse(xml))


def test_decode_all_action_kinds_and_hints():
    move = decode('<data class="move"><hint content="a &amp; b"/><advance order="0" distance="3"/>'
                  '<card order="1" type="EAT_SALAD" value="0"/>'
                  '<exchangeCarrots order="0" value="-10"/>'
                  '<eatSalad order="0"/><fallBack order="0"/><skip order="0"/><hint/></data>')
    assert move.actions == (advance(3), card(EAT, 0, 1), exchange(-10), eat_salad(), fall_back(),
                            skip())
    assert move.hints == ("a & b", None)


def test_missing_attributes_default_to_zero():
    move = decode('<data class="move"><advance/><card type="FALL_BACK"/><exchangeCarrots/></data>')
    assert move.actions == (advance(0), card(FALL, 0, 0), exchange(0))


def test_full_class_names_are_accepted():
    move = decode('<data class="sc.plugin2018.Move"><sc.plugin2018.Advance order="0" distance="1"/>'
                  '</data>')
    assert move.actions == (advance(1),)


@pytest.mark.parametrize("xml", [
    '<data class="move"><advance order="x" distance="1"/></data>',
    '<data class="move"><advance order="0" distance="1.5"/></data>',
    '<data class="move"><advance order="0" distance=" 1"/></data>',
    '<data class="move"><advance order="0" distance="08"/></data>',
    '<data class="move"><advance order="0" distance="99999999999"/></data>',
    '<data class="move"><card order="0" type="take_or_drop_carrots" value="20"/></data>',
    '<data class="move"><card order="0" type="JOKER"/></data>',
    '<data class="move"><jump order="0"/></data>',
    '<data class="move"><advance order="0" distance="1"><x/></advance></data>',
])
def test_undecodable_moves_are_malformed(xml):
    with pytest.raises(MalformedMove):
        decode(xml)


@pytest.mark.parametrize("text, value", [
    ("0", 0), ("7", 7), ("+7", 7), ("-7", -7), ("0x1F", 31), ("#10", 16), ("010", 8),
    ("-0x10", -16), ("4294967295", -1), ("2147483648", -2147483648),
])
def test_java_int_decoding(text, value):
    assert java_int(text) == value


def test_empty_move_decodes_to_no_actions():
    game = HaseUndIgelGame(start())
    move = game.decode_move(parse('<data class="move"><hint content="x"/></data>'))
    with pytest.raises(InvalidMove) as failure:
        game.apply(0, move)
    assert failure.value.reason == "Keine Aktionen vorhanden."


def test_last_move_echoes_sorted_actions_then_hints():
    game = HaseUndIgelGame(start())
    move = game.decode_move(parse(
        '<data class="move"><hint content="h1"/><card order="1" type="TAKE_OR_DROP_CARROTS" '
        'value="20"/><advance order="0" distance="2"/><hint content="h2"/></data>'))
    game.apply(0, move)
    last = game.state_element().find("lastMove")
    assert last.render(4) == (
        '\n        <lastMove>'
        '\n          <advance order="0" distance="2"/>'
        '\n          <card order="1" type="TAKE_OR_DROP_CARROTS" value="20"/>'
        '\n          <hint content="h1"/>'
        '\n          <hint content="h2"/>'
        '\n        </lastMove>')
    again = PLUGIN.game_from_state(game.state_element())
    assert again.state_element().render(3) == game.state_element().render(3)


def test_move_element_shape():
    element = PLUGIN.move_element(mv(advance(5), card(TAKE, 20, 1)))
    assert element.render(2) == (
        '\n    <data class="move">'
        '\n      <advance order="0" distance="5"/>'
        '\n      <card order="1" type="TAKE_OR_DROP_CARROTS" value="20"/>'
        '\n    </data>')
