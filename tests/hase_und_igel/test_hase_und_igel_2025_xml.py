"""Hase und Igel 2025 XML against the captures of the official server (spec §8).

Pure tests, no sockets: every memento the socha clients received in the two captured games
(``hui_join``, ``hui_prepared``) is parsed and rendered back byte for byte, and both games are
replayed from their first memento with the moves the clients actually sent: after every move our
state renders exactly as the next captured memento.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from swc_local.games import registry
from swc_local.games.hase_und_igel_2025 import track, xmlmap
from swc_local.games.hase_und_igel_2025.entry import ENTRY as HASE_UND_IGEL_2025_ENTRY
from swc_local.games.hase_und_igel_2025.plugin import describe
from swc_local.games.hase_und_igel_2025.state import (
    Advance,
    EatSalad,
    ExchangeCarrots,
    FallBack,
    State,
)
from swc_local.games.plugin import MODERN, MalformedMove
from swc_local.protocol.element import Element, parse
from tests.helpers import TESTS

PLUGIN = HASE_UND_IGEL_2025_ENTRY.plugin

DATA = TESTS / "data" / "hase_und_igel_2025"
GAMES = ("hui_join", "hui_prepared")
_STATE = re.compile(r"<state class=\"state\".*?</state>", re.S)
_ROOM = re.compile(r"<room roomId=\"[^\"]*\">.*?</room>", re.S)


def captured_states(name: str, team: str = "ONE") -> list[str]:
    return _STATE.findall((DATA / name / f"{team}_recv.xml").read_text(encoding="utf-8"))


def sent_moves(name: str, team: str) -> list[Element]:
    text = (DATA / name / f"{team}_sent.xml").read_text(encoding="utf-8")
    return [parse(room).find("data") for room in _ROOM.findall(text)]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("team", ("ONE", "TWO"))
def test_every_captured_memento_renders_back_byte_for_byte(name, team):
    states = captured_states(name, team)
    assert len(states) >= 60
    for text in states:
        game = PLUGIN.game_from_state(parse(text))
        assert game.state_element().render(3) == "\n      " + text


@pytest.mark.parametrize("name", GAMES)
def test_captured_game_replays_move_by_move(name):
    states = captured_states(name)
    moves = {"ONE": sent_moves(name, "ONE"), "TWO": sent_moves(name, "TWO")}
    game = PLUGIN.game_from_state(parse(states[0]))
    for text in states[1:]:
        team = ("ONE", "TWO")[game.current_seat]
        game.apply(game.current_seat, game.decode_move(moves[team].pop(0)))
        assert game.state_element().render(3) == "\n      " + text
    assert moves == {"ONE": [], "TWO": []}
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "TWO ist weiter vorne." or name != "hui_join"


def test_plugin_identity_and_registry():
    assert registry.get(registry.resolve("hase_und_igel_2025")) is PLUGIN
    state = parse(captured_states("hui_join")[0])
    assert PLUGIN.recognizes_state(state) and registry.plugin_for_state(state) is PLUGIN
    other = registry.get("swc_2018_hase_und_igel").new_game(random.Random(1)).state_element()
    assert not PLUGIN.recognizes_state(other)
    assert registry.plugin_for_state(other) is registry.get("swc_2018_hase_und_igel")
    assert PLUGIN.game_type == "swc_2025_hase_und_igel" and PLUGIN.dialect == MODERN
    assert [f.name for f in PLUGIN.score_fragments] == ["Siegpunkte", "Feldnummer", "Karotten"]
    assert [f.aggregation for f in PLUGIN.score_fragments] == ["SUM", "AVERAGE", "AVERAGE"]


@pytest.mark.parametrize("xml, move", [
    ('<data class="advance" distance="4"/>', Advance(4)),
    ('<data class="advance" distance="5"><card>FALL_BACK</card><card>EAT_SALAD</card></data>',
     Advance(5, ("FALL_BACK", "EAT_SALAD"))),
    ('<data class="advance" distance="-3" foo="bar"/>', Advance(-3)),
    ('<data class="advance"/>', Advance(0)),
    ('<data class="advance" distance="0x10"/>', Advance(16)),
    ('<data class="eatsalad"/>', EatSalad()),
    ('<data class="fallback"/>', FallBack()),
    ('<data class="exchangecarrots" amount="-10"/>', ExchangeCarrots(-10)),
    ('<data class="exchangecarrots"/>', ExchangeCarrots(0)),
    ('<data class="sc.plugin2025.Advance" distance="2"/>', Advance(2)),
])
def test_moves_decode_as_xstream_reads_them(xml, move):
    assert xmlmap.decode_move(parse(xml)) == move


@pytest.mark.parametrize("xml", [
    '<data class="advance" distance="two"/>',
    '<data class="advance" distance="1"><card>JOKER</card></data>',
    '<data class="advance" distance="1"><card> EAT_SALAD</card></data>',
    '<data class="advance" distance="1"><foo/></data>',
    '<data class="eatsalad"><card>EAT_SALAD</card></data>',
    '<data class="exchangecarrots" amount="99999999999"/>',
    '<data class="move"/>',
])
def test_undecodable_moves_are_malformed(xml):
    with pytest.raises(MalformedMove) as error:
        xmlmap.decode_move(parse(xml))
    assert error.value.cause == "PROTOCOL_ERROR"


@pytest.mark.parametrize("move", [Advance(3), Advance(1, ("HURRY_AHEAD", "SWAP_CARROTS")),
                                  EatSalad(), FallBack(), ExchangeCarrots(10)])
def test_move_elements_are_what_socha_sends_and_decode_back(move):
    element = PLUGIN.move_element(move)
    assert element.tag == "data" and element.get("class") in PLUGIN.move_classes
    assert xmlmap.decode_move(parse(element.render())) == move


def test_first_memento_of_a_new_game():
    game = PLUGIN.new_game(random.Random(7))
    text = game.state_element().render(0)
    assert text.startswith('<state class="state" startTeam="ONE" turn="0">\n  <board>\n'
                           "    <field>START</field>")
    assert '<hare team="ONE" position="0" salads="5" carrots="68">\n    <cards/>\n  </hare>' in text
    assert "lastMove" not in text and "lastAction" not in text
    assert PLUGIN.game_from_state(parse(text)).state == game.state


@pytest.mark.parametrize("xml", [
    '<state class="state" turn="0"/>',
    '<state class="state" turn="0"><board><field>START</field></board></state>',
])
def test_broken_states_are_refused(xml):
    with pytest.raises(ValueError):
        PLUGIN.game_from_state(parse(xml))


def test_describe_shows_hares_and_track():
    state = State(track.from_letters(
        "0HK2HK1KHMSIHKKI12MIKKS2IMHKK2IKKHH21IKKH2SIK2KHM1IMHK2KISHK1KHKZ"))
    state.hares[0].position = 9
    state.hares[0].cards.append("HURRY_AHEAD")
    text = describe(state, ("Alice", ""))
    assert text.splitlines()[0] == "turn 0, ONE to move"
    assert "ONE Alice: field 9 carrots 68 salads 5 cards [HURRY_AHEAD] last -" in text
    assert " 9:MA " in text and text.splitlines()[3].startswith(" 0:0B ")
