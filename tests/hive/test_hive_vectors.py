"""Every Hive 2020 rule vector of the golden data (``tests/data/hive_2020/vectors/``): 737
positions of real games against the official 20.final server, each with every legal move, 40
illegal moves with the official texts, the free bee neighbours and the win condition, all
computed by the official plugin classes.  Our generator must list exactly the official
``getPossibleMoves`` set, our validator must refuse each illegal move with the same text and
accept every legal one, and the score part and win condition must agree."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from swc_local.games.hive.rules import (
    BEE_SURROUNDED, BLUE, CELLS, COLOR_NAMES, INDEX, KIND_NAMES, RED, ROUND_LIMIT_EQUAL, ROUND_LIMIT_FREE_FIELDS,
    SKIP, DragMove, Position, RuleViolation, SetMove,
)
from tests.helpers import TESTS

FOLDER = TESTS / "data" / "hive_2020" / "vectors"
REASONS = {BEE_SURROUNDED: "BEE_SURROUNDED", ROUND_LIMIT_FREE_FIELDS: "ROUND_LIMIT_FREE_FIELDS",
           ROUND_LIMIT_EQUAL: "ROUND_LIMIT_EQUAL"}


def _load(name: str) -> list[dict]:
    with gzip.open(FOLDER / f"{name}.json.gz", "rt", encoding="utf-8") as file:
        return json.load(file)


def position(entry: dict) -> Position:
    stacks: list[list[int]] = [[] for _ in CELLS]
    for field in entry["fields"]:
        x, y, _ = field["at"]
        stacks[INDEX[(x, y)]] = [COLOR_NAMES.index(c) << 3 | KIND_NAMES.index(k) for c, k in field["pieces"]]
    blocked = frozenset(INDEX[(x, y)] for x, y, _ in entry["blocked"])
    undeployed = [[KIND_NAMES.index(k) for k in entry["undeployed"][c]] for c in COLOR_NAMES]
    return Position(stacks, blocked, undeployed, entry["turn"], COLOR_NAMES.index(entry["current"]))


def move(data: dict):
    if data["type"] == "set":
        return SetMove(COLOR_NAMES.index(data["owner"]), KIND_NAMES.index(data["piece"]), tuple(data["to"]))
    if data["type"] == "drag":
        return DragMove(tuple(data["from"]), tuple(data["to"]))
    return SKIP


def disagreements(entry: dict) -> list[str]:
    pos = position(entry)
    problems = []
    ours = set(pos.legal_moves())
    theirs = {move(m) for m in entry["legal"]}
    if ours != theirs:
        problems.append(f"legal: extra {sorted(map(repr, ours - theirs))[:5]}, missing {sorted(map(repr, theirs - ours))[:5]}")
    for legal in theirs | ({SKIP} if entry.get("skipAcceptedThoughNotListed") else set()):
        try:
            pos.validate(legal)
        except RuleViolation as error:
            problems.append(f"{legal} refused: {error.reason}")
    for sample in entry["illegal"]:
        try:
            pos.validate(move(sample["move"]))
            problems.append(f"{sample['move']} accepted, official: {sample['error']}")
        except RuleViolation as error:
            if error.reason != sample["error"]:
                problems.append(f"{sample['move']}: {error.reason!r}, official {sample['error']!r}")
    free = {c: pos.free_bee_neighbours(COLOR_NAMES.index(c)) for c in COLOR_NAMES}
    if free != entry["freeBeeNeighbours"]:
        problems.append(f"free bee neighbours {free}, official {entry['freeBeeNeighbours']}")
    decision = pos.decision()
    verdict = None if decision is None else {
        "winner": None if decision[0] is None else COLOR_NAMES[decision[0]], "reason": REASONS[decision[1]]}
    if verdict != entry["winCondition"]:
        problems.append(f"win condition {verdict}, official {entry['winCondition']}")
    return problems


@pytest.mark.parametrize("name, count", [("captured_games", 139), ("match_games", 598)])
def test_every_vector_agrees_with_the_official_classes(name, count):
    entries = _load(name)
    assert len(entries) == count
    failures = {f"{e['source']} turn {e['turn']}": p for e in entries if (p := disagreements(e))}
    assert not failures, "\n".join(f"{k}: {v[:3]}" for k, v in list(failures.items())[:10])


def test_the_worked_example_of_the_spec_has_a_gate_and_a_hole():
    """§5.1: six pieces ring the hole (1,0,-1); no piece may enter it, the counts are official."""
    stacks: list[list[int]] = [[] for _ in CELLS]
    for color, kind, (x, y) in [(RED, 1, (0, 0)), (RED, 0, (0, 1)), (RED, 4, (1, 1)),
                                (BLUE, 1, (1, -1)), (BLUE, 0, (2, -1)), (BLUE, 3, (2, 0))]:
        stacks[INDEX[(x, y)]] = [color << 3 | kind]
    pos = Position(stacks, frozenset(), [[2, 0, 4, 3], [2, 4, 3]], 6, RED)
    drags = [m for m in pos.legal_moves() if isinstance(m, DragMove)]
    assert len(drags) == 15
    assert sorted(m.destination for m in drags if m.start == (1, 1, -2)) == [(-1, 1, 0), (3, -1, -2)]
    with pytest.raises(RuleViolation, match="There is no path to your destination"):
        pos.validate(DragMove((0, 0, 0), (1, 0, -1)))
    assert (pos.free_bee_neighbours(RED), pos.free_bee_neighbours(BLUE)) == (4, 4)
