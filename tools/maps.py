"""``swc maps``: the bundled maps of every family that has some (ReversiXT's maps, Robo Rally's
courses), by the names the flags take; each family's tools value lists its own (tools/families.py).

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
    from swc_local.tools import families

    return [line for family in families.FAMILIES if family.maps is not None for line in family.maps()]


def run(args: argparse.Namespace) -> int:
    print("\n".join(lines()))
    return 0
