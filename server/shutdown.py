"""Stopping the server on SIGTERM, SIGINT or SIGHUP without losing anyone's records (issues 15, 24, 43).

``docker stop``, systemd and CI runners send SIGTERM; a person presses Ctrl-C; a closed terminal
or SSH session sends SIGHUP.  All three do the same, in this order, at every door of
``swc serve`` alike (the Door contract and the one list of doors, server/door.py):

1. every door stops accepting connections (its listening sockets close);
2. every running game ends the way its protocol ends one, with its record written and marked
   unfinished, no result:

   * XML: as an admin's ``cancel`` ends it, ``<left roomId="R"/>`` to players and observers;
     with ``saveReplay`` its replay holds the moves so far and the root attribute ``unfinished``
     naming the signal; rooms still waiting are removed;
   * ReversiXT: as the reference server aborts, every connection is closed without another
     byte (the protocol has no message for it: END_GAME would claim an end by the rules); with
     ``saveReplay`` its move log (``log_game.txt`` format) is written with the moves so far and
     a last line ``game stopped before its end: <reason>``, and no result file;
   * Robo Rally: no ``GameFinished`` (there is no winner); the connections are closed once what
     was queued for them is sent, as the protocol closes any connection (spec roborally.md §7);
     with a log directory its log is written, its header saying ``"unfinished": <reason>``;
   * the viewer (web door): every open page's event stream ends after the events it has (a
     whole response, so a page shows the game as it was), new pages are refused, and hypercorn
     closes each connection once its response is complete; every bot a person's table started
     is killed with its process group (server/web/seats.py), so nothing outlives the server;
3. every connection gets its protocol's close (XML: ``CloseConnection`` then ``</protocol>``)
   and is closed once that is flushed; players still waiting for a game are closed the same way;
4. plain lines on stderr say what was finished: ``swc serve stopped by SIGTERM: 12 games
   finished (xml 12, reversixt 0, roborally 0)`` (each door's ``games_finished``, counted
   before the stop ended the running ones), then one short line per game, its door, game type
   and result (``  xml: piranhas_2026 room R: ONE 2, TWO 0``), at most the last 20 with a
   count of the earlier ones (server/finished_games.py);
5. the process exits with status 128 + the signal's number (SIGINT 130, SIGTERM 143, SIGHUP
   129: the shell's convention, as ``swc match`` and ``swc tournament``; before issue 43 it was
   0), at most ``GRACE_SECONDS`` after the signal (a client that does not read its last bytes is
   cut off then); whatever still unwinds at ``EXIT_SECONDS`` (cancelling a thousand open
   connections on a starved machine took seconds, issue 34) is ended by the process's exit
   then, with the same status: every record was written or cut off at the grace already, the
   kernel closes the sockets, the log is flushed first.

A second signal during these steps exits at once (status 128 + that signal's number).  The
official server had no such sequence: it died on SIGTERM with whatever was in flight, a
deliberate difference listed in the README.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading

import trio

from swc_local.server.finished_games import last_games

log = logging.getLogger("swc.server")

GRACE_SECONDS = 1.5
"""From the signal to the cancellation of whatever has not finished (well under 2 s)."""

EXIT_SECONDS = 1.9
"""From the signal to the process's exit at the latest (the README promises 2 s)."""

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def stop_signals() -> tuple[int, ...]:
    """:data:`SIGNALS`, less SIGHUP when it is ignored already: ``nohup swc serve &`` asked to
    outlive its terminal, and keeps doing so."""
    return tuple(sig for sig in SIGNALS if not (sig == signal.SIGHUP and signal.getsignal(sig) is signal.SIG_IGN))


def exit_deadline(seconds: float = EXIT_SECONDS, exit=os._exit, status: int = 0) -> threading.Timer:
    """A thread that ends the process with ``status`` ``seconds`` from now (the log flushed first),
    whatever the event loop is doing: the last step of a stop cannot be held up by a busy loop.
    A daemon thread: a stop that finishes in time exits without waiting for it."""
    def end() -> None:
        log.warning("still unwinding %g s after the signal: exiting now", seconds)
        logging.shutdown()
        exit(status)

    timer = threading.Timer(seconds, end)
    timer.daemon = True
    timer.start()
    return timer


def end_everything(doors, why: str) -> None:
    """Steps 1-3 at every door, synchronously; a door that fails does not keep the others open."""
    for door in doors:
        try:
            door.stop(why)
        except Exception:
            log.exception("%s door: error while stopping it", door.name)


def _busy(doors) -> int:
    return sum(door.busy() for door in doors)


def finished_summary(doors, signal_name: str) -> str:
    """``swc serve stopped by SIGTERM: 3 games finished (xml 3, reversixt 0)``: the doors that count
    their games (``games_finished``), read before the stop ends the running ones; then a line
    for each of the last games (:func:`~swc_local.server.finished_games.last_games`)."""
    counts = [(door.name, door.games_finished()) for door in doors if callable(getattr(door, "games_finished", None))]
    total = sum(count for _, count in counts)
    each = ", ".join(f"{name} {count}" for name, count in counts)
    counts_line = f"swc serve stopped by {signal_name}: {total} game{'' if total == 1 else 's'} finished" + (
        f" ({each})" if each else "")
    return "\n".join([counts_line, *last_games(doors, total)])


async def stop_gracefully(server, why: str, summary=None) -> None:
    """End everything, then wait (at most the grace period) for every door to finish; cancel.
    ``summary(doors)`` is called before anything is stopped (what was finished so far)."""
    doors = list(server.doors)
    if summary is not None:
        summary(doors)
    end_everything(doors, why)
    with trio.move_on_after(GRACE_SECONDS):
        while _busy(doors):
            await trio.sleep(0.01)
    for door in doors:
        if door.busy():
            log.warning("%s door: %d connections or games did not end in time; cut off", door.name, door.busy())
    server.cancel()


async def serve_until_signalled(server) -> int | None:
    """Run ``server`` until SIGTERM, SIGINT or SIGHUP, then stop it gracefully (trio's main thread
    only); the signal's number (the command exits with 128 + it), None if the server ended alone."""
    received: list[int] = []
    with trio.open_signal_receiver(*stop_signals()) as signals:
        async with trio.open_nursery() as nursery:
            await nursery.start(server.run)
            nursery.start_soon(_watch_signals, signals, server, nursery, received)
    return received[0] if received else None


async def _watch_signals(signals, server, nursery: trio.Nursery, received: list[int]) -> None:
    """The first signal starts the graceful stop beside this loop; the second one exits."""
    async for signum in signals:
        name = signal.Signals(signum).name
        if received:
            log.warning("%s again: exiting at once", name)
            logging.shutdown()
            os._exit(128 + signum)
        received.append(signum)
        exit_deadline(status=128 + signum)
        log.info("%s received: ending every game and closing every connection", name)
        nursery.start_soon(_stop_then_cancel, server, f"server stopped ({name})", nursery.cancel_scope,
                           lambda doors, name=name: _print_summary(finished_summary(doors, name)))


def _print_summary(line: str) -> None:
    """The summary is for the person or the job that sent the signal: a plain line on stderr,
    beside the log, whatever the log's level."""
    print(line, file=sys.stderr, flush=True)


async def _stop_then_cancel(server, why: str, scope: trio.CancelScope, summary) -> None:
    await stop_gracefully(server, why, summary)
    scope.cancel()
