"""ReversiXT: a thousand connections that never send their GROUP cannot keep a real player
waiting (issue 34, the residue of issue 21's lockout)."""

from __future__ import annotations

import trio

from tests.server.test_door_hardening import _reversixt_pair, swc_serve

SILENT = 1000


async def _silent_crowd(port: int, count: int, started: trio.Event, stop: trio.Event) -> None:
    """``count`` connections that never send a byte; each one closed by the server comes back."""
    async def one(index: int) -> None:
        while True:  # until the crowd's nursery is cancelled
            try:
                stream = await trio.open_tcp_stream("127.0.0.1", port)
            except OSError:
                await trio.sleep(0.05)
                continue
            async with stream:
                if index == count - 1:
                    started.set()
                try:
                    while await stream.receive_some(100):
                        pass
                except trio.BrokenResourceError:
                    pass

    async with trio.open_nursery() as nursery:
        nursery.start_soon(_cancel_on, stop, nursery.cancel_scope)
        for index in range(count):
            nursery.start_soon(one, index)


async def _cancel_on(event: trio.Event, scope: trio.CancelScope) -> None:
    await event.wait()
    scope.cancel()


async def test_a_real_player_joins_at_once_while_a_thousand_silent_connections_are_open():
    from swc_local.server.reversixt.game import Timing

    async with swc_serve() as server:
        door = server.door("reversixt")
        door.settings.timing = Timing(0, 0)
        started, stop = trio.Event(), trio.Event()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_silent_crowd, door.port, SILENT, started, stop)
            with trio.fail_after(60):
                await started.wait()
            await trio.sleep(0.5)  # the crowd is open (and comes back whenever one is closed)
            games = await _reversixt_pair(door)
            stop.set()
        assert all(game.over and not game.disqualified for game in games), games


async def test_a_player_whose_group_waits_unread_is_not_closed_for_a_newcomer():
    """The eviction that made room for newcomers took the oldest connection without a GROUP,
    even one whose GROUP was already in its socket, unread (its reader had not run yet under a
    flood of connects): that player was closed and waited for ever. A silent one goes first."""
    import socket
    import time

    from swc_local.protocol import reversixt as wire

    async with swc_serve(reversixt={"max_idle": 3}) as server:
        door = server.door("reversixt")
        player = await trio.to_thread.run_sync(lambda: socket.create_connection(("127.0.0.1", door.port)))
        silent = []
        with trio.fail_after(10):
            while len(door._joining) < 1:
                await trio.sleep(0.01)
            for _ in range(2):
                silent.append(await trio.open_tcp_stream("127.0.0.1", door.port))
            while len(door._joining) < 3:
                await trio.sleep(0.01)
        player.sendall(wire.encode_group(7))
        time.sleep(0.2)  # the GROUP arrives; the server has not run since: it waits unread
        door._evict_idle()  # what the next newcomer's admission does
        with trio.fail_after(10):
            while door.waiting_count() < 1:
                await trio.sleep(0.01)  # the player joined
            assert await silent[0].receive_some(10) == b""  # the oldest silent one was closed instead
        player.close()
        for stream in silent:
            await stream.aclose()
