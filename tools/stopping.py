"""SIGTERM, SIGHUP and SIGINT stop ``swc match`` and ``swc tournament`` the way Ctrl-C does.

Ctrl-C in a terminal always cleaned up: trio turns SIGINT into a KeyboardInterrupt, the runner's
tasks unwind, and each bot's process group is stopped on the way out (tools/players.py). SIGTERM
(``timeout``, a CI job giving up, ``docker stop``) and SIGHUP (a closed terminal or SSH session)
killed the process at once instead, and its bots, each in a session of its own, lived on with
parent 1. :func:`stop_signals_as_interrupt` sends those two down the Ctrl-C path, so the three
signals stop a run alike: every process it started ends, what was finished is printed, and the
exit status is 128 + the signal's number (the shell's convention), which
:meth:`SignalState.exit_status` gives.

A second SIGTERM or SIGHUP while the first stop unwinds does not wait: every process group still
alive is killed (SIGKILL) and the process exits at once with 128 + that signal. (A second Ctrl-C
is trio's KeyboardInterrupt again; the commands kill what is left in their ``finally``.)

Conformance notes: under ``nohup`` (SIGHUP ignored) SIGHUP stays ignored, as asked. A shell
starts a background job of a script with SIGINT ignored; Python then installs no
KeyboardInterrupt handler and trio none of its own, so SIGINT (and SIGTERM, which goes the same
way) would not stop the run. While a run lasts, SIGINT is set back to Python's default handler:
``swc match`` promises to stop on SIGINT wherever it was started from.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading

from swc_local.tools.players import kill_every_group

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class SignalState:
    """Which stop signal arrived first (None: none, or a KeyboardInterrupt raised otherwise)."""

    def __init__(self) -> None:
        self.signum: int | None = None

    def describe(self) -> str:
        """``SIGTERM``, ``SIGHUP``, or ``SIGINT (Ctrl-C)``: what a person reads in the summary."""
        name = signal.Signals(self.signum or signal.SIGINT).name
        return f"{name} (Ctrl-C)" if name == "SIGINT" else name

    def exit_status(self) -> int:
        return 128 + (self.signum or signal.SIGINT)


@contextlib.contextmanager
def stop_signals_as_interrupt():
    """While the block runs, SIGTERM and SIGHUP raise KeyboardInterrupt as SIGINT does (through
    whatever SIGINT handler is current, trio's inside ``trio.run``), so one path cleans up after
    all three. Yields the :class:`SignalState` naming the signal."""
    state = SignalState()
    if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
        yield state
        return
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}

    def as_interrupt(signum, frame) -> None:
        if state.signum is not None:  # a second signal: no more waiting for a clean unwind
            kill_every_group()
            logging.shutdown()
            os._exit(128 + signum)
        state.signum = signum
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler):
            handler(signal.SIGINT, frame)  # trio's handler: a KeyboardInterrupt where it is safe
        else:
            raise KeyboardInterrupt

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # see the conformance note
        signal.signal(signal.SIGINT, signal.default_int_handler)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if not (sig == signal.SIGHUP and previous[sig] is signal.SIG_IGN):  # nohup: keep outliving the terminal
            signal.signal(sig, as_interrupt)
    try:
        yield state
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
