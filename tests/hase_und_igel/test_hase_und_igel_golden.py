"""Replays of the official 18.2.6 captures: every state byte for byte, the end, scores, winner.

Why: the captures are the only first-hand record of the official server; matching every state
after every move checks the rules, the position bonuses and the XML layout at once.
"""

from __future__ import annotations

import pytest

from swc_local.games.hase_und_igel import board, rules, xmlmap
from swc_local.games.hase_und_igel.entry import ENTRY as HASE_UND_IGEL_ENTRY
from swc_local.games.plugin import InvalidMove
from swc_local.protocol.element import parse
from tests.hase_und_igel.test_hase_und_igel_support import (
    DATA,
    captured_result,
    captured_states,
    captured_winner_text,
    raw_sent_moves,
    transcript_moves,
)

PLUGIN = HASE_UND_IGEL_ENTRY.plugin

REPLAYS = {
    # name: (raw capture of a player that saw every state, moves in game order)
    "game18": (DATA / "game18" / "C1.raw", lambda: [m for _, m in transcript_moves("game18")]),
    "admin": (DATA / "admin" / "P1.raw", lambda: [
        m for pair in zip(raw_sent_moves(DATA / "admin" / "P1.raw"),
                          raw_sent_moves(DATA / "admin" / "P2.raw")) for m in pair]),
}


def _result_parts(path):
    result = captured_result(path)
    return [(s.get("cause"), s.get("reason"), [p.text for p in s.findall("part")])
            for s in result.findall("score")]


@pytest.mark.parametrize("name", sorted(REPLAYS))
def test_full_game_replay_matches_capture(name):
    raw, moves_of = REPLAYS[name]
    states = captured_states(raw)
    moves = moves_of()
    assert len(states) == len(moves) + 1 == 61
    game = PLUGIN.game_from_state(parse(states[0]))
    assert game.state_element().render(3) == states[0]
    for number, (data, expected) in enumerate(zip(moves, states[1:])):
        assert game.outcome() is None, number
        move = game.decode_move(data)
        # the capture's clients picked from the official getPossibleMoves()
        assert rules.Move(tuple(sorted(move.actions, key=lambda a: a.order))) in \
            PLUGIN.legal_moves(game), number
        game.apply(game.current_seat, move)
        assert game.state_element().render(3) == expected, f"after move {number}"
    outcome = game.outcome()
    assert outcome is not None
    scores = _result_parts(raw)
    points = {outcome.winner: "2", 1 - outcome.winner: "0"}
    for seat, (cause, reason, parts) in enumerate(scores):
        assert cause == "REGULAR" and reason == outcome.reason
        assert parts == [points[seat]] + game.score_parts(seat)
    assert game.winner_element(outcome.winner).render(3) == captured_winner_text(raw)


@pytest.mark.parametrize("name, offender, cause", [
    ("invalid18", 1, "RULE_VIOLATION"), ("disconnect18", 1, "LEFT")])
def test_fault_endings_score_the_state_as_captured(name, offender, cause):
    raw = DATA / name / "C1.raw"
    states = captured_states(raw)
    game = PLUGIN.game_from_state(parse(states[0]))
    moves = transcript_moves(name)
    reason = None
    for number, (_, data) in enumerate(moves):
        move = game.decode_move(data)
        if number < len(states) - 1:
            game.apply(game.current_seat, move)
            assert game.state_element().render(3) == states[number + 1]
        else:
            with pytest.raises(InvalidMove) as failure:
                game.apply(game.current_seat, move)
            reason = failure.value.reason
    assert game.outcome() is None
    scores = _result_parts(raw)
    assert scores[offender][0] == cause
    if cause == "RULE_VIOLATION":
        assert scores[offender][1] == reason == "Vorwärtszug um 40 Felder ist nicht möglich"
    for seat in (0, 1):
        assert scores[seat][2][1:] == game.score_parts(seat)
    assert game.winner_element(1 - offender).render(3) == captured_winner_text(raw)


@pytest.mark.parametrize("raw", ["game18/C1.raw", "invalid18/C1.raw", "disconnect18/C1.raw",
                                 "admin/P1.raw"])
def test_captured_boards_satisfy_the_generator_constraints(raw):
    state, _ = xmlmap.parse_state(parse(captured_states(DATA / raw)[0]))
    assert board.problems(state.board) == []


def test_both_players_saw_the_same_states():
    for name in ("game18", "invalid18", "disconnect18"):
        c1 = captured_states(DATA / name / "C1.raw")
        c2 = captured_states(DATA / name / "C2.raw")
        assert c2 == c1[:len(c2)]
    assert captured_states(DATA / "admin" / "P1.raw") == captured_states(DATA / "admin" / "P2.raw")


def test_score_fragments_match_the_capture():
    definition = captured_result(DATA / "game18" / "C1.raw").find("definition")
    fragments = [(f.get("name"), f.find("aggregation").text, f.find("relevantForRanking").text)
                 for f in definition.findall("fragment")]
    assert fragments == [(f.name, f.aggregation, str(f.relevant_for_ranking).lower())
                         for f in PLUGIN.score_fragments]


def test_move_element_round_trips_the_sent_moves():
    for _, data in transcript_moves("game18"):
        move = xmlmap.decode_move(data)
        element = PLUGIN.move_element(move)
        assert element.get("class") == "move"
        assert [(c.tag, c.attrs) for c in element.children] == \
            [(c.tag, c.attrs) for c in data.children]
