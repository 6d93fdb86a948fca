"""What the ``swc`` commands print, and that they stop quietly when their reader leaves
(``swc replay FILE | head``): no BrokenPipeError traceback, the exit status of a tool killed by
SIGPIPE."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys

import pytest

from swc_local.games import registry

SWC = [sys.executable, "-m", "swc_local.tools.cli"]


def run_into_a_closed_pipe(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    """Run ``swc ARGV`` with stdout a pipe whose reader has already gone (``| head`` at its end)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(SWC + argv, stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60, **kwargs)
    finally:
        os.close(write_end)


def replay_file(tmp_path, game: str = "piranhas") -> str:
    plugin = registry.get(registry.resolve(game))
    state = plugin.new_game(random.Random(1)).state_element().render()
    path = tmp_path / f"{game}.xml"
    path.write_text(f'<protocol gameType="{plugin.game_type}"><room roomId="r"><data class="memento">{state}'
                    '</data></room></protocol>')
    return str(path)


@pytest.mark.parametrize("argv", [["replay", "{replay}"], ["replay", "{replay}", "--check"], ["--help"], ["match", "--help"]])
def test_a_printing_command_stops_quietly_when_its_reader_leaves(argv, tmp_path):
    argv = [arg.replace("{replay}", replay_file(tmp_path)) for arg in argv]
    done = run_into_a_closed_pipe(argv)
    # argparse's help swallows the error itself (exit 0); everything else exits as SIGPIPE would
    assert done.stderr == "" and done.returncode in (0, 128 + signal.SIGPIPE), done.stderr
    assert done.returncode == 128 + signal.SIGPIPE or "--help" in argv


def test_swc_admin_output_into_a_closed_pipe_is_quiet_too(swc_server):
    done = run_into_a_closed_pipe(["admin", "--port", str(swc_server.port), "--password", swc_server.password,
                                   "prepare", "piranhas"])
    assert done.stderr == "" and done.returncode == 128 + signal.SIGPIPE, done.stderr
