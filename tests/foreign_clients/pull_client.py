"""A client in the style of the Java/XStream clients: blocking socket, a pull parser, polite close.

It sends ``<protocol>`` with its join in one write, reads messages as complete direct children of
the root (never by lines), answers move requests with the full class name ``sc.plugin2019.Move``
plus hints, and after ``left`` sends ``CloseConnection`` then ``</protocol>`` like the official
Java client library, expecting the server to answer ``</protocol>`` and close.

Exit status 0 only if every game ended with a result whose causes are all REGULAR and no error
or unexpected element arrived.
"""

from __future__ import annotations

import random
import socket
import sys
import xml.etree.ElementTree as ET

from board import choose
from runner import join_element, main


class Protocol:
    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port), timeout=120)  # a partner may be mid-game on a loaded machine
        self.parser = ET.XMLPullParser(events=("start", "end"))
        self.depth = 0
        self.pending: list[ET.Element] = []
        self.ended = False

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
                    elif self.depth == 0:
                        self.ended = True
        return self.pending.pop(0)


def play(port: int, rng: random.Random, reservation: str | None = None) -> str | None:
    """One game; returns None when all is well, else what went wrong."""
    conn = Protocol("127.0.0.1", port)
    conn.send("<protocol>" + join_element("swc_2019_piranhas", reservation).replace(" />", "/>"))
    me = room = None
    board: dict = {}
    while True:
        message = conn.next_message()
        if message.tag == "joined":
            room = message.get("roomId")
        elif message.tag == "left":
            conn.send("<sc.protocol.responses.CloseConnection/></protocol>")
            rest = b""
            while chunk := conn.sock.recv(4096):
                rest += chunk
            conn.sock.close()
            if not rest.endswith(b"</protocol>"):
                return f"expected </protocol> before the close, got {rest!r}"
            return None
        elif message.tag == "room":
            if message.get("roomId") != room:
                return f"message for another room {message.get('roomId')}"
            data = message.find("data")
            kind = data.get("class")
            if kind == "welcomeMessage":
                me = data.get("color").upper()
            elif kind == "memento":
                state = data.find("state")
                if state.get("class") != "sc.plugin2019.GameState":
                    return f"state class {state.get('class')}"
                board = {
                    (int(f.get("x")), int(f.get("y"))): f.get("state")
                    for f in state.find("board").iter("field")
                }
                if len(board) != 100:
                    return "board without 100 fields"
            elif kind == "sc.framework.plugins.protocol.MoveRequest":
                move = choose(board, me, rng)
                if move is None:
                    return "no legal move"
                x, y, direction = move
                conn.send(
                    f'<room roomId="{room}"><data class="sc.plugin2019.Move" x="{x}" y="{y}" '
                    f'direction="{direction}"><hint content="pull &amp; parse"/></data></room>'
                )
            elif kind == "result":
                causes = [score.get("cause") for score in data.findall("score")]
                if causes != ["REGULAR", "REGULAR"]:
                    return f"result causes {causes}"
            elif kind == "error":
                return f"error: {data.get('message')}"
            else:
                return f"unexpected data class {kind}"
        else:
            return f"unexpected message <{message.tag}>"


if __name__ == "__main__":
    sys.exit(main(play))
