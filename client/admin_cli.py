"""``swc admin``: the admin library from the command line.

::

    swc admin prepare piranhas --name Alice --name Bob --paused   # room: ID, red (Alice): CODE, blue (Bob): CODE
    swc admin observe ROOM            # one text board per state, then the result
    swc admin observe ROOM --xml      # the raw memento stream
    swc admin step ROOM [--count N]   # N moves of a paused room
    swc admin pause ROOM | unpause ROOM | cancel ROOM   # an unknown ROOM: a message and exit 1

The passphrase is found the way ``swc serve`` finds it, so an admin script run beside the server
needs no flag: ``--password``, else the ``SWC_PASSWORD`` environment variable, else the
``password`` key of ``--properties PATH``, else of ``./server.properties`` if it exists, else the
official default ``examplepassword``.  A properties file without a ``password`` key is an error
here: the server started from it accepts no admin at all (official behaviour), so guessing the
default would only produce a confusing close.  Each call is its own admin connection; rooms
outlive it, so ``prepare`` in one call and ``step`` in another works.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from pathlib import Path

import javaproperties
import trio

from swc_local.client.admin import Admin, AdminError, Slot
from swc_local.client.connection import port_argument
from swc_local.client.messages import Error, Memento, Result
from swc_local.games import registry
from swc_local.games.plugin import seat_labels


def add_commands(commands) -> None:
    admin = commands.add_parser("admin", help="script the server as admin (prepare, observe, pause, step, cancel)")
    admin.add_argument("--host", default="localhost")
    admin.add_argument("--port", type=port_argument, default=13050)
    admin.add_argument("--password", help="admin passphrase (default: SWC_PASSWORD, else the properties file's)")
    admin.add_argument("--properties", type=Path, help="server.properties to read the passphrase from (default: ./server.properties if it exists)")
    actions = admin.add_subparsers(dest="action", required=True)
    prepare = actions.add_parser("prepare", help="create a room; print its id and the two reservation codes, labelled")
    prepare.add_argument("game")
    prepare.add_argument("--name", action="append", help="display name of a slot (give it twice)")
    prepare.add_argument("--paused", action="store_true", help="start the room paused (step it)")
    prepare.add_argument("--no-timeout", action="store_true", help="canTimeout=false for both slots")
    observe = actions.add_parser("observe", help="print the room's states and result until it ends")
    observe.add_argument("room")
    observe.add_argument("--xml", action="store_true", help="print the raw messages instead of boards")
    step = actions.add_parser("step", help="let a paused room make moves (prints the turn of each step's state)")
    step.add_argument("room")
    step.add_argument("--count", type=int, default=1)
    step.add_argument("--interval", type=float, default=0.5, help="seconds between steps (default 0.5)")
    step.add_argument("--forced", action="store_true", help="also start a room whose seats are not all taken")
    for name in ("pause", "unpause", "cancel"):
        actions.add_parser(name).add_argument("room")
    admin.set_defaults(run=main)


DEFAULT_PASSWORD = "examplepassword"


class PassphraseError(Exception):
    """No passphrase can be found for the admin connection."""


def find_password(password: str | None, properties: Path | None, environ=os.environ) -> str:
    """The passphrase by the precedence in the module docstring."""
    if password is not None:
        return password
    if environ.get("SWC_PASSWORD"):
        return environ["SWC_PASSWORD"]
    path = properties if properties is not None else Path("server.properties")
    if not path.is_file():
        if properties is not None:
            raise PassphraseError(f"properties file {path} does not exist")
        return DEFAULT_PASSWORD
    with path.open(encoding="latin-1") as handle:  # as the server reads it
        values = javaproperties.load(handle)
    if "password" not in values:
        close = difflib.get_close_matches("password", list(values), n=1, cutoff=0.6)
        hint = f" (is {close[0]!r} a misspelling of it?)" if close else ""
        raise PassphraseError(f"{path} has no password key{hint}: a server started from it accepts no admin")
    return values["password"]


def main(args: argparse.Namespace) -> int:
    try:
        args.password = find_password(args.password, args.properties)
    except PassphraseError as error:
        print(f"swc admin: {error}", file=sys.stderr)
        return 2
    if args.action == "prepare" and registry.get(registry.resolve(args.game)) is None:
        print(f"swc admin: unknown game {args.game!r} (known: {', '.join(registry.game_types())})", file=sys.stderr)
        return 2
    try:
        return trio.run(_run, args)
    except BrokenPipeError:  # the reader of our output left (swc admin observe ROOM | head)
        raise
    except (AdminError, OSError) as error:
        print(f"swc admin: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


async def _run(args: argparse.Namespace) -> int:
    async with await Admin.connect(args.host, args.port, args.password) as admin:
        if args.action == "prepare":
            names = (args.name or [])[:2]
            names += ["Unknown"] * (2 - len(names))  # one --name: the other seat is Unknown
            slots = [Slot(n, not args.no_timeout, args.paused) for n in names]
            prepared = await admin.prepare(args.game, slots)
            print(f"room: {prepared.room_id}")
            for label, name, code in zip(seat_labels(admin.plugins[prepared.room_id]), names, prepared.reservations):
                print(f"{label} ({name}): {code}")
        elif args.action == "observe":
            await admin.observe(args.room)
            async for message in admin.room_messages(args.room):
                _show(message, args.xml)
        elif args.action == "step":
            await admin.observe(args.room)
            if args.forced:
                await admin.step(args.room, forced=True)
            memento = await admin.first_step(args.room)  # waits until the room has started
            print(f"turn {memento.turn}", flush=True)
            for _ in range(args.count - 1):
                await trio.sleep(args.interval)  # the player's time to answer the last step
                await admin.step(args.room)
                print(f"turn {(await admin.next_memento(args.room)).turn}", flush=True)
        else:  # pause, unpause, cancel: the server answers none of them, so observe first
            await admin.observe(args.room)  # AdminError naming the room if there is none
            if args.action == "cancel":
                await admin.cancel(args.room)
                with trio.move_on_after(CONFIRM_SECONDS) as waiting:
                    async for _ in admin.room_messages(args.room):
                        pass  # until its <left>
                if waiting.cancelled_caught:
                    raise AdminError(f"room {args.room} did not end within {CONFIRM_SECONDS:g} s of the cancel")
                print(f"room {args.room} cancelled")
            else:
                await (admin.pause if args.action == "pause" else admin.unpause)(args.room)
    return 0


CONFIRM_SECONDS = 10


def _show(message, raw: bool) -> None:
    if raw:
        print(message.element.render(1), flush=True)
        return
    if isinstance(message, Memento):
        try:
            plugin = message.plugin or _plugin(message)
            print(plugin.describe(plugin.game_from_state(message.state)) + "\n", flush=True)
        except LookupError:
            print(message.state.render(), flush=True)
    elif isinstance(message, Error):
        print(f"error: {message.message}", flush=True)
    elif isinstance(message, Result):
        for color, score in zip(("red ", "blue"), message.scores):
            print(f"{color} {score.cause} [{' '.join(score.parts)}]" + (f" {score.reason!r}" if score.reason else ""))
        print(f"winner: {message.winner[0]} ({message.winner[1]})" if message.winner else "no winner", flush=True)


def _plugin(memento: Memento):
    from swc_local.client.messages import plugin_for_state

    plugin = plugin_for_state(memento.state)
    if plugin is None:
        raise LookupError(memento.state.get("class"))
    return plugin
