"""The two XML dialects share one referee and one lobby; what differs is declared, not rewritten."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from swc_local.games.plugin import CLASSIC, MODERN, SEASON_2021
from swc_local.protocol import messages as msg
from swc_local.protocol import modern as wire
from swc_local.protocol.element import parse
from swc_local.server.xml.settings import XmlDoorSettings
from swc_local.server.xml.classic_lobby import ClassicLobby
from swc_local.server.xml import season_2020
from swc_local.server.xml.dialects import LOBBY_CLASSES, ROOM_CLASSES, SEASON_ROOM_CLASSES
from swc_local.server.xml.lobby import Lobby
from swc_local.server.xml.modern_lobby import ModernLobby
from swc_local.server.xml.modern_room import ModernRoom
from swc_local.server.xml.room import GameRoom
from tests.helpers import REPOSITORY
from swc_local.server.xml.season_2021 import Season2021Lobby, Season2021Room

SERVER = REPOSITORY / "server" / "xml"


@pytest.mark.parametrize("room", [ModernRoom, Season2021Room])
def test_the_2022_and_2021_rooms_override_only_declared_hooks(room):
    own_fields = {f.name for f in dataclasses.fields(room)} - {f.name for f in dataclasses.fields(GameRoom)}
    overridden = {
        name for name in vars(room)
        if hasattr(GameRoom, name) and not name.startswith("__") and name not in own_fields
    }
    assert overridden, f"{room.__name__} should override some hooks"
    assert overridden <= GameRoom.HOOKS, sorted(overridden - GameRoom.HOOKS)
    assert room.__repr__ is GameRoom.__repr__  # no generated repr replacing the room's own


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
    for name in ("classic_lobby.py", "modern_lobby.py", "season_2021.py", "dialects.py", "season_2020.py"):
        assert "swc_local.server.xml.lobby" not in _imports(SERVER / name), name
    assert "swc_local.server.xml.modern_lobby" not in _imports(SERVER / "classic_lobby.py")
    assert "swc_local.server.xml.classic_lobby" not in _imports(SERVER / "modern_lobby.py")
    assert "swc_local.server.xml.dialects" not in _imports(SERVER / "classic_lobby.py")
    assert "swc_local.server.xml.dialects" not in _imports(SERVER / "modern_lobby.py")


def test_each_dialect_has_its_room_and_its_answers_and_the_lobby_keeps_only_what_they_share():
    assert set(ROOM_CLASSES) == {CLASSIC, MODERN, SEASON_2021}
    assert set(LOBBY_CLASSES) == {CLASSIC, MODERN, SEASON_2021, season_2020.LOBBY_DIALECT}  # 2020: lobbyDialect=2020 only
    assert LOBBY_CLASSES[CLASSIC] is ClassicLobby and LOBBY_CLASSES[MODERN] is ModernLobby
    assert LOBBY_CLASSES[SEASON_2021] is Season2021Lobby and ROOM_CLASSES[SEASON_2021] is Season2021Room
    assert issubclass(LOBBY_CLASSES[season_2020.LOBBY_DIALECT], ClassicLobby)
    assert all(issubclass(room, ROOM_CLASSES[dialect]) for (dialect, _), room in SEASON_ROOM_CLASSES.items())
    assert not [name for name in vars(Lobby) if name.startswith("_on_")]
    lobby = Lobby(XmlDoorSettings(), spawn=lambda *args: None)
    assert {dialect: type(answers) for dialect, answers in lobby.answers.items()} == LOBBY_CLASSES


def test_both_prepare_syntaxes_go_through_one_parser_to_one_request():
    classic = parse('<prepare gameType="g"><slot displayName="a" canTimeout="true" shouldBePaused="true"/></prepare>')
    modern = parse('<prepare gameType="g" pause="true"><slot displayName="a" canTimeout="true"/></prepare>')
    request = msg.decode_request(classic)
    assert request == msg.decode_prepare(classic, msg.CLASSIC_PREPARE)
    assert (request.game_type, request.pause, request.slots[0].display_name, request.slots[0].reserved) == ("g", True, "a", True)
    assert wire.decode_prepare(modern) == msg.decode_prepare(modern, msg.MODERN_PREPARE)
    assert wire.decode_prepare(modern).model_copy(update={"slots": request.slots}) == request
    # the differences are the syntax table's: the 2018/2019 syntax has no pause= and no reserved=
    unreserved = parse('<prepare gameType="g" pause="true"><slot reserved="false"/><slot/></prepare>')
    assert [(p.pause, [s.reserved for s in p.slots]) for p in (
        msg.decode_prepare(unreserved, msg.CLASSIC_PREPARE), msg.decode_prepare(unreserved, msg.MODERN_PREPARE)
    )] == [(False, [True, True]), (True, [False, True])]


def test_no_xml_lobby_or_room_module_calls_a_private_member_of_another():
    """``lobby._seat_limit_reached(...)`` from modern_lobby.py was the kind this forbids."""
    for name in ("lobby.py", "classic_lobby.py", "modern_lobby.py", "room.py", "modern_room.py", "dialects.py"):
        tree = ast.parse((SERVER / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                owner = node.value
                assert isinstance(owner, ast.Name) and owner.id == "self", f"{name}:{node.lineno}: {ast.unparse(node)}"
