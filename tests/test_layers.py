"""The layers of the package, checked from the source with :mod:`ast` (ARCHITECTURE.md).

Why a test: a layer that is only described erodes one convenient import at a time. The rules,
stated precisely (a module is named by its dotted path below ``swc_local``):

1. **Games.** No module under ``games/`` imports, anywhere in its file (function-level imports
   count too: a lazy import is still a dependency), trio, sockets or another I/O framework
   (:data:`IO_MODULES`), ``server/``, ``client/``, ``tools/`` or ``swc_pytest/``. Every module
   under ``games/`` is moreover *pure* except the wire mappings and the registry:
   ``games/plugin.py``, ``games/registry.py``, a shared ``games/*_xml.py`` (the XML several
   seasons of one game share) and, in a game package, ``plugin.py``, ``xml*.py`` and ``wire*.py``. A pure module (rules, game, board, cards, plan, events, state, movegen,
   track, mapfile, referee, text, view ...) imports no ``protocol/`` either, and no wire mapping
   of ``games/`` (so purity is not borrowed through one).
2. **Codecs.** A module of ``protocol/`` imports no ``games/``, ``server/``, ``client/``,
   ``tools/``, ``swc_pytest/`` and no I/O framework: codecs are sans-I/O and know no game.
3. **The server** (``server/``) imports no ``tools/``, ``client/`` or ``swc_pytest/``.
4. **The client library** (``client/``) imports no ``server/``.
5. **No import cycle** in the package: the graph of module-level imports (those executed when a
   module is imported; imports inside functions and under ``if TYPE_CHECKING`` are left out, as
   they cannot deadlock an import) has no strongly connected component of two or more modules.
   ``from package import name`` counts as an import of ``package.name`` when that is a module.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "swc_local"
FOLDERS = ("protocol", "games", "server", "client", "tools", "swc_pytest")
IO_MODULES = frozenset({"trio", "socket", "socketserver", "ssl", "asyncio", "selectors", "select", "http", "urllib",
                        "hypercorn", "starlette", "subprocess"})
WIRE_MAPPING_NAMES = ("plugin", "xml", "wire")


@dataclass(frozen=True)
class Import:
    target: str  # dotted name, swc_local.* for the package's own modules
    line: int
    module_level: bool


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def package_modules() -> dict[str, Path]:
    modules = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            modules[module_name(path)] = path
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


def imports_of(name: str) -> list[Import]:
    """Every import statement of a module, resolved to dotted names."""
    path = MODULES[name]
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
                    if f"{base}.{alias.name}" in MODULES:
                        found.append(Import(f"{base}.{alias.name}", child.lineno, module_level))
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, False)
            elif isinstance(child, ast.If) and _type_checking(child):
                visit(child, False)
            else:
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
    if parts[2:] in (["plugin"], ["registry"]) or (len(parts) == 3 and parts[2].endswith("_xml")):
        return True
    return len(parts) == 4 and parts[3].startswith(WIRE_MAPPING_NAMES)


def is_pure(name: str) -> bool:
    return layer(name) == "games" and not is_wire_mapping(name)


def forbidden(name: str, target: str) -> str | None:
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
        if target in MODULES and is_wire_mapping(target):
            return f"a pure game module imports the wire mapping {target}"
    if top == "protocol" and into in ("games", "server", "client", "tools", "swc_pytest"):
        return f"a codec imports {into}/ ({target})"
    if top == "server" and into in ("tools", "client", "swc_pytest"):
        return f"server/ imports {into}/ ({target})"
    if top == "client" and into == "server":
        return f"client/ imports server/ ({target})"
    return None


def violations() -> list[str]:
    found = []
    for name in MODULES:
        for imported in imports_of(name):
            why = forbidden(name, imported.target)
            if why:
                found.append(f"{MODULES[name].relative_to(ROOT)}:{imported.line}: {why}")
    return found


def import_graph() -> dict[str, set[str]]:
    """Module-level imports between the package's own modules."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name in MODULES:
        for imported in imports_of(name):
            if imported.module_level and imported.target in MODULES and imported.target != name:
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


def cycles() -> list[list[str]]:
    return [component for component in strongly_connected(import_graph()) if len(component) > 1]


# ---- the checks ------------------------------------------------------------------------------

def test_every_layer_imports_only_what_it_may():
    assert violations() == []


def test_the_package_has_no_import_cycle():
    assert cycles() == []


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
