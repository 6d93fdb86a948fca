"""Every rule vector of the golden data (``tests/data/piranhas_2026/vectors/``): 24,304 moves from
322 positions whose outcomes the official 26.1.0 rule classes computed.

For each move our verdict must equal the official one: legal with the same target, turn,
``firstUnion``, game-over flag and (when over) winner, reason and swarm weights; or illegal with
the same mistake and the same ``InvalidMoveException`` message.  Each position is one test case,
and a failure lists every move that disagrees.  The legal-move generator must produce exactly
the moves the official classes accepted among those tried.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from swc_local.games.piranhas_2026.plugin import Piranhas2026Game
from swc_local.games.piranhas_2026.rules import (
    EMPTY, TEAM_NAMES, Direction, GameState, Move, MoveRejected,
)
from tests.helpers import TESTS

VECTORS = TESTS / "data" / "piranhas_2026" / "vectors" / "moves.jsonl.gz"
TEAMS = {"ONE": 0, "TWO": 1, None: None}


def _positions() -> list[dict]:
    with gzip.open(VECTORS, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


POSITIONS = _positions()


def test_the_vector_file_is_complete():
    assert len(POSITIONS) == 322
    assert sum(len(p["moves"]) for p in POSITIONS) == 24304


def _team(team: int | None) -> str | None:
    return None if team is None else TEAM_NAMES[team]


def our_verdict(base: GameState, vector: dict) -> dict:
    """Our answer in the vectors' own format, for one move applied to a copy of ``base``."""
    state = base.copy()
    move = Move(vector["x"], vector["y"], Direction[vector["direction"]])
    try:
        state.perform(move)
    except MoveRejected as rejected:
        return {"ok": False, "mistake": rejected.mistake.name, "message": rejected.message}
    target = next(
        c for c in range(100) if state.cells[c] != base.cells[c] and state.cells[c] != EMPTY
    )
    got = {
        "ok": True,
        "target": [target % 10, target // 10],
        "turn": state.turn,
        "firstUnion": _team(state.first_union),
        "over": state.is_over(),
    }
    expected_board = list(base.cells)
    expected_board[target] = base.cells[move.y * 10 + move.x]
    expected_board[move.y * 10 + move.x] = EMPTY
    assert state.cells == expected_board, f"{move}: the board after the move is not from/target only"
    outcome = Piranhas2026Game(state).outcome()
    if outcome is not None:
        got["winner"] = _team(outcome.winner)
        got["reason"] = outcome.reason
        got["parts"] = {name: [state.greatest_swarm(team)] for team, name in enumerate(TEAM_NAMES)}
    return got


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_vector_position(index):
    position = POSITIONS[index]
    base = GameState.from_string(position["board"], position["turn"], TEAMS[position["firstUnion"]])
    legal = set(base.legal_moves())
    disagreements = []
    for vector in position["moves"]:
        move = Move(vector["x"], vector["y"], Direction[vector["direction"]])
        got = our_verdict(base, vector)
        if got != vector["expect"]:
            disagreements.append(f"{move}: official {vector['expect']}, ours {got}")
        elif (move in legal) != vector["expect"]["ok"]:
            disagreements.append(f"{move}: the generator says legal={move in legal}, official {vector['expect']['ok']}")
    assert not disagreements, (
        f"position {index} (board {position['board']}, turn {position['turn']}, "
        f"firstUnion {position['firstUnion']}):\n" + "\n".join(disagreements)
    )
    tried_legal = {
        Move(v["x"], v["y"], Direction[v["direction"]]) for v in position["moves"] if v["expect"]["ok"]
    }
    tried_starts = {(m["x"], m["y"]) for m in position["moves"]}
    assert {m for m in legal if (m.x, m.y) in tried_starts} == tried_legal
