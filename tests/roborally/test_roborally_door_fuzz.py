"""The lobby and room logic, sans I/O, under random client messages: nothing a client sends
raises, every answer is a valid server message, and two robots never share a square."""

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from swc_local.protocol.roborally import Incoming, decode_line
from swc_local.server.roborally.lobby import CLOSED, Peer, RoboRallySettings, Switchboard

TYPES = ["HelloServer", "Alive", "PlayerValues", "SetStatus", "MapSelected", "SendChat", "SetStartingPoint",
         "SelectedCard", "PlayCard", "SelectedDamage", "RebootDirection", "Welcome", "Bogus"]
values = st.one_of(st.none(), st.booleans(), st.integers(-3, 14), st.floats(allow_nan=True), st.text(max_size=6),
                   st.sampled_from(["Version 1.0", "MoveI", "Again", "Spam", "TrojanHorse", "Null", "left", "top",
                                    "Dizzy Highway", "Death Trap", "Virus", "Worm"]),
                   st.lists(st.sampled_from(["Virus", "Trojan", "Worm", "Spam"]), max_size=3))
bodies = st.dictionaries(st.sampled_from(["group", "isAI", "protocol", "name", "figure", "ready", "map", "message",
                                          "to", "x", "y", "card", "register", "cards", "direction"]), values, max_size=4)


def make_peer(door, sink, index):
    peer = None

    def write(data):
        for line in data.decode().splitlines():
            message = json.loads(line)
            sink.append((index, message["messageType"], message["messageBody"]))

    def close(reason):
        door.disconnected(peer, reason)

    peer = Peer(write, close, f"peer{index}")
    door.accepted(peer)
    return peer


def start_players(door, peers):
    for index, peer in enumerate(peers):
        door.handle(peer, Incoming("HelloServer", {"group": "g", "isAI": True, "protocol": "Version 1.0"}))
        door.handle(peer, Incoming("PlayerValues", {"name": f"p{index}", "figure": index}))
    for peer in peers:
        door.handle(peer, Incoming("SetStatus", {"ready": True}))


# Up to 60 steps of random bodies an example: their generation is legitimately large, and
# Hypothesis's too_slow check times it on the wall clock, which a loaded machine stretches.
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.lists(st.tuples(st.integers(0, 4), st.sampled_from(TYPES), bodies,
                                           st.sampled_from(["message", "timeout", "leave"])), max_size=60))
def test_random_traffic_never_raises(players, steps):
    sink = []
    door = Switchboard(RoboRallySettings(map="Death Trap", seed=1, single_game=False))
    peers = [make_peer(door, sink, i) for i in range(players + 1)]  # the last one only watches
    start_players(door, peers[:players])
    door.handle(peers[-1], Incoming("HelloServer", {"group": "g", "protocol": "Version 1.0"}))
    room = next(iter(door.rooms))
    for who, kind, body, action in steps:
        peer = peers[who % len(peers)]
        if action == "timeout":
            room.timeout()
        elif action == "leave":
            if peer.state != CLOSED:
                peer.close("test")
        else:
            event = decode_line(json.dumps({"messageType": kind, "messageBody": body}).encode())
            door.handle(peer, event)
        squares = [r.pos for r in room.game.robots.values() if r.on_board]
        assert len(squares) == len(set(squares))
    for _, kind, body in sink:
        assert kind != "Error" or isinstance(body["error"], str)
