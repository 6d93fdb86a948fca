"""Every game this server hosts, of every wire family, in one tuple: :data:`GAMES`.

A row (:class:`Game`) states everything the layers above need to know about a game: its game
type, its wire family's name, its short names, its title, its seats, its plugin (XML family) or
rules package (other families, both imported by the row's loader on first use), the reference
bot's command;
its view (the SVG picture, ``games/<game>/view.py``) comes from the pure layer's table, games/views.py.  The layers above keep their own part of
a family as typed values of their own (``server/families.py``, ``client/bots.py``,
``tools/families.py``, ``swc_pytest/families.py``) and join it to these rows by the family's name.

Adding a game of an existing family is one loader and one :class:`Game` line here and its view in
games/views.py (ARCHITECTURE.md, "Where new things go").  The XML door looks its games up through :func:`get` and
:func:`all_plugins`; ``swc match``, ``swc replay``, ``swc bot`` and the pytest fixtures through
:func:`entry`; the viewer draws through :attr:`Game.view` (``games/views.py``).
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Callable
from types import ModuleType

from swc_local.games.plugin import GamePlugin
from swc_local.protocol.element import Element

PYTHON = "{python}"  # the interpreter running the tools (venv-safe), filled in by bot_command()
XML = "xml"
"""The name of the Software-Challenge family (the XML lobby); the other families name themselves."""


class Game:
    """One game's row. Its plugin (XML family) or rules package (other families) is given as a
    value or as a loader, a function that imports it (``load_plugin``, ``load_rules``): the
    registry's own rows load theirs when first asked, so a process that only names the games
    (``swc --help``) does not import every game's rules (issue 30). The loaders' imports are real
    ones, in functions, pointing down the graph (tests/packaging/test_layers.py reads them)."""

    __slots__ = ("game_type", "family", "short_names", "seats", "bot", "title", "bot_flags",
                 "strengths", "_plugin", "_rules", "_load_plugin", "_load_rules")

    def __init__(self, game_type: str, family: str, short_names: tuple[str, ...], seats: tuple[int, int],
                 bot: tuple[str, ...], plugin: GamePlugin | None = None, title: str = "",
                 rules: ModuleType | None = None, bot_flags: tuple[str, ...] = (), *,
                 load_plugin: Callable[[], GamePlugin] | None = None,
                 load_rules: Callable[[], ModuleType] | None = None,
                 strengths: tuple[tuple[str, tuple[str, ...]], ...] = ()) -> None:
        self.game_type = game_type
        self.family = family  # the wire family's name: xml, reversixt, roborally (each layer's family of that name)
        self.short_names = short_names
        self.seats = seats  # (fewest, most)
        self.bot = bot  # the reference bot's command; {python} and the runner's placeholders
        self.title = title  # what people read (the viewer's lists): "Piranhas 2019"
        self.bot_flags = bot_flags  # other families: what ``swc bot GAME`` gives the family's bot before --host
        self.strengths = strengths  # the reference bot's strengths and their flags
        self._plugin, self._load_plugin = plugin, load_plugin
        self._rules, self._load_rules = rules, load_rules

    def __repr__(self) -> str:
        return f"Game({self.game_type!r}, {self.family!r})"

    @property
    def plugin(self) -> GamePlugin | None:
        """XML family: the game's plugin (loaded on first use)."""
        if self._plugin is None and self._load_plugin is not None:
            self._plugin = self._load_plugin()
        return self._plugin

    @property
    def rules(self) -> ModuleType | None:
        """Other families: the package its door plays it with (loaded on first use)."""
        if self._rules is None and self._load_rules is not None:
            self._rules = self._load_rules()
        return self._rules

    @property
    def name(self) -> str:
        """The name a person types: the first short name."""
        return self.short_names[0] if self.short_names else self.game_type

    @property
    def view(self) -> ModuleType:
        """Its picture (``render_svg(state, last_move, previous)``), from the pure layer's table of
        views (games/views.py: drawing imports no wire mapping, so that table is not this one).
        Imported when first asked: a server without a viewer never loads the pictures."""
        from swc_local.games import views

        return views.view_module(self.game_type)

    def bot_command(self, strength: str | None = None) -> list[str]:
        """The reference bot's command; ``strength`` (one of :attr:`strengths`) swaps its flags in."""
        args = list(self.bot)
        if strength is not None:
            flags, n = list(self.strength_flags(strength)), len(self.bot_flags)
            at = next((i for i in range(len(args)) if n and tuple(args[i:i + n]) == self.bot_flags), None)
            args = args[:at] + flags + args[at + n:] if at is not None else args + flags
        return [sys.executable if arg == PYTHON else arg for arg in args]

    def strength_flags(self, strength: str) -> tuple[str, ...]:
        """The bot's flags for ``strength``; KeyError if its reference bot has no such strength."""
        return dict(self.strengths)[strength]


def _xml(game_type: str, short: str, load: Callable[[], GamePlugin], title: str, greedy: bool = False) -> Game:
    """A game of the XML family: ``load`` imports its ``plugin.py`` and returns its ``PLUGIN``."""
    bot = (PYTHON, "-m", "swc_local.tools.cli", "bot", game_type, "--host", "{host}", "--port", "{port}",
           "--reservation", "{reservation}", "--seed", "{seed}")
    # client/bot.py plays greedy where the plugin has a ``greedy_move`` (Blokus): said here, so
    # that naming the strengths does not load the plugin
    strengths = tuple((name, ("--strategy", name)) for name in ("random", "greedy")) if greedy else ()
    return Game(game_type, XML, (short,), (2, 2), bot, title=title, load_plugin=load, strengths=strengths)


# Each loader imports one game when its row is first asked for it (the Game docstring says why).


def _piranhas() -> GamePlugin:
    from swc_local.games.piranhas import plugin
    return plugin.PLUGIN


def _hase_und_igel() -> GamePlugin:
    from swc_local.games.hase_und_igel import plugin
    return plugin.PLUGIN


def _ostseeschach() -> GamePlugin:
    from swc_local.games.ostseeschach import plugin
    return plugin.PLUGIN


def _piranhas_2026() -> GamePlugin:
    from swc_local.games.piranhas_2026 import plugin
    return plugin.PLUGIN


def _hase_und_igel_2025() -> GamePlugin:
    from swc_local.games.hase_und_igel_2025 import plugin
    return plugin.PLUGIN


def _blokus() -> GamePlugin:
    from swc_local.games.blokus import plugin
    return plugin.PLUGIN


def _penguins() -> GamePlugin:
    from swc_local.games.penguins import plugin
    return plugin.PLUGIN


def _mississippi_queen() -> GamePlugin:
    from swc_local.games.mississippi_queen import plugin
    return plugin.PLUGIN


def _blokus_2021() -> GamePlugin:
    from swc_local.games.blokus_2021 import plugin
    return plugin.PLUGIN


def _hive() -> GamePlugin:
    from swc_local.games.hive import plugin
    return plugin.PLUGIN


def _reversixt() -> ModuleType:
    from swc_local.games import reversixt
    return reversixt


def _roborally() -> ModuleType:
    from swc_local.games import roborally
    return roborally


GAMES: tuple[Game, ...] = (
    _xml("swc_2019_piranhas", "piranhas", _piranhas, "Piranhas 2019"),
    _xml("swc_2018_hase_und_igel", "hase_und_igel", _hase_und_igel, "Hase und Igel 2018"),
    _xml("swc_2022_ostseeschach", "ostseeschach", _ostseeschach, "Ostseeschach 2022"),
    _xml("swc_2026_piranhas", "piranhas_2026", _piranhas_2026, "Piranhas 2026"),
    _xml("swc_2025_hase_und_igel", "hase_und_igel_2025", _hase_und_igel_2025, "Hase und Igel 2025"),
    _xml("swc_2027_blokus", "blokus", _blokus, "Blokus 2027", greedy=True),
    _xml("swc_2023_penguins", "penguins", _penguins, "Penguins 2023"),
    _xml("swc_2024_mississippi_queen", "mississippi_queen", _mississippi_queen, "Mississippi Queen 2024"),
    _xml("swc_2021_blokus", "blokus_2021", _blokus_2021, "Blokus 2021", greedy=True),
    _xml("swc_2020_hive", "hive", _hive, "Hive 2020"),
    Game("reversixt", "reversixt", ("reversixt",), (2, 8),
         (PYTHON, "-m", "swc_local.client.reversixt_bot", "--strategy", "greedy", "--host", "{host}", "--port", "{port}",
          "--seed", "{seed}"),
         title="ReversiXT", bot_flags=("--strategy", "greedy"), load_rules=_reversixt,
         strengths=(("greedy", ("--strategy", "greedy")), ("random", ("--strategy", "random")))),
    Game("roborally", "roborally", ("roborally",), (2, 6),
         (PYTHON, "-m", "swc_local.client.roborally_bot", "--greedy", "--host", "{host}", "--port", "{port}",
          "--seed", "{seed}"),
         title="Robo Rally", bot_flags=("--greedy",), load_rules=_roborally,
         strengths=(("greedy", ("--greedy",)), ("random", ()))),
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


# -- the XML door's games ---------------------------------------------------------------------


def game_types() -> list[str]:
    """The game types of the XML family (the games the XML door serves)."""
    return [game.game_type for game in GAMES if game.family == XML]


def of_family(family: str) -> tuple[Game, ...]:
    """The games of the family called ``family``."""
    return tuple(game for game in GAMES if game.family == family)


def resolve(name: str) -> str:
    """Accept a full game type or a short name (``piranhas``) and return the game type."""
    game = entry(name)
    return game.game_type if game is not None else name


def get(game_type: str) -> GamePlugin | None:
    """The XML plugin for ``game_type``, or None when no XML game of that type is known."""
    game = next((g for g in GAMES if g.game_type == game_type), None)
    return None if game is None else game.plugin


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
        plugin = get(game_type)
        if plugin is None or state.get("class") not in plugin.data_classes:
            continue
        verdict = plugin.recognizes_state(state)
        if verdict is None:
            fallback = fallback or plugin
        elif verdict:
            return plugin
    return fallback
