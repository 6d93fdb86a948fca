"""The family flags of ``swc match`` and ``swc tournament``: each family's tools value
(tools/families.py) declares its own (:class:`~swc_local.tools.seats.Flag`), and this module
adds them to a parser and reads them back, naming no family.

A flag that several families declare (``--map``) is one flag whose help joins theirs
(``ReversiXT: a map file ...; Robo Rally: a map name ...``); in ``swc match --help`` the flags
stand in groups by the families that declare them, in the order the families first name them.
"""

from __future__ import annotations

import argparse

from swc_local.tools import families as tool_families
from swc_local.tools.seats import Flag, ToolFamily


def declared(tournament: bool = False) -> dict[str, tuple[Flag, list[ToolFamily]]]:
    """Every flag by its first name: the first declaration and the families that declare it."""
    found: dict[str, tuple[Flag, list[ToolFamily]]] = {}
    for family in tool_families.FAMILIES:
        for flag in family.flags:
            if tournament and flag.tournament is None:
                continue
            found.setdefault(flag.names[0], (flag, []))[1].append(family)
    return found


def _help(name: str, families: list[ToolFamily], tournament: bool) -> str:
    texts = [(family.label if tournament else family.title, next(f for f in family.flags if f.names[0] == name))
             for family in families]
    if len(texts) == 1 and not tournament:
        return texts[0][1].help
    return "; ".join(f"{who}: {flag.tournament if tournament else flag.help}" for who, flag in texts)


def _add(target, flag: Flag, help: str, metavar: str | None) -> None:
    target.add_argument(*flag.names, dest=flag.dest, type=flag.type, metavar=metavar, help=help)


def add_match_flags(parser: argparse.ArgumentParser) -> None:
    """Every family's flags, in groups named by the families that declare them."""
    groups: dict[tuple[str, ...], argparse._ArgumentGroup] = {}
    for name, (flag, families) in declared().items():
        key = tuple(family.name for family in families)
        if key not in groups:
            groups[key] = parser.add_argument_group(" and ".join(family.title for family in families))
        _add(groups[key], flag, _help(name, families, False), flag.metavar)


def add_tournament_flags(parser: argparse.ArgumentParser) -> None:
    """The families' flags that ``swc tournament`` takes, each help led by its families' labels."""
    for name, (flag, families) in declared(tournament=True).items():
        _add(parser, flag, _help(name, families, True), flag.tournament_metavar or flag.metavar)


def given(args: argparse.Namespace, tournament: bool = False) -> dict[str, object]:
    """The runner options (``GameSpec.options``) of the family flags given on the command line."""
    options: dict[str, object] = {}
    for flag, _ in declared(tournament).values():
        value = getattr(args, flag.dest, None)
        if value is not None:
            options[flag.key] = value
    return options


def flag_for(key: str) -> str:
    """The flag that sets the runner option ``key`` (``--soft-timeout`` for ``soft_timeout_ms``)."""
    return next(flag.names[0] for flag, _ in declared().values() if flag.key == key)
