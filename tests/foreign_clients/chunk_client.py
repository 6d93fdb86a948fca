"""A client in the style of the C#/Swift/C++ 2019 clients: every read is parsed as a document.

Such clients take whatever one read returns (after a short sleep), strip ``<protocol>``, wrap it
in a made-up root element and parse it with a strict DOM parser: they assume the server's output
arrives in chunks that end on a message boundary. This client does exactly that, and fails on the
first chunk that is not a sequence of complete messages.

(Some of those clients read in 256-byte pieces until a short read; that deadlocks by itself
whenever a burst is an exact multiple of 256 bytes, whatever the server, so this client reads
once with a large buffer, as the Swift client did.)
"""

from __future__ import annotations

import random
import socket
import sys
import time
import xml.etree.ElementTree as ET

from board import choose
from runner import join_element, main

BUFFER = 1 << 16


def receive_chunk(sock: socket.socket) -> str:
    time.sleep(0.003)
    return sock.recv(BUFFER).decode("utf-8")


def play(port: int, rng: random.Random, reservation: str | None = None) -> str | None:
    sock = socket.create_connection(("127.0.0.1", port), timeout=120)  # a partner may be mid-game on a loaded machine
    sock.sendall(("<protocol>" + join_element("swc_2019_piranhas", reservation)).encode())
    room = me = None
    board: dict = {}
    causes: list[str] = []
    while True:
        raw = receive_chunk(sock)
        if raw == "":
            return "server closed the connection"
        if raw.startswith("<protocol>"):
            raw = raw[len("<protocol>") :]
        try:
            received = ET.fromstring("<received>" + raw + "</received>")
        except ET.ParseError as error:
            return f"a chunk that is not whole messages ({error}): {raw[:80]!r}...{raw[-80:]!r}"
        for message in received:
            if message.tag == "joined":
                room = message.get("roomId")
            elif message.tag == "left":
                if causes != ["REGULAR", "REGULAR"]:
                    return f"result causes {causes}"
                sock.close()
                return None
            elif message.tag == "room" and message.get("roomId") == room:
                data = message[0]
                kind = data.get("class")
                if kind == "welcomeMessage":
                    me = data.get("color").upper()
                elif kind == "memento":
                    for field in data[0].find("board").iter("field"):
                        board[int(field.get("x")), int(field.get("y"))] = field.get("state")
                elif kind == "sc.framework.plugins.protocol.MoveRequest":
                    move = choose(board, me, rng)
                    if move is None:
                        return "no legal move"
                    x, y, direction = move
                    sock.sendall(
                        f'<room roomId="{room}"><data class="move" x="{x}" y="{y}" direction="{direction}" /></room>'.encode()
                    )
                elif kind == "result":
                    causes = [score.get("cause") for score in data.findall("score")]
                else:
                    return f"unexpected data class {kind}"
            else:
                return f"unexpected message <{message.tag}>"


if __name__ == "__main__":
    sys.exit(main(play))
