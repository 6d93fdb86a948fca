"""The toy family's client part: its reference bot (``swc bot count_to_three``, ``python -m tests.toy.client``)."""

from __future__ import annotations

import argparse
import sys

import trio

from swc_local.client.bots import ClientFamily

from tests.toy_family import LineCodec


async def play(host: str, port: int, name: str) -> str:
    """Join, count on every TURN; the last line the server sent (``WON ...`` or ``STOPPED ...``)."""
    codec = LineCodec()
    async with await trio.open_tcp_stream(host, port) as stream:
        await stream.send_all(LineCodec.encode("PLAY", name))
        while data := await stream.receive_some(4096):
            for line in codec.feed(data):
                if line == "TURN":
                    await stream.send_all(LineCodec.encode("COUNT"))
                elif line.startswith(("WON", "STOPPED")):
                    return line
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="toy-bot")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--name", default="bot")
    parser.add_argument("--seed", type=int)
    args = parser.parse_args(argv)
    last = trio.run(play, args.host, args.port, args.name)
    print(last)
    return 0 if last.startswith("WON") else 1


FAMILY = ClientFamily("toy", main, module="tests.toy.client", connect=("--host", "{host}", "--port", "{port}", "--name", "{player}"),
                      rung_flags=lambda rung: ())  # one rung, random: no flag

if __name__ == "__main__":
    sys.exit(main())
