"""Every game this server hosts, of every wire family, in one table.

A row (:class:`Game`) says what the tools need to know about a game without importing it: its
game type, its family, its short names, how many seats it has, the reference bot's command;
the family (:class:`Family`) says which module plays its seats in ``swc match`` (the runner's
seat adapter), which function prints or checks its replay files, which file names those have,
and which module is its door in ``swc serve`` (server/door.py starts every family's door from
this table, and server/config.py reads each door's settings section through it).  Everything
is named by module path and imported when used, so importing this module costs nothing: no
server, no trio.

Adding a game of an existing family is one :class:`Game` line here; a new family is one
:class:`Family` line more.  The XML door looks its games up through :func:`get` and
:func:`all_plugins` (the XML family's plugins); ``swc match``, ``swc replay``, ``swc bot`` and
the pytest fixtures through :func:`entry`.
"""

from __future__ import annotations

import difflib
import importlib
from dataclasses import dataclass
from pathlib import Path

from swc_local.games.plugin import GamePlugin
from swc_local.protocol.element import Element

PYTHON = "{python}"  # the interpreter running the tools (venv-safe), filled in by bot_command()


@dataclass(frozen=True)
class Family:
    name: str  # xml, reversixt, roborally
    adapter: str  # module with the runner's seat adapter (a class Family)
    replay: str  # "module:function": function(path, check, out) -> exit code
    log_suffixes: tuple[str, ...]  # the file names of its replays/logs end so
    door: str = ""  # module of its door in swc serve (server/door.py: SECTION, open_door); "": none


@dataclass(frozen=True)
class Game:
    game_type: str
    family: Family
    short_names: tuple[str, ...]
    seats: tuple[int, int]  # (fewest, most)
    bot: tuple[str, ...]  # the reference bot's command; {python} and the runner's placeholders
    plugin: str | None = None  # XML family: the module whose PLUGIN is the game
    bot_main: str | None = None  # "module:function(argv) -> exit code": ``swc bot GAME`` of other families
    bot_flags: tuple[str, ...] = ()  # what bot_main is given before --host/--port/--seed
    rules: str | None = None  # other families: the module its door plays it with (the XML family's is plugin)

    @property
    def name(self) -> str:
        """The name a person types: the first short name."""
        return self.short_names[0] if self.short_names else self.game_type

    def rules_module(self):
        """The module :attr:`rules` names (imported now)."""
        if self.rules is None:
            raise LookupError(f"{self.name} names no rules module")
        return importlib.import_module(self.rules)

    def bot_command(self) -> list[str]:
        import sys

        return [sys.executable if arg == PYTHON else arg for arg in self.bot]


XML = Family("xml", "swc_local.tools.xml_match", "swc_local.tools.replay_check:main", (".xml",), "swc_local.server.xml.door")
REVERSIXT = Family("reversixt", "swc_local.tools.reversixt_match", "swc_local.tools.reversixt_replay:main", (".log", ".txt"),
                   "swc_local.server.reversixt.door")
ROBORALLY = Family("roborally", "swc_local.tools.roborally_match", "swc_local.tools.roborally_replay:main", (".jsonl",),
                   "swc_local.server.roborally.door")
FAMILIES = (XML, REVERSIXT, ROBORALLY)


def _xml(game_type: str, short: str, module: str) -> Game:
    bot = (PYTHON, "-m", "swc_local.tools.cli", "bot", game_type, "--host", "{host}", "--port", "{port}",
           "--reservation", "{reservation}", "--seed", "{seed}")
    return Game(game_type, XML, (short,), (2, 2), bot, module)


GAMES: tuple[Game, ...] = (
    _xml("swc_2019_piranhas", "piranhas", "swc_local.games.piranhas.plugin"),
    _xml("swc_2018_hase_und_igel", "hase_und_igel", "swc_local.games.hase_und_igel.plugin"),
    _xml("swc_2022_ostseeschach", "ostseeschach", "swc_local.games.ostseeschach.plugin"),
    _xml("swc_2026_piranhas", "piranhas_2026", "swc_local.games.piranhas_2026.plugin"),
    _xml("swc_2025_hase_und_igel", "hase_und_igel_2025", "swc_local.games.hase_und_igel_2025.plugin"),
    _xml("swc_2027_blokus", "blokus", "swc_local.games.blokus.plugin"),
    _xml("swc_2020_hive", "hive", "swc_local.games.hive.plugin"),
    Game("reversixt", REVERSIXT, ("reversixt",), (2, 8),
         (PYTHON, "-m", "swc_local.client.reversixt_bot", "--strategy", "greedy", "--host", "{host}", "--port", "{port}",
          "--seed", "{seed}"),
         bot_main="swc_local.client.reversixt_bot:main", bot_flags=("--strategy", "greedy"), rules="swc_local.games.reversixt"),
    Game("roborally", ROBORALLY, ("roborally",), (2, 6),
         (PYTHON, "-m", "swc_local.client.roborally_bot", "--greedy", "--host", "{host}", "--port", "{port}",
          "--seed", "{seed}"),
         bot_main="swc_local.client.roborally_bot:main", bot_flags=("--greedy",)),
)

_names: tuple[tuple[Game, ...], dict[str, Game]] = ((), {})


def _by_name() -> dict[str, Game]:
    """Every name of every game, built again only when :data:`GAMES` is another tuple (a test
    may add a game of its own, as tests/toy_family.py adds a family)."""
    global _names
    if _names[0] is not GAMES:
        _names = (GAMES, {name.lower(): game for game in GAMES for name in (game.game_type, *game.short_names)})
    return _names[1]


# -- every game -------------------------------------------------------------------------------


def entries() -> tuple[Game, ...]:
    return GAMES


def entry(name: str) -> Game | None:
    """The game ``name`` names (game type or short name, any case), or None."""
    return _by_name().get(name.strip().lower()) if isinstance(name, str) else None


def suggestion(name: str) -> str | None:
    """The known name closest to a misspelt ``name`` (None if nothing is close)."""
    close = difflib.get_close_matches(name.strip().lower(), list(_by_name()), n=1, cutoff=0.5)
    return close[0] if close else None


def unknown_game_message(name: str) -> str:
    """The one-line error for a name that is no game."""
    close = suggestion(name)
    hint = f"; did you mean {close}?" if close else ""
    return f"unknown game {name!r}{hint} (known: {', '.join(game_names())})"


def game_names() -> list[str]:
    """What ``--help`` lists: each game's short names and game type."""
    return [" = ".join((*game.short_names, game.game_type)) if game.game_type not in game.short_names else game.game_type
            for game in GAMES]


def family_for_file(path: Path) -> Family | None:
    """The family whose replay/log files are named like ``path`` (None: no family's)."""
    name = Path(path).name.lower()
    for family in FAMILIES:
        if name.endswith(family.log_suffixes):
            return family
    return None


def function(reference: str):
    """The function a ``module:function`` reference of this table names (imported now)."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


# -- the XML door's games ---------------------------------------------------------------------


def game_types() -> list[str]:
    """The game types of the XML family (the games the XML door serves)."""
    return [game.game_type for game in GAMES if game.plugin is not None]


def resolve(name: str) -> str:
    """Accept a full game type or a short name (``piranhas``) and return the game type."""
    game = entry(name)
    return game.game_type if game is not None else name


def get(game_type: str) -> GamePlugin | None:
    """The XML plugin for ``game_type``, or None when no XML game of that type is known."""
    game = next((g for g in GAMES if g.game_type == game_type), None)
    if game is None or game.plugin is None:
        return None
    return importlib.import_module(game.plugin).PLUGIN


def all_plugins() -> list[GamePlugin]:
    return [plugin for name in game_types() if (plugin := get(name)) is not None]


def plugin_for_state(state: Element) -> GamePlugin | None:
    """The plugin whose XML names this memento ``<state>``'s class, if any.

    Several years call their state class ``state`` (Hase und Igel 2018, Ostseeschach 2022), so a
    plugin may override the ``recognizes_state(state)`` hook to claim its own states: a plugin
    that answers True wins, the first one without an opinion (None) that names the class is the
    fallback.
    """
    fallback = None
    for game_type in game_types():
        try:
            plugin = get(game_type)
        except Exception:  # a game package that does not import must not hide the others
            continue
        if plugin is None or state.get("class") not in plugin.data_classes:
            continue
        verdict = plugin.recognizes_state(state)
        if verdict is None:
            fallback = fallback or plugin
        elif verdict:
            return plugin
    return fallback
