"""A stand-alone Hase und Igel 2018 client in the style of third-party clients.

Standard library only, with its own deliberately small reading of the rules: it never plays a
card unless it has nothing else to do, and then only "advance onto a hare field and take 20
carrots" (or eat a salad with the card). Every move it sends must be legal; it fails on any
error, unexpected element or a result that is not REGULAR for both players.

It reads the stream with ``xml.dom.pulldom``-free SAX-like incremental parsing via
``ElementTree.XMLPullParser``, sends actions in reverse XML order (the server sorts by
``order``), and ends with ``</protocol>`` only after the result and ``left``.
"""

from __future__ import annotations

import random
import socket
import sys
import xml.etree.ElementTree as ET

from runner import join_element, main


def cost(n: int) -> int:
    return n * (n + 1) // 2


class Me:
    def __init__(self, element: ET.Element) -> None:
        self.index = int(element.get("index"))
        self.carrots = int(element.get("carrots"))
        self.salads = int(element.get("salads"))
        self.cards = [t.text for t in element.find("cards").findall("type")]
        last = element.find("lastNonSkipAction")
        self.last = None if last is None else (last.get("class"), last.get("type"))


def moves(fields: list[str], me: Me, other: Me) -> list[list[str]]:
    here = fields[me.index]
    last_kind, last_card = me.last or (None, None)
    if here == "SALAD" and (last_kind == "advance" or last_card in ("FALL_BACK", "HURRY_AHEAD")):
        return [['<eatSalad order="0"/>']]
    must_advance = here in ("HEDGEHOG", "START") or last_kind == "eatSalad" or last_card in (
        "EAT_SALAD",
        "TAKE_OR_DROP_CARROTS",
    )
    options: list[list[str]] = []
    hares: list[list[str]] = []
    distance = 1
    while cost(distance) <= me.carrots and me.index + distance <= 64:
        target = me.index + distance
        kind = fields[target]
        free = target == 64 or target != other.index
        left = me.carrots - cost(distance)
        if free and (
            kind in ("CARROT", "POSITION_1", "POSITION_2")
            or (kind == "SALAD" and me.salads > 0)
            or (kind == "GOAL" and left <= 10 and me.salads == 0)
        ):
            options.append([f'<advance order="0" distance="{distance}"/>'])
        if free and kind == "HARE":
            if "TAKE_OR_DROP_CARROTS" in me.cards:
                hares.append([f'<advance order="0" distance="{distance}"/>', '<card order="1" type="TAKE_OR_DROP_CARROTS" value="20"/>'])
            elif "EAT_SALAD" in me.cards and me.salads > 0:
                hares.append([f'<advance order="0" distance="{distance}"/>', '<card order="1" type="EAT_SALAD" value="0"/>'])
        distance += 1
    hedgehogs = [i for i in range(me.index - 1, 0, -1) if fields[i] == "HEDGEHOG"]
    if hedgehogs and hedgehogs[0] != other.index:
        options.append(['<fallBack order="0"/>'])
    if here == "CARROT":
        options.append(['<exchangeCarrots order="0" value="10"/>'])
        if me.carrots >= 10:
            options.append(['<exchangeCarrots order="0" value="-10"/>'])
    if here == "SALAD" and me.salads > 0 and not must_advance:
        options.append(['<eatSalad order="0"/>'])
    return options or hares or [['<skip order="0"/>']]


def play(port: int, rng: random.Random, reservation: str | None = None) -> str | None:
    sock = socket.create_connection(("127.0.0.1", port), timeout=120)  # a partner may be mid-game on a loaded machine
    join = join_element("swc_2018_hase_und_igel", reservation).replace(" />", "/>")
    sock.sendall(b"<protocol>\n" + join[:-2].encode())
    sock.sendall(b"/>")
    parser = ET.XMLPullParser(events=("start", "end"))
    depth, inbox = 0, []
    room = color = None
    fields: list[str] = []
    players: dict[str, Me] = {}
    causes: list[str] = []
    while True:
        while not inbox:
            data = sock.recv(8192)
            if not data:
                return "server closed the connection"
            parser.feed(data)
            for event, element in parser.read_events():
                depth += 1 if event == "start" else -1
                if event == "end" and depth == 1:
                    inbox.append(element)
        message = inbox.pop(0)
        if message.tag == "joined":
            room = message.get("roomId")
            continue
        if message.tag == "left":
            break
        data = message.find("data")
        if message.tag != "room" or data is None:
            return f"unexpected message {message.tag}"
        kind = data.get("class")
        if kind == "welcomeMessage":
            color = data.get("color").upper()
        elif kind == "memento":
            state = data.find("state")
            if state.get("class") != "state" or state.get("startPlayer") != "RED":
                return f"state attributes {state.attrib}"
            fields = [f.get("type") for f in state.find("board").findall("fields")]
            players = {"RED": Me(state.find("red")), "BLUE": Me(state.find("blue"))}
        elif kind == "sc.framework.plugins.protocol.MoveRequest":
            other = "BLUE" if color == "RED" else "RED"
            actions = rng.choice(moves(fields, players[color], players[other]))
            body = "".join(reversed(actions))
            sock.sendall(f'<room roomId="{room}"><data class="move">{body}</data></room>'.encode())
        elif kind == "result":
            causes = [score.get("cause") for score in data.findall("score")]
        elif kind == "error":
            return f"error: {data.get('message')}"
        else:
            return f"unexpected data class {kind}"
    if causes != ["REGULAR", "REGULAR"]:
        return f"result causes {causes}"
    sock.sendall(b"</protocol>")
    rest = b""
    while chunk := sock.recv(4096):
        rest += chunk
    sock.close()
    return None if rest == b"\n</protocol>" else f"end of stream {rest!r}"


if __name__ == "__main__":
    sys.exit(main(play))
