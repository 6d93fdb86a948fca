"""Every rule vector of the official 24.2.5 classes (shared/golden/mississippi_queen_2024/vectors,
copied gzipped to tests/data/mississippi_queen): the legal moves in the official iterator's order,
the state after each sampled move, and the verdict and texts of every probe move."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from swc_local.games.mississippi_queen.rules import (
    DIRECTION_INDEX,
    KIND_INDEX,
    PASSENGER,
    Board,
    Position,
    RuleCrash,
    RuleViolation,
    Segment,
    Ship,
    notation,
    parse_notation,
)

from tests.helpers import TESTS

DATA = TESTS / "data" / "mississippi_queen"
TEAMS = {"ONE": 0, "TWO": 1}


def _vectors(name: str) -> list[dict]:
    with gzip.open(DATA / f"{name}.jsonl.gz", "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


VECTORS = [(name, index, vector) for name in ("positions", "real_positions") for index, vector in enumerate(_vectors(name))]


def _field(text: str) -> tuple:
    if text.startswith("passenger:"):
        _, direction, count = text.split(":")
        return (PASSENGER, DIRECTION_INDEX[direction], int(count))
    return (KIND_INDEX[text],)


def _ship(data: dict) -> Ship:
    q, r, _ = data["position"]
    return Ship(TEAMS[data["team"]], q, r, DIRECTION_INDEX[data["direction"]], data["speed"], data["coal"],
                data["passengers"], data["freeTurns"], data["points"], data["stuck"], data["freeAcc"], data["movement"])


def position_of(vector: dict) -> Position:
    board = vector["board"]
    segments = [Segment(DIRECTION_INDEX[s["direction"]], (s["center"][0], s["center"][1]),
                        [[_field(f) for f in column] for column in s["columns"]]) for s in board["segments"]]
    return Position(Board(segments, board["visibleSegments"], DIRECTION_INDEX[board["nextDirection"]]),
                    [_ship(s) for s in vector["ships"]], vector["turn"], TEAMS[vector["currentTeam"]])


def ship_view(ship: Ship) -> dict:
    return {"position": [ship.q, ship.r, -ship.q - ship.r], "direction": ship.direction, "speed": ship.speed,
            "coal": ship.coal, "passengers": ship.passengers, "freeTurns": ship.free_turns, "points": ship.points,
            "stuck": ship.stuck, "freeAcc": ship.free_acc, "movement": ship.movement}


def expected_ship(data: dict) -> dict:
    view = {key: data[key] for key in ("position", "speed", "coal", "passengers", "freeTurns", "points", "stuck",
                                        "freeAcc", "movement")}
    view["direction"] = DIRECTION_INDEX[data["direction"]]
    return view


def test_the_vectors_are_all_there():
    assert sum(1 for name, _, _ in VECTORS if name == "positions") == 131
    assert sum(1 for name, _, _ in VECTORS if name == "real_positions") == 221


@pytest.mark.parametrize("name,index,vector", VECTORS, ids=[f"{n}-{i}" for n, i, _ in VECTORS])
def test_vector(name, index, vector):
    position = position_of(vector)
    assert position.is_over() == vector["isOver"]
    if not vector["isOver"]:
        limit = 2000 if vector["truncated"] else None
        ours = [notation(move) for move in position.legal_moves(limit)]
        assert ours == list(dict.fromkeys(vector["legal"]))
        if not vector["truncated"]:
            assert len(ours) == vector["legal_count"]
    for text, after in vector["after"].items():
        played = position.copy()
        played.push(parse_notation(text))
        assert played.turn == after["turn"], text
        assert played.current == TEAMS[after["currentTeam"]], text
        assert played.is_over() == after["isOver"], text
        assert [ship_view(s) for s in played.ships] == [expected_ship(s) for s in after["ships"]], text
        condition = after["winCondition"]
        if condition is not None:
            decision = played.winner()
            assert decision.winner == TEAMS[condition["winner"]] and decision.reason == condition["reason"], text
    for probe in vector["probes"]:
        played = position.copy()
        try:
            played.push(parse_notation(probe["move"]))
        except RuleViolation as violation:
            assert not probe["legal"], probe
            assert probe["mistake"].split(".")[1] == violation.mistake, probe
            assert violation.text == probe["message"] and violation.message == probe["exception"], probe
        except RuleCrash:
            pytest.fail(f"crash on {probe}")
        else:
            assert probe["legal"], probe
