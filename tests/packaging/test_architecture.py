"""ARCHITECTURE.md's table "Where new things go", kept honest: every place it names exists, and
every game and family of today has its entry in each tuple it names (so the table is the list a
newcomer follows, not a wish)."""

from __future__ import annotations

import re
from pathlib import Path

from swc_local.client import bots
from swc_local.games import registry, views
from swc_local.server import families as server_families
from swc_local.swc_pytest import families as fixture_families
from swc_local.tools import families as tool_families

ROOT = Path(__file__).resolve().parent.parent.parent
TABLE_ROW = re.compile(r"^\| (game of an existing family|family) \| (.+) \| (.+) \|$", re.MULTILINE)
XML_NAMED_OTHERWISE = {"protocol/<family>.py", "tools/<family>_replay.py", "client/<family>_bot.py",
                       "swc_pytest/<family>.py"}  # ARCHITECTURE.md names the XML family's own places


def rows() -> dict[str, tuple[list[str], list[tuple[str, str]]]]:
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    found = {}
    for kind, folders, entries in TABLE_ROW.findall(text):
        places = re.findall(r"`([^`]+)`", folders)
        tuples = re.findall(r"`([^`]+\.py)` `([A-Z_]+)`", entries)
        found[kind] = (places, tuples)
    return found


def test_the_table_has_both_rows_and_every_tuple_it_names_exists():
    table = rows()
    assert set(table) == {"game of an existing family", "family"}
    for _, tuples in table.values():
        assert tuples
        for path, name in tuples:
            source = (ROOT / path).read_text(encoding="utf-8")
            assert re.search(rf"^{name}\b.*=", source, re.MULTILINE), f"{path} has no {name}"


def test_every_game_has_its_folder_and_its_entries():
    places, tuples = rows()["game of an existing family"]
    assert places == ["games/<game>/"] and tuples == [("games/registry.py", "GAMES"), ("games/views.py", "VIEWS")]
    for game in registry.GAMES:
        module = (game.plugin.__class__.__module__ if game.plugin is not None else game.rules.__name__)
        package = module.split(".")[2]
        assert (ROOT / "games" / package).is_dir()
        assert game.game_type in views.VIEWS and game.view.__name__ == f"swc_local.games.{package}.view"
        assert game.title


def test_every_family_has_its_folders_and_its_entries():
    places, tuples = rows()["family"]
    assert [path for path, _ in tuples] == ["games/registry.py", "games/views.py", "server/families.py",
                                             "client/bots.py", "tools/families.py", "swc_pytest/families.py"]
    names = [family.name for family in server_families.FAMILIES]
    assert names == ["xml", "reversixt", "roborally"]
    assert [family.name for family in tool_families.FAMILIES] == names
    assert [family.name for family in bots.FAMILIES] == names[1:]  # the XML bot is the generic one
    assert [family.name for family in fixture_families.FAMILIES] == names[1:]  # so are its fixtures
    for name in names:
        assert registry.of_family(name), f"no game of the family {name}"
        for place in places:
            if name == "xml" and place in XML_NAMED_OTHERWISE:
                continue
            if place == "games/<game>/":
                continue  # the game rows above
            path = ROOT / place.replace("<family>", name)
            assert path.exists(), f"ARCHITECTURE.md names {place}, but {path.relative_to(ROOT)} is missing"
        assert (ROOT / "server" / name / "family.py").is_file()


# The generic server code: the host, its settings, the door contract and the shutdown, and the viewer.
GENERIC_SERVER = ("app", "config", "door", "doors", "settings", "shutdown", "cli", "limits", "transport", "web")


def test_the_host_and_the_viewer_name_no_family():
    """The host starts doors and knows none (issue 30): no generic server module imports a family's
    subpackage (server/families.py, the tuple, is the one that does) or compares with a family's
    name; what a family lends them comes through its ServerFamily hooks."""
    import ast

    from tests.packaging.test_layers import MODULES, imports_of

    names = [family.name for family in server_families.FAMILIES]
    generic = [module for module in MODULES if module.split(".")[1:2] == ["server"]
               and module.split(".")[2:3] and module.split(".")[2] in GENERIC_SERVER]
    assert "swc_local.server.app" in generic and "swc_local.server.web.app" in generic
    found = []
    for module in generic:
        for imported in imports_of(module):
            if any(imported.target.startswith(f"swc_local.server.{name}") for name in names):
                found.append(f"{module}:{imported.line} imports {imported.target}")
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        found += [f"{module}:{node.lineno} names {node.value!r}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and node.value in names]
    assert found == []


def test_the_flags_of_swc_match_and_swc_tournament_are_the_families_own():
    """Each family's tools value brings its flags (issue 30): every flag it declares is an option of
    ``swc match``, and the two commands' modules import no family's adapter."""
    import argparse

    from swc_local.tools.match_cli import add_match_command
    from tests.packaging.test_layers import imports_of

    parser = argparse.ArgumentParser()
    add_match_command(parser.add_subparsers())
    match = parser._subparsers._group_actions[0].choices["match"]  # type: ignore[union-attr]
    options = {name for action in match._actions for name in action.option_strings}
    for family in tool_families.FAMILIES:
        assert family.flags and family.title and family.label, family.name
        assert {name for flag in family.flags for name in flag.names} <= options
    adapters = {family.adapter.__name__ for family in tool_families.FAMILIES}
    for module in ("swc_local.tools.match_cli", "swc_local.tools.tournament.cli", "swc_local.tools.tournament.arguments",
                   "swc_local.tools.family_flags"):
        assert not adapters & {i.target for i in imports_of(module)}, module


def test_the_settings_are_the_house_fields_and_every_section_none_privileged():
    """No section's model is the base of the house's Settings (issue 30); a section's field given at
    the top goes into its section, and is read back the same way."""
    from swc_local.server.config import Settings, sections

    assert not any(issubclass(Settings, section.model) for section in sections())
    settings = Settings(free_ports=True, paused=True, sections={"web": {"port": 0}})
    assert settings.section("xml").paused is True and settings.section("web").port == 0
