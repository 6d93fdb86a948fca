"""SIGINT, SIGTERM and SIGHUP to ``swc match`` and ``swc tournament`` (issue 43): every process
they started ends (a bot's shell script and the child it started, one of them deaf to SIGTERM),
the games finished so far are printed by name, and the exit status is 128 + the signal."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import trio

from tests.processes import terminal_signals_at_default

STOP_SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]

# A bot as a shell script that starts a child (as a script that starts java does) and then hangs
# without joining, deaf to SIGTERM: only its process group's SIGKILL ends it.
HANGING_SCRIPT = """#!/bin/sh
"{python}" -c 'import time; time.sleep(600)' "$1-child" &
exec "{python}" -c 'import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)' "$1"
"""


def marked_processes(marker: str, but: int | None = None) -> list[int]:
    """The live processes whose command line holds ``marker`` (psutil if installed, else /proc),
    but the process ``but`` (the command under test, whose arguments name the bot's command)."""
    return [pid for pid in _marked(marker) if pid != but]


def _marked(marker: str) -> list[int]:
    try:
        import psutil
    except ImportError:
        found = []
        for entry in Path("/proc").glob("[0-9]*"):
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
        return found
    found = []
    for process in psutil.process_iter(["cmdline", "status"]):
        cmdline = process.info["cmdline"] or []
        if process.info["status"] != psutil.STATUS_ZOMBIE and any(marker in word for word in cmdline):
            found.append(process.pid)
    return found


def hanging_bot(tmp_path: Path) -> tuple[str, str]:
    """(the command, its marker): a command that never joins, whose every process is marked."""
    script = tmp_path / "hang.sh"
    script.write_text(HANGING_SCRIPT.format(python=sys.executable))
    script.chmod(0o755)
    marker = f"stops-{uuid.uuid4().hex}"
    return f"{script} {marker}", marker


def start(argv: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "swc_local.tools.cli", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=terminal_signals_at_default)


def stop_when_marked(process: subprocess.Popen, marker: str, signum: int, after_line: str | None = None):
    """Once ``after_line`` was on stderr (if given) and both marked processes run, send ``signum``;
    (stdout, stderr) once the command exited."""
    err = []
    try:
        if after_line is not None:
            for line in process.stderr:
                err.append(line)
                if line.startswith(after_line):
                    break
            else:
                pytest.fail("".join(err) + process.stdout.read())
        for _ in range(3000):  # the bot's script and its child run (the command itself does not count)
            if len(marked_processes(marker, but=process.pid)) >= 2 or process.poll() is not None:
                break
            time.sleep(0.01)
        process.send_signal(signum)
        out, rest = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    return out, "".join(err) + rest


@pytest.mark.parametrize("signum", STOP_SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_swc_match_stopped_by_a_signal_ends_every_bot_and_names_the_finished_games(tmp_path, signum):
    command, marker = hanging_bot(tmp_path)
    process = start(["match", "piranhas", "--games", "50", "--seed", "1", "--start-timeout", "1",
                     "--player1", command])
    out, err = stop_when_marked(process, marker, signum, after_line="[1/50]")
    assert process.returncode == 128 + signum, out + err
    assert marked_processes(marker) == [], "a bot's process outlived swc match"
    name = signal.Signals(signum).name + (" (Ctrl-C)" if signum == signal.SIGINT else "")
    played = int(out.split("stopped after ")[1].split()[0])
    assert played >= 1 and out.splitlines()[-1] == f"stopped after {played} of 50 games: {name}", out
    listed = out.split("finished before the stop:\n")[1].splitlines()[:played]
    assert [line.split(":")[0] for line in listed] == [f"  game {i + 1}" for i in range(played)], out
    assert listed[0].startswith("  game 1: ") and len(listed[0]) > len("  game 1: ") and "Traceback" not in err


def test_ctrl_c_before_the_first_game_ends_prints_the_stop(tmp_path):
    command, marker = hanging_bot(tmp_path)
    process = start(["match", "piranhas", "--games", "3", "--start-timeout", "60", "--player1", command])
    out, err = stop_when_marked(process, marker, signal.SIGINT)
    assert process.returncode == 130, out + err
    assert marked_processes(marker) == []
    assert out.splitlines()[0].startswith("0 games of swc_2019_piranhas")
    assert out.splitlines()[-1] == "stopped after 0 of 3 games: SIGINT (Ctrl-C)", out


@pytest.mark.parametrize("signum", STOP_SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_swc_tournament_stopped_by_a_signal_ends_every_bot_and_names_the_finished_games(tmp_path, signum):
    command, marker = hanging_bot(tmp_path)
    reference = f"{sys.executable} -m swc_local.tools.cli bot piranhas --port {{port}} --reservation {{reservation}}"
    process = start(["tournament", "piranhas", "--bot", f"hang={command}", "--bot", f"ref={reference}",
                     "--games-per-pairing", "20", "--start-timeout", "1", "--db", str(tmp_path / "t.db")])
    out, err = stop_when_marked(process, marker, signum, after_line="pair ")
    assert process.returncode == 128 + signum, out + err
    assert marked_processes(marker) == [], "a bot's process outlived swc tournament"
    name = signal.Signals(signum).name
    assert f"stopped by {name}" in err and "--resume continues" in err, err
    finished = out.split("finished before the stop:\n")[1].splitlines()
    assert len(finished) >= 2 and all(line.startswith("  game r0/hang~ref/") for line in finished), out


@trio.lowlevel.enable_ki_protection
async def _sleep_forever() -> None:
    """KI-protected, so trio delivers the interrupt at a checkpoint (as in a match, whose tasks
    wait at checkpoints), never inside whatever Python code the signal happens to stop."""
    await trio.sleep_forever()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=lambda s: signal.Signals(s).name)
def test_sigterm_and_sighup_inside_trio_take_the_ctrl_c_path(signum):
    """The signal becomes trio's KeyboardInterrupt (so every task unwinds and its bots' groups are
    stopped), and the status to exit with is 128 + the signal; the handlers are put back after."""
    import os
    import threading

    from swc_local.tools.stopping import stop_signals_as_interrupt

    # From the default disposition: a suite started under ``nohup`` inherits SIGHUP ignored, and
    # then the block rightly keeps ignoring it (the test below), so trio.run would sleep forever.
    before = signal.signal(signum, signal.SIG_DFL)
    try:
        with stop_signals_as_interrupt() as state:
            threading.Timer(0.2, os.kill, (os.getpid(), signum)).start()  # inside: never the default's kill
            with pytest.raises(KeyboardInterrupt):
                trio.run(_sleep_forever)
        assert state.exit_status() == 128 + signum and state.describe() == signal.Signals(signum).name
        assert signal.getsignal(signum) is signal.SIG_DFL
    finally:
        signal.signal(signum, before)


def test_under_nohup_sighup_stays_ignored():
    """``nohup swc match ...`` asked to outlive its terminal: SIGHUP is not turned into a stop."""
    from swc_local.server.shutdown import stop_signals
    from swc_local.tools.stopping import stop_signals_as_interrupt

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with stop_signals_as_interrupt():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
        assert signal.SIGHUP not in stop_signals() and signal.SIGTERM in stop_signals()
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        assert signal.SIGHUP in stop_signals()
    finally:
        signal.signal(signal.SIGHUP, before)


def test_a_background_job_with_sigint_ignored_still_stops_on_it():
    """A script's ``swc match ... &`` starts with SIGINT ignored: the run takes it back, then
    leaves it as it was."""
    from swc_local.tools.stopping import stop_signals_as_interrupt

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with stop_signals_as_interrupt():
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
