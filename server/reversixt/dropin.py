"""``swc reversixt``: a drop-in for the course's reference server ``server_nogl``.

Same options (``-m MAP [-p PORT] [-t S] [-d D] [-r FILE] [-z S] [-C] [-M] [-s] [-h] [-v]``),
same start-up checks and exit statuses, same join sequence, same bytes on every connection,
the same result file (``-r``) and move log (``log_game.txt`` in the working directory); one game,
then exit. Scripts that start the reference can call ``swc reversixt`` instead.

Conformance notes (``shared/spec/reversixt.md`` C.1, E, H):
- clients are handled strictly one after another: accept, read its GROUP, accept the next;
  anything wrong before all have joined (a bad GROUP, a close, ``-z`` running out) aborts the
  whole server: every connection closed without a byte, no files, exit status 255;
- the listening socket closes when the last GROUP is read: later connects are refused and
  connections still waiting in the backlog are reset;
- if the port is busy the next one is taken, as the reference does;
- the console shows the reference's main lines; the board is printed before every request
  unless ``-s``; ``-C`` is accepted (there are no colours), ``-M`` hides the ``'`` marks;
- ``--host`` is ours (the reference listens on every interface, so does the default here);
- a ``-p`` outside 0..65535 is refused (one line, exit status 255 like the other argument
  errors) instead of being wrapped into a 16-bit port number; the captures do not show what
  the reference does with one.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field

import trio

from swc_local.games.reversixt.mapfile import GameMap, MapError, load_map
from swc_local.games.reversixt.referee import Referee
from swc_local.games.reversixt.rules import State
from swc_local.games.reversixt.text import board_text
from swc_local.protocol import reversixt as wire
from swc_local.server.reversixt.game import GameRunner, Seat, Timing

VERSION = "reversi server version SS2009-svn-r"
USAGE = """usage: swc reversixt -m MAP [options]
  -m, --map FILE          the map file (required)
  -p, --baseport P        port to listen on (default 7777; the next free one if busy)
  -t, --timelimit S       time limit per move in seconds (default: none)
  -d, --depthlimit D      depth limit sent with every request (default 1)
  -r, --result FILE       write the result file
  -z, --zleep N           wait at most N seconds for all clients to join
  -C, --no-color          plain output (accepted; there are no colours)
  -M, --hide-moves        do not mark valid squares in the printed boards
  -s, --simple            very simple output (no boards)
  -h, --help              this text
  -v, --version           print the version
      --host ADDR         address to listen on (default: every interface)
"""

LOG_FILE = "log_game.txt"


class UsageError(Exception):
    pass


@dataclass
class Options:
    map_path: str = ""
    port: int = 7777
    time_limit: float = 0.0
    depth: int = 1
    result_file: str | None = None
    zleep: float | None = None
    color: bool = True
    hide_moves: bool = False
    simple: bool = False
    host: str = ""
    log_file: str = LOG_FILE
    timing: Timing = field(default_factory=Timing)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # the reference prints its usage and exits 255
        raise UsageError(message)


def parse_options(argv: list[str]) -> Options | int:
    """Options, or an exit status after printing what the reference prints."""
    parser = _Parser(prog="swc reversixt", add_help=False)
    parser.add_argument("-m", "--map")
    parser.add_argument("-p", "--baseport", type=int, default=7777)
    parser.add_argument("-t", "--timelimit", type=float, default=0.0)
    parser.add_argument("-d", "--depthlimit", type=int, default=1)
    parser.add_argument("-r", "--result")
    parser.add_argument("-z", "--zleep", type=float)
    parser.add_argument("-C", "--no-color", action="store_true")
    parser.add_argument("-M", "--hide-moves", action="store_true")
    parser.add_argument("-s", "--simple", action="store_true")
    parser.add_argument("-h", "--help", action="store_true")
    parser.add_argument("-v", "--version", action="store_true")
    parser.add_argument("--host", default="")
    try:
        args = parser.parse_args(argv)
    except UsageError:
        print(USAGE, end="")
        return 255
    if args.help:
        print(USAGE, end="")
        return 0
    if args.version:
        print(VERSION)
        return 0
    if not args.map:
        print("missing mapfile.")
        print(USAGE, end="")
        return 255
    if not 0 <= args.baseport <= 65535:  # not wrapped into another port (module notes)
        print(f"invalid port {args.baseport} (accepted: 0..65535)")
        return 255
    if args.baseport != 7777:
        print(f"set baseport to {args.baseport}")
    return Options(
        map_path=args.map,
        port=args.baseport,
        time_limit=max(args.timelimit, 0.0),
        depth=args.depthlimit & 0xFF,
        result_file=args.result,
        zleep=args.zleep,
        color=not args.no_color,
        hide_moves=args.hide_moves,
        simple=args.simple,
        host=args.host,
    )


def _say(text: str, end: str = "\n") -> None:
    print(text, end=end, flush=True)


def _stamp(text: str) -> None:
    _say(time.strftime("[%H:%M:%S] ") + text)


def load(options: Options) -> GameMap | int:
    _say("Starting Server.")
    _say(f'Loading board from file "{options.map_path}"... ', end="")
    try:
        game_map = load_map(options.map_path)
    except FileNotFoundError:
        _say("FAILED: No such file or directory")
        return 255
    except OSError as error:
        _say(f"FAILED: {error.strerror}")
        return 255
    except MapError as error:
        _say(error.reason)
        _say("FAILED: Invalid argument")
        return 255
    _say("OK")
    state = State.initial(game_map)
    if game_map.bombs == 0 and not any(state.can_place(p) for p in range(1, game_map.players + 1)):
        _say("Map is final, no moves at all possible.")
        return 0
    return game_map


async def _open_port(options: Options) -> trio.socket.SocketType:
    port = options.port
    while True:
        sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_STREAM)
        sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_REUSEADDR, 1)
        try:
            await sock.bind((options.host, port))
        except OSError:
            sock.close()
            if port == 0 or port >= 65535:
                raise
            port += 1
            continue
        sock.listen(16)
        return sock


class JoinAbort(Exception):
    pass


async def _join(listener, players: int) -> tuple[list[Seat], list[int]]:
    """Accept and read GROUPs strictly one after another, as the reference."""
    seats: list[Seat] = []
    groups: list[int] = []
    try:
        for k in range(1, players + 1):
            _say(f"Waiting client {k} to connect...", end="")
            conn, _ = await listener.accept()
            seat = Seat(k, trio.SocketStream(conn))
            seats.append(seat)
            _say("OK")
            _say(f"Waiting for group id of client {k}...", end="")
            groups.append(await read_group(seat))
            _say(f"OK. Group ID is {groups[-1]}.")
    except BaseException:
        for seat in seats:
            await seat.close_now()
        raise
    return seats, groups


async def read_group(seat: Seat) -> int:
    """The GROUP a joining client must send first; JoinAbort (with the reason) otherwise."""
    from swc_local.server.reversixt.game import ReceiveFault, read_frame

    try:
        frame = await read_frame(seat)
    except ReceiveFault as error:
        raise JoinAbort(str(error)) from None
    if frame.type != wire.GROUP:
        raise JoinAbort(f"received wrong msgtype (should have been groupid, was {frame.type})")
    if frame.payload[0] > 99:
        raise JoinAbort(f"message_ntoh(): received unreasonable group id ({frame.payload[0]})!")
    return frame.payload[0]


class FileWriter:
    """Keeps ``log_game.txt`` and the result file up to date as the game goes on."""

    def __init__(self, log_path: str, result_path: str | None, map_basename: str):
        self.log_path = log_path
        self.result_path = result_path
        self.map_basename = map_basename
        self.written = 0
        with open(log_path, "w"):
            pass

    def __call__(self, referee: Referee) -> None:
        if self.written < len(referee.log):
            with open(self.log_path, "a") as handle:
                handle.write("".join(referee.log[self.written :]))
            self.written = len(referee.log)
        if self.result_path:
            with open(self.result_path, "w") as handle:
                handle.write(referee.result_text(self.map_basename))


async def run(options: Options, game_map: GameMap, *, task_status=trio.TASK_STATUS_IGNORED) -> int:
    """Open the port, wait for the players, play one game. Returns the exit status."""
    try:
        listener = await _open_port(options)
    except OSError as error:
        _say(f"Opening port...FAILED: {error.strerror}")
        task_status.started(None)
        return 255
    port = listener.getsockname()[1]
    _say(f"Opening port...OK. Port number is {port}.")
    _say(f"This is a {game_map.players}-player map.")
    task_status.started(port)
    try:
        with trio.move_on_after(options.zleep * options.timing.scale if options.zleep else float("inf")) as scope:
            seats, groups = await _join(listener, game_map.players)
    except JoinAbort as error:
        _say(str(error))
        _say("failed to receive message. aborting.")
        listener.close()
        return 255
    finally:
        listener.close()
    if scope.cancelled_caught:
        _say("\n")
        _say(f"not all clients connected after {options.zleep:g} seconds. aborting.")
        _say("bye bye.")
        return 255
    for seat in seats:
        _say(f"Sending data to client {seat.player}...", end="")
        await _send_start(seat, game_map)
        _say("OK")
    referee = Referee(
        game_map,
        groups,
        int(round(options.time_limit * 1000)),
        options.depth,
        options.map_path,
        port,
        options.time_limit,
    )
    writer = FileWriter(options.log_file, options.result_file, os.path.basename(options.map_path))
    writer(referee)

    shown = [len(referee.log)]

    def progress(ref: Referee) -> None:
        writer(ref)
        for entry in ref.log[shown[0] :]:  # moves, verdicts and phases as the log has them
            first = entry.split("\n", 1)[0]
            if first.startswith("disqualified player"):
                number, reason = first[len("disqualified player ") :].split(" ", 1)
                _stamp(f"Player {number} disqualified {reason}.")
            elif first.startswith("move "):
                _stamp(first)
            elif first == "reached terminal phase":
                _stamp("Terminal state reached.")
        shown[0] = len(ref.log)

    def show(ref: Referee, player: int) -> None:
        if not options.simple:
            _say(board_text(ref.state, player, marks=not options.hide_moves))
        _stamp(f"Player {player} has {ref.state.overwrites[player]} overrides and {ref.state.bombs[player]} bombs.")
        left = ref.accounts[player] + ref.time_limit_ms
        _stamp(f"Sending move request to player {player} with depth {ref.depth}, time left: {left} msecs.")

    runner = GameRunner(referee, {seat.player: seat for seat in seats}, options.timing, progress, "game", show)
    _stamp("Game started.")
    await runner.run()
    _say("Final state reached." if len(referee.state.in_game()) > 1 else "Final state reached, sole remaining player is winner.")
    _say("Scores:")
    for p in range(1, game_map.players + 1):
        _say(f"Player {p}: disqualified" if p in referee.state.disqualified else f"Player {p}: {referee.points(p)} points")
    _say("bye bye.")
    return 0


async def _send_start(seat: Seat, game_map: GameMap) -> None:
    from swc_local.server.reversixt.game import send_frame

    await send_frame(seat, wire.encode_map(game_map.raw))
    await send_frame(seat, wire.encode_player(seat.player))


def main(argv: list[str]) -> int:
    options = parse_options(argv)
    if isinstance(options, int):
        return options
    game_map = load(options)
    if isinstance(game_map, int):
        return game_map
    try:
        return trio.run(run, options, game_map)
    except KeyboardInterrupt:
        return 130
    except BaseExceptionGroup as group:  # trio >= 0.25 wraps errors from inside nurseries
        if group.subgroup(KeyboardInterrupt) is not None:
            return 130
        raise


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def add_commands(commands) -> None:
    """``swc reversixt``: its arguments are the reference server's, read by :func:`main` (PASSTHROUGH)."""
    commands.add_parser("reversixt", help="play one ReversiXT game like the reference server (-m MAP ...)", add_help=False)


PASSTHROUGH = {("reversixt",): main}
"""``swc reversixt ARGS``: handed to :func:`main` verbatim (server/cli.py)."""
