"""The ReversiXT and Robo Rally doors of ``swc serve`` against real lab clients and attackers
(issue 21): each test reproduces one defect over TCP against an in-process ``swc serve`` (all
doors on free ports, short settings) and asserts behaviour, never timings."""

from __future__ import annotations

import json
import logging
from contextlib import asynccontextmanager

import pytest
import trio

from swc_local.server.app import Server
from swc_local.server.config import Settings
from tests.roborally_wire import Wire

FAST_ROBORALLY = {"timer": "0.05", "map": "Dizzy Highway", "playCardTimeout": "0.3"}


@asynccontextmanager
async def swc_serve(roborally: dict | None = None, **settings):
    """``swc serve`` in process: the XML door, the ReversiXT door and the Robo Rally door."""
    keys = dict(FAST_ROBORALLY)
    keys.update(roborally or {})
    async with trio.open_nursery() as nursery:
        server = await nursery.start(Server(Settings(port=0, roborally_port=0, roborally=keys, **settings)).run)
        try:
            yield server
        finally:
            nursery.cancel_scope.cancel()


async def hello(port: int, body: dict) -> Wire:
    wire = await Wire.connect(port)
    await wire.expect("HelloClient")
    await wire.send("HelloServer", body)
    return wire


# ---------------------------------------------------------------------- 1. lab clients

async def test_the_lab_random_bot_without_a_group_is_welcomed():
    async with swc_serve() as server:
        port = server.roborally.port
        # the SoSe 2024 lab's RandomBot, byte for byte
        wire = await Wire.connect(port)
        await wire.expect("HelloClient")
        await wire.send_raw(b'{"messageType":"HelloServer","messageBody":{"protocol":"Version 1.0","isAI":true}}\n')
        client_id = (await wire.expect("Welcome"))["clientID"]
        await wire.send("PlayerValues", {"name": "RandomBot", "figure": 0})
        await wire.expect("PlayerAdded", {"clientID": client_id, "name": "RandomBot", "figure": 0})
        # neither group nor isAI
        bare = await hello(port, {"protocol": "Version 1.0"})
        await bare.expect("Welcome")
        # a group that is there but not a string is still refused, and the connection kept
        odd = await hello(port, {"group": 17, "isAI": True, "protocol": "Version 1.0"})
        await odd.expect("Error", {"error": "Invalid field: group"})
        await odd.send("HelloServer", {"group": "17", "isAI": True, "protocol": "Version 1.0"})
        await odd.expect("Welcome")
        lobby = server.roborally.door.lobby
        assert sorted(peer.group for peer in lobby.peers) == ["", "", "17"]
