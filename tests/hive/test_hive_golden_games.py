"""The whole games the official clients played against the official Hive 2020 server, replayed
byte for byte: two Ruby v20.2.4 clients (``ruby_game``, a bee surrounded after turn 16) and two
official Java simple clients (``java_game``, 60 turns to the round limit; the Java client sends
its coordinates as ``<destination class="field" ...>`` with the pieces inside, which the server
echoes in ``lastMove`` as received).

Each client's exact sent bytes (``<conn>_sent.xml``) are cut into its messages and sent again
(a move when its move request has come, the goodbye after ``left``) to a server started on the
captured board; every byte each client received must be the same, modulo the room id.
"""

from __future__ import annotations

import gzip
import re
import xml.parsers.expat
from pathlib import Path

import pytest
import trio

from tests.scenario import Action, Client, Replay, load
from tests.wire import data_class, messages
from tests.helpers import TESTS

FOLDER = TESTS / "data" / "hive_2020"
UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
MOVE_REQUEST = b'class="sc.framework.plugins.protocol.MoveRequest"'


def read(scenario: str, name: str) -> bytes:
    return gzip.decompress((FOLDER / scenario / f"{name}.gz").read_bytes())


def split_messages(sent: bytes) -> list[bytes]:
    """The sent stream cut before each top-level message (the first piece holds ``<protocol>``,
    the last one the closing ``</protocol>``)."""
    starts, depth = [], 0
    parser = xml.parsers.expat.ParserCreate()

    def start(tag, attrs):
        nonlocal depth
        depth += 1
        if depth == 2:
            starts.append(parser.CurrentByteIndex)

    def end(tag):
        nonlocal depth
        if depth == 1:
            starts.append(parser.CurrentByteIndex)
        depth -= 1

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.Parse(sent, True)
    cuts = [0, *starts[1:], len(sent)]
    return [sent[a:b] for a, b in zip(cuts, cuts[1:])]


class Player:
    def __init__(self, scenario: str, color: str) -> None:
        self.chunks = split_messages(read(scenario, f"{color}_sent.xml"))
        self.golden = read(scenario, f"{color}_recv.xml")
        self.received = bytearray()
        self.room_id: bytes | None = None

    async def play(self, port: int, joined: trio.Event | None) -> None:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._pump, stream)
            await stream.send_all(self.chunks[0])
            await self._until(lambda: b"<joined " in self.received)
            if joined is not None:
                joined.set()
            moves = 0
            for chunk in self.chunks[1:]:
                if chunk.lstrip().startswith(b"<room"):
                    moves += 1
                    await self._until(lambda: self.received.count(MOVE_REQUEST) >= moves)
                    ours = UUID.search(bytes(self.received))[0]
                    chunk = UUID.sub(ours, chunk)
                else:
                    await self._until(lambda: b"<left " in self.received)
                await stream.send_all(chunk)
            await self._until(lambda: len(self.received) >= len(self.golden))
            nursery.cancel_scope.cancel()
        await stream.aclose()

    async def _pump(self, stream) -> None:
        while data := await stream.receive_some(65536):
            self.received += data

    async def _until(self, condition) -> None:
        with trio.fail_after(30):
            while not condition():
                await trio.sleep(0.002)

    def normalised(self) -> bytes:
        ours = UUID.search(bytes(self.received))[0]
        return bytes(self.received).replace(ours, UUID.search(self.golden)[0])


@pytest.mark.parametrize("scenario", ["ruby_game", "java_game"])
async def test_the_official_clients_game_is_reproduced_byte_for_byte(start_server, scenario):
    red, blue = Player(scenario, "RED"), Player(scenario, "BLUE")
    board = next(m.find("data").find("state") for m in messages(red.golden) if data_class(m) == "memento")
    server = await start_server(game_factory=lambda plugin, rng: plugin.game_from_state(board))
    red_joined = trio.Event()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(red.play, server.door("xml").port, red_joined)
        await red_joined.wait()
        nursery.start_soon(blue.play, server.door("xml").port, None)
    assert red.normalised() == red.golden
    assert blue.normalised() == blue.golden


def _prefixes(chunks: list[bytes], golden: bytes) -> list[int]:
    """How much a proxied client had received before each send: a move after its move
    request, the goodbye after ``left``, the first message at once."""
    requests = [m.end() for m in re.finditer(re.escape(MOVE_REQUEST) + rb"/>\n  </room>", golden)]
    left = golden.index(b"<left ")
    left = golden.index(b"/>", left) + 2
    prefixes, moves = [], 0
    for chunk in chunks:
        if chunk.lstrip().startswith(b"<room"):
            prefixes.append(requests[moves])
            moves += 1
        else:
            prefixes.append(0 if not prefixes else left)
    return prefixes


def _one_send_per_message(actions: list, color: str, chunks: list[bytes], dropped: bool) -> list:
    """The transcript logs a proxied client's message line by line: the lines of one write
    (same client, same time, nothing between) become one send of the next message; messages
    the transcript does not show (a last goodbye) are sent at the end."""
    kept: list = []
    for action in actions:
        previous = kept[-1] if kept else None
        if (action.client == color and action.kind == "send" and previous is not None
                and previous.client == color and previous.kind == "send" and previous.time == action.time):
            continue
        kept.append(action)
    sends = [a for a in kept if a.client == color and a.kind == "send"]
    assert len(sends) <= len(chunks), (color, len(sends), len(chunks))
    for action, chunk in zip(sends, chunks):
        action.text = chunk.decode()
    extra = [Action(sends[-1].time, color, "send", chunk.decode()) for chunk in chunks[len(sends):]]
    if extra and not dropped:  # before the server's close it causes; a client the server dropped says no more
        at = next((i for i, a in enumerate(kept) if a.client == color and a.kind == "expect_closed"), len(kept))
        kept[at:at] = extra
    return kept


@pytest.mark.parametrize("lobby_dialect", ["2020", "classic"])
@pytest.mark.parametrize("scenario", ["admin_java", "admin"])
async def test_a_prepared_paused_game_with_an_observer_is_reproduced(start_server, scenario, lobby_dialect):
    """Admin ``prepare`` (paused, slots alpha/beta), ``observe``, two ``step`` s, ``pause
    pause="false"``; the official clients ``joinPrepared``.  ``admin`` ends with the Ruby
    client's illegal grasshopper jump (the observer sees the bare text with ``originalRequest``).

    With ``lobbyDialect=2020`` every byte is the official one; on a server of all seasons
    (the default) the admin's ``password=`` login makes it a 2022+ connection, whose goodbye
    to its ``</protocol>`` is silence (the 2022+ servers' rule), so only that last
    ``</protocol>`` is missing."""
    await replay_prepared_game(start_server, scenario, lobby_dialect)


async def replay_prepared_game(start_server, scenario: str, lobby_dialect: str, timed: bool = False) -> None:
    """Replay a prepared game: the admin's raw stream and the transcript's order, the proxied
    clients' exact messages (``admin_timeout``, whose soft timeout needs the captured timeline on
    a virtual clock, is not replayed: its thousands of polls each wait for the clock to jump)."""
    actions, clients = load(FOLDER, scenario)
    for color in ("RED", "BLUE"):
        chunks = split_messages(read(scenario, f"{color}_sent.xml"))
        golden = read(scenario, f"{color}_recv.xml")
        dropped = golden.endswith(b"<sc.protocol.responses.CloseConnection/>\n</protocol>")
        actions = _one_send_per_message(actions, color, chunks, dropped)
        clients[color] = Client(color, golden, _prefixes(chunks, golden))
    board = next(m.find("data").find("state") for m in messages(clients["RED"].golden) if data_class(m) == "memento")
    if lobby_dialect != "2020":
        clients["ADMIN"].golden = clients["ADMIN"].golden.removesuffix(b"\n</protocol>")
    server = await start_server(game_factory=lambda plugin, rng: plugin.game_from_state(board), password="examplepassword",
                                lobby_dialect=lobby_dialect)
    replay = Replay(server.door("xml").port, actions, clients, timed=timed)
    await replay.run()
    for client in clients.values():
        assert replay.normalised(client) == client.golden, client.name
