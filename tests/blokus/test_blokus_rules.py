"""Blokus 2027 rules against the official server's verdicts (golden vectors, worked examples, the
captured games) and against themselves (generator and validator agree on random playouts)."""

from __future__ import annotations

import gzip
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swc_local.games.blokus import rules, xmlmap
from swc_local.games.blokus.entry import ENTRY as BLOKUS_ENTRY
from swc_local.games.blokus.plugin import BlokusGame, greedy_move
from swc_local.games.blokus.rules import (
    COLOR_INDEX,
    COLORS,
    ROTATION_INDEX,
    SHAPE_INDEX,
    TEAM_NAMES,
    W,
    Position,
    RuleViolation,
    SetMove,
    SkipMove,
)
from swc_local.games.plugin import InvalidMove, MalformedMove
from swc_local.protocol.element import Element, parse
from tests.helpers import TESTS

PLUGIN = BLOKUS_ENTRY.plugin

DATA = TESTS / "data" / "blokus"
VECTORS = [json.loads(line) for line in (DATA / "moves.jsonl").read_text(encoding="utf-8").splitlines()]
BLUE, YELLOW, RED, GREEN = range(4)
W_ = SHAPE_INDEX["PENTO_W"]


def position_of(vector: dict) -> Position:
    occupied = [0, 0, 0, 0]
    if vector["board"] != "-":
        for field in vector["board"].split(";"):
            x, y, color = field.split(",")
            occupied[COLOR_INDEX[color]] |= 1 << (int(y) * W + int(x))
    undeployed = [0, 0, 0, 0]
    for color, shapes in vector["undeployed"].items():
        for kind in filter(None, shapes.split(",")):
            undeployed[COLOR_INDEX[color]] |= 1 << SHAPE_INDEX[kind]
    valid = [False] * 4
    for color in filter(lambda c: c not in ("", "-"), vector["validColors"].split(",")):
        valid[COLOR_INDEX[color]] = True
    mono = {COLOR_INDEX[c]: v for c, v in vector["lastMoveMono"].items()}
    return Position(SHAPE_INDEX[vector["startPiece"]], vector["turn"], occupied, undeployed, valid, mono)


def move_of(spec: dict):
    color = COLOR_INDEX[spec["color"]]
    if spec["class"].endswith("SkipMove"):
        return SkipMove(color)
    return SetMove(color, SHAPE_INDEX[spec["kind"]], ROTATION_INDEX[spec["rotation"]], spec["isFlipped"], spec["x"], spec["y"])


def verdict(position: Position, move) -> dict:
    after = position.copy()
    try:
        after.push(move)
    except RuleViolation as violation:
        return {"ok": False, "mistake": violation.mistake, "message": violation.message}
    got = {
        "ok": True,
        "turn": after.turn,
        "round": after.round,
        "validColors": ",".join(COLORS[c] for c in after.valid_colors()),
        "points": {"ONE": after.team_points(0), "TWO": after.team_points(1)},
        "over": after.is_over(),
    }
    decision = after.decision()
    if decision is not None:
        got["winner"] = None if decision.winner is None else TEAM_NAMES[decision.winner]
        got["reason"] = decision.reason if decision.winner is None else decision.reason % got["winner"]
    return got


@pytest.mark.parametrize("index", range(len(VECTORS)))
def test_every_golden_vector_gets_the_official_verdict(index):
    vector = VECTORS[index]
    position = position_of(vector)
    for case in vector["moves"]:
        move = move_of(case["move"])
        if case["cells"] is not None:
            assert sorted(move.cells(), key=lambda c: (c[1], c[0])) == [tuple(c) for c in case["cells"]]
        expect = case["expect"]
        got = verdict(position, move)
        assert {k: got.get(k) for k in expect} == expect, (vector["turn"], str(move))


def test_placement_counts_match_the_server_on_all_captured_positions():
    """Perft-style oracle: the server's generator found 23,109 placements on the 114 positions."""
    assert sum(position_of(v).count_placements() for v in VECTORS) == 23109
    assert Position(W_).count_placements() == 272  # start placements of PENTO_W (spec §8)


def test_generator_and_validator_agree_on_the_golden_positions():
    for vector in VECTORS[::7]:
        position = position_of(vector)
        if position.is_over():
            continue
        moves = position.legal_moves()
        cell_sets = [frozenset(m.cells()) for m in moves]
        assert len(set(cell_sets)) == len(moves)  # one move per distinct placement
        for move in moves:
            position.check(move)


# -- worked examples of spec §9 ---------------------------------------------------------------

def standard() -> Position:
    """S: turn 4, every colour has placed PENTO_W in its corner."""
    cells = {
        BLUE: [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)],
        YELLOW: [(19, 0), (19, 1), (18, 1), (18, 2), (17, 2)],
        RED: [(19, 19), (19, 18), (18, 18), (18, 17), (17, 17)],
        GREEN: [(0, 19), (0, 18), (1, 18), (1, 17), (2, 17)],
    }
    occupied = [rules._mask(cells[c]) for c in range(4)]
    return Position(W_, 4, occupied, [rules.ALL_SHAPES & ~(1 << W_)] * 4)


def mistake(position: Position, move) -> str:
    with pytest.raises(RuleViolation) as caught:
        position.push(move)
    return caught.value.mistake


def test_worked_examples_on_the_empty_board():
    empty = Position(W_)
    b1 = empty.copy()
    b1.push(SetMove(BLUE, W_, 0, False, 0, 0))
    assert (b1.turn, b1.current_color, b1.team_points(0)) == (1, YELLOW, 5)
    assert SetMove(BLUE, W_, 1, False, 8, 0).cells() == sorted(
        [(9, 0), (10, 0), (8, 1), (9, 1), (8, 2)], key=lambda c: rules._java_bucket(*c)
    )
    with pytest.raises(RuleViolation) as b3:
        empty.copy().push(SetMove(BLUE, SHAPE_INDEX["PENTO_X"], 0, False, 0, 0))
    assert b3.value.message == "Der erste Zug muss den festgelegten Spielstein setzen"
    assert b3.value.detail.endswith("move=null)")
    with pytest.raises(RuleViolation) as b4:
        empty.copy().push(SetMove(BLUE, W_, 0, False, 5, 5))
    assert b4.value.message == (
        "Der erste Zug muss an den Rand gesetzt werden bei 'Setze PENTO_W(Farbe Blau)[5,5]'"
    )
    with pytest.raises(RuleViolation) as b5:
        empty.copy().push(SkipMove(BLUE))
    assert b5.value.detail == (
        "InvalidMoveException(mistake=Der erste Zug muss einen Stein setzen, move=Farbe Blau setzt aus)"
    )
    with pytest.raises(RuleViolation) as b6:
        empty.copy().push(SetMove(YELLOW, W_, 0, False, 0, 0))
    assert b6.value.message == (
        "Nur eigene Spielfiguren können gezogen werden bei 'Setze PENTO_W(Farbe Gelb)[0,0]'"
    )
    assert mistake(empty.copy(), SetMove(BLUE, W_, 0, False, 18, 0)) == "OUT_OF_BOUNDS"


def test_worked_examples_on_the_standard_position():
    mono, domino = SHAPE_INDEX["MONO"], SHAPE_INDEX["DOMINO"]
    assert mistake(standard(), SetMove(BLUE, mono, 0, False, 10, 10)) == "NO_SHARED_CORNER"
    assert mistake(standard(), SetMove(BLUE, mono, 0, False, 1, 0)) == "TOUCHES_SAME_COLOR"
    assert mistake(standard(), SetMove(BLUE, domino, 0, False, 1, 2)) == "OBSTRUCTED"
    assert mistake(standard(), SetMove(BLUE, W_, 0, False, 3, 3)) == "DUPLICATE_SHAPE"
    b12 = standard()
    b12.push(SetMove(BLUE, mono, 0, False, 3, 3))
    b12.push(SkipMove(YELLOW))
    assert (b12.turn, b12.team_points(0), b12.team_points(1)) == (6, 11, 10)
    # B18-B20: which cell the server checks first decides the error (HashSet order)
    b18 = standard()
    b18.occupied[BLUE] |= rules._bit(16, 1)
    b18.occupied[YELLOW] |= rules._bit(17, 0)
    assert mistake(b18, SetMove(BLUE, domino, 0, False, 16, 0)) == "TOUCHES_SAME_COLOR"
    b19 = standard()
    b19.occupied[BLUE] |= rules._bit(17, 1)
    b19.occupied[YELLOW] |= rules._bit(18, 0)
    assert mistake(b19, SetMove(BLUE, domino, 0, False, 17, 0)) == "OBSTRUCTED"
    b20 = standard()
    b20.occupied[YELLOW] |= rules._bit(19, 4)
    assert mistake(b20, SetMove(BLUE, domino, 0, False, 19, 4)) == "OUT_OF_BOUNDS"


def test_colour_removal_last_mono_bonus_and_round_limit():
    mono = SHAPE_INDEX["MONO"]
    b13 = standard()
    b13.occupied[YELLOW] = rules._bit(19, 19)
    b13.undeployed[YELLOW] = 1 << mono
    b13.occupied[RED] = rules._mask([(18, 18), (17, 17), (16, 16), (15, 15), (14, 14)])
    b13.undeployed[RED] = rules.ALL_SHAPES & ~(1 << SHAPE_INDEX["PENTO_X"])
    b13.occupied[GREEN], b13.undeployed[GREEN] = 0, rules.ALL_SHAPES
    b13.push(SetMove(BLUE, mono, 0, False, 3, 3))
    assert (b13.turn, b13.valid_colors(), b13.team_points(0), b13.team_points(1)) == (6, [BLUE, RED, GREEN], 11, 88)
    b14 = standard()
    b14.undeployed[BLUE] = 1 << mono
    b14.push(SetMove(BLUE, mono, 0, False, 3, 3))
    assert (b14.points(BLUE), b14.team_points(0), b14.last_move_mono) == (109, 114, {BLUE: True})
    assert "<lastMoveMono><entry><color>BLUE</color><boolean>true</boolean></entry></lastMoveMono>" in (
        re.sub(r"\s+", "", xmlmap.state_element(b14).render())
    )
    b15 = standard()
    b15.turn = 95
    b15.push(SetMove(GREEN, mono, 0, False, 3, 16))
    assert (b15.turn, b15.round, b15.is_over()) == (96, 25, True)
    game = BlokusGame(b15)
    assert game.outcome().reason == "TWO hat am meisten Punkte erzielt."
    game.set_display_names(("Alice", "Bob"))
    assert (game.outcome().winner, game.outcome().reason) == (1, "Bob hat am meisten Punkte erzielt.")


# -- the captured games -----------------------------------------------------------------------

@pytest.mark.parametrize("scenario", ["blokus_join", "blokus_prepared"])
def test_captured_games_replay_to_the_same_state_bytes(scenario):
    text = gzip.decompress((DATA / "scenarios" / scenario / "ONE_recv.xml.gz").read_bytes()).decode()
    raw_states = re.findall(r"( *<state class=\"state\".*?</state>)", text, re.S)
    document = parse(text if text.rstrip().endswith("</protocol>") else text + "</protocol>")
    states = [r.find("data").find("state") for r in document.findall("room") if r.find("data").get("class") == "memento"]
    assert len(states) == len(raw_states) > 50
    game = PLUGIN.game_from_state(states[0])
    assert game.state_element().render(3) == "\n" + raw_states[0]
    for state, raw in zip(states[1:], raw_states[1:]):
        game.apply(game.current_seat, game.decode_move(state.find("lastMove")))
        assert game.state_element().render(3) == "\n" + raw
    assert game.outcome() is not None
    result = re.search(r'<winner team="(\w+)" regular="true" reason="(\w+) hat am meisten Punkte erzielt."/>', text)
    parts = re.findall(r"<part>(\d+)</part>", text)
    assert TEAM_NAMES[game.outcome().winner] == result.group(1)
    assert [parts[1], parts[3]] == [game.score_parts(0)[0], game.score_parts(1)[0]]


# -- XML decoding ------------------------------------------------------------------------------

def data(xml: str) -> Element:
    return parse(xml)


def test_moves_round_trip_through_xml():
    for move in (SetMove(RED, SHAPE_INDEX["PENTO_S"], 2, True, 0, 16), SkipMove(GREEN)):
        assert xmlmap.decode_move(xmlmap.move_element(move)) == move
    sent = (
        '<data class="sc.plugin2027.SetMove">\n    <piece color="BLUE" kind="PENTO_W" rotation="RIGHT" '
        'isFlipped="false">\n      <position x="8" y="0"/>\n    </piece>\n  </data>'
    )
    assert xmlmap.move_element(SetMove(BLUE, W_, 1, False, 8, 0)).render(1) == "\n  " + sent
    assert xmlmap.decode_move(data('<data class="sc.plugin2027.SkipMove"><color>BLUE</color></data>')) == SkipMove(BLUE)


@pytest.mark.parametrize(
    "xml, cause",
    [
        ('<data class="sc.plugin2027.SkipMove"><color>PURPLE</color></data>', "PROTOCOL_ERROR"),
        ('<data class="sc.plugin2027.SetMove"><piece color="BLUE" kind="HEXO" rotation="NONE"><position/></piece></data>', "PROTOCOL_ERROR"),
        ('<data class="sc.plugin2027.SetMove"><piece color="BLUE" kind="MONO" rotation="NONE"><position x="a"/></piece></data>', "PROTOCOL_ERROR"),
        ('<data class="sc.plugin2027.SetMove"><piece color="BLUE" kind="MONO" rotation="NONE"><position/><extra/></piece></data>', "PROTOCOL_ERROR"),
        ('<data class="sc.plugin2027.SetMove"><piece kind="MONO" rotation="NONE"><position/></piece></data>', "UNKNOWN"),
        ('<data class="sc.plugin2027.SetMove"><piece color="BLUE" kind="MONO" rotation="NONE"/></data>', "UNKNOWN"),
        ('<data class="sc.plugin2027.SetMove"/>', "UNKNOWN"),
        ('<data class="sc.plugin2027.SkipMove"/>', "UNKNOWN"),
    ],
)
def test_undecodable_moves_name_the_left_cause(xml, cause):
    with pytest.raises(MalformedMove) as caught:
        xmlmap.decode_move(data(xml))
    assert caught.value.cause == cause


def test_only_the_java_class_names_are_moves():
    """The aliases setmove/skipmove are not registered: the room drops such a client (golden alias)."""
    assert PLUGIN.move_classes == {"sc.plugin2027.SetMove", "sc.plugin2027.SkipMove"}
    assert "setmove" not in PLUGIN.move_classes and "skipmove" not in PLUGIN.data_classes


def test_invalid_move_texts_reach_the_server_contract():
    game = PLUGIN.new_game(random.Random(3))
    wrong = next(k for k in rules.PENTOMINOES if k != game.position.start_piece)
    with pytest.raises(InvalidMove) as caught:
        game.apply(0, SetMove(BLUE, wrong, 0, False, 0, 0))
    assert caught.value.reason == "Der erste Zug muss den festgelegten Spielstein setzen"
    assert caught.value.detail == (
        "InvalidMoveException(mistake=Der erste Zug muss den festgelegten Spielstein setzen, move=null)"
    )
    assert game.move_text(SetMove(YELLOW, W_, 2, True, 13, 19)) == "Setze PENTO_W(Farbe Gelb, gedreht um 180°, gespiegelt)[13,19]"


# -- playouts ---------------------------------------------------------------------------------

@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), greedy=st.booleans())
def test_random_playouts_never_raise_and_generator_agrees_with_validator(seed, greedy):
    rng = random.Random(seed)
    game = PLUGIN.new_game(rng)
    position = game.position
    seats = []
    while game.outcome() is None:
        moves = position.legal_moves()
        assert moves, "the server never asks a colour without a placement"
        legal = {frozenset(m.cells()) for m in moves}
        color = position.current_color
        for _ in range(5):  # random placements: legal exactly when the generator has them
            kind = rng.randrange(21)
            probe = SetMove(color, kind, rng.randrange(4), rng.random() < 0.5, rng.randrange(-2, 20), rng.randrange(-2, 20))
            try:
                position.check(probe)
                assert frozenset(probe.cells()) in legal
            except RuleViolation:
                assert frozenset(probe.cells()) not in legal or not (position.undeployed[color] >> kind & 1) or (
                    position.is_first_move(color) and kind != position.start_piece
                )
        seats.append(game.current_seat)
        move = greedy_move(game, rng) if greedy else PLUGIN.random_move(game, rng)
        game.apply(game.current_seat, move)
        state = game.state_element()
        assert PLUGIN.game_from_state(state).state_element().render() == state.render()
    assert position.round >= 25 or not position.valid_colors()
    assert set(seats) == {0, 1}
    assert "game over" in PLUGIN.describe(game)


@settings(max_examples=60, deadline=None)
@given(
    color=st.sampled_from(["BLUE", "YELLOW", "RED", "GREEN", "PINK", ""]),
    kind=st.sampled_from(["MONO", "PENTO_W", "PENTO_X", "TETRO_L", "HEXO"]),
    rotation=st.sampled_from(["NONE", "RIGHT", "MIRROR", "LEFT", "UP"]),
    flipped=st.sampled_from(["true", "false", "TRUE", "1"]),
    x=st.one_of(st.integers(-3, 22), st.integers(-(2**31), 2**31 - 1), st.just("x")),
    y=st.one_of(st.integers(-3, 22), st.just("0x3")),
    turns=st.integers(0, 12),
)
def test_arbitrary_move_data_is_a_verdict_or_malformed_and_never_corrupts(color, kind, rotation, flipped, x, y, turns):
    rng = random.Random(turns)
    game = PLUGIN.new_game(rng)
    for _ in range(turns):
        game.apply(game.current_seat, PLUGIN.random_move(game, rng))
    before = game.state_element().render()
    element = parse(
        f'<data class="sc.plugin2027.SetMove"><piece color="{color}" kind="{kind}" rotation="{rotation}" '
        f'isFlipped="{flipped}"><position x="{x}" y="{y}"/></piece></data>'
    )
    try:
        move = game.decode_move(element)
    except MalformedMove:
        return
    try:
        game.apply(game.current_seat, move)
    except InvalidMove as error:
        assert game.state_element().render() == before
        assert error.detail.startswith("InvalidMoveException(mistake=")
    else:
        assert move in PLUGIN.legal_moves(PLUGIN.game_from_state(parse(before))) or any(
            frozenset(m.cells()) == frozenset(move.cells()) for m in PLUGIN.game_from_state(parse(before)).legal_moves()
        )
