"""The drop-in ``swc reversixt`` against every capture of the reference server.

The captured clients' bytes are sent in the captured order; every connection must receive the
captured bytes, and the move log and result file must equal the reference's. Pauses (1 s before
the game, 100 ms between turns) are set to 0; scenarios whose verdict depends on the clock run
their client delays and the time limits scaled down. Where a limit is in force the REQUEST time
fields and the accounts depend on the machine's timing, so they are compared without their values.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import trio

from swc_local.games.reversixt.mapfile import load_map
from swc_local.protocol import reversixt as wire
from swc_local.server.reversixt import dropin
from swc_local.server.reversixt.game import Timing
from tests.reversixt_golden import GOLDEN, MAPS, normalise_log, scenarios
from tests.reversixt_harness import plan, replay

# verdict depends on the clock: client pauses are replayed (scaled)
CLOCK_VERDICTS = {
    "fault_timeout": 0.25,
    "fault_late_answer": 0.25,
    "time_header_then_silence": 0.25,
    "time_human_group_99": 0.25,
    "rules_map_over_64k": 0.25,
    "join_no_group_z3": 0.25,
    "join_z_abort_joined": 0.25,
    "join_z_game_outlasts": 0.25,
}
# the reference never ends these by itself (stopped by the recorder)
NEVER_ENDS = {"fault_no_answer_no_limit": 1.0, "join_no_group_no_z": 1.0}


def reset_by_reference(scenario, k: int) -> bool:
    """The reference reset this connection after a fault, so its client lost (part of) the DISQ;
    ours closes cleanly and the DISQ arrives whole (a deliberate difference)."""
    text = (scenario.folder / "transcript.txt").read_text()
    return f"C{k} ** S>C error ConnectionResetError" in text


def check_received(got: bytes, expected: bytes, *, reset: bool, timed: bool) -> None:
    if reset and got != expected:
        whole, _ = wire.split_frames(expected)
        ours, rest = wire.split_frames(got)
        assert not rest and ours[: len(whole)] == whole and [f.type for f in ours[len(whole) :]] == [wire.DISQ]
        assert got.startswith(expected)
    elif timed:
        assert _mask_times(got) == _mask_times(expected)
    else:
        assert got == expected

ALL = sorted(name for name, s in scenarios().items() if (s.folder / "transcript.txt").exists())


def _mask_times(data: bytes) -> list[tuple[int, bytes]]:
    frames, rest = wire.split_frames(data)
    out = [(f.type, f.payload[4:] if f.type == wire.REQUEST else f.payload) for f in frames]
    return out + ([(-1, rest)] if rest else [])


def _mask_text(text: str) -> str:
    text = re.sub(r"time left: \d+ msecs", "time left: T msecs", text)
    return re.sub(r"\d+ msecs", "T msecs", text)


@pytest.mark.parametrize("name", ALL)
async def test_dropin_replays_capture(name, run_dir):
    scenario = scenarios()[name]
    timed = "-t" in scenario.options
    scale = CLOCK_VERDICTS.get(name, NEVER_ENDS.get(name, 0.0))
    argv = ["-m", f"../maps/{scenario.map_name}", "-p", "0", "-C", "-s", "-r", "result.txt", *scenario.options]
    options = dropin.parse_options(argv)
    options.port = 0
    if name in CLOCK_VERDICTS:  # the reference's pauses too, so the capture's timeline holds
        options.timing = Timing(scale=scale)
    else:
        options.timing = Timing(start_delay=0.0, turn_delay=0.0)
    game_map = load_map(options.map_path)
    conns = scenario.connections()
    actions = plan(
        (scenario.folder / "transcript.txt").read_text(),
        {k: scenario.received(k) for k in conns},
        {k: scenario.sent(k) for k in conns},
    )
    status = []
    async with trio.open_nursery() as nursery:

        server_scope = trio.CancelScope()

        async def server(task_status=trio.TASK_STATUS_IGNORED):
            with server_scope:
                status.append(await dropin.run(options, game_map, task_status=task_status))

        port = await nursery.start(server)
        patience = 1.0 if name in NEVER_ENDS else 60.0
        stop = server_scope.cancel if name in NEVER_ENDS else None
        received = await replay(
            port, actions, delays=name in CLOCK_VERDICTS, scale=scale, patience=patience, on_timeout=stop
        )
    for k in conns:
        expected = scenario.received(k)
        got = received.get(k, b"")
        check_received(got, expected, reset=reset_by_reference(scenario, k), timed=timed)
    log, result = scenario.log(), scenario.result()
    if name in NEVER_ENDS:
        assert status == []
        if log is None:
            assert not os.path.exists("log_game.txt")
            return
    elif log is None:
        assert status == [255] and not os.path.exists("log_game.txt") and not os.path.exists("result.txt")
        return
    else:
        assert status == [0]
    ours = normalise_log(open("log_game.txt").read())
    if timed:
        assert _mask_text(ours) == _mask_text(normalise_log(log))
        assert _mask_text(open("result.txt").read()) == _mask_text(result)
    else:
        assert ours == normalise_log(log)
        assert open("result.txt").read() == result


@pytest.mark.parametrize("name", sorted(p.stem for p in (GOLDEN / "map_rejected").glob("*.txt")))
def test_dropin_refuses_maps_like_the_reference(name, run_dir, capsys):
    expected = (GOLDEN / "map_rejected" / f"{name}.txt").read_text()
    status = int(re.search(r"\(exit status (\d+)\)", expected).group(1))
    options = dropin.parse_options(["-m", f"../maps/{name}.map", "-C"])
    assert dropin.load(options) == status
    printed = capsys.readouterr().out
    lines = [line for line in expected.splitlines()[1:] if not line.startswith("(exit status")]
    assert printed.splitlines() == lines


def test_command_line_statuses(run_dir, capsys):
    assert dropin.main([]) == 255 and "missing mapfile." in capsys.readouterr().out
    assert dropin.main(["-m", "/nonexistent.map"]) == 255
    assert "FAILED: No such file or directory" in capsys.readouterr().out
    assert dropin.main(["--bogus"]) == 255
    assert dropin.main(["-h"]) == 0 and "usage" in capsys.readouterr().out
    assert dropin.main(["-v"]) == 0 and capsys.readouterr().out == "reversi server version SS2009-svn-r\n"


def test_swc_reversixt_command_runs_the_dropin(run_dir):
    done = subprocess.run(
        [sys.executable, "-m", "swc_local.tools.cli", "reversixt", "-m", "../maps/bad_final_no_moves_2p.map"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "Map is final, no moves at all possible." in done.stdout


async def test_busy_port_takes_the_next_one(run_dir):
    busy = trio.socket.socket()
    await busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    options = dropin.parse_options(["-m", "../maps/tiny_2p.map", "-p", str(port), "--host", "127.0.0.1", "-s"])
    async with trio.open_nursery() as nursery:
        taken = await nursery.start(dropin.run, options, load_map(options.map_path))
        assert taken > port
        nursery.cancel_scope.cancel()
    busy.close()
