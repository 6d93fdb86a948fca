"""``swc maps``: the bundled ReversiXT maps and Robo Rally courses, by the names the flags take.

Every name printed here works as it is: ``swc match reversixt --map quad_4p``,
``swc serve --reversixt-map quad_4p``, ``swc reversixt -m quad_4p``, ``swc match roborally
--map "Death Trap"``; a ReversiXT map file path works as well (an existing file wins over a
bundled name).
"""

from __future__ import annotations

import argparse


def add_commands(commands) -> None:
    maps = commands.add_parser("maps", help="list the bundled ReversiXT maps and Robo Rally courses (names for --map)")
    maps.set_defaults(run=run)


def lines() -> list[str]:
    from swc_local.games.reversixt.mapfile import bundled_maps, load_map
    from swc_local.games.roborally.board import MAP_FILES, load_map as load_course

    out = ["ReversiXT maps (--map NAME, or a map file):"]
    for name, path in bundled_maps().items():
        game_map = load_map(str(path))
        out.append(f"  {name:<14} {game_map.players} players, {game_map.width}x{game_map.height}, "
                   f"{len(game_map.transitions)} transitions")
    out.append("Robo Rally courses (--map NAME):")
    for name in MAP_FILES:
        board = load_course(name)
        out.append(f"  {name:<14} {len(board.start_points)} start points, {board.width}x{board.height}, "
                   f"{len(board.checkpoints)} checkpoints")
    return out


def run(args: argparse.Namespace) -> int:
    print("\n".join(lines()))
    return 0
