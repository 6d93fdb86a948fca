"""Every captured Blokus 2027 scenario of the official 27.0.4 server, replayed over TCP.

Each connection must receive the captured bytes (modulo room ids and reservation codes); rooms
start from the captured first memento (the start piece is the only random part of a board).
Data: tests/data/blokus/scenarios (transcripts, raw streams gzipped), copied from
shared/golden/blokus_2027.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from tests.helpers import TESTS
from tests.scenario import SEND_LINE, Action, Replay, _clients_from_transcript, first_state, load, run_capture
from tests.wire import Raw, data_class, messages

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

FOLDER = TESTS / "data" / "blokus" / "scenarios"
MODERN = {"lobby_dialect": "modern"}


def assert_all_equal(result, clients) -> None:
    assert len(clients) >= 2 and all(client.golden for client in clients.values())
    for client in clients.values():
        assert result.normalised(client) == client.golden, client.name


@pytest.mark.parametrize(
    "name",
    ["blokus_invalid_shape", "blokus_skip_first", "blokus_alias_setmove", "colour_removed", "end_round_limit"],
)
async def test_captured_scenario(start_server, name):
    actions, clients = load(FOLDER, name)
    result = await run_capture(start_server, actions, clients, **MODERN)
    assert_all_equal(result, clients)


async def test_a_seat_is_asked_twice_when_the_colour_between_is_removed(start_server):
    """B13 over TCP: BLUE (ONE) moves, YELLOW (TWO) has no placement and is removed, so ONE gets
    the next move request too (for RED); TWO gets none.  Its bad colour then drops ONE."""
    actions, clients = load(FOLDER, "colour_removed")
    result = await run_capture(start_server, actions, clients, **MODERN)
    assert_all_equal(result, clients)
    ours = {name: result.normalised(client) for name, client in clients.items()}
    assert ours["C1"].count(b'class="moveRequest"') == 2 and ours["C2"].count(b'class="moveRequest"') == 0
    state = [m for m in messages(ours["C2"]) if data_class(m) == "memento"][-1].find("data").find("state")
    assert state.get("turn") == "6"
    assert [c.text for c in state.find("validColors").findall("color")] == ["BLUE", "RED", "GREEN"]
    assert b"hat das Spiel verlassen: PROTOCOL_ERROR" in ours["C2"]


async def test_last_piece_mono_then_hard_timeout(start_server, mock_clock):
    """B14 on the wire (the ``lastMoveMono`` entry), then TWO never answers: hard timeout."""
    mock_clock.autojump_threshold = 0.1
    actions, clients = load(FOLDER, "last_piece_mono")
    result = await run_capture(start_server, actions, clients, timed=True, **MODERN)
    assert_all_equal(result, clients)
    assert b"<lastMoveMono>\n          <entry>\n            <color>BLUE</color>" in clients["C1"].golden


def _socha_game(name: str, tmp_path: Path) -> tuple[list[Action], dict]:
    """A proxied socha 5.1.0 game: sends from ``<conn>_sent.xml`` (split at top-level messages) in
    the transcript's order, received bytes from ``<conn>_recv.xml``, send points from the
    transcript."""
    transcript = tmp_path / f"transcript_{name}.txt"
    transcript.write_bytes(gzip.decompress((FOLDER / f"transcript_{name}.txt.gz").read_bytes()))
    clients = _clients_from_transcript(transcript)
    sent = {}
    for conn in ("ONE", "TWO"):
        text = gzip.decompress((FOLDER / name / f"{conn}_sent.xml.gz").read_bytes()).decode()
        sent[conn] = re.split(r"(?=\n<room )", text)
        clients[conn].golden = gzip.decompress((FOLDER / name / f"{conn}_recv.xml.gz").read_bytes())
    actions, used = [], {"ONE": 0, "TWO": 0}
    for line in transcript.read_text(encoding="utf-8").splitlines():
        match = SEND_LINE.match(line)
        if match:
            conn = match[2]
            actions.append(Action(float(match[1]), conn, "send", sent[conn][used[conn]]))
            used[conn] += 1
    assert used == {conn: len(pieces) for conn, pieces in sent.items()}
    return actions, clients


async def test_socha_join_game_capture(start_server, tmp_path):
    actions, clients = _socha_game("blokus_join", tmp_path)
    result = await run_capture(start_server, actions, clients, **MODERN)
    assert_all_equal(result, clients)
    assert b'reason="ONE hat am meisten Punkte erzielt."/>' in clients["ONE"].golden


async def test_socha_prepared_game_capture(start_server, tmp_path):
    """The admin prepared Alice/Bob before the capture started; the clients join with codes."""
    actions, clients = _socha_game("blokus_prepared", tmp_path)
    board = first_state(clients)
    server = await start_server(game_factory=lambda plugin, rng: plugin.game_from_state(board),
                                password="examplepassword", **MODERN)
    admin = await Raw.connect(server.door("xml").port)
    await admin.send(
        '<protocol><authenticate password="examplepassword"/><prepare gameType="swc_2027_blokus" pause="false">'
        '<slot displayName="Alice" canTimeout="true" reserved="true"/>'
        '<slot displayName="Bob" canTimeout="true" reserved="true"/></prepare>'
    )
    await admin.read_until(b"</prepared>")
    room_id, code1, code2 = UUID.findall(bytes(admin.received).decode())
    golden_codes = [re.search(r'reservationCode="([^"]+)"', a.text)[1] for a in actions[:2]]
    replay = Replay(server.door("xml").port, actions, clients, timed=False)
    for ours, golden in zip((code1, code2), golden_codes):
        replay.ours_to_golden[ours.encode()] = golden.encode()
    await replay.run()
    assert_all_equal(replay, clients)
    assert b'<winner team="TWO" regular="true" reason="Bob hat am meisten Punkte erzielt."/>' in clients["TWO"].golden
    await admin.aclose()
