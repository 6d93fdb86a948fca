"""A client in the style of the Ruby/Python stream-listener clients: SAX callbacks, odd writes.

It writes ``<protocol>`` and its join in separate, split TCP writes, tracks the state with SAX
start/end callbacks (attributes of ``state``, ``field`` and ``lastMove``), relies on
``lastMove`` coming before the board and on ``color="red"`` being lower case in the welcome
message, sends moves with the attributes in another order and whitespace between messages, and
after ``left`` ends with a bare ``</protocol>`` (keeping the socket open until the server
closes it).
"""

from __future__ import annotations

import random
import socket
import sys
import xml.sax

from board import choose
from runner import join_element, main


class Listener(xml.sax.handler.ContentHandler):
    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.board: dict = {}
        self.color: str | None = None
        self.room: str | None = None
        self.requests = 0
        self.left = False
        self.causes: list[str] = []
        self.problems: list[str] = []
        self.seen_last_move_before_board = True
        self.in_state = False
        self.state_children: list[str] = []

    def startElement(self, name, attrs):
        self.depth += 1
        if self.depth == 2 and name == "joined":
            self.room = attrs["roomId"]
        elif self.depth == 2 and name == "left":
            self.left = True
        elif name == "data":
            kind = attrs.get("class")
            if kind == "welcomeMessage":
                if attrs["color"] not in ("red", "blue"):
                    self.problems.append(f"welcome color {attrs['color']}")
                self.color = attrs["color"].upper()
            elif kind == "sc.framework.plugins.protocol.MoveRequest":
                self.requests += 1
            elif kind == "error":
                self.problems.append(f"error {attrs.get('message')}")
        elif name == "state":
            self.in_state = True
            self.state_children = []
            if attrs.get("currentPlayerColor") not in ("RED", "BLUE"):
                self.problems.append("state without currentPlayerColor")
        elif self.in_state and self.depth == 5:
            self.state_children.append(name)
        elif name == "field":
            self.board[int(attrs["x"]), int(attrs["y"])] = attrs["state"]
        elif name == "score":
            self.causes.append(attrs["cause"])

    def endElement(self, name):
        self.depth -= 1
        if name == "state":
            self.in_state = False
            expected = ["red", "blue", "board"]
            if self.state_children[-3:] != expected or self.state_children[:-3] not in ([], ["lastMove"]):
                self.problems.append(f"state children {self.state_children}")


def play(port: int, rng: random.Random, reservation: str | None = None) -> str | None:
    sock = socket.create_connection(("127.0.0.1", port), timeout=120)  # a partner may be mid-game on a loaded machine
    listener = Listener()
    parser = xml.sax.make_parser()
    parser.setContentHandler(listener)
    join = join_element("swc_2019_piranhas", reservation)
    sock.sendall(b"<protoc")
    sock.sendall(b"ol>\n  " + join[:24].encode())  # the request split mid-attribute
    sock.sendall(join[24:].encode() + b"\n")
    answered = 0
    while not listener.left:
        data = sock.recv(1500)
        if not data:
            return "server closed the connection during the game"
        parser.feed(data)
        if listener.problems:
            return "; ".join(listener.problems)
        if listener.requests > answered and not listener.left:
            answered = listener.requests
            move = choose(listener.board, listener.color, rng)
            if move is None:
                return "no legal move"
            x, y, direction = move
            sock.sendall(
                f'\n<room roomId="{listener.room}">\n  <data direction="{direction}" y="{y}" x="{x}" '
                f'class="move"/>\n</room>\n'.encode()
            )
    if listener.causes != ["REGULAR", "REGULAR"]:
        return f"result causes {listener.causes}"
    sock.sendall(b"</protocol>")
    rest = b""
    while chunk := sock.recv(4096):
        rest += chunk
    sock.close()
    if rest != b"\n</protocol>":
        return f"unexpected end of stream {rest!r}"
    return None


if __name__ == "__main__":
    sys.exit(main(play))
