"""An Ostseeschach 2022 client written the way clients for the official 22.x server were.

Standard library only, its own reading of the rules (the piece vectors of the 2022 docs), a pull
parser over the stream.  Two styles (``--style``):

* ``java`` (the official Java simple client): ``<join gameType="swc_2022_ostseeschach"/>``,
  pretty-printed moves, and after ``left`` ``<sc.protocol.CloseConnection/>`` then
  ``</protocol>``, expecting the server's ``</protocol>`` before it closes;
* ``raw`` (a hand-written client): ``<protocol><join/>``, compact moves written in two pieces,
  and after ``left`` a bare ``</protocol>``, expecting the server to close without a word.

Exit status 0 only if every game ended with a result whose causes are all REGULAR and no error,
errorpacket or unexpected element arrived.
"""

from __future__ import annotations

import random
import socket
import sys
import xml.etree.ElementTree as ET

from runner import join_element, main

STYLE = "java"
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


def vectors(kind: str, team: str) -> list[tuple[int, int]]:
    forward = 1 if team == "ONE" else -1
    if kind == "Herzmuschel":
        return [(forward, 1), (forward, -1)]
    if kind == "Moewe":
        return [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if kind == "Seestern":
        return [(1, 1), (1, -1), (-1, 1), (-1, -1), (forward, 0)]
    if kind == "Robbe":
        return KNIGHT
    raise ValueError(f"unknown piece {kind}")


def moves(board: dict, team: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    found = []
    for (x, y), (kind, owner) in board.items():
        if owner != team:
            continue
        for dx, dy in vectors(kind, team):
            tx, ty = x + dx, y + dy
            if 0 <= tx < 8 and 0 <= ty < 8 and board.get((tx, ty), (None, None))[1] != team:
                found.append(((x, y), (tx, ty)))
    return found


class Stream:
    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        # the split writes must not wait for delayed ACKs (Nagle), or each move costs 40 ms
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.parser = ET.XMLPullParser(events=("start", "end"))
        self.depth = 0
        self.pending: list[ET.Element] = []

    def send(self, text: str) -> None:
        self.sock.sendall(text.encode("utf-8"))

    def next_message(self) -> ET.Element:
        while not self.pending:
            data = self.sock.recv(4096)
            if not data:
                raise EOFError("server closed the connection")
            self.parser.feed(data)
            for event, element in self.parser.read_events():
                if event == "start":
                    self.depth += 1
                else:
                    self.depth -= 1
                    if self.depth == 1:
                        self.pending.append(element)
        return self.pending.pop(0)

    def rest(self) -> bytes:
        rest = b""
        while chunk := self.sock.recv(4096):
            rest += chunk
        self.sock.close()
        return rest


def send_move(stream: Stream, room: str, start: tuple[int, int], end: tuple[int, int]) -> None:
    if STYLE == "java":
        stream.send(
            f'\n  <room roomId="{room}">\n    <data class="move">\n      <from x="{start[0]}" y="{start[1]}"/>'
            f'\n      <to x="{end[0]}" y="{end[1]}"/>\n    </data>\n  </room>'
        )
    else:
        text = f'<room roomId="{room}"><data class="move"><from x="{start[0]}" y="{start[1]}"/><to x="{end[0]}" y="{end[1]}"/></data></room>'
        stream.send(text[:40])
        stream.send(text[40:])


def play(port: int, rng: random.Random, reservation: str | None = None) -> str | None:
    stream = Stream(port)
    if reservation:
        stream.send("<protocol>" + join_element("swc_2022_ostseeschach", reservation))
    else:
        stream.send('<protocol>\n  <join gameType="swc_2022_ostseeschach"/>' if STYLE == "java" else "<protocol><join/>")
    team = room = None
    board: dict = {}
    result_seen = False
    while True:
        message = stream.next_message()
        if message.tag == "joined":
            room = message.get("roomId")
        elif message.tag == "left":
            if not result_seen:
                return "left without a result"
            if STYLE == "java":
                stream.send("\n  <sc.protocol.CloseConnection/>\n</protocol>")
                rest = stream.rest()
                return None if rest == b"\n</protocol>" else f"expected </protocol> before the close, got {rest!r}"
            stream.send("</protocol>")
            rest = stream.rest()
            return None if rest == b"" else f"expected a silent close, got {rest!r}"
        elif message.tag == "room":
            if message.get("roomId") != room:
                return f"message for another room {message.get('roomId')}"
            data = message.find("data")
            kind = data.get("class")
            if kind == "welcomeMessage":
                team = data.get("color")
            elif kind == "memento":
                state = data.find("state")
                board = {
                    (int(e.find("coordinates").get("x")), int(e.find("coordinates").get("y"))): (
                        e.find("piece").get("type"),
                        e.find("piece").get("team"),
                    )
                    for e in state.find("board").find("pieces").findall("entry")
                }
            elif kind == "moveRequest":
                legal = moves(board, team)
                if not legal:
                    return "no legal move"
                send_move(stream, room, *rng.choice(legal))
            elif kind == "result":
                causes = [entry.find("score").get("cause") for entry in data.find("scores").findall("entry")]
                if causes != ["REGULAR", "REGULAR"]:
                    return f"result causes {causes}"
                result_seen = True
            elif kind == "error":
                return f"error: {data.get('message')}"
            else:
                return f"unexpected data class {kind}"
        else:
            return f"unexpected message <{message.tag}> {message.attrib}"


if __name__ == "__main__":
    if "--style" in sys.argv:
        at = sys.argv.index("--style")
        STYLE = sys.argv[at + 1]
        del sys.argv[at : at + 2]
    sys.exit(main(play))
