"""Every golden rule vector of Hase und Igel 2025 against our rules (issue 13, "Done when").

The vectors (``tests/data/hase_und_igel_2025/vectors/moves.jsonl.gz``, copied gzipped from
``shared/golden``) were computed by the official plugin classes: 262 positions, 14,277 moves, each
applied to a fresh copy. For every move our verdict must equal the official one: the same mistake
and message, or legal with the same turn (skips included), the same two hares (position, salads,
carrots, lastAction, cards in order), the same end flag and the same winner and reason.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from swc_local.games.hase_und_igel_2025 import rules, track
from swc_local.games.hase_und_igel_2025.state import (
    Advance,
    CardAction,
    EatSalad,
    ExchangeCarrots,
    FallBack,
    Hare,
    State,
)
from tests.helpers import TESTS

VECTORS = TESTS / "data" / "hase_und_igel_2025" / "vectors" / "moves.jsonl.gz"


def _positions() -> list[dict]:
    with gzip.open(VECTORS, "rt", encoding="utf-8") as stream:
        return [json.loads(line) for line in stream]


POSITIONS = _positions()


def action_from_json(data: dict | None):
    if data is None:
        return None
    kind = data["class"]
    if kind == "advance":
        return Advance(data["distance"], tuple(data.get("cards", ())))
    if kind == "eatsalad":
        return EatSalad()
    if kind == "fallback":
        return FallBack()
    if kind == "exchangecarrots":
        return ExchangeCarrots(data["amount"])
    if kind == "card":
        return CardAction(data["card"])
    raise ValueError(f"unknown action {data!r}")


def action_to_json(action) -> dict | None:
    if action is None:
        return None
    if isinstance(action, Advance):
        return {"class": "advance", "distance": action.distance, "cards": list(action.cards)}
    if isinstance(action, EatSalad):
        return {"class": "eatsalad"}
    if isinstance(action, FallBack):
        return {"class": "fallback"}
    if isinstance(action, ExchangeCarrots):
        return {"class": "exchangecarrots", "amount": action.amount}
    return {"class": "card", "card": action.card}


def state_from_json(position: dict) -> State:
    hares = tuple(
        Hare(h["team"], h["position"], h["salads"], h["carrots"],
             action_from_json(h["lastAction"]), list(h["cards"]))
        for h in position["hares"])
    return State(track.from_letters(position["track"]), position["turn"], hares)  # type: ignore[arg-type]


def hare_to_json(hare: Hare) -> dict:
    return {"team": hare.team, "position": hare.position, "salads": hare.salads,
            "carrots": hare.carrots, "lastAction": action_to_json(hare.last_action),
            "cards": list(hare.cards)}


def verdict(position: dict, move_json: dict) -> dict:
    """Our answer in the vectors' ``expect`` shape."""
    state = state_from_json(position)
    move = action_from_json(move_json)
    try:
        rules.perform_move(state, move)
    except rules.RuleViolation as violation:
        return {"ok": False, "mistake": violation.mistake.name, "message": violation.reason}
    answer = {"ok": True, "turn": state.turn, "hares": [hare_to_json(h) for h in state.hares],
              "over": rules.is_over(state)}
    if answer["over"]:
        result = rules.result(state)
        answer["winner"] = None if result.winner is None else ("ONE", "TWO")[result.winner]
        answer["reason"] = result.reason(("", ""))
    return answer


def _normalise(expect: dict) -> dict:
    expect = json.loads(json.dumps(expect))
    for hare in expect.get("hares", ()):
        if hare["lastAction"] and hare["lastAction"]["class"] == "advance":
            hare["lastAction"].setdefault("cards", [])
    if expect.get("over") and "winner" not in expect:
        expect["winner"] = None
    return expect


def test_vector_file_is_complete():
    assert len(POSITIONS) == 262
    assert sum(len(p["moves"]) for p in POSITIONS) == 14277


@pytest.mark.parametrize("index", range(len(POSITIONS)), ids=lambda i: f"position{i}")
def test_every_move_of_the_position_gets_the_official_verdict(index):
    position = POSITIONS[index]
    failures = []
    for case in position["moves"]:
        expect = _normalise(case["expect"])
        ours = verdict(position, case["move"])
        if ours != expect:
            failures.append(f"move {case['move']}:\n  official {expect}\n  ours     {ours}")
    assert not failures, (
        f"position {index} (turn {position['turn']}, hares {position['hares']}): "
        f"{len(failures)} of {len(position['moves'])} moves differ\n" + "\n".join(failures[:5]))
