"""The two XML dialects share one referee and one lobby; what differs is declared, not rewritten."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from swc_local.server.xml.modern_room import ModernRoom
from swc_local.server.xml.room import GameRoom

SERVER = Path(__file__).resolve().parent.parent / "server" / "xml"


def test_the_2022_room_overrides_only_declared_hooks():
    own_fields = {f.name for f in dataclasses.fields(ModernRoom)} - {f.name for f in dataclasses.fields(GameRoom)}
    overridden = {
        name for name in vars(ModernRoom)
        if hasattr(GameRoom, name) and not name.startswith("__") and name not in own_fields
    }
    assert overridden, "ModernRoom should override some hooks"
    assert overridden <= GameRoom.HOOKS, sorted(overridden - GameRoom.HOOKS)
    assert ModernRoom.__repr__ is GameRoom.__repr__  # no generated repr replacing the room's own


def test_every_declared_hook_exists_on_the_2018_room():
    assert all(hasattr(GameRoom, name) for name in GameRoom.HOOKS)


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_the_lobbies_do_not_import_each_other_both_ways():
    assert "swc_local.server.xml.lobby" not in _imports(SERVER / "modern_lobby.py")
    assert "swc_local.server.xml.lobby" not in _imports(SERVER / "dialects.py")


def test_no_xml_lobby_or_room_module_calls_a_private_member_of_another():
    """``lobby._seat_limit_reached(...)`` from modern_lobby.py was the kind this forbids."""
    for name in ("lobby.py", "modern_lobby.py", "room.py", "modern_room.py", "dialects.py"):
        tree = ast.parse((SERVER / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                owner = node.value
                assert isinstance(owner, ast.Name) and owner.id == "self", f"{name}:{node.lineno}: {ast.unparse(node)}"
