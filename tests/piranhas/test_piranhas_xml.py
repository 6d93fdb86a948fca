"""Piranhas 2019 XML mapping and plugin object, checked byte for byte against captures of the
official 19.2.1 server (copied from ../shared/golden/piranhas_2019 into tests/data).

The captured streams hold states at depth 3 (protocol/room/data/state); :func:`captured_states`
cuts them out with a regex anchored on that indentation, so they compare directly with
``state_element().render(3)``."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from swc_local.games import registry
from swc_local.games.plugin import CLASSIC, InvalidMove, MalformedMove, Outcome, ScoreFragment
from swc_local.games.piranhas import xmlmap
from swc_local.games.piranhas.entry import ENTRY as PIRANHAS_ENTRY
from swc_local.games.piranhas.plugin import PiranhasGame
from swc_local.games.piranhas.rules import BLUE, RED, Direction, Move, Position
from swc_local.protocol.element import Element, parse
from tests.helpers import TESTS, captured_result, captured_states

PLUGIN = PIRANHAS_ENTRY.plugin

DATA = TESTS / "data" / "piranhas_2019"
GAMES = [
    # (capture in tests/data/piranhas_2019, display names of the two slots)
    ("game_seed2_red_recv.xml", ("Alice", "Bob")),  # spec §0: the seed-2 game
    ("admin_P1.raw", ("alice", "bob")),  # scenarios/admin/P1.raw: a stepped/paused game
]


def captured(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def replay(name: str):
    """Yield (game, captured state text) for the first memento and after every captured move."""
    states = captured_states(captured(name))
    game = PLUGIN.game_from_state(parse(states[0]))
    yield game, states[0]
    for text in states[1:]:
        move = game.decode_move(parse(text).find("lastMove"))
        assert move in game.legal_moves()
        assert game.outcome() is None or game.turn == 0
        game.apply(game.current_seat, move)
        yield game, text


@pytest.mark.parametrize("name, names", GAMES)
def test_golden_game_replays_byte_for_byte(name, names):
    game = None
    count = 0
    for game, text in replay(name):
        assert game.names == names
        assert game.state_element().render(3) == text, f"turn {game.turn}"
        count += 1
    assert count == 61 and game.turn == 60

    result = captured_result(captured(name))
    red_score, blue_score = result.findall("score")
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.reason == red_score.get("reason") == blue_score.get("reason")
    # NB: both captures end on the round limit (blue's larger swarm), not on a connection
    assert outcome == Outcome(1, "Das Rundenlimit wurde erreicht.")
    for seat, score in enumerate((red_score, blue_score)):
        parts = [part.text for part in score.findall("part")]
        assert parts[0] == ("2" if outcome.winner == seat else "0")
        assert game.score_parts(seat) == parts[1:]
    winner = result.find("winner")
    assert game.winner_element(outcome.winner).render(3) == winner.render(3)


def test_golden_first_memento_renders_identically():
    # a game built from the first memento renders it back identically, with and without names
    text = captured_states(captured("game_seed2_red_recv.xml"))[0]
    game = PLUGIN.game_from_state(parse(text))
    assert game.state_element().render(3) == text
    fresh = PiranhasGame(Position(game.position.cells))
    fresh.set_display_names(("Alice", "Bob"))
    assert fresh.state_element().render(3) == text


def test_golden_invalid_move_scenario():
    # scenarios/invalid19: red moves an empty field (0,0) UP at turn 4
    stream = captured("invalid19_C2.raw")
    states = captured_states(stream)
    game = PLUGIN.game_from_state(parse(states[-1]))
    assert game.turn == 4 and game.names == ("Unknown", "Unknown")
    assert game.state_element().render(3) == states[-1]
    data = parse('<data class="move" x="0" y="0" direction="UP"/>')
    with pytest.raises(InvalidMove) as info:
        game.apply(game.current_seat, game.decode_move(data))
    result = captured_result(stream)
    red_score, blue_score = result.findall("score")
    assert red_score.get("cause") == "RULE_VIOLATION"
    assert info.value.reason == red_score.get("reason")
    assert game.outcome() is None  # no win condition: the innocent score has no reason
    assert blue_score.get("reason") is None
    assert game.score_parts(0) == [red_score.findall("part")[1].text]
    assert game.score_parts(1) == [blue_score.findall("part")[1].text]


def test_state_with_hints_matches_spec_section_10():
    game = PLUGIN.new_game(random.Random(0))
    game.set_display_names(("Alice", "Bob"))
    move = game.decode_move(parse(
        '<data class="move" x="0" y="1" direction="UP" extra="ignored">'
        '<hint content="hello &amp; bye"/><hint content="second"/></data>'
    ))
    game.apply(0, move)
    text = game.state_element().render(3)
    assert text.startswith(
        '\n      <state class="sc.plugin2019.GameState" startPlayerColor="RED"'
        ' currentPlayerColor="BLUE" turn="1">'
        '\n        <lastMove class="move" x="0" y="1" direction="UP">'
        '\n          <hint content="hello &amp; bye"/>'
        '\n          <hint content="second"/>'
        '\n        </lastMove>'
        '\n        <red displayName="Alice" color="RED"/>'
        '\n        <blue displayName="Bob" color="BLUE"/>'
        '\n        <board>'
        '\n          <fields>'
        '\n            <field x="0" y="0" state="EMPTY"/>'
        '\n            <field x="0" y="1" state="EMPTY"/>'
    )
    assert text.endswith(
        '\n          </fields>\n          <line>------------</line>\n        </board>\n      </state>'
    )
    board = parse(text).find("board")
    assert [len(column.children) for column in board.findall("fields")] == [10] * 10
    assert [f.get("x") + f.get("y") for f in board.findall("fields")[3].children] == [
        f"3{y}" for y in range(10)
    ]
    # the state round-trips, hints included
    again = PLUGIN.game_from_state(parse(text))
    assert again.position.last_move.hints == ("hello & bye", "second")
    assert again.state_element().render(3) == text


def test_display_names_are_escaped_like_xstream():
    game = PLUGIN.new_game(random.Random(0))
    game.set_display_names(("H\u00e4 & 'x'", "a\nb"))
    text = game.state_element().render(3)
    assert '<red displayName="H\u00e4 &amp; &apos;x&apos;" color="RED"/>' in text
    assert '<blue displayName="a&#xa;b" color="BLUE"/>' in text
    assert game.winner_element(1).render(0) == '<winner displayName="a&#xa;b" color="BLUE"/>'


def test_state_elements_are_not_mutated_by_later_moves_and_reuse_columns():
    game = PLUGIN.new_game(random.Random(3))
    first = game.state_element()
    first_text = first.render(3)
    game.apply(0, Move(0, 1, Direction.UP))  # column 0 only changes
    second = game.state_element()
    assert first.render(3) == first_text
    old_columns = first.find("board").findall("fields")
    new_columns = second.find("board").findall("fields")
    assert new_columns[0] is not old_columns[0]
    assert all(new is old for new, old in zip(new_columns[1:], old_columns[1:]))


@pytest.mark.parametrize(
    "xml, expected",
    [
        ('<data class="move" x="3" y="4" direction="UP_LEFT"/>', Move(3, 4, Direction.UP_LEFT)),
        ('<data class="sc.plugin2019.Move" x="0" y="9" direction="DOWN"/>',
         Move(0, 9, Direction.DOWN)),
        ('<data class="move" x="1" y="2" direction="LEFT" foo="bar"/>', Move(1, 2, Direction.LEFT)),
        ('<data class="move" x="0x1" y="010" direction="LEFT"/>', Move(1, 8, Direction.LEFT)),
        ('<data class="move" x="+3" y="-1" direction="LEFT"/>', Move(3, -1, Direction.LEFT)),
        ('<data class="move" x="#ffffffff" y="0" direction="LEFT"/>', Move(-1, 0, Direction.LEFT)),
        ('<data class="move" y="5" direction="RIGHT"/>', Move(0, 5, Direction.RIGHT)),
        ('<data class="move" x="1" y="1" direction="UP"><hint content="a"/><hint/></data>',
         Move(1, 1, Direction.UP, ("a", None))),
    ],
)
def test_decode_move(xml, expected):
    move = PLUGIN.new_game(random.Random(0)).decode_move(parse(xml))
    assert move == expected and move.hints == expected.hints


@pytest.mark.parametrize(
    "xml",
    [
        '<data class="move" x="1" y="1" direction="right"/>',  # enum names are case-sensitive
        '<data class="move" x="1" y="1"/>',  # missing direction
        '<data class="move" x="1" y="1" direction=""/>',
        '<data class="move" x="a" y="1" direction="UP"/>',
        '<data class="move" x="1.0" y="1" direction="UP"/>',
        '<data class="move" x=" 1" y="1" direction="UP"/>',
        '<data class="move" x="" y="1" direction="UP"/>',
        '<data class="move" x="1" y="4294967296" direction="UP"/>',
        '<data class="move" x="1" y="0x" direction="UP"/>',
        '<data class="move" x="1" y="1" direction="UP"><foo/></data>',
        '<data class="move" x="1" y="1" direction="UP"><hint content="a"><x/></hint></data>',
    ],
)
def test_decode_move_malformed(xml):
    with pytest.raises(MalformedMove):
        PLUGIN.new_game(random.Random(0)).decode_move(parse(xml))


def test_hinted_move_is_a_legal_move():
    game = PLUGIN.new_game(random.Random(0))
    move = game.decode_move(parse(
        '<data class="move" x="0" y="1" direction="UP"><hint content="h"/></data>'))
    assert move in PLUGIN.legal_moves(game)


def test_move_element():
    assert PLUGIN.move_element(Move(3, 4, Direction.DOWN_RIGHT)).render(2) == (
        '\n    <data class="move" x="3" y="4" direction="DOWN_RIGHT"/>'
    )
    element = PLUGIN.move_element(Move(0, 1, Direction.UP, ("x<y",)))
    assert element.render(0) == (
        '<data class="move" x="0" y="1" direction="UP">\n  <hint content="x&lt;y"/>\n</data>'
    )
    decoded = PLUGIN.new_game(random.Random(0)).decode_move(element)
    assert decoded == Move(0, 1, Direction.UP) and decoded.hints == ("x<y",)


def test_game_from_state_rejects_broken_states():
    text = captured_states(captured("game_seed2_red_recv.xml"))[0]
    for broken in (
        text.replace('<field x="4" y="4" state="EMPTY"/>', ""),
        text.replace('state="OBSTRUCTED"', 'state="KRAKEN"', 1),
        text.replace('currentPlayerColor="RED"', 'currentPlayerColor="GREEN"'),
        '<state class="sc.plugin2019.GameState" turn="0"/>',
    ):
        with pytest.raises(ValueError):
            PLUGIN.game_from_state(parse(broken))


def test_game_from_state_keeps_turn_and_side_to_move():
    states = captured_states(captured("game_seed2_red_recv.xml"))
    game = PLUGIN.game_from_state(parse(states[7]))
    assert (game.turn, game.current_seat) == (7, 1)
    assert game.position.last_move is not None
    assert game.state_element().render(3) == states[7]


def test_plugin_attributes_and_registry():
    assert registry.get("swc_2019_piranhas") is PLUGIN
    assert PLUGIN.game_type == "swc_2019_piranhas" and PLUGIN.display_name == "Piranhas"
    assert PLUGIN.dialect == CLASSIC
    assert (PLUGIN.soft_timeout_ms, PLUGIN.hard_timeout_ms) == (2000, 10000)
    assert PLUGIN.score_fragments == (
        ScoreFragment("Gewinner", "SUM", True),
        ScoreFragment("\u2205 Schwarm", "AVERAGE", True),
    )
    assert PLUGIN.score_fragments[1].name.encode() == b"\xe2\x88\x85 Schwarm"
    assert PLUGIN.move_classes == frozenset({"move", "sc.plugin2019.Move"})
    assert "sc.plugin2019.GameState" in PLUGIN.data_classes


def test_plugin_helpers():
    game = PLUGIN.new_game(random.Random(2))
    assert PLUGIN.legal_moves(game) == game.position.legal_moves()
    a = PLUGIN.random_move(game, random.Random(9))
    assert a == PLUGIN.random_move(game, random.Random(9)) and a in PLUGIN.legal_moves(game)
    text = PLUGIN.describe(game)
    assert text.splitlines()[0] == "turn 0, RED to move"
    assert text.splitlines()[1] == "9 . B B B B B B B B ."  # the row's y first (issue 22)
    assert text.splitlines()[-1] == "  0 1 2 3 4 5 6 7 8 9"  # the x axis below
    assert Position.from_text("\n".join(text.splitlines()[1:])).cells == game.position.cells
    with pytest.raises(ValueError):
        game.apply(1, a)  # not blue's turn: the server answers that itself (LEFT)


def test_seat_colours():
    game = PLUGIN.new_game(random.Random(0))
    game.set_display_names(("R", "B"))
    assert game.winner_element(0).render(0) == '<winner displayName="R" color="RED"/>'
    assert game.winner_element(1).render(0) == '<winner displayName="B" color="BLUE"/>'
    assert (RED, BLUE) == (1, 2) and game.current_seat == 0
