"""Blokus 2021 rules against the official 21.4.0 classes: every golden vector (182 captured
positions: their whole placement sets, 12 sampled placements and 40 other moves each) and the
worked examples of the spec (§10).  Data: tests/data/blokus_2021 (copied from
shared/golden/blokus_2021/vectors)."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from swc_local.games.blokus_2021.rules import (
    ALL_SHAPES,
    COLOR_INDEX,
    COLORS,
    ROTATION_INDEX,
    ROTATIONS,
    SHAPE_INDEX,
    SHAPE_NAMES,
    W,
    Position,
    RuleViolation,
    SetMove,
    SkipMove,
    _mask,
)
from tests.helpers import TESTS

DATA = TESTS / "data" / "blokus_2021"
VECTORS = [json.loads(line) for line in gzip.decompress((DATA / "moves.jsonl.gz").read_bytes()).decode().splitlines()]
BLUE, YELLOW, RED, GREEN = range(4)


def position_of(vector: dict) -> Position:
    occupied = [0, 0, 0, 0]
    if vector["board"] != "-":
        for field in vector["board"].split(";"):
            x, y, color = field.split(",")
            occupied[COLOR_INDEX[color]] |= 1 << (int(y) * W + int(x))
    undeployed = [0, 0, 0, 0]
    for color, shapes in vector["undeployed"].items():
        for kind in shapes:
            undeployed[COLOR_INDEX[color]] |= 1 << SHAPE_INDEX[kind]
    valid = [color in vector["validColors"] for color in COLORS]
    mono = {COLOR_INDEX[c]: v for c, v in vector["lastMoveMono"].items()}
    return Position(SHAPE_INDEX[vector["startPiece"]], vector["turn"], occupied, undeployed, valid, mono)


def move_of(spec: dict):
    color = COLOR_INDEX[spec["color"]]
    if spec["type"] == "skip":
        return SkipMove(color)
    return SetMove(color, SHAPE_INDEX[spec["kind"]], ROTATION_INDEX[spec["rotation"]], spec["isFlipped"], spec["x"], spec["y"])


def outcome(position: Position, move) -> dict:
    after = position.copy()
    try:
        after.push(move)
    except RuleViolation as violation:
        return {"legal": False, "mistake": violation.mistake, "message": violation.message}
    return {"legal": True, "turn": after.turn, "round": after.round,
            "validColors": [COLORS[c] for c in after.valid_colors()],
            "points": [after.team_points(0), after.team_points(1)], "over": after.is_over()}


def cell_set(move: SetMove) -> frozenset:
    return frozenset(move.cells())


@pytest.mark.parametrize("index", range(len(VECTORS)))
def test_every_golden_vector_gets_the_official_verdict(index):
    vector = VECTORS[index]
    position = position_of(vector)
    assert position.round == vector["round"] and COLORS[position.current_color] == vector["currentColor"]
    assert [position.team_points(0), position.team_points(1)] == vector["points"]
    # the placement set: equal as covered-cell sets (the server lists one transformation each)
    theirs = set()
    for text in vector["legalMoves"]:
        kind, rotation, flipped, x, y = text.split()
        theirs.add((SHAPE_INDEX[kind], cell_set(SetMove(position.current_color, SHAPE_INDEX[kind],
                                                        ROTATION_INDEX[rotation], flipped == "T", int(x), int(y)))))
    ours = [(m.kind, cell_set(m)) for m in position.legal_moves()]
    assert len(ours) == len(set(ours)) and set(ours) == theirs
    for expected in vector["legalSample"] + vector["other"]:
        move = move_of(expected["move"])
        got = outcome(position, move)
        want = {key: expected[key] for key in got}
        assert got == want, (expected["move"], expected.get("message"))
        if isinstance(move, SetMove) and expected["cells"] is not None:
            assert sorted(map(list, move.cells())) == sorted(expected["cells"])


def test_the_representatives_are_the_servers_first_transformations():
    """Where the server lists (rotation, flip) per cell set, we list the same one."""
    for vector in VECTORS[:40]:
        position = position_of(vector)
        ours = {f"{SHAPE_NAMES[m.kind]} {ROTATIONS[m.rotation]} {'T' if m.flipped else 'F'} {m.x} {m.y}"
                for m in position.legal_moves()}
        assert ours == set(vector["legalMoves"])


def standard() -> Position:
    """Position "S" of spec §10: turn 4, every colour has placed PENTO_W in its corner."""
    w = SHAPE_INDEX["PENTO_W"]
    cells = {
        BLUE: [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)],
        YELLOW: [(19, 0), (19, 1), (18, 1), (18, 2), (17, 2)],
        RED: [(19, 19), (19, 18), (18, 18), (18, 17), (17, 17)],
        GREEN: [(0, 19), (0, 18), (1, 18), (1, 17), (2, 17)],
    }
    return Position(w, 4, [_mask(cells[c]) for c in range(4)], [ALL_SHAPES & ~(1 << w)] * 4)


def verdict(position: Position, move) -> str:
    try:
        position.copy().push(move)
    except RuleViolation as violation:
        return f"{violation.mistake}: {violation.message}"
    return "legal"


def test_worked_examples_match_the_official_output():
    """E1-E24 of examples.txt (spec §10), verdict and message verbatim."""
    lines = {line.split(" | ")[0]: line.split(" | ") for line in (DATA / "examples.txt").read_text(encoding="utf-8").splitlines()
             if line.startswith("E") and " | " in line}
    w, mono, domino = SHAPE_INDEX["PENTO_W"], SHAPE_INDEX["MONO"], SHAPE_INDEX["DOMINO"]
    empty = Position(w)
    s = standard()
    cases = {
        "E1": (empty, SetMove(BLUE, w, 0, False, 0, 0)), "E2": (empty, SetMove(BLUE, w, 1, False, 17, 0)),
        "E3": (empty, SetMove(BLUE, w, 1, False, 8, 0)), "E4": (empty, SetMove(BLUE, SHAPE_INDEX["PENTO_X"], 0, False, 0, 0)),
        "E5": (empty, SetMove(BLUE, w, 0, False, 0, 5)), "E6": (empty, SkipMove(BLUE)),
        "E7": (empty, SetMove(YELLOW, w, 0, False, 0, 0)), "E8": (empty, SetMove(BLUE, w, 0, False, 18, 0)),
        "E9": (s, SetMove(BLUE, mono, 0, False, 10, 10)), "E10": (s, SetMove(BLUE, mono, 0, False, 1, 0)),
        "E11": (s, SetMove(BLUE, domino, 0, False, 1, 2)), "E12": (s, SetMove(BLUE, w, 0, False, 3, 3)),
        "E13": (s, SetMove(BLUE, mono, 0, False, 3, 3)), "E14": (s, SkipMove(BLUE)), "E15": (s, SkipMove(YELLOW)),
    }
    for name, (position, move) in cases.items():
        expected = lines[name]
        assert str(move) == expected[1], name
        got = verdict(position, move)
        assert got == "legal" if expected[2].startswith("legal") else got == expected[2], name
    # E16: YELLOW has no free corner, RED has no corner-anchored cells: both removed
    e16 = standard()
    e16.occupied[YELLOW], e16.undeployed[YELLOW] = _mask([(19, 0)]), 1 << mono
    e16.occupied[RED] = _mask([(18, 1), (17, 2), (16, 3), (15, 4), (14, 5)])
    e16.undeployed[RED] = ALL_SHAPES & ~(1 << SHAPE_INDEX["PENTO_X"])
    e16.occupied[GREEN], e16.undeployed[GREEN] = 0, ALL_SHAPES
    e16.push(SetMove(BLUE, mono, 0, False, 3, 3))
    assert (e16.turn, e16.valid_colors(), e16.team_points(0), e16.team_points(1)) == (7, [BLUE, GREEN], 11, 88)
    # E17/E18: all placed, with and without the MONO bonus
    e17 = standard()
    e17.undeployed[BLUE] = 1 << mono
    e17.push(SetMove(BLUE, mono, 0, False, 3, 3))
    assert e17.team_points(0) == 114 and e17.last_move_mono == {BLUE: True}
    e18 = standard()
    e18.undeployed[BLUE] = 1 << domino
    e18.push(SetMove(BLUE, domino, 0, False, 3, 3))
    assert e18.team_points(0) == 109
    # E19/E20: the round limit is round > 25 (turn 100), not round >= 25
    for turn, over in ((99, True), (95, False)):
        late = standard()
        late.turn = turn
        late.push(SetMove(GREEN, mono, 0, False, 3, 16))
        assert late.is_over() is over and late.turn == turn + 1
    # E21-E24: the HashSet cell order decides between mistakes
    for name, extra, move in (
        ("E21", {BLUE: (16, 1), YELLOW: (17, 0)}, SetMove(BLUE, domino, 0, False, 16, 0)),
        ("E22", {BLUE: (17, 1), YELLOW: (18, 0)}, SetMove(BLUE, domino, 0, False, 17, 0)),
        ("E23", {YELLOW: (19, 4)}, SetMove(BLUE, domino, 0, False, 19, 4)),
    ):
        position = standard()
        for color, cell in extra.items():
            position.occupied[color] |= _mask([cell])
        assert verdict(position, move) == lines[name][2], name
    e24 = Position(w, 1, [_mask([(0, 0)]), 0, 0, 0], [ALL_SHAPES & ~(1 << w), ALL_SHAPES, ALL_SHAPES, ALL_SHAPES])
    assert verdict(e24, SetMove(YELLOW, w, 0, False, 0, 0)) == lines["E24"][2]


def test_the_start_piece_is_seeded_and_never_pento_x():
    drawn = {SHAPE_NAMES[Position.start(random.Random(seed)).start_piece] for seed in range(300)}
    assert "PENTO_X" not in drawn and len(drawn) == 11
    assert Position.start(random.Random(7)).start_piece == Position.start(random.Random(7)).start_piece


@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_end_and_generator_agrees_with_validator(seed):
    rng = random.Random(seed)
    position = Position.start(rng)
    while not position.is_over():
        moves = position.legal_moves()
        assert moves, "the server removes a colour without placements"
        for move in rng.sample(moves, min(5, len(moves))):
            position.copy().check(move)
        position.push(rng.choice(moves))
    assert position.turn <= 100
