"""An empty move, ``<room roomId="R"/>``, answered in every season as its official server did.

The official 2020 Java simple client sends a ``<room>`` without data when it finds no legal
move.  The captures of the official servers (``tests/data/empty_move/``, README there) show
three answers: 20.final an error and a RULE_VIOLATION result to both; 21.4.0 an errorpacket and
a close (the other player wins by LEFT); 22.final to 26.1.0 the errorpacket alone, the game
going on with the move request pending.  2018/2019 refuse it as a non-move like 2020 (their
plugins' ``if (!(data instanceof Move))``); 2025 and 2027 answer as 22.final to 26.1.0 (the same
``Lobby.onRequest``).  Each season is played here on a prepared room of two raw clients named
``a`` and ``b`` that cannot time out, as the captures were; what each player received after
the empty move is compared with the capture, ids and the result's definition aside.
"""

from __future__ import annotations

import re

import pytest

from swc_local.games import registry
from swc_local.protocol.element import Element
from tests.conftest import PASSWORD
from tests.helpers import TESTS, prepare_codes
from tests.wire import Raw, data_class, messages

CAPTURES = TESTS / "data" / "empty_move"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
QUIET = "[no more data for 20 s]"
TOP_LEVEL = re.compile(r"^  <[^/]")  # a message starts at two spaces' indent
CLASSIC_FAREWELL = "\n  <sc.protocol.responses.CloseConnection/>\n</protocol>"
"""What the 2018-2020 servers write after the offender's last message (the 20.final capture
stops at ``<left>``; ``golden/hive_2020/invalid_nomove``, the same non-move, shows the close)."""
MODERN_SEASONS = ["swc_2022_ostseeschach", "swc_2023_penguins", "swc_2024_mississippi_queen",
                  "swc_2025_hase_und_igel", "swc_2026_piranhas", "swc_2027_blokus"]


def captured_tails(name: str) -> dict[str, tuple[str, bool]]:
    """Per seat (``ONE``/``TWO``): the capture's messages after its cut-off first line (from the
    first one that starts there), ids as ``R``, and whether nothing followed for 20 s."""
    text = (CAPTURES / name).read_text(encoding="utf-8")
    parts = re.split(r"^=== player (\w+) receives:\n", text, flags=re.M)
    tails = {}
    for seat, body in zip(parts[1::2], parts[2::2]):
        body = body.rstrip("\n")
        quiet = body.endswith(QUIET)
        lines = body.removesuffix(QUIET).split("\n")[1:]
        start = next((i for i, line in enumerate(lines) if TOP_LEVEL.match(line)), len(lines))
        tail = "\n" + "\n".join(lines[start:]) if start < len(lines) else ""
        tails[seat] = (UUID.sub("R", tail), quiet)
    return tails


def normalised(received: bytes) -> str:
    text = UUID.sub("R", received.decode())
    return re.sub(r"<definition>.*?</definition>", "<definition>...</definition>", text, flags=re.S)


async def prepared_pair(port: int, game_type: str) -> tuple[Raw, Raw, str]:
    """Two raw players of a prepared room (``a`` and ``b``, no timeouts), ONE asked to move."""
    codes = await prepare_codes(port, game_type, names=("a", "b"), password=PASSWORD, can_timeout=False)
    one, two = await Raw.connect(port), await Raw.connect(port)
    await one.send(f'<protocol><joinPrepared reservationCode="{codes[0]}"/>')
    await two.send(f'<protocol><joinPrepared reservationCode="{codes[1]}"/>')
    await one.read_until(b'equest"/>')  # MoveRequest (2018-2021) or moveRequest (2022+)
    room_id = UUID.search(bytes(one.received).decode())[0]
    return one, two, room_id


async def after_empty_move(port: int, game_type: str, ends: tuple[bytes, bytes]) -> tuple[Raw, Raw, str, dict[str, bool]]:
    """Both players after ONE's empty move, each read until ``ends`` (ONE's, TWO's; empty: the
    first memento) and a quiet tenth of a second more; whether each is still connected."""
    one, two, room_id = await prepared_pair(port, game_type)
    await two.read_until(b"</state>")
    await one.send(f'<room roomId="{room_id}"/>')
    connected = {}
    for seat, client, end in (("ONE", one, ends[0]), ("TWO", two, ends[1])):
        if end:
            await client.read_until(end)
        connected[seat] = await client.still_connected(quiet=0.1)
    return one, two, room_id, connected


async def test_2020_a_rule_violation_with_the_result_to_both(start_server):
    server = await start_server()
    one, two, _, open_ = await after_empty_move(server.door("xml").port, "swc_2020_hive", (b"</protocol>", b"<left"))
    tails = captured_tails("official_2020.txt")
    assert normalised(bytes(one.received)).endswith(tails["ONE"][0] + CLASSIC_FAREWELL)
    assert normalised(bytes(two.received)).endswith(tails["TWO"][0])
    assert not open_["ONE"]


async def test_2021_an_errorpacket_and_a_close_the_other_wins(start_server):
    server = await start_server()
    one, two, _, open_ = await after_empty_move(server.door("xml").port, "swc_2021_blokus", (b"</protocol>", b"<left"))
    tails = captured_tails("official_2021.txt")
    assert normalised(bytes(one.received)).endswith(tails["ONE"][0])
    assert normalised(bytes(two.received)).endswith(tails["TWO"][0])
    assert tails["ONE"][0].endswith("</protocol>") and not open_["ONE"]


@pytest.mark.parametrize("game_type", MODERN_SEASONS)
async def test_2022_on_an_errorpacket_and_the_request_stays_pending(start_server, game_type):
    server = await start_server()
    one, two, room_id, open_ = await after_empty_move(server.door("xml").port, game_type, (b"</errorpacket>", b""))
    tails = captured_tails("official_2023.txt")
    assert tails["ONE"][1] and tails["TWO"][1]  # the capture: nothing more for 20 s, both open
    assert open_ == {"ONE": True, "TWO": True}
    assert normalised(bytes(one.received)).endswith(tails["ONE"][0])
    assert tails["TWO"][0] == ""  # the capture's last message for TWO is the first memento
    assert [data_class(m) for m in messages(bytes(two.received)) if m.tag == "room"][-1] == "memento"
    # the move request is still pending: a legal move now is taken and the game goes on
    plugin = registry.get(game_type)
    state = next(m for m in reversed(messages(bytes(one.received))) if data_class(m) == "memento")
    game = plugin.game_from_state(state.find("data").find("state"))
    move = plugin.move_element(plugin.legal_moves(game)[0])
    await one.send(Element("room", {"roomId": room_id}, [move]).render())
    await two.read_until(b'class="moveRequest"')


@pytest.mark.parametrize("game_type", ["swc_2018_hase_und_igel", "swc_2019_piranhas"])
async def test_2018_and_2019_refuse_it_as_a_non_move(start_server, game_type):
    """No capture: the season's plugin refuses ``null`` as any non-move (spec §6: the error,
    CloseConnection, RULE_VIOLATION with the reason; the result goes to the others)."""
    server = await start_server()
    one, two, _, open_ = await after_empty_move(server.door("xml").port, game_type, (b"</protocol>", b"<left"))
    error = ('\n  <room roomId="R">\n    <data class="error" message="Ungueltiger Zug von &apos;a&apos;.'
             '&#xa;a hat kein Zug-Objekt gesendet."/>\n  </room>')
    assert normalised(bytes(one.received)).endswith(error + CLASSIC_FAREWELL)
    assert not open_["ONE"]
    result = next(m for m in messages(bytes(two.received)) if data_class(m) == "result").find("data")
    scores = result.findall("score")
    assert [s.get("cause") for s in scores] == ["RULE_VIOLATION", "REGULAR"]
    assert scores[0].get("reason") == "a hat kein Zug-Objekt gesendet."
    assert [p.text for p in scores[0].findall("part")][0] == "0"
    assert [p.text for p in scores[1].findall("part")][0] == "2"
    assert normalised(bytes(two.received)).endswith('\n  <left roomId="R"/>')
