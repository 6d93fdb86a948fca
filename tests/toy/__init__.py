"""A fourth wire family that goes all the way: one module per layer, one tuple entry per layer.

The toy family ("count to three", tests/toy_family.py's protocol and door) has its part of each
layer here, each in the file of its layer, and :func:`register` adds exactly one entry to each
layer's tuple (ARCHITECTURE.md, "Where new things go"); nothing else in the package changes.
tests/packaging/test_toy_all_the_way.py serves it, matches it (``swc match``), replays it (``swc
replay``), draws it (``swc view``), plays it in a tournament and through a pytest fixture, and
counts the files and the tuple entries that took.

====================  ======================  =============================================
layer                 file                    tuple entry
====================  ======================  =============================================
codec + door          ``tests/toy_family.py``  (the toy family's server demo, reused)
games (rules, view)   ``games.py``            ``games/registry.py`` ``GAMES`` (its view: the value's)
server                ``server.py``           ``server/families.py`` ``FAMILIES``
client                ``client.py``           ``client/bots.py`` ``FAMILIES``
tools                 ``tools.py``            ``tools/families.py`` ``FAMILIES``
fixtures              ``fixtures.py``         ``swc_pytest/families.py`` ``FAMILIES``
====================  ======================  =============================================
"""

from __future__ import annotations

LAYER_FILES = ("games.py", "server.py", "client.py", "tools.py", "fixtures.py")


def register(monkeypatch) -> list[tuple[str, str]]:
    """Add the toy family's one entry to each layer's tuple; returns (module, tuple name) of each."""
    from swc_local.client import bots
    from swc_local.games import registry
    from swc_local.server import families as server_families
    from swc_local.swc_pytest import families as fixture_families
    from swc_local.tools import families as tool_families

    from . import client, fixtures, games, server, tools

    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, games.GAME))
    monkeypatch.setattr(server_families, "FAMILIES", (*server_families.FAMILIES, server.FAMILY))
    monkeypatch.setattr(bots, "FAMILIES", (*bots.FAMILIES, client.FAMILY))
    monkeypatch.setattr(tool_families, "FAMILIES", (*tool_families.FAMILIES, tools.FAMILY))
    monkeypatch.setattr(fixture_families, "FAMILIES", (*fixture_families.FAMILIES, fixtures.FAMILY))
    return [("swc_local.games.registry", "GAMES"),
            ("swc_local.server.families", "FAMILIES"), ("swc_local.client.bots", "FAMILIES"),
            ("swc_local.tools.families", "FAMILIES"), ("swc_local.swc_pytest.families", "FAMILIES")]
