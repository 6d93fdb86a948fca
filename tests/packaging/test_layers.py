"""The layers of the package, checked from the source with :mod:`ast` (ARCHITECTURE.md, shown on the docs site as docs/architecture.md).

Why a test: a layer that is only described erodes one convenient import at a time. The rules,
stated precisely (a module is named by its dotted path below ``swc_local``):

1. **Games.** No module under ``games/`` imports, anywhere in its file (function-level imports
   count too: a lazy import is still a dependency), trio, sockets or another I/O framework
   (:data:`IO_MODULES`), ``server/``, ``client/``, ``tools/`` or ``swc_pytest/``. Every module
   under ``games/`` is moreover *pure* except the wire mappings and the registry:
   ``games/plugin.py``, ``games/registry.py``, ``games/entry.py`` and ``games/views.py`` (the
   values, their tuple and what is derived from it), a shared ``games/*_xml.py`` (the XML several
   seasons of one game share) and, in a game package, ``entry.py`` (its value, which loads its
   plugin), ``plugin.py``, ``xml*.py`` and ``wire*.py``. A pure module (rules, game, board, cards, plan, events, state, movegen,
   track, mapfile, referee, text, view ...) imports no ``protocol/`` either, and no wire mapping
   of ``games/`` (so purity is not borrowed through one).
2. **Codecs.** A module of ``protocol/`` imports no ``games/``, ``server/``, ``client/``,
   ``tools/``, ``swc_pytest/`` and no I/O framework: codecs are sans-I/O and know no game.
3. **The server** (``server/``) imports no ``tools/``, ``client/`` or ``swc_pytest/``.
4. **The client library** (``client/``) imports no ``server/``, ``tools/`` or ``swc_pytest/``.
5. **No game imports another game**: a module of ``games/<game>/`` imports no module of another
   ``games/<other>/`` package (shared pieces live in a common module directly under ``games/``).
6. **No import cycle** in the package, lazy ones included: the graph of every import (module
   level, inside functions and under ``if TYPE_CHECKING``: each is a dependency, and a lazy one
   only hides a cycle) has no strongly connected component of two or more modules.
   ``from package import name`` counts as an import of ``package.name`` when that is a module.
7. **No module found by a string**: no ``importlib.import_module``, ``__import__`` or
   ``importlib.util.find_spec`` call whose argument is a literal naming a module of the package
   (a string import hides a dependency from this test and from every reader).

Each rule has a test that plants its violation in a copy of the package and sees it fail.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from tests.helpers import REPOSITORY

ROOT = REPOSITORY
STRING_IMPORTS = frozenset({"import_module", "__import__", "find_spec"})
PACKAGE = "swc_local"
FOLDERS = ("protocol", "games", "server", "client", "tools", "swc_pytest")
IO_MODULES = frozenset({"trio", "socket", "socketserver", "ssl", "asyncio", "selectors", "select", "http", "urllib",
                        "hypercorn", "starlette", "subprocess"})
WIRE_MAPPING_NAMES = ("plugin", "xml", "wire", "entry")
DERIVED_TABLES = (["plugin"], ["registry"], ["entry"], ["views"])  # games/*.py that are no pure module


@dataclass(frozen=True)
class Import:
    target: str  # dotted name, swc_local.* for the package's own modules
    line: int
    module_level: bool


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def package_modules(root: Path = ROOT) -> dict[str, Path]:
    modules = {}
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            modules[module_name(path, root)] = path
    return modules


MODULES = package_modules()


def _resolve(current: str, is_package: bool, level: int, module: str | None) -> str:
    if level == 0:
        return module or ""
    base = current.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _string_import(node: ast.AST) -> str | None:
    """The literal module name of an ``import_module("x")``/``__import__("x")`` call, else None."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
    literal = node.args[0]
    if called in STRING_IMPORTS and isinstance(literal, ast.Constant) and isinstance(literal.value, str):
        return literal.value
    return None


def imports_of(name: str, modules: dict[str, Path] = MODULES) -> list[Import]:
    """Every import statement of a module, resolved to dotted names."""
    path = modules[name]
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def visit(node: ast.AST, module_level: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend(Import(alias.name, child.lineno, module_level) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = _resolve(name, is_package, child.level, child.module)
                found.append(Import(base, child.lineno, module_level))
                for alias in child.names:
                    if f"{base}.{alias.name}" in modules:
                        found.append(Import(f"{base}.{alias.name}", child.lineno, module_level))
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, False)
            elif isinstance(child, ast.If) and _type_checking(child):
                visit(child, False)
            else:
                literal = _string_import(child)
                if literal is not None:  # importlib.import_module("trio") imports trio all the same
                    found.append(Import(literal, child.lineno, module_level))
                visit(child, module_level)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), True)
    return found


def layer(name: str) -> str:
    """The first folder below swc_local (``games``, ``server`` ...), or the top-level name outside."""
    parts = name.split(".")
    return parts[1] if parts[0] == PACKAGE and len(parts) > 1 else parts[0]


def is_wire_mapping(name: str) -> bool:
    parts = name.split(".")
    if parts[1] != "games":
        return False
    if parts[2:] in DERIVED_TABLES or (len(parts) == 3 and parts[2].endswith("_xml")):
        return True
    return len(parts) == 4 and parts[3].startswith(WIRE_MAPPING_NAMES)


def is_pure(name: str) -> bool:
    return layer(name) == "games" and not is_wire_mapping(name)


def game_package(name: str) -> str | None:
    """``piranhas`` for ``swc_local.games.piranhas.rules``; None for a module directly under games/."""
    parts = name.split(".")
    return parts[2] if len(parts) > 3 and parts[1] == "games" else None


def forbidden(name: str, target: str, modules: dict[str, Path] = MODULES) -> str | None:
    """Why ``name`` may not import ``target`` (None: it may)."""
    top, into = layer(name), layer(target)
    own = target.split(".")[0] == PACKAGE
    if top in ("games", "protocol") and not own and into in IO_MODULES:
        return f"imports the I/O module {target}"
    if not own:
        return None
    if top == "games" and into in ("server", "client", "tools", "swc_pytest"):
        return f"games/ imports {into}/ ({target})"
    if is_pure(name):
        if into == "protocol":
            return f"a pure game module imports protocol/ ({target})"
        if target in modules and is_wire_mapping(target):
            return f"a pure game module imports the wire mapping {target}"
    if top == "protocol" and into in ("games", "server", "client", "tools", "swc_pytest"):
        return f"a codec imports {into}/ ({target})"
    if top == "server" and into in ("tools", "client", "swc_pytest"):
        return f"server/ imports {into}/ ({target})"
    if top == "client" and into in ("server", "tools", "swc_pytest"):
        return f"client/ imports {into}/ ({target})"
    own_game, other_game = game_package(name), game_package(target)
    if own_game and other_game and own_game != other_game:
        return f"the game {own_game} imports the game {other_game} ({target})"
    return None


def violations(modules: dict[str, Path] = MODULES) -> list[str]:
    found = []
    for name, path in modules.items():
        for imported in imports_of(name, modules):
            why = forbidden(name, imported.target, modules)
            if why:
                found.append(f"{path.name}:{imported.line}: {name}: {why}")
    return found


def string_imports(modules: dict[str, Path] = MODULES) -> list[str]:
    """Calls that import a module of the package by a literal string (rule 7)."""
    found = []
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            literal = _string_import(node)
            if literal is not None and literal.split(".")[0] in (PACKAGE, *FOLDERS):
                called = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
                found.append(f"{path.name}:{node.lineno}: {name}: {called}({literal!r})")
    return found


def import_graph(modules: dict[str, Path] = MODULES) -> dict[str, set[str]]:
    """Every import between the package's own modules: module level, in functions, under TYPE_CHECKING."""
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name in modules:
        for imported in imports_of(name, modules):
            if imported.target in modules and imported.target != name:
                graph[name].add(imported.target)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iteratively (the graph is a few hundred modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def cycles(modules: dict[str, Path] = MODULES) -> list[list[str]]:
    return [component for component in strongly_connected(import_graph(modules)) if len(component) > 1]


# ---- the checks ------------------------------------------------------------------------------

def test_every_layer_imports_only_what_it_may():
    assert violations() == []


def test_the_package_has_no_import_cycle():
    assert cycles() == []


def test_no_module_of_the_package_is_imported_by_a_string():
    assert string_imports() == []


# ---- the checker itself ----------------------------------------------------------------------

def test_the_scan_sees_the_package_and_its_imports():
    assert len(MODULES) > 100
    server_app = [i.target for i in imports_of("swc_local.server.xml.door")]
    assert "trio" in server_app and "swc_local.server.xml.connection" in server_app
    relative = [i.target for i in imports_of("swc_local.games.reversixt.rules")]
    assert "swc_local.games.reversixt.mapfile" in relative  # ``from .mapfile import ...``


def test_the_rules_name_each_kind_of_violation():
    assert forbidden("swc_local.games.piranhas.rules", "trio")
    assert forbidden("swc_local.games.roborally.game", "swc_local.protocol.roborally")
    assert forbidden("swc_local.games.piranhas.rules", "swc_local.games.piranhas.xmlmap")
    assert forbidden("swc_local.games.piranhas.xmlmap", "swc_local.protocol.element") is None
    assert forbidden("swc_local.games.piranhas.plugin", "trio")
    assert forbidden("swc_local.games.registry", "swc_local.server.app")
    assert forbidden("swc_local.games.piranhas.view", "socket")
    assert forbidden("swc_local.protocol.reversixt", "swc_local.games.reversixt.rules")
    assert forbidden("swc_local.protocol.reader", "trio")
    assert forbidden("swc_local.server.cli", "swc_local.tools.cli")
    assert forbidden("swc_local.server.app", "swc_local.client.bot")
    assert forbidden("swc_local.client.bot", "swc_local.server.app")
    assert forbidden("swc_local.server.app", "trio") is None
    assert forbidden("swc_local.tools.match", "swc_local.server.app") is None


def test_a_cycle_is_found_and_an_acyclic_graph_passes():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert [c for c in strongly_connected(graph) if len(c) > 1] == [["a", "b", "c"]]
    assert all(len(c) == 1 for c in strongly_connected({"a": {"b"}, "b": {"c"}, "c": set()}))


# ---- each rule fails on its violation, planted in a copy of the package ------------------------

def _copy_with(tmp_path: Path, relative: str, source: str) -> dict[str, Path]:
    """The package's modules with one file added (or replaced) in a copy of its folders."""
    import shutil

    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__", "*.map", "*.json"))
    planted = tmp_path / relative
    planted.write_text(source, encoding="utf-8")
    return package_modules(tmp_path)


def test_a_planted_lazy_cycle_is_found(tmp_path):
    modules = _copy_with(tmp_path, "server/door.py", (ROOT / "server/door.py").read_text()
                         + "\n\ndef _lazy():\n    from swc_local.server.app import Server  # noqa\n")
    assert any("swc_local.server.door" in cycle for cycle in cycles(modules))


def test_a_planted_type_checking_cycle_is_found(tmp_path):
    modules = _copy_with(tmp_path, "server/door.py", (ROOT / "server/door.py").read_text()
                         + "\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from swc_local.server.app import Server\n")
    assert any("swc_local.server.door" in cycle for cycle in cycles(modules))


def test_a_planted_string_import_is_found(tmp_path):
    modules = _copy_with(tmp_path, "games/piranhas/rules.py", (ROOT / "games/piranhas/rules.py").read_text()
                         + "\nimport importlib\n_t = importlib.import_module('trio')\n"
                         + "_s = importlib.import_module('swc_local.server.app')\n")
    assert [line.split(": ", 2)[2] for line in string_imports(modules)] == ["import_module('swc_local.server.app')"]
    # and importlib.import_module("trio") in the rules is an import of trio, so a layer violation
    assert any("I/O module trio" in line for line in violations(modules))


def test_a_planted_client_import_of_tools_or_swc_pytest_is_found(tmp_path):
    modules = _copy_with(tmp_path, "client/bots.py", (ROOT / "client/bots.py").read_text()
                         + "\n\ndef _lazy():\n    from swc_local.tools import runner  # noqa\n"
                         + "    from swc_local.swc_pytest import plugin  # noqa\n")
    found = violations(modules)
    assert any("client/ imports tools/" in line for line in found)
    assert any("client/ imports swc_pytest/" in line for line in found)


def test_a_planted_import_of_another_game_is_found(tmp_path):
    modules = _copy_with(tmp_path, "games/piranhas_2026/rules.py", (ROOT / "games/piranhas_2026/rules.py").read_text()
                         + "\nfrom swc_local.games.piranhas.rules import RED  # noqa\n")
    assert any("the game piranhas_2026 imports the game piranhas" in line for line in violations(modules))
