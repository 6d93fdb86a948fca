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


def test_text_boards_have_coordinates_and_the_blokus_move_line_its_position(tmp_path, capsys):
    from swc_local.games.blokus.rules import SIZE, SetMove
    from swc_local.server.xml.replay import read_replay
    from swc_local.tools.replay_check import print_replay

    blokus = registry.get("swc_2027_blokus")
    game = blokus.new_game(random.Random(1))
    start = game.state_element().render()
    move = blokus.random_move(game, random.Random(2))
    assert isinstance(move, SetMove)
    game.apply(game.current_seat, move)
    path = tmp_path / "blokus.xml"
    path.write_text(f'<protocol gameType="swc_2027_blokus"><room roomId="r"><data class="memento">{start}</data></room>'
                    f'<room roomId="r"><data class="memento">{game.state_element().render()}</data></room></protocol>')
    import io
    out = io.StringIO()
    print_replay(read_replay(path), out)
    text = out.getvalue()
    assert f" at ({move.x},{move.y})" in text  # the move line says where the piece went
    lines = text.splitlines()
    assert "   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9" in lines and f"{SIZE - 1} " + " ".join("." * SIZE) in lines
    piranhas = registry.get("swc_2019_piranhas").describe(registry.get("swc_2019_piranhas").new_game(random.Random(2)))
    assert piranhas.splitlines()[1].startswith("9 ") and piranhas.splitlines()[-1] == "  0 1 2 3 4 5 6 7 8 9"
    piranhas_2026 = registry.get("swc_2026_piranhas")
    assert piranhas_2026.describe(piranhas_2026.new_game(random.Random(2))).splitlines()[-2] == "  0 1 2 3 4 5 6 7 8 9"


def test_the_robo_rally_board_aligns_its_columns_and_has_a_legend():
    from swc_local.games.roborally.board import load_map
    from swc_local.games.roborally.text import render

    lines = render(load_map("Death Trap"), {1: (2, 3, "top")}).splitlines()
    board = [line for line in lines[1:] if line[:1].isdigit()]
    assert len(board) == 10 and lines[-3].startswith("legend: ")
    columns = [i for i, char in enumerate(lines[0]) if char.isdigit() and lines[0][i - 1] == " "]
    assert len(columns) == 13
    for line in board:  # every square starts under its x, after a space
        assert all(line[i - 1] == " " and line[i] != " " for i in columns), (columns, line)
    assert "@1^" in board[3]
