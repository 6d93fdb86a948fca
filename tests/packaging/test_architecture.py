"""ARCHITECTURE.md's table "Where new things go", kept honest: every place it names exists, and
every game and family of today has its entry in each tuple it names (so the table is the list a
newcomer follows, not a wish)."""

from __future__ import annotations

import ast
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
    assert places[0] == "games/<game>/" and tuples == [("games/registry.py", "GAMES")]
    for game in registry.GAMES:
        package = type(game).__module__.split(".")[2]  # its value lives in games/<game>/entry.py
        assert type(game).__module__ == f"swc_local.games.{package}.entry"
        module = (game.plugin.__class__.__module__ if game.plugin is not None else game.rules.__name__)
        assert module.split(".")[2] == package
        assert views.view_module(game.game_type) is game.view and game.view.__name__ == f"swc_local.games.{package}.view"
        assert game.title


def test_every_family_has_its_folders_and_its_entries():
    places, tuples = rows()["family"]
    assert [path for path, _ in tuples] == ["games/registry.py", "server/families.py",
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


# ---- the house names no game: a game or family named in generic code ---------------------------
#
# Generic code may not import a game's modules or a family's codec, spell a game type or a game's
# short name, spell a family's name, or branch on a family (compare with the family constant
# ``XML``). Who may: a game's own folder names its game; the registry's tuple
# (games/registry.py) imports every game's value; a family's own places (server/<family>/,
# protocol/<family>.py, client/<family>_bot.py, tools/<family>_*.py, swc_pytest/<family>.py)
# name that family and its games; each layer's tuple of families names the families.

from tests.packaging.test_layers import MODULES as PACKAGE_MODULES  # noqa: E402
from tests.packaging.test_layers import imports_of as _imports_of  # noqa: E402

FAMILY_TUPLES = ("swc_local.games.registry", "swc_local.games.entry", "swc_local.server.families",
                 "swc_local.client.bots", "swc_local.tools.families", "swc_local.swc_pytest.families")
FAMILY_CONSTANTS = frozenset({"XML"})  # the names of a family's constant (games/entry.py)
GAME_TYPE = re.compile(r"^swc_\d{4}_[a-z_]+$")



def _games() -> list[tuple[str, str, set[str]]]:
    """(package, family, names) of every game: its folder under games/, its family, its type and short names."""
    return [(type(game).__module__.split(".")[2], game.family, {game.game_type, *game.short_names})
            for game in registry.GAMES]


def _family_place(module: str, family: str) -> bool:
    parts = module.split(".")
    folder, rest = parts[1], ".".join(parts[2:])
    return ((folder in ("server", "protocol", "swc_pytest") and (rest == family or rest.startswith(family + ".")))
            or (folder in ("client", "tools") and (rest == f"{family}_bot" or rest.startswith(f"{family}_"))))


def _game_place(module: str, package: str) -> bool:
    return module.startswith(f"swc_local.games.{package}.") or module == f"swc_local.games.{package}"


def _strings(tree: ast.AST) -> list[ast.Constant]:
    """The string constants of a module that are no docstring."""
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs]


def games_named(modules: dict[str, Path] = PACKAGE_MODULES) -> list[str]:
    """Each place of generic code that names a game or a family, as ``module:line what``."""
    games = _games()
    families = {family for _, family, _ in games}
    found = []
    for module, path in sorted(modules.items()):
        own_games = [(package, names) for package, family, names in games
                     if _game_place(module, package) or _family_place(module, family)]
        own_families = {family for package, family, _ in games
                        if _family_place(module, family) or _game_place(module, package)}
        if module in FAMILY_TUPLES:
            own_families = set(families)
        allowed_names = set().union(*(names for _, names in own_games)) if own_games else set()
        if module == "swc_local.games.registry":  # the tuple imports every game's value
            allowed_names = set().union(*(names for _, _, names in games))
        for imported in _imports_of(module, modules):
            target = imported.target
            for package, family, _ in games:
                if (target == f"swc_local.games.{package}" or target.startswith(f"swc_local.games.{package}.")) \
                        and not _game_place(module, package) and not _family_place(module, family) \
                        and module != "swc_local.games.registry":
                    found.append((module, imported.line, f"imports {target}"))
            for family in families - own_families - {registry.XML}:
                if target == f"swc_local.protocol.{family}":
                    found.append((module, imported.line, f"imports the codec {target}"))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _strings(tree):
            value = node.value
            game_named = GAME_TYPE.match(value) or any(value in names for _, _, names in games)
            if value in own_families or value in allowed_names:
                continue
            if game_named or value in families:
                found.append((module, node.lineno, f"names {value!r}"))
        if not own_families or module == "swc_local.games.registry":
            for node in ast.walk(tree):
                if isinstance(node, ast.Compare) and any(
                        getattr(operand, "id", getattr(operand, "attr", None)) in FAMILY_CONSTANTS
                        for operand in (node.left, *node.comparators)):
                    found.append((module, node.lineno, "branches on the family XML"))
    unique = list(dict.fromkeys(found))
    return [f"{module}:{line} {what}" for module, line, what in unique]


def test_generic_code_names_no_game_and_no_family():
    assert games_named() == []


def _planted(tmp_path: Path, module: str, extra: str) -> dict[str, Path]:
    """The package's modules with ``extra`` appended to a copy of ``module`` (the rest unchanged)."""
    path = tmp_path / PACKAGE_MODULES[module].name
    path.write_text(PACKAGE_MODULES[module].read_text(encoding="utf-8") + extra, encoding="utf-8")
    return {**PACKAGE_MODULES, module: path}


def test_a_planted_import_of_a_game_in_generic_code_is_found(tmp_path):
    modules = _planted(tmp_path, "swc_local.server.web.app",
                       "\n\ndef _lazy():\n    from swc_local.games.piranhas import rules  # noqa\n")
    assert any("server.web.app" in line and "imports swc_local.games.piranhas" in line for line in games_named(modules))


def test_a_planted_import_of_a_family_codec_in_generic_code_is_found(tmp_path):
    modules = _planted(tmp_path, "swc_local.tools.match", "\nfrom swc_local.protocol import reversixt  # noqa\n")
    assert any("tools.match" in line and "codec swc_local.protocol.reversixt" in line for line in games_named(modules))


def test_a_planted_game_type_literal_in_generic_code_is_found(tmp_path):
    modules = _planted(tmp_path, "swc_local.client.bot", '\nSEASONS = ("swc_2031_newgame",)\n')
    assert any("client.bot" in line and "'swc_2031_newgame'" in line for line in games_named(modules))


def test_a_planted_short_name_in_generic_code_is_found(tmp_path):
    modules = _planted(tmp_path, "swc_local.swc_pytest.server", '\nDEFAULT = "blokus"\n')
    assert any("swc_pytest.server" in line and "'blokus'" in line for line in games_named(modules))


def test_a_planted_branch_on_a_family_is_found(tmp_path):
    modules = _planted(tmp_path, "swc_local.tools.replay_check",
                       "\n\ndef _xml_only(game):\n    return game.family == registry.XML\n")
    assert any("tools.replay_check" in line and "branches on the family XML" in line for line in games_named(modules))
    modules = _planted(tmp_path, "swc_local.tools.replay_check", '\n\ndef _xml_only(game):\n    return game.family == "roborally"\n')
    assert any("tools.replay_check" in line and "'roborally'" in line for line in games_named(modules))


def test_a_game_names_itself_and_a_family_place_its_family():
    """What may name a game stays allowed: its own folder, the tuple, its family's places."""
    assert not [line for line in games_named() if line.startswith(("swc_local.games.piranhas.", "swc_local.server.reversixt."))]


CLIENT_MODULES = re.compile(r"\bswc_local\.(client|tools|swc_pytest)\b")


def clients_named(modules: dict[str, Path] = PACKAGE_MODULES) -> list[str]:
    """Each string of games/ (docstrings too) that names a module of the layers above it, as
    ``module:line text``: the games layer does not know its clients (issue 42), so a reference
    bot's command (``python -m swc_local.client...``) cannot hide in a game's value as a string,
    which the import rules of tests/packaging/test_layers.py do not see."""
    found = []
    for module, path in sorted(modules.items()):
        if not module.startswith("swc_local.games"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CLIENT_MODULES.search(node.value):
                found.append(f"{module}:{node.lineno} {CLIENT_MODULES.search(node.value).group(0)}")
    return found


def test_the_games_layer_names_no_client_module():
    assert clients_named() == []


def test_a_planted_reference_bot_command_in_a_game_is_found(tmp_path):
    modules = _planted(tmp_path, "swc_local.games.penguins.entry",
                       '\nBOT = ("{python}", "-m", "swc_local.client.bot", "penguins")\n')
    assert any(line.startswith("swc_local.games.penguins.entry:") and "swc_local.client" in line
               for line in clients_named(modules))
    modules = _planted(tmp_path, "swc_local.games.entry", '\nSWC = "python -m swc_local.tools.cli bot"\n')
    assert any("swc_local.tools" in line for line in clients_named(modules))
