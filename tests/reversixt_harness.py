"""Replays a ReversiXT capture against a server: the captured clients' bytes, in the captured order.

Every client action of the transcript (connect, send a frame, close or half-close) is performed
in transcript order; before an action of connection k the harness waits until k has received
every byte the capture shows it had received by then. Readers collect everything each
connection receives until the server closes it. With ``delays`` the client-side pauses of the
capture (time since that connection's previous event) are reproduced, scaled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import trio

from swc_local.protocol import reversixt as wire

_LINE = re.compile(r"^\s*([\d.]+) ms\s+C(\d+) (<<|>>|\*\*) (.*)$")


@dataclass
class Action:
    time_ms: float
    conn: int
    kind: str  # connect | send | close | half_close
    data: bytes = b""
    expect_after: int = 0  # bytes conn must have received before acting
    previous_ms: float = 0.0  # time of conn's previous event
    refused: bool = False


def plan(transcript: str, received: dict[int, bytes], sent: dict[int, bytes]) -> list[Action]:
    lines = [m.groups() for m in map(_LINE.match, transcript.splitlines()) if m]
    recv_frames = {k: wire.split_frames(v) for k, v in received.items()}
    sent_frames = {k: wire.split_frames(v) for k, v in sent.items()}
    recv_pos = {k: 0 for k in received}
    recv_index = {k: 0 for k in received}
    sent_index = {k: 0 for k in received}
    last = {k: 0.0 for k in received}
    actions: list[Action] = []
    for i, (t, c, arrow, text) in enumerate(lines):
        t, k = float(t), int(c)
        if arrow == "<<":
            frames, rest = recv_frames[k]
            if text.startswith("incomplete frame"):
                recv_pos[k] += len(rest)
            else:
                recv_pos[k] += wire.HEADER_SIZE + len(frames[recv_index[k]].payload)
                recv_index[k] += 1
        elif arrow == ">>":
            frames, rest = sent_frames[k]
            if text.startswith("incomplete frame"):
                data = rest
            else:
                data = frames[sent_index[k]].to_bytes()
                sent_index[k] += 1
            action = Action(t, k, "send", data, recv_pos[k], last[k])
            mine = [i for i, a in enumerate(actions) if a.conn == k]
            if text.startswith("incomplete frame") and mine and actions[mine[-1]].kind in ("close", "half_close"):
                # the recorder lists a partial frame when the connection closes; it was sent right
                # after the connection's last event before that close
                before = actions[mine[-1]]
                action.time_ms = action.previous_ms = before.previous_ms
                action.expect_after = before.expect_after
                position = next(i for i, a in enumerate(actions) if a.time_ms > action.time_ms)
                actions.insert(position, action)
            else:
                actions.append(action)
        elif text == "client connected":
            refused = any(
                int(c2) == k and "upstream connect failed" in text2 for _, c2, arrow2, text2 in lines[i + 1 : i + 4]
            )
            previous = actions[-1].time_ms if actions else t
            actions.append(Action(t, k, "connect", expect_after=0, previous_ms=previous, refused=refused))
        elif text == "client closed the connection":
            full = any(int(c2) == k and "full close" in text2 for _, c2, _, text2 in lines[i + 1 : i + 3])
            actions.append(Action(t, k, "close" if full else "half_close", expect_after=recv_pos[k], previous_ms=last[k]))
        last[k] = t
    return actions


@dataclass
class Client:
    conn: int
    stream: trio.SocketStream | None = None
    data: bytearray = field(default_factory=bytearray)
    done: trio.Event = field(default_factory=trio.Event)
    changed: trio.Event = field(default_factory=trio.Event)
    closed_by_us: bool = False

    async def read_all(self) -> None:
        try:
            while True:
                chunk = await self.stream.receive_some(65536)
                if not chunk:
                    break
                self.data += chunk
                self.changed.set()
                self.changed = trio.Event()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        finally:
            self.done.set()
            self.changed.set()

    async def wait_for(self, count: int) -> None:
        while len(self.data) < count and not self.done.is_set():
            await self.changed.wait()


async def replay(
    port: int, actions: list[Action], *, delays: bool = False, scale: float = 1.0, patience: float = 10.0, on_timeout=None
):
    """Run the actions; returns {conn: bytes received}. Gives up waiting after ``patience`` s."""
    clients: dict[int, Client] = {}
    start = trio.current_time()
    first = actions[0].time_ms if actions else 0.0
    async with trio.open_nursery() as nursery:
        with trio.move_on_after(patience):
            for action in actions:
                client = clients.setdefault(action.conn, Client(action.conn))
                await client.wait_for(action.expect_after)
                if delays:  # the client's own pause, and not before its place on the capture's timeline
                    await trio.sleep(max(0.0, action.time_ms - action.previous_ms) / 1000 * scale)
                    await trio.sleep_until(start + (action.time_ms - first) / 1000 * scale)
                if action.kind == "connect":
                    try:
                        client.stream = await trio.open_tcp_stream("127.0.0.1", port)
                    except OSError:
                        assert action.refused, f"C{action.conn} was refused"
                        client.done.set()
                        continue
                    assert not action.refused, f"C{action.conn} should have been refused"
                    nursery.start_soon(client.read_all)
                elif client.stream is None or client.closed_by_us:
                    continue
                elif action.kind == "send":
                    try:
                        await client.stream.send_all(action.data)
                    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                        pass
                elif action.kind == "half_close":
                    try:
                        await client.stream.send_eof()
                    except (trio.BrokenResourceError, OSError):
                        pass
                else:
                    client.closed_by_us = True
                    await client.stream.aclose()
            for client in clients.values():
                await client.done.wait()
        if on_timeout is not None:
            on_timeout()
        for client in clients.values():
            if client.stream is not None and not client.closed_by_us:
                await client.stream.aclose()
    return {k: bytes(c.data) for k, c in clients.items()}
