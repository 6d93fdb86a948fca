"""Piranhas 2026 XML mapping against the captures of the official 26.1.0 server.

Offline (no sockets): every memento of the captured games must be what our rules and renderer
produce from the previous one plus its ``lastMove``, byte for byte; the final result's winner,
reason and parts must be ours; moves, error texts and decode failures must match the captures.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swc_local.games.piranhas_2026.entry import ENTRY as PIRANHAS_2026_ENTRY
from swc_local.games.piranhas_2026.plugin import InvalidPiranhaMove
from swc_local.games.piranhas_2026.rules import TEAM_NAMES, Direction, Move
from swc_local.games.piranhas_2026.xmlmap import DroppedMove, decode_move, move_element
from swc_local.protocol.element import Element, parse
from tests.helpers import TESTS

PLUGIN = PIRANHAS_2026_ENTRY.plugin

DATA = TESTS / "data" / "piranhas_2026"
SENT = re.compile(rb"\n>>>>>>>>>> SENT: [^\n]*\n")


def received(path: Path) -> list[Element]:
    """The top-level messages a connection received (marks of what it sent removed)."""
    data = SENT.sub(b"", path.read_bytes())
    if not data.rstrip().endswith(b"</protocol>"):
        data += b"</protocol>"
    return parse(data).children


def room_data(messages: list[Element], data_class: str) -> list[Element]:
    return [
        m.find("data") for m in messages
        if m.tag == "room" and m.find("data") is not None and m.find("data").get("class") == data_class
    ]


def captured_text(path: Path) -> str:
    return SENT.sub(b"", path.read_bytes()).decode("utf-8")


def replay_and_compare(path: Path) -> tuple[object, Element]:
    """Rebuild every memento from the first one and the moves; return the final game and result."""
    messages = received(path)
    states = [data.find("state") for data in room_data(messages, "memento")]
    text = captured_text(path)
    game = PLUGIN.game_from_state(states[0])
    assert game.state_element().render(3) in text
    for state in states[1:]:
        last = state.find("lastMove")
        move = decode_move(last)
        game.apply(game.current_seat, move)
        ours = game.state_element().render(3)
        assert ours == state.render(3), f"memento after {move} differs"
        assert ours in text  # the captured bytes, not only the parsed tree
    results = room_data(messages, "result")
    return game, results[0]


def assert_result(game, result: Element) -> None:
    winner = result.find("winner")
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.reason == winner.get("reason")
    assert (None if outcome.winner is None else TEAM_NAMES[outcome.winner]) == winner.get("team")
    assert winner.get("regular") == "true"
    for entry in result.find("scores").findall("entry"):
        seat = TEAM_NAMES.index(entry.find("player").get("team"))
        parts = [p.text for p in entry.find("score").findall("part")]
        points = "1" if outcome.winner is None else ("2" if outcome.winner == seat else "0")
        assert parts == [points, *game.score_parts(seat)]
    definition = result.find("definition")
    assert [f.get("name") for f in definition.findall("fragment")] == [f.name for f in PLUGIN.score_fragments]


def test_socha_game_every_memento_and_the_result():
    game, result = replay_and_compare(DATA / "socha_game" / "ONE_recv.xml")
    assert game.turn == 60
    assert_result(game, result)
    # (the golden README names TWO as the winner; the captured bytes say ONE, and so do we)
    assert result.find("winner").get("reason") == "ONE hat den größeren zusammenhängenden Schwarm"


def test_socha_admin_named_players():
    game, result = replay_and_compare(DATA / "socha_admin" / "ONE_recv.xml")
    game.set_display_names(("Alice", "Bob"))
    assert_result(game, result)


ENDGAMES = sorted(p.name for p in (DATA / "endgames").iterdir() if p.is_dir())


@pytest.mark.parametrize("name", ENDGAMES)
def test_endgame(name):
    game, result = replay_and_compare(DATA / "endgames" / name / "C1.raw")
    assert_result(game, result)


def test_first_union_on_the_wire():
    messages = received(DATA / "endgames" / "end_union_by_capture" / "C1.raw")
    states = [d.find("state") for d in room_data(messages, "memento")]
    assert states[1].get("firstUnion") == "TWO"
    assert list(states[1].attrs) == ["class", "startTeam", "turn", "firstUnion"]
    assert PLUGIN.game_from_state(states[1]).state.first_union == 1


def test_moves_as_socha_sends_them_decode_and_render_back():
    for side in ("ONE", "TWO"):
        text = (DATA / "socha_game" / f"{side}_sent.xml").read_text(encoding="utf-8")
        rooms = re.findall(r"<room roomId=\"[^\"]+\">.*?</room>\n", text, re.S)
        assert len(rooms) == 30
        for room in rooms:
            data = parse(room).find("data")
            move = decode_move(data)
            assert room.endswith(f"{PLUGIN.move_element(move).render(1)}\n</room>\n")


def test_lastmove_renders_as_captured():
    element = move_element(Move(9, 4, Direction.DOWN_LEFT), "lastMove")
    assert element.render(4) == (
        '\n        <lastMove>\n          <from x="9" y="4"/>\n          <direction>DOWN_LEFT</direction>\n        </lastMove>'
    )


@pytest.mark.parametrize(
    "name, move",
    [
        ("invalid_empty", Move(0, 0, Direction.UP)),
        ("invalid_opponent", Move(1, 0, Direction.RIGHT)),
        ("invalid_jump", Move(0, 1, Direction.DOWN_RIGHT)),
        ("invalid_bounds", Move(0, 4, Direction.LEFT)),
    ],
)
def test_invalid_move_texts(name, move):
    messages = received(DATA / name / "C1.raw")
    start = PLUGIN.game_from_state(room_data(messages, "memento")[0].find("state"))
    error = room_data(messages, "error")[0]
    with pytest.raises(InvalidPiranhaMove) as info:
        start.apply(0, decode_move(error.find("originalMessage")))
    assert error.get("message") == f"Ungueltiger Zug von ''.\n{info.value.detail}"
    winner = room_data(messages, "result")[0].find("winner")
    assert winner.get("reason") == f"Regelverletzung von ONE: {info.value.reason}"
    assert info.value.move == move
    assert start.turn == 0


def _move(body: str) -> Element:
    return parse(f'<data class="move">{body}</data>')


@pytest.mark.parametrize(
    "body, cause",
    [
        ('<from x="0" y="1"/><direction>NORTH</direction>', "PROTOCOL_ERROR"),  # captured
        ('<from x="0" y="1"/>', "UNKNOWN"),  # captured (invalid_format)
        ("<direction>UP</direction>", "UNKNOWN"),
        ('<from x="zero" y="1"/><direction>UP</direction>', "PROTOCOL_ERROR"),
        ('<from x="0" y="99999999999"/><direction>UP</direction>', "PROTOCOL_ERROR"),
        ('<from x="0" y="1"/><direction>UP</direction><hint/>', "PROTOCOL_ERROR"),
        ('<from x="0" y="1"/><direction/>', "PROTOCOL_ERROR"),
    ],
)
def test_undecodable_moves_are_dropped_with_a_cause(body, cause):
    with pytest.raises(DroppedMove) as info:
        decode_move(_move(body))
    assert info.value.cause == cause


def test_off_board_start_decodes_but_is_dropped_unknown():  # captured (invalid_offboard)
    messages = received(DATA / "invalid_offboard" / "C2.raw")
    game = PLUGIN.game_from_state(room_data(messages, "memento")[0].find("state"))
    move = decode_move(_move('<from x="12" y="3"/><direction>UP</direction>'))
    with pytest.raises(DroppedMove) as info:
        game.apply(0, move)
    assert info.value.cause == "UNKNOWN"
    reason = room_data(messages, "result")[0].find("winner").get("reason")
    assert reason == f"ONE hat das Spiel verlassen: {info.value.cause}"


def test_missing_coordinate_is_zero_and_extra_attributes_are_ignored():
    assert decode_move(_move('<from y="1" z="3"/><direction>UP</direction>')) == Move(0, 1, Direction.UP)
    assert decode_move(_move('<from x="0x1" y="01"/><direction>UP</direction>')) == Move(1, 1, Direction.UP)


def test_not_your_turn_text_uses_the_move_string():
    messages = received(DATA / "notyourturn" / "C2.raw")
    error = room_data(messages, "error")[0]
    move = decode_move(parse('<data class="move"><from x="1" y="0"/><direction>RIGHT</direction></data>'))
    assert f"(msg was {move})." in error.get("message")


@pytest.mark.parametrize("bad", [
    '<state class="state" turn="0"/>',
    '<state class="state" turn="0"><board><row><field>EMPTY</field></row></board></state>',
    '<state class="state" turn="x"><board/></state>',
    '<state class="state" turn="0" firstUnion="THREE"><board/></state>',
])
def test_game_from_a_broken_state_is_a_value_error(bad):
    with pytest.raises(ValueError):
        PLUGIN.game_from_state(parse(bad))


def test_describe_is_a_readable_board():
    messages = received(DATA / "lobby" / "L8.raw")
    game = PLUGIN.game_from_state(room_data(messages, "memento")[0].find("state"))
    text = PLUGIN.describe(game)
    assert text.splitlines()[0] == "turn 0, ONE to move"
    assert text.splitlines()[1] == "9 . A C B A B B C A ."
    assert text.splitlines()[10] == "0 . A A C A A A A A ."


_texts = st.one_of(st.sampled_from(["0", "9", "-1", "10", "0x3", "UP", "DOWN_LEFT", ""]), st.text(max_size=6))
_children = st.lists(
    st.builds(
        lambda tag, attrs, text: Element(tag, attrs, text=text),
        st.sampled_from(["from", "direction", "hint", "to"]),
        st.dictionaries(st.sampled_from(["x", "y", "z"]), _texts, max_size=3),
        _texts,
    ),
    max_size=4,
)


START_STATE = room_data(received(DATA / "invalid_jump" / "C1.raw"), "memento")[0].find("state")


@settings(max_examples=200, deadline=None)
@given(_children)
def test_any_move_element_decodes_or_is_dropped_and_never_crashes(children):
    game = PLUGIN.game_from_state(START_STATE)
    try:
        move = decode_move(Element("data", {"class": "move"}, children))
    except DroppedMove as dropped:
        assert dropped.cause in ("UNKNOWN", "PROTOCOL_ERROR")
        return
    try:
        game.apply(0, move)
    except InvalidPiranhaMove as invalid:
        assert invalid.reason.endswith(f" bei '{move}'")
        assert game.turn == 0
    except DroppedMove as dropped:
        assert dropped.cause == "UNKNOWN" and not (0 <= move.x < 10 and 0 <= move.y < 10)
    else:
        assert game.turn == 1


def test_registry_tells_a_piranhas_2026_state_from_other_state_classes():
    from swc_local.games import registry

    assert registry.plugin_for_state(START_STATE) is PLUGIN
    assert not PLUGIN.recognizes_state(parse('<state class="state" turn="0"><board/></state>'))
