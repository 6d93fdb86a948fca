"""The web door's attacks of issue 34, run by ``python -m benchmarks.door_attacks`` beside the same
healthy load as the game doors' attacks: large bodies, large uploads, a passphrase flood while
the admin works, and 3,000 event streams from one client.

Each attack returns what it did as text; the healthy load's rows (games, longest XML round trip,
memory, tracebacks) come from door_attacks' scenario, so they compare with its no-attack row.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import trio

from benchmarks.serverproc import PASSWORD

ATTACKER = "127.0.0.2"  # the attacker's address; the admin and the healthy load use 127.0.0.1
REPLAY = Path(__file__).resolve().parent.parent / "tests" / "data" / "piranhas_2019" / "game_seed2_admin_observer_recv.xml"


async def _open(port: int, source: str = ATTACKER) -> trio.SocketStream:
    sock = trio.socket.socket()
    try:
        await sock.bind((source, 0))
        await sock.connect(("127.0.0.1", port))
    except OSError:
        sock.close()
        raise
    return trio.SocketStream(sock)


async def _request(port: int, method: str, path: str, body: bytes = b"", headers: dict | None = None,
                   source: str = ATTACKER, timeout: float = 30.0) -> tuple[int, bytes]:
    """(status, body) of one HTTP/1.1 request on its own connection (0: no answer)."""
    head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {len(body)}\r\n"
    head += "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items()) + "\r\n"
    with trio.move_on_after(timeout):
        try:
            async with await _open(port, source) as stream:
                await stream.send_all(head.encode() + body)
                data = b""
                while chunk := await stream.receive_some(65536):
                    data += chunk
        except (OSError, trio.BrokenResourceError):
            return 0, b""
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
        return status, data.split(b"\r\n\r\n", 1)[-1]
    return 0, b""


def big_replay(size: int = 7_800_000) -> bytes:
    """A valid XML replay of about ``size`` bytes: the official replay's states, alternating
    (a state given twice in a row is kept once), then its result."""
    text = REPLAY.read_bytes()
    head, rest = text.split(b"\n  <room", 1)
    messages = [b"\n  <room" + part for part in rest.split(b"\n  <room")]
    states = [m for m in messages if b'class="memento"' in m]
    tail = [m for m in messages if b'class="memento"' not in m]
    out = bytearray(head)
    while len(out) < size:
        for state in states:
            out += state
    for message in tail:
        out += message
    return bytes(out)


async def bodies(port: int, seconds: float) -> str:
    """Five parallel 200 MB bodies to /login, declared (Content-Length) and chunked."""
    answers: list[int] = []
    sent = [0]

    async def one(chunked: bool) -> None:
        try:
            async with await _open(port) as stream:
                framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {200 << 20}"
                await stream.send_all(f"POST /login HTTP/1.1\r\nHost: x\r\n{framing}\r\n\r\n".encode())
                piece = (b"%x\r\n" % (1 << 16) + b"p" * (1 << 16) + b"\r\n") if chunked else b"p" * (1 << 16)
                reply = b""

                async def read() -> None:
                    nonlocal reply
                    while chunk := await stream.receive_some(65536):
                        reply += chunk

                async with trio.open_nursery() as nursery:
                    nursery.start_soon(read)
                    try:
                        while sent[0] < 5 * (200 << 20) and not reply:
                            await stream.send_all(piece)
                            sent[0] += len(piece)
                    except (OSError, trio.BrokenResourceError):
                        pass
                answers.append(int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/1.1 ") else 0)
        except (OSError, trio.BrokenResourceError):
            answers.append(0)

    with trio.move_on_after(seconds + 20):
        async with trio.open_nursery() as nursery:
            for index in range(5):
                nursery.start_soon(one, index % 2 == 1)
    return (f"5 bodies of 200 MB to /login: answers {sorted(answers)}, "
            f"{sent[0] / (1 << 20):.1f} MB sent before the answer")


async def uploads(port: int, seconds: float) -> str:
    """Six uploads of a 7.8 MB replay, one after another (the kept ones are capped by bytes)."""
    data = big_replay()
    times, statuses = [], []
    for _ in range(6):
        started = time.perf_counter()
        status, _ = await _request(port, "POST", "/api/upload", data, {"X-File-Name": "big.xml"}, timeout=60)
        times.append(time.perf_counter() - started)
        statuses.append(status)
    return (f"6 uploads of {len(data) / 1e6:.1f} MB: statuses {sorted(set(statuses))}, "
            f"{min(times):.1f}-{max(times):.1f} s each")


async def passphrase_flood(port: int, xml_port: int, seconds: float) -> str:
    """Wrong passphrases from one address as fast as 20 clients send them, while the admin at
    another address uses play-from and the XML door's <authenticate> every 0.5 s."""
    status, body = await _request(port, "POST", "/api/upload", REPLAY.read_bytes(), {"X-File-Name": "a.xml"}, source="127.0.0.1")
    game = json.loads(body)["id"]
    target = f"/api/games/{game}/play-from/10"
    wrong = json.dumps({"passphrase": "guess"}).encode()
    right = json.dumps({"passphrase": PASSWORD}).encode()
    attempts = [0]
    admin = {"ok": 0, "tries": 0}
    stop = trio.Event()

    async def attacker() -> None:
        while not stop.is_set():
            await _request(port, "POST", target, wrong)
            attempts[0] += 1

    async def admin_tries() -> None:
        while not stop.is_set():
            status, _ = await _request(port, "POST", target, right, source="127.0.0.1")
            admin["tries"] += 1
            admin["ok"] += status == 200
            admin["tries"] += 1
            admin["ok"] += await _xml_authenticates(xml_port)
            await trio.sleep(0.5)

    async with trio.open_nursery() as nursery:
        for _ in range(20):
            nursery.start_soon(attacker)
        nursery.start_soon(admin_tries)
        await trio.sleep(seconds)
        stop.set()
    return f"{attempts[0]:,} wrong attempts; the admin got in {admin['ok']} of {admin['tries']} times (viewer and XML door)"


async def _first_status(port: int, path: str, source: str) -> int:
    """The status of a GET whose answer never ends (an event stream); 0 without one in 5 s."""
    with trio.move_on_after(5):
        try:
            async with await _open(port, source) as stream:
                await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                data = await stream.receive_some(200)
                return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
        except (OSError, trio.BrokenResourceError):
            return 0
    return 0


async def _xml_authenticates(port: int) -> bool:
    """An admin's <authenticate> then <prepare>: True when <prepared> came back."""
    slot = '<slot displayName="a" canTimeout="true" shouldBePaused="false"/>'
    try:
        async with await trio.open_tcp_stream("127.0.0.1", port) as stream:
            await stream.send_all(f'<protocol><authenticate passphrase="{PASSWORD}"/>'
                                  f'<prepare gameType="swc_2019_piranhas">{slot}{slot}</prepare>'.encode())
            data = b""
            with trio.move_on_after(5):
                while b"<prepared" not in data and (chunk := await stream.receive_some(65536)):
                    data += chunk
            return b"<prepared" in data
    except (OSError, trio.BrokenResourceError):
        return False


async def streams(port: int, pid: int, seconds: float, count: int = 3000) -> str:
    """``count`` event streams from one address, held for the attack; meanwhile another page's
    stream and ``GET /api/games`` from the admin's address; then the descriptors left behind."""
    held: list[trio.SocketStream] = []
    statuses: dict[int, int] = {}
    refused = 0
    fds_before = len(os.listdir(f"/proc/{pid}/fd"))

    async def one() -> None:
        nonlocal refused
        try:
            stream = await _open(port)
        except OSError:
            refused += 1
            return
        held.append(stream)
        try:
            await stream.send_all(b"GET /api/stream HTTP/1.1\r\nHost: x\r\n\r\n")
            with trio.move_on_after(15):
                data = await stream.receive_some(200)
                status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
                statuses[status] = statuses.get(status, 0) + 1
                return
            statuses[0] = statuses.get(0, 0) + 1
        except (OSError, trio.BrokenResourceError):
            statuses[0] = statuses.get(0, 0) + 1

    started = time.perf_counter()
    async with trio.open_nursery() as nursery:
        for _ in range(count):
            nursery.start_soon(one)
            await trio.sleep(0)
    connect_seconds = time.perf_counter() - started
    other = await _first_status(port, "/api/stream", "127.0.0.1")  # another page: served
    started = time.perf_counter()
    listing, _ = await _request(port, "GET", "/api/games", source="127.0.0.1")
    list_seconds = time.perf_counter() - started
    await trio.sleep(max(0.0, seconds - connect_seconds))
    for stream in held:
        await trio.aclose_forcefully(stream)
    await trio.sleep(2.0)
    fds_after = len(os.listdir(f"/proc/{pid}/fd"))
    shown = ", ".join(f"{status or 'no answer'}: {n}" for status, n in sorted(statuses.items()))
    return (f"{count:,} streams from one address ({shown}; {refused} connects refused); another page's "
            f"stream {other or 'no answer'}; GET /api/games {listing} in {list_seconds:.2f} s; "
            f"{fds_after - fds_before} fds held 2 s after the client left")
