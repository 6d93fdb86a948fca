"""Every captured scenario of the official Ostseeschach 2022 server, replayed over TCP.

Each connection must receive the captured bytes (modulo room ids and reservation codes).  The
2022 captures answer a fresh connection's junk in the modern way (nothing, errorpackets), so the
server runs with ``lobbyDialect = modern``.  Where a deliberate difference of ours changes a
stream (README, "Differences from the official server"), the test asserts our documented
behaviour instead and says why.  Data: tests/data/ostseeschach_2022 (transcripts without the
received lines, raw streams gzipped; see its README).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
import trio

from tests.helpers import TESTS
from tests.scenario import SEND_LINE, Action, Client, _clients_from_transcript, load, run_capture
from tests.wire import Raw, data_class, messages

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

FOLDER = TESTS / "data" / "ostseeschach_2022" / "scenarios"
MODERN = {"lobby_dialect": "modern", "default_game": "swc_2022_ostseeschach"}  # <join/> on a 22.x server


async def replay(start_server, name: str, timed: bool = False, **settings):
    actions, clients = load(FOLDER, name)
    result = await run_capture(start_server, actions, clients, timed=timed, **(MODERN | settings))
    return result, clients


def assert_all_equal(result, clients, skip: tuple[str, ...] = ()) -> None:
    for client in clients.values():
        if client.name not in skip:
            assert result.normalised(client) == client.golden, client.name


@pytest.mark.parametrize(
    "name",
    [
        "game22",
        "game22_gametype",
        "amber_odd",
        "draw22",
        "invalid_empty",
        "invalid_opponent",
        "invalid_vector",
        "invalid_own",
        "invalid_bounds",
        "invalid_null",
        "invalid_observed",
        "notyourturn",
        "unrequested",
        "invalid_format",
        "move_no_to",
        "disconnect22",
        "admin",
        "admin_cancel",
        "admin_misc",
        "malformed",
    ],
)
async def test_captured_scenario(start_server, name):
    result, clients = await replay(start_server, name)
    assert_all_equal(result, clients)


@pytest.mark.parametrize("name", ["softtimeout", "hardtimeout", "notimeout_prepared"])
async def test_captured_timeouts_of_prepared_slots(start_server, mock_clock, name):
    """2 s soft, 10 s hard, and canTimeout="false" waiting 14 s: on a virtual clock."""
    mock_clock.autojump_threshold = 0.1
    result, clients = await replay(start_server, name, timed=True)
    assert_all_equal(result, clients)


async def test_join_players_without_timeouts_as_22_final(start_server, mock_clock):
    """With ``timeout = false`` a ``<join/>`` player may think 13 s, as on 22.final."""
    mock_clock.autojump_threshold = 0.1
    result, clients = await replay(start_server, "notimeout_join", timed=True, sections={"xml": {"join_timeout": False}})
    assert_all_equal(result, clients)


async def test_join_players_time_out_by_default(start_server, mock_clock):
    """Difference: by default ``<join/>`` players time out as in the contest (22.final did not).

    On the board of ``notimeout_join`` C1 does not answer its first request: after 10 s both
    get the hard-timeout result (written with cause SOFT_TIMEOUT, as 22.final wrote hard
    timeouts of prepared slots) and ``left``.
    """
    mock_clock.autojump_threshold = 0.1
    _, clients = load(FOLDER, "notimeout_join")
    state = next(m for m in messages(clients["C1"].golden) if data_class(m) == "memento")
    board = state.find("data").find("state")
    server = await start_server(game_factory=lambda plugin, rng: plugin.game_from_state(board), **MODERN)
    c1, c2 = await Raw.connect(server.door("xml").port), await Raw.connect(server.door("xml").port)
    await c1.send("<protocol><join/>")
    await c1.read_until(b"<joined")
    await c2.send("<protocol><join/>")
    async with trio.open_nursery() as nursery:  # both read at once: a 2022+ seat is paced to its reader
        for client in (c1, c2):
            nursery.start_soon(client.read_until, b"<left", 30)
    for client, name in ((c1, "C1"), (c2, "C2")):
        received = bytes(client.received).decode()
        golden = clients[name].golden.decode()
        cut = golden.index('<data class="memento">') + 10
        assert UUID.sub("R", received)[:cut] == UUID.sub("R", golden)[:cut]
        assert '<score cause="SOFT_TIMEOUT" reason="Der Spieler hat innerhalb von 10 Sekunden nach ' in received
        assert "<winner" not in received and received.endswith('"/>') and "<left roomId=" in received


async def test_nolight_sends_a_result(start_server):
    """Difference: a team without light pieces gets 0 as its distance part and a result is sent
    (22.final failed while scoring: TWO was dropped and ONE heard nothing more)."""
    actions, clients = load(FOLDER, "nolight")
    # the clients stay to read the result (the capture's clients closed once nothing more came;
    # a 2022+ client gets one message per read, so a close right after the last captured
    # memento could come before the result is sent)
    actions = [a for a in actions if a.kind not in ("expect_closed", "expect_open", "close")]
    result = await run_capture(start_server, actions, clients, until=b"<left", **MODERN)
    for name in ("C1", "C2"):
        received = result.normalised(clients[name])
        assert received.startswith(clients[name].golden)
        tail = messages(b"<protocol>" + received[len(clients[name].golden) :])
        assert [m.tag for m in tail] == ["room", "left"] and data_class(tail[0]) == "result"
    scores = tail[0].find("data").find("scores").findall("entry")
    assert [[p.text for p in e.find("score").findall("part")] for e in scores][0][2] == "0"


async def test_lonely_leave_leaves_no_dead_room(start_server):
    """Difference: J1's room closes when J1 leaves before an opponent came, so J2 waits in a
    fresh room (22.final put J2 into J1's dead room: welcome, a memento, never a move request).
    J1, J3 and J4 get exactly the captured bytes."""
    actions, clients = load(FOLDER, "lonely_leave")
    boards = []
    for name in ("J2", "J2", "J3"):
        state = next(m for m in messages(clients[name].golden) if data_class(m) == "memento")
        boards.append(state.find("data").find("state"))
    j2 = clients["J2"]
    j2.golden = j2.golden[: j2.golden.index(b"/>") + 2]  # only <joined/>: nobody else is in its room
    j2.prefixes = [0, len(j2.golden)]
    result = await run_capture(start_server, actions, clients, boards=boards, **MODERN)
    assert_all_equal(result, clients)
    assert re.fullmatch(rb'<protocol>\n  <joined roomId="[0-9a-f-]{36}"/>', j2.golden)


async def test_forced_step_on_a_lonely_room_keeps_the_admin(start_server):
    """Difference: the forced step is ignored and the admin stays connected (22.final dropped
    it); the player hears nothing, as captured."""
    actions, clients = load(FOLDER, "forced_step_lonely")
    actions = [a for a in actions if not (a.client == "ADMIN" and a.kind in ("expect_closed", "close"))]
    result = await run_capture(start_server, actions, clients, **MODERN)
    assert_all_equal(result, clients)
    assert not clients["ADMIN"].closed_by_server  # still connected (and still admin)
    assert any(connection.is_admin for connection in result.server.door("xml").connections)


def _simple22() -> tuple[list[Action], dict[str, Client]]:
    """simple22 has exact streams per direction (no SENT marks): sends from ``*_sent.xml``,
    split at the top-level messages, in the transcript's order; prefixes from the transcript."""
    transcript = FOLDER / "transcript_simple22.txt"
    received = {
        name: gzip.decompress((FOLDER / "simple22" / f"{name}_recv.xml.gz").read_bytes()) for name in ("P1", "P2")
    }
    sent = {}
    for name in ("P1", "P2"):
        text = gzip.decompress((FOLDER / "simple22" / f"{name}_sent.xml.gz").read_bytes()).decode()
        pieces = re.split(r"(?=\n  <(?!/)|\n</protocol>)", text)
        sent[name] = pieces
    full = gzip.decompress((FOLDER / "simple22" / "P1_recv.xml.gz").read_bytes())
    del full
    clients = _clients_from_transcript(transcript)
    actions, used = [], {"P1": 0, "P2": 0}
    for line in transcript.read_text(encoding="utf-8").splitlines():
        match = SEND_LINE.match(line)
        if match:
            name = match[2]
            actions.append(Action(float(match[1]), name, "send", sent[name][used[name]]))
            used[name] += 1
    assert used == {name: len(pieces) for name, pieces in sent.items()}
    for name, client in clients.items():
        client.golden = received[name]
    return actions, clients


async def test_official_simple_clients_capture(start_server):
    actions, clients = _simple22()
    result = await run_capture(start_server, actions, clients, **MODERN)
    assert_all_equal(result, clients)
