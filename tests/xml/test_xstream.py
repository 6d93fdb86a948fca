"""protocol/xstream.py: XStream's int reader, one for every XML game (it was two, which disagreed on ``08``)."""

from __future__ import annotations

import pytest

from swc_local.games.piranhas.xmlmap import decode_move
from swc_local.games.plugin import MalformedMove
from swc_local.protocol.element import Element
from swc_local.protocol.xstream import java_int


@pytest.mark.parametrize("text, value", [
    ("0", 0), ("00", 0), ("-0", 0), ("010", 8), ("0x1F", 31), ("#10", 16), ("+7", 7), ("4294967295", -1),
])
def test_what_java_long_decode_accepts(text, value):
    assert java_int(text) == value


@pytest.mark.parametrize("text", ["08", "09", "0x", "", " 1", "1.0", "4294967296", "-2147483649"])
def test_what_java_throws_on_is_a_value_error(text):
    with pytest.raises(ValueError):
        java_int(text)


def test_each_game_turns_it_into_its_own_malformed_move():
    with pytest.raises(MalformedMove, match="not an integer"):
        decode_move(Element("data", {"class": "move", "x": "08", "y": "1", "direction": "UP"}))
