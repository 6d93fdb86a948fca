"""Short-lived connections at the connection limit (issue 15, a passphrase brute force).

At ``maxConnections`` the server holds the client it just accepted while connections keep
closing, so a client arriving while short-lived connections come and go gets a slot instead of
``<protocol/>``; a limit held by lasting connections still refuses (tests/xml/test_robustness.py).
"""

from __future__ import annotations

import trio

from tests.wire import Raw


async def test_a_client_at_the_limit_gets_the_slot_a_closing_connection_frees(start_server):
    server = await start_server(max_connections=3)
    open_ones = [await Raw.connect(server.door("xml").port) for _ in range(3)]
    with trio.fail_after(2):
        while len(server.door("xml").connections) < 3:
            await trio.sleep(0.01)
    late = await Raw.connect(server.door("xml").port)
    await trio.sleep(0.1)  # it waits (not refused) ...
    await open_ones[0].aclose()  # ... until a connection closes
    await late.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
    with trio.fail_after(5):
        await late.read_until(b"<joined")
    for raw in [late, *open_ones[1:]]:
        await raw.aclose()


async def test_wrong_passphrases_log_no_open_or_close_line_at_info(start_server, caplog):
    server = await start_server()
    caplog.set_level("INFO", logger="swc")
    for index in range(3):
        raw = await Raw.connect(server.door("xml").port)
        await raw.send(f'<protocol><authenticate passphrase="guess-{index}"/>'.encode())
        await raw.read_until_closed()
    with trio.fail_after(2):
        while server.door("xml").connections:
            await trio.sleep(0.01)
    info = [record.getMessage() for record in caplog.records if record.levelname == "INFO"]
    assert not [line for line in info if line.endswith(" opened") or line.endswith(" closed")], info
    assert sum("closed: authentication failed" in line for line in info) >= 1, info  # the reason stays
