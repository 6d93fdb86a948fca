"""Replay a captured official-server scenario against our server and compare bytes.

A scenario is a ``transcript_NAME.txt`` (both directions, with timestamps) plus ``NAME/*.raw``
(the exact bytes each connection received, with ``>>>>>>>>>> SENT:`` marks where it sent).  The
driver connects the same clients, sends what they sent in the same global order (waiting before
each send until that client has received what it had received at that point in the capture),
performs the same socket closes, and finally compares each connection's received bytes with the
capture, with our room ids and reservation codes mapped to the captured ones.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field
from pathlib import Path

import trio

UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
RECEIVE_LINE = re.compile(r"^\[\+\s*([\d.]+)s\] (\w+) << (?:\[(open|close|junk)\] )?(.*)$")
SEND_LINE = re.compile(r"^\[\+\s*([\d.]+)s\] (\w+) >> (.*)$")
NOTE_LINE = re.compile(r"^\[\+\s*([\d.]+)s\] ## (\w+):? (.*)$")
SENT = re.compile(rb"\n>>>>>>>>>> SENT: [^\n]*\n")
OPEN_WINDOW = 0.2
"""An ``expect_open`` passes when the server has not closed the connection this many seconds
after the last bytes it sent on it (the captures waited 1 s; a close that follows a message
comes at once on a local socket)."""


@dataclass
class Action:
    time: float
    client: str
    kind: str  # "send" | "close" | "expect_closed" | "expect_open" | "wait" (text: byte count)
    text: str = ""


@dataclass
class Client:
    name: str
    golden: bytes
    prefixes: list[int]  # bytes received before each send
    stream: trio.SocketStream | None = None
    received: bytearray = field(default_factory=bytearray)
    closed_by_server: bool = False
    sends: int = 0
    last_received: float | None = None  # trio time of the last bytes from the server


def load(folder: Path, name: str) -> tuple[list[Action], dict[str, Client]]:
    actions: list[Action] = []
    for line in (folder / f"transcript_{name}.txt").read_text(encoding="utf-8").splitlines():
        match = SEND_LINE.match(line)
        if match:
            actions.append(Action(float(match[1]), match[2], "send", match[3]))
            continue
        match = NOTE_LINE.match(line)
        if not match:
            continue
        time, client, rest = float(match[1]), match[2], match[3]
        if rest.startswith("closes socket"):
            actions.append(Action(time, client, "close"))
        elif rest.startswith("server closed the TCP connection"):
            actions.append(Action(time, client, "expect_closed"))
        elif rest.startswith("connection still open"):
            actions.append(Action(time, client, "expect_open"))
    if not (folder / name).is_dir():
        return actions, _clients_from_transcript(folder / f"transcript_{name}.txt")
    clients = {}
    for raw in sorted([*(folder / name).glob("*.raw"), *(folder / name).glob("*.raw.gz")]):
        data = gzip.decompress(raw.read_bytes()) if raw.suffix == ".gz" else raw.read_bytes()
        parts = SENT.split(data)
        prefixes, total = [], 0
        for part in parts[:-1]:
            total += len(part)
            prefixes.append(total)
        client_name = raw.name.split(".")[0]
        clients[client_name] = Client(client_name, b"".join(parts), prefixes)
    return actions, clients


def _clients_from_transcript(path: Path) -> dict[str, Client]:
    """Rebuild each client's received bytes from a transcript (for captures without .raw files).

    The transcript logs each received message without the ``\\n  `` that precedes it on the
    wire, continuation lines as they were, and marks the root's ``[open]``/``[close]``.
    """
    received: dict[str, list[bytes]] = {}
    prefixes: dict[str, list[int]] = {}
    current: list[bytes] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        match = RECEIVE_LINE.match(line)
        if match:
            chunks = received.setdefault(match[2], [])
            mark, text = match[3], match[4]
            if mark == "open" or mark == "junk":
                chunks.append(text.encode())
            elif mark == "close":
                chunks.append(b"\n" + text.encode())
            else:
                chunks.append(b"\n  " + text.encode())
            current = chunks
            continue
        send = SEND_LINE.match(line)
        if send:
            chunks = received.setdefault(send[2], [])
            prefixes.setdefault(send[2], []).append(sum(map(len, chunks)))
        if line.startswith("["):
            current = None
        elif current is not None:
            current.append(b"\n" + line.encode())
    return {
        name: Client(name, b"".join(chunks), prefixes.get(name, [])) for name, chunks in received.items()
    }


class Replay:
    def __init__(self, port: int, actions: list[Action], clients: dict[str, Client], timed: bool,
                 until: bytes | None = None) -> None:
        self.port = port
        self.until = until  # bytes every client must also have received past its capture
        self.actions = actions
        self.clients = clients
        self.timed = timed
        self.ours_to_golden: dict[bytes, bytes] = {}
        self._received_scans: dict[str, tuple[dict[bytes, None], int]] = {}
        self._golden_scans: dict[str, list[tuple[int, bytes]]] = {}
        self._news = trio.Event()  # set (and replaced) whenever a client received bytes or was closed

    def _learn_ids(self, client: Client) -> None:
        """Pair the ids in first-seen order: our n-th distinct id in what the client received so
        far is the capture's n-th distinct id in as many bytes of its capture.  Both lists grow
        as the bytes come in, so each is scanned once, not from the start on every send (a whole
        observed game is a third of a megabyte per client, and a scan of it took 25 ms)."""
        ours = self._ids_received(client)
        theirs = [golden for end, golden in self._golden_ids(client) if end <= len(client.received)]
        for mine, golden in zip(ours, theirs):
            self.ours_to_golden.setdefault(mine, golden)

    def _ids_received(self, client: Client) -> list[bytes]:
        """Distinct ids in ``client.received``, in first-seen order; rescans only the tail an id
        could still be cut off in (an id is 36 bytes)."""
        seen, position = self._received_scans.setdefault(client.name, ({}, 0))
        for match in UUID.finditer(client.received, position):
            seen.setdefault(match[0], None)
            position = match.end()
        self._received_scans[client.name] = (seen, max(position, len(client.received) - 35))
        return list(seen)

    def _golden_ids(self, client: Client) -> list[tuple[int, bytes]]:
        """Each distinct id of the capture with the offset where its first occurrence ends."""
        if client.name not in self._golden_scans:
            first: dict[bytes, int] = {}
            for match in UUID.finditer(client.golden):
                first.setdefault(match[0], match.end())
            self._golden_scans[client.name] = [(end, golden) for golden, end in first.items()]
        return self._golden_scans[client.name]

    def normalised(self, client: Client) -> bytes:
        self._learn_ids(client)
        return UUID.sub(lambda m: self.ours_to_golden.get(m[0], m[0]), bytes(client.received))

    def to_ours(self, text: str) -> bytes:
        golden_to_ours = {golden: mine for mine, golden in self.ours_to_golden.items()}
        return UUID.sub(lambda m: golden_to_ours.get(m[0], m[0]), text.encode())

    async def _pump(self, client: Client) -> None:
        assert client.stream is not None
        while True:
            try:
                data = await client.stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                client.closed_by_server = True
                self._tell()
                return
            client.received += data
            client.last_received = trio.current_time()
            self._tell()

    def _tell(self) -> None:
        self._news.set()
        self._news = trio.Event()

    # The waits below wake on the readers' news, not on a timer: on trio's mock clock a polling
    # sleep only ends when the clock jumps, after the autojump threshold of real time each.
    async def _wait_for(self, client: Client, length: int) -> None:
        with trio.fail_after(30):
            while len(client.received) < length and not client.closed_by_server:
                await self._news.wait()

    async def _wait_for_text(self, client: Client, text: bytes, start: int) -> None:
        with trio.fail_after(30):
            while text not in bytes(client.received[start:]) and not client.closed_by_server:
                await self._news.wait()

    async def run(self) -> None:
        start = trio.current_time()
        async with trio.open_nursery() as nursery:
            for action in self.actions:
                client = self.clients[action.client]
                if self.timed:
                    await trio.sleep_until(start + action.time)
                if action.kind == "send":
                    if client.stream is None:
                        client.stream = await trio.open_tcp_stream("127.0.0.1", self.port)
                        nursery.start_soon(self._pump, client)
                    # a raw file without SENT marks (nothing was ever received) has no prefixes
                    prefix = client.prefixes[client.sends] if client.sends < len(client.prefixes) else 0
                    await self._wait_for(client, prefix)
                    self._learn_ids(client)
                    for other in self.clients.values():
                        self._learn_ids(other)
                    client.sends += 1
                    await client.stream.send_all(self.to_ours(action.text))
                elif action.kind == "close":
                    # a client receives nothing after it closed: all of its capture came before
                    await self._wait_for(client, len(client.golden))
                    if client.stream is not None and not client.closed_by_server:
                        await client.stream.aclose()
                        client.closed_by_server = True
                elif action.kind == "expect_closed":
                    with trio.fail_after(30):
                        while not client.closed_by_server:
                            await self._news.wait()
                elif action.kind == "wait":
                    # hold the script until this client has received that many bytes
                    await self._wait_for(client, int(action.text))
                elif action.kind == "expect_open":
                    # still open OPEN_WINDOW after the last message it got (all it had got by its
                    # next send in the capture): two clients checked in a row share one window
                    if self.timed:
                        await trio.sleep(0)
                    else:
                        upto = client.prefixes[client.sends] if client.sends < len(client.prefixes) else len(client.golden)
                        await self._wait_for(client, upto)
                        since = client.last_received if client.last_received is not None else trio.current_time()
                        await trio.sleep_until(max(since + OPEN_WINDOW, trio.current_time()))
                    assert not client.closed_by_server, f"{client.name} was closed"
            for client in self.clients.values():
                await self._wait_for(client, len(client.golden))
                if self.until is not None:
                    await self._wait_for_text(client, self.until, len(client.golden))
            nursery.cancel_scope.cancel()
        for client in self.clients.values():
            if client.stream is not None:
                await client.stream.aclose()


def first_state(clients: dict[str, Client]):
    """The first memento's ``<state>`` in any client's capture (the captured board), or None."""
    from tests.wire import data_class, messages

    for client in clients.values():
        for message in messages(client.golden):
            if data_class(message) == "memento":
                return message.find("data").find("state")
    return None


async def replay_capture(start_server, folder: Path, name: str, timed: bool = False, **settings) -> None:
    """Run capture ``name`` against a fresh server on the captured board; assert every byte.

    ``settings`` go to the server (e.g. ``lobby_dialect="modern"`` for the 2022+ captures).
    """
    actions, clients = load(folder, name)
    replay = await run_capture(start_server, actions, clients, timed=timed, **settings)
    for client in clients.values():
        assert replay.normalised(client) == client.golden, client.name


async def run_capture(start_server, actions, clients, timed: bool = False, boards=None, until: bytes | None = None,
                      **settings) -> Replay:
    """Replay ``actions`` on a fresh server; rooms start from ``boards`` (memento ``<state>`` s,
    one per room in creation order, the last repeated) or the first captured board.  ``until``:
    bytes that every client must receive after its whole capture before the run ends (what we
    send beyond the real server, which would otherwise race the end of the run)."""
    if boards is None:
        state = first_state(clients)
        boards = [state] if state is not None else []
    factory = None
    if boards:
        created = iter(range(1 << 30))

        def factory(plugin, rng):
            return plugin.game_from_state(boards[min(next(created), len(boards) - 1)])

    server = await start_server(game_factory=factory, password="examplepassword", **settings)
    replay = Replay(server.door("xml").port, actions, clients, timed=timed, until=until)
    replay.server = server
    await replay.run()
    return replay
