"""Mutated messages at every door beside a healthy load of all three families (issue 34):
``python -m benchmarks.fuzz [--quick] [--messages N] [--seed S]``.

One ``swc serve`` process with the XML, ReversiXT and Robo Rally doors keeps the healthy load of
``benchmarks/door_attacks.py`` running (admin-prepared Piranhas games, ReversiXT and Robo Rally
games of reference bots) while, from many connections, each door gets at least ``--messages``
mutated messages (20,000 by default; a fixed seed, so a run can be repeated):

* XML: the message shapes of both dialects (2018/2019 and 2022+: join, joinPrepared, joinRoom,
  authenticate, prepare with slots, observe, pause, step, cancel, moves in ``<room>``, close),
  mutated structurally (attributes dropped, added, emptied, made huge or strange, children
  shuffled, duplicated, nested) and at the byte level (flips, cuts, inserted markup), sent by
  connections in every state of the protocol: before ``<protocol>``, in the lobby, after a join
  (waiting, or in a game with another fuzzing connection: moves with the room's id), and as an
  authenticated admin;
* ReversiXT: frames (GROUP, MOVE and the server's own types) with mutated types, lengths and
  payloads, as a connection's first frame and from joined players answering move requests;
* Robo Rally: JSON lines of every message type with random bodies, and broken JSON, before
  ``HelloServer``, after it, and as spectators.

What it prints: messages sent per door, tracebacks in the server log (must be 0), connections
left without an answer where the protocol demands one (must be 0), healthy games lost (must be
0), and the server's memory before and after.  Where an answer is demanded: each fuzzing
connection ends with a probe that its protocol must answer in any state -- XML: a wrong
``<authenticate>`` (closed, or an errorpacket in the 2022+ dialect), counted only for connections
whose messages were all well-formed (a cut element legitimately waits for its end); ReversiXT: a
complete first frame that is not a valid GROUP (the connection is closed); Robo Rally: a line
that is not JSON (``Error``, or closed).  No answer, and no close, within 15 s counts
(generous: the machine is often shared).

Numbers only, no pass/fail: tests/server/test_fuzz_smoke.py runs a tiny round.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import trio

from benchmarks.door_attacks import FamilyLoad, _properties
from benchmarks.reliability import HealthyLoad, _log, _server_log
from benchmarks.serverproc import PASSWORD, ServerProcess
from benchmarks.table import Row, render
from swc_local.protocol import reversixt as rx
from swc_local.protocol.element import Element

ANSWER_SECONDS = 15.0
FUZZ_SOURCE = "127.0.0.2"  # the fuzzing connections' address (the healthy load's is 127.0.0.1)
ADMIN_SOURCE = "127.0.0.3"  # the fuzzing admins': they authenticate before their wrong attempts
TEXT = "abcXYZ019 _-.:/äöü€𝄞<>&\"'"
CLASSIC_GAMES = ("swc_2019_piranhas", "swc_2018_hase_und_igel")
MODERN_GAMES = ("swc_2022_ostseeschach", "swc_2026_piranhas")


# ------------------------------------------------------------------------------------ XML


def _slot(rng: random.Random) -> Element:
    return Element("slot", {"displayName": "fuzz", "canTimeout": "true", "shouldBePaused": "false", "reserved": "true"})


def xml_shapes(rng: random.Random, room: str) -> list[Element]:
    """The requests of both dialects, well-formed (before mutation)."""
    game = rng.choice(CLASSIC_GAMES + MODERN_GAMES)
    return [
        Element("join", {"gameType": game}),
        Element("join", {}),
        Element("joinPrepared", {"reservationCode": "00000000-0000-0000-0000-000000000000"}),
        Element("joinRoom", {"roomId": room}),
        Element("authenticate", {"passphrase": "guess"}),
        Element("authenticate", {"password": "guess"}),
        Element("prepare", {"gameType": game, "pause": "false"}, [_slot(rng), _slot(rng)]),
        Element("observe", {"roomId": room}),
        Element("pause", {"roomId": room, "pause": "true"}),
        Element("step", {"roomId": room, "forced": "true"}),
        Element("cancel", {"roomId": room}),
        Element("room", {"roomId": room}, [Element("data", {"class": "move", "x": "3", "y": "4", "direction": "UP"},
                                                   [Element("hint", {"content": "fuzz"})])]),
        Element("room", {"roomId": room}, [Element("data", {"class": "move"}, [
            Element("from", {"x": "1", "y": "2"}), Element("to", {"x": "2", "y": "3"})])]),
        Element("room", {"roomId": room}, [Element("data", {"class": "move"}, [Element("piece", {"x": "0", "y": "0"})])]),
        Element("sc.protocol.requests.CloseConnection", {}),
    ]


def _text(rng: random.Random, size: int) -> str:
    return "".join(rng.choice(TEXT) for _ in range(size))


def mutate_element(rng: random.Random, element: Element, depth: int = 0) -> Element:
    """A well-formed variant: attributes dropped, added, emptied, huge or strange; children
    shuffled, duplicated, dropped or nested deeper."""
    attrs = dict(element.attrs)
    for key in list(attrs):
        roll = rng.random()
        if roll < 0.15:
            del attrs[key]
        elif roll < 0.3:
            attrs[key] = rng.choice(["", "-1", "99999999999999999999", "NaN", "true", "null", _text(rng, 8)])
        elif roll < 0.35:
            attrs[key] = _text(rng, rng.randint(200, 3000))
    if rng.random() < 0.2:
        attrs[rng.choice(["class", "x", "roomId", "gameType", "passphrase", "fuzz"])] = _text(rng, 5)
    children = [mutate_element(rng, child, depth + 1) for child in element.children]
    if children and rng.random() < 0.2:
        rng.shuffle(children)
    if children and rng.random() < 0.15:
        children.append(children[rng.randrange(len(children))])
    if children and rng.random() < 0.1:
        children.pop(rng.randrange(len(children)))
    if rng.random() < 0.05 and depth < 3:
        nested = Element("data", {"class": "move"})
        for _ in range(rng.randint(1, 40)):
            nested = Element("data", {}, [nested])
        children.append(nested)
    tag = element.tag if rng.random() > 0.05 else rng.choice(["joinn", "sc.protocol.X", "data", "state", "room"])
    return Element(tag, attrs, children)


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """A byte-level variant: flips, cuts, inserted markup (usually not well-formed)."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        if roll < 0.3 and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif roll < 0.5 and data:
            del data[rng.randrange(len(data)):]
        elif roll < 0.8:
            at = rng.randrange(len(data) + 1)
            data[at:at] = rng.choice([b"<", b">", b"&", b"&#0;", b"<!--", b"<![CDATA[", b"<!DOCTYPE x [<!ENTITY a 'b'>]>",
                                      b"\xff\xfe", b'"', b"</protocol>", b"<protocol>", "€".encode()])
        else:
            data += data[: rng.randint(0, len(data))]
    return bytes(data)


class XmlFuzzer:
    def __init__(self, port: int, stats: dict) -> None:
        self.port, self.stats = port, stats

    async def connection(self, rng: random.Random, messages: int) -> None:
        state = rng.choice(["fresh", "lobby", "joined", "admin"])
        source = ADMIN_SOURCE if state == "admin" else FUZZ_SOURCE
        try:
            stream = await _open(self.port, source)
        except OSError:
            self.stats["connect failures"] += 1
            return
        async with stream:
            received = _Received(stream)
            received.start()
            room = "00000000-0000-0000-0000-000000000000"
            prefix = b"" if state == "fresh" else b"<protocol>"
            if state == "joined":
                game = rng.choice(CLASSIC_GAMES + MODERN_GAMES)
                prefix += Element("join", {"gameType": game}).render().encode()
            elif state == "admin":
                prefix += Element("authenticate", {"passphrase": PASSWORD}).render().encode()
            garbage = rng.random() < 0.5  # else every message is a well-formed variant: an answer is demanded
            well_formed = True
            try:
                await stream.send_all(prefix)
                if state == "joined":
                    with trio.move_on_after(1.0):
                        while b"roomId=" not in received.data:
                            await received.changed()
                    found = received.data.split(b'roomId="', 1)
                    if len(found) == 2:
                        room = found[1].split(b'"', 1)[0].decode(errors="replace")
                for index in range(messages):
                    element = mutate_element(rng, rng.choice(xml_shapes(rng, room)))
                    data = element.render(1).encode()
                    if garbage and rng.random() < 0.3:
                        data, well_formed = mutate_bytes(rng, data), False
                    if garbage and state == "fresh" and index == 0 and rng.random() < 0.5:
                        data = mutate_bytes(rng, b"<protocol>") + data
                        well_formed = False
                    await stream.send_all(data)
                    self.stats["sent"] += 1
                    if index % 8 == 7:
                        await trio.sleep(0.005)
                if state == "fresh" and well_formed:
                    return  # a fresh connection without <protocol> is not at depth 1: no answer to demand
                mark = len(received.data)
                await stream.send_all(Element("authenticate", {"passphrase": "probe"}).render(1).encode())
            except (OSError, trio.BrokenResourceError, trio.ClosedResourceError):
                return  # the server closed it: an answer
            if well_formed:
                self.stats["probed"] += 1
                if not await received.answered(mark):
                    self.stats["unanswered"] += 1


# ------------------------------------------------------------------------------------ ReversiXT


def reversixt_frame(rng: random.Random) -> tuple[bytes, bool]:
    """A mutated frame, and whether it is complete (its length field matches its payload)."""
    kind = rng.choice([rx.GROUP, rx.MOVE, rx.MOVE, rx.MAP, rx.REQUEST, 0, 10, 255])
    if kind == rx.GROUP:
        payload = bytes([rng.choice([0, 7, 99, 100, 255])])
    elif kind == rx.MOVE:
        payload = bytes(rng.randrange(256) for _ in range(5))
    else:
        payload = bytes(rng.randrange(256) for _ in range(rng.randint(0, 12)))
    if rng.random() < 0.2:
        payload = payload[: rng.randint(0, len(payload))] + bytes(rng.randint(0, 3))
    length = len(payload)
    complete = True
    if rng.random() < 0.1:
        length, complete = rng.choice([0, 1, 6, 1 << 20, (1 << 32) - 1]), False
        complete = length == len(payload)
    return bytes([kind]) + length.to_bytes(4, "big") + payload, complete


class ReversiFuzzer:
    def __init__(self, port: int, stats: dict) -> None:
        self.port, self.stats = port, stats

    async def connection(self, rng: random.Random, messages: int) -> None:
        try:
            stream = await _open(self.port, FUZZ_SOURCE)
        except OSError:
            self.stats["connect failures"] += 1
            return
        async with stream:
            received = _Received(stream)
            received.start()
            try:
                if rng.random() < 0.5:  # a first frame that is not a valid GROUP: the door must close it
                    frame, complete = reversixt_frame(rng)
                    group_ok = frame[0] == rx.GROUP and complete and len(frame) == 6 and frame[5] <= 99
                    await stream.send_all(frame)
                    self.stats["sent"] += 1
                    if complete and not group_ok:
                        self.stats["probed"] += 1
                        if not await received.closed_within():
                            self.stats["unanswered"] += 1
                    return
                await stream.send_all(rx.encode_group(rng.randint(0, 99)))  # joined: paired with anyone
                self.stats["sent"] += 1
                for index in range(messages - 1):
                    frame, _ = reversixt_frame(rng) if rng.random() < 0.7 else (rx.encode_move(rng.randint(0, 20), rng.randint(0, 20), rng.randint(0, 3)), True)
                    await stream.send_all(frame)
                    self.stats["sent"] += 1
                    if index % 4 == 3:
                        await trio.sleep(0.01)
            except (OSError, trio.BrokenResourceError, trio.ClosedResourceError):
                return


# ------------------------------------------------------------------------------------ Robo Rally

RR_TYPES = ["HelloServer", "Alive", "PlayerValues", "SetStatus", "MapSelected", "SendChat", "SetStartingPoint",
            "SelectedCard", "PlayCard", "SelectedDamage", "RebootDirection", "Welcome", "Bogus", "HelloClient"]
RR_KEYS = ["group", "isAI", "protocol", "name", "figure", "ready", "map", "message", "to", "x", "y", "card",
           "register", "cards", "direction", "clientID"]


def _rr_value(rng: random.Random):
    return rng.choice([None, True, False, rng.randint(-3, 14), 1e308, -0.0, _text(rng, 6), "Version 1.0", "Dizzy Highway",
                       "MoveI", "Spam", ["Virus", "Worm"], {"nested": [1, 2, {"deep": None}]}, "x" * rng.randint(0, 2000)])


def roborally_line(rng: random.Random) -> bytes:
    body = {rng.choice(RR_KEYS): _rr_value(rng) for _ in range(rng.randint(0, 4))}
    message = {"messageType": rng.choice(RR_TYPES), "messageBody": body}
    if rng.random() < 0.1:
        message = rng.choice([[], "text", 7, {"messageType": None}, {"messageBody": {}}])
    text = json.dumps(message, ensure_ascii=rng.random() < 0.5).encode()
    if rng.random() < 0.25:
        text = mutate_bytes(rng, text).replace(b"\n", b" ")
    if rng.random() < 0.03:
        text = text.replace(b"Version", b"\\ud800")
    return text + b"\n"


class RoboRallyFuzzer:
    def __init__(self, port: int, stats: dict) -> None:
        self.port, self.stats = port, stats

    async def connection(self, rng: random.Random, messages: int) -> None:
        try:
            stream = await _open(self.port, FUZZ_SOURCE)
        except OSError:
            self.stats["connect failures"] += 1
            return
        async with stream:
            received = _Received(stream)
            received.start()
            try:
                if rng.random() < 0.5:  # a spectator (no isAI... the lobby decides): after HelloServer
                    hello = {"group": "fuzz", "isAI": rng.random() < 0.5, "protocol": "Version 1.0"}
                    await stream.send_all(json.dumps({"messageType": "HelloServer", "messageBody": hello}).encode() + b"\n")
                    self.stats["sent"] += 1
                for index in range(messages):
                    await stream.send_all(roborally_line(rng))
                    self.stats["sent"] += 1
                    if index % 8 == 7:
                        await trio.sleep(0.005)
                mark = len(received.data)
                await stream.send_all(b'{"messageType": probe\n')
            except (OSError, trio.BrokenResourceError, trio.ClosedResourceError):
                return
            self.stats["probed"] += 1
            if not await received.answered(mark, b'"Error"'):
                self.stats["unanswered"] += 1


# ------------------------------------------------------------------------------------ plumbing


async def _open(port: int, source: str) -> trio.SocketStream:
    sock = trio.socket.socket()
    try:
        await sock.bind((source, 0))
        await sock.connect(("127.0.0.1", port))
    except OSError:
        sock.close()
        raise
    return trio.SocketStream(sock)


class _Received:
    """Everything a fuzzing connection receives, read by a task of its own, and whether it ended."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.data = b""
        self.ended = False
        self._event = trio.Event()

    def start(self) -> None:
        _NURSERY[0].start_soon(self._read)

    async def _read(self) -> None:
        try:
            while chunk := await self.stream.receive_some(65536):
                self.data = (self.data + chunk)[-65536:] if len(self.data) < (1 << 20) else self.data
                self._wake()
        except (OSError, trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        self.ended = True
        self._wake()

    def _wake(self) -> None:
        self._event.set()
        self._event = trio.Event()

    async def changed(self) -> None:
        await self._event.wait()

    async def answered(self, mark: int, needle: bytes | None = None) -> bool:
        """Bytes after ``mark`` (containing ``needle``) or the end of the stream within the limit."""
        with trio.move_on_after(ANSWER_SECONDS):
            while not self.ended and (len(self.data) <= mark or (needle is not None and needle not in self.data[mark:])):
                await self.changed()
        return self.ended or (len(self.data) > mark and (needle is None or needle in self.data[mark:]))

    async def closed_within(self) -> bool:
        with trio.move_on_after(ANSWER_SECONDS):
            while not self.ended:
                await self.changed()
        return self.ended


_NURSERY: list[trio.Nursery] = []


async def _fuzz(fuzzer, seed: int, total: int, per_connection: int, parallel: int) -> None:
    rng = random.Random(seed)
    limiter = trio.CapacityLimiter(parallel)

    async def one(index: int, connection_seed: int) -> None:
        async with limiter:
            await fuzzer.connection(random.Random(connection_seed), per_connection)

    while fuzzer.stats["sent"] < total:  # a connection the server closed early sent fewer: more come
        batch = -(-(total - fuzzer.stats["sent"]) // per_connection)
        async with trio.open_nursery() as nursery:
            for index in range(batch):
                nursery.start_soon(one, index, rng.getrandbits(32))


async def _run(server: ServerProcess, messages: int, seed: int, rooms: int) -> list[Row]:
    props = server.properties
    family = FamilyLoad(int(props["reversixtPort"]), int(props["roborally.port"]))
    load = HealthyLoad(server.port, rooms)
    doors = {
        "XML": XmlFuzzer(server.port, _counts()),
        "ReversiXT": ReversiFuzzer(int(props["reversixtPort"]), _counts()),
        "Robo Rally": RoboRallyFuzzer(int(props["roborally.port"]), _counts()),
    }
    async with trio.open_nursery() as nursery:
        _NURSERY[:] = [nursery]
        await load.start(nursery)
        await family.run(nursery)
        await trio.sleep(2.0)
        before = server.rss_kib()
        baseline = (dict(family.reversixt), dict(family.roborally), len(load.stats.errors), load.stats.games_finished)
        started = time.perf_counter()
        async with trio.open_nursery() as fuzzing:
            for offset, (name, fuzzer) in enumerate(doors.items()):
                per_connection = 4 if name == "ReversiXT" else 40
                fuzzing.start_soon(_fuzz, fuzzer, seed + offset, messages, per_connection, 40)
        seconds = time.perf_counter() - started
        await trio.sleep(5.0)  # games in flight finish
        after = server.rss_kib()
        family.stopping = load.stats.stopping = True
        nursery.cancel_scope.cancel()
    log = _server_log(server)
    lost_xml = len(load.stats.errors) - baseline[2]
    rx_games = {k: family.reversixt[k] - baseline[0][k] for k in family.reversixt}
    rr_games = {k: family.roborally[k] - baseline[1][k] for k in family.roborally}
    sent = " / ".join(f"{fuzzer.stats['sent']:,}" for fuzzer in doors.values())
    unanswered = " / ".join(str(fuzzer.stats["unanswered"]) for fuzzer in doors.values())
    return [
        Row("fuzz: mutated messages sent (XML / ReversiXT / Robo Rally)", f"{sent} in {seconds:.0f} s", f">= {messages:,} each"),
        Row("fuzz: tracebacks in the server log", str(log.count("Traceback")), "0"),
        Row("fuzz: connections left without a demanded answer (XML / ReversiXT / Robo Rally)", unanswered, "0"),
        Row("fuzz: healthy games finished (lost): XML / ReversiXT / Robo Rally",
            f"{load.stats.games_finished - baseline[3]} ({lost_xml}) / {rx_games['finished']} ({rx_games['bad']}) / "
            f"{rr_games['finished']} ({rr_games['bad']})", "0 lost"),
        Row("fuzz: server memory before / 5 s after", f"{before / 1024:.0f} / {after / 1024:.0f} MiB"),
        Row("fuzz: what the lost healthy XML games saw (first 3 kinds)", "; ".join(_kinds(load.stats.errors[baseline[2]:])) or "-"),
        Row("fuzz: demanded answers checked (XML / ReversiXT / Robo Rally)",
            " / ".join(f"{fuzzer.stats['probed']:,}" for fuzzer in doors.values())),
    ]


def _kinds(errors: list[str]) -> list[str]:
    counts: dict[str, int] = {}
    for error in errors:
        kind = error[:80]
        counts[kind] = counts.get(kind, 0) + 1
    return [f"{n} x {kind}" for kind, n in sorted(counts.items(), key=lambda item: -item[1])[:3]]


def _counts() -> dict:
    return {"sent": 0, "unanswered": 0, "probed": 0, "connect failures": 0}


def collect(messages: int = 20_000, seed: int = 34, rooms: int = 10) -> list[Row]:
    _log(f"fuzz: {messages:,} mutated messages per door, seed {seed} ...")
    with ServerProcess(properties=_properties(False)) as server:
        return trio.run(_run, server, messages, seed, rooms)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 messages per door, 3 healthy rooms")
    parser.add_argument("--messages", type=int, help="mutated messages per door (default 20,000)")
    parser.add_argument("--seed", type=int, default=34, help="the fuzzers' seed (default 34)")
    args = parser.parse_args(argv)
    messages = args.messages or (1_000 if args.quick else 20_000)
    print(render(collect(messages, args.seed, 3 if args.quick else 10)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
