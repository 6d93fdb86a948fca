"""The Hive 2020 XML mapping where the captures show one case each: XStream's reading of moves
(what it accepts, what drops the sender) and the state written and read back."""

from __future__ import annotations

import random

import pytest

from swc_local.games import registry
from swc_local.games.hive.rules import DragMove, SetMove
from swc_local.games.hive.xmlmap import decode_move, move_element
from swc_local.games.plugin import MalformedMove
from swc_local.protocol.element import parse

PLUGIN = registry.get("swc_2020_hive")


def test_a_java_field_is_echoed_as_received_and_numbers_as_xstream_writes_them():
    wire = decode_move(parse(
        '<data class="sc.plugin2020.DragMove"><start class="field" x="0x1" y="-1" z="0" isObstructed="TRUE">'
        '<piece owner="RED" type="BEE"/></start><destination x="1" y="0" z="-1"/><hint>h</hint></data>'))
    assert wire.move == DragMove((1, -1, 0), (1, 0, -1))
    assert move_element(wire, "lastMove").render() == (
        '<lastMove class="dragmove">\n  <hint>h</hint>\n'
        '  <start class="field" x="1" y="-1" z="0" isObstructed="true">\n    <piece owner="RED" type="BEE"/>\n  </start>\n'
        '  <destination x="1" y="0" z="-1"/>\n</lastMove>')


def test_the_docs_hint_reads_as_empty_and_is_echoed_with_both_tags():
    wire = decode_move(parse('<data class="setmove"><piece owner="RED" type="ANT"/><destination x="0" y="0" z="0"/>'
                             '<hint content="a"/></data>'))
    assert wire.move == SetMove(0, 0, (0, 0, 0))
    assert "<hint></hint>" in move_element(wire, "lastMove").render()


@pytest.mark.parametrize("data", [
    '<data class="setmove"><piece owner="RED" type="ANT"/><destination x="0" y="0" z="0"/><hint>a</hint><hint>b</hint></data>',
    '<data class="setmove"><piece owner="GREEN" type="ANT"/><destination x="0" y="0" z="0"/></data>',
    '<data class="setmove"><destination x="0" y="0" z="0"/></data>',
    '<data class="dragmove"><start x="1.0" y="0" z="0"/><destination x="0" y="0" z="0"/></data>',
    '<data class="dragmove"><start class="coordinates" x="1" y="0" z="0"/><destination x="0" y="0" z="0"/></data>',
    '<data class="skipmove"><piece owner="RED" type="ANT"/></data>',
    '<data class="missmove"/>',
])
def test_what_xstream_cannot_read_drops_the_sender(data):
    with pytest.raises(MalformedMove):
        decode_move(parse(data))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_state_reads_back_to_the_same_game(seed):
    game, rng = PLUGIN.new_game(random.Random(seed)), random.Random(seed)
    game.set_display_names(("a & b", "<c>"))
    while game.outcome() is None:
        game.apply(game.current_seat, PLUGIN.random_move(game, rng))
        state = game.state_element()
        assert state.render(3) == game.state_text(3)
        again = PLUGIN.game_from_state(parse(state.render()))
        assert again.state_text(3) == game.state_text(3)
        assert again.position.legal_moves() == game.position.legal_moves()
        assert registry.plugin_for_state(state) is PLUGIN
