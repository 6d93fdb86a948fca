"""The client library reads the 2022 dialect: captured server streams parsed as a bot sees them.

The captured streams of a prepared game (``admin/P1``, names ``alpha``/``beta``) and of a
``<join/>`` game (``game22/C1``) go through the same reader and typed parser a bot uses; at every
move request the bot's view of the game (``memento.game``) must offer the move the captured client
sent, and the result must come out with its scores and winner seat.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from swc_local.client.messages import Error, Memento, MoveRequest, Result, Welcome, parse, plugin_for_state
from swc_local.games.ostseeschach import xmlmap
from swc_local.games.ostseeschach.entry import ENTRY as OSTSEESCHACH_ENTRY
from swc_local.protocol.element import parse as parse_xml
from swc_local.protocol.reader import Message, StreamReader
from tests.helpers import TESTS

PLUGIN = OSTSEESCHACH_ENTRY.plugin

DATA = TESTS / "data" / "ostseeschach_2022" / "scenarios"
SENT = re.compile(rb"\n>>>>>>>>>> SENT: (.*)\n")


def received_and_sent(name: str):
    """The typed messages the connection received, and the moves it sent, in order."""
    raw = (DATA / name).read_bytes()
    sent = [parse_xml(m.group(1)).find("data") for m in SENT.finditer(raw) if m.group(1).startswith(b"<room")]
    reader = StreamReader()
    messages = [parse(e.element, PLUGIN) for e in reader.feed(SENT.sub(b"", raw)) if isinstance(e, Message)]
    return messages, sent


@pytest.mark.parametrize("name,seat,winner", [("admin/P1.raw", 0, 1), ("game22/C1.raw", 0, 1)])
def test_a_bot_sees_welcome_states_requests_and_result(name, seat, winner):
    messages, sent = received_and_sent(name)
    welcome = next(m for m in messages if isinstance(m, Welcome))
    assert welcome.color == "ONE" and welcome.seat == seat
    memento, requests = None, 0
    rng = random.Random(1)
    for message in messages:
        if isinstance(message, Memento):
            memento = message
        elif isinstance(message, MoveRequest):
            game = memento.game
            assert game.current_seat == seat
            assert xmlmap.decode_move(sent[requests]) in PLUGIN.legal_moves(game)
            assert PLUGIN.random_move(game, rng) in PLUGIN.legal_moves(game)
            requests += 1
    assert requests == len(sent) == 30
    result = next(m for m in messages if isinstance(m, Result))
    assert result.fragments == ("Siegpunkte", "Bernsteine", "Leichtfiguren Vorne")
    assert [s.cause for s in result.scores] == ["REGULAR", "REGULAR"]
    assert result.winner_seat == winner and result.scores[winner].points == 2
    assert [s.parts for s in result.scores] == [
        ("0", *memento.game.score_parts(0)), ("2", *memento.game.score_parts(1))
    ]


def test_an_invalid_move_error_is_typed_with_its_original_message():
    messages, _ = received_and_sent("invalid_own/C1.raw")
    error = next(m for m in messages if isinstance(m, Error))
    assert error.message.startswith("Ungueltiger Zug von ''.\nInvalidMoveException(")
    assert error.original_request is not None and error.original_request.get("class") == "move"
    result = next(m for m in messages if isinstance(m, Result))
    assert result.scores[0].cause == "RULE_VIOLATION" and result.winner_seat == 1


def test_a_2022_state_is_recognised_without_being_told_the_game():
    messages, _ = received_and_sent("game22/C1.raw")
    memento = next(m for m in messages if isinstance(m, Memento))
    assert plugin_for_state(memento.state) is PLUGIN


def test_a_2018_state_of_the_same_class_name_stays_hase_und_igel():
    from swc_local.games.hase_und_igel.entry import ENTRY as HASE_UND_IGEL_ENTRY
    HASE = HASE_UND_IGEL_ENTRY.plugin

    raw = (DATA.parent.parent / "hase_und_igel_2018" / "game18" / "C1.raw").read_bytes()
    state = parse_xml(re.search(rb"<state class=.*?</state>", raw, re.S).group(0))
    assert state.get("class") == "state"
    assert plugin_for_state(state) is HASE
