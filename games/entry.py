"""What a game package declares about itself: one value, :class:`GameEntry` (every family) or
:class:`XmlSeason` (a season of the Software-Challenge XML family), in its ``entry.py``.

Why one value per game, as python-chess states a variant: the facts (game type, short names,
title, season, dialect and envelope, seats) are class attributes of one small class, and the parts a layer above needs are a few overridden loaders, each a real
import inside a method (``load_plugin``, ``load_rules``, ``load_view``, ``load_pointing``).  The
registry's tuple (:data:`swc_local.games.registry.GAMES`) lists these values and every table of
the games layer (the plugins, the views, the pointing) is derived from it, so a new season is
one folder and one line in that tuple.

Why loaders and not imports: the tuple is read by every ``swc`` process (``--help`` lists the
games), and importing each game's rules costs about half a second (issue 30); a value loads a
part on first use and keeps it.  An ``entry.py`` imports nothing of its own package at module
level, so the tuple costs only these classes.

Why no reference bot here: the games layer does not know its clients (issue 42).  The reference
bots' commands and the rungs they play come from the client layer (client/ladder.py ``command``
and ``rungs``); what a game states is a fact its clients read, such as a plugin having a
``greedy_move`` or the game having a ``strategy`` module.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

from swc_local.games.dialects import CLASSIC, ENVELOPE_2022, Dialect, Envelope

XML = "xml"
"""The name of the Software-Challenge family (the XML lobby): :class:`XmlSeason`'s; the other families name themselves."""

_UNLOADED = object()


class GameEntry:
    """One game of any wire family: its facts as class attributes, its parts loaded on first use.

    A subclass states its facts and overrides the loaders of the parts it has: ``load_plugin``
    (XML family: the plugin class, instantiated with this entry), ``load_rules`` (other
    families: the package its door plays), ``load_view`` (the SVG picture, every game) and
    ``load_pointing`` (the steps a person clicks; None: the viewer offers the moves as a list).
    """

    game_type: ClassVar[str] = ""
    family: ClassVar[str] = ""  # the wire family's name: xml, reversixt, roborally (each layer's family of that name)
    short_names: ClassVar[tuple[str, ...]] = ()
    seats: ClassVar[tuple[int, int]] = (2, 2)  # (fewest, most)
    title: ClassVar[str] = ""  # what people read (the viewer's lists): "Piranhas 2019"

    def __init__(self) -> None:
        self._parts: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game_type!r}, {self.family!r})"

    # -- the loaders a game overrides (each a real import in the method) ------------------------

    def load_plugin(self) -> Any:
        return None

    def load_rules(self) -> ModuleType | None:
        return None

    def load_view(self) -> ModuleType | None:
        return None

    def load_pointing(self) -> ModuleType | None:
        return None

    def load_strategy(self) -> ModuleType | None:
        """The game's knowledge for the ladder's search rungs (``games/<game>/strategy.py``: its
        moves, copy-make and evaluation, see client/search.py ``Strategy``); None: no search rung."""
        return None

    # -- the parts, each loaded once -------------------------------------------------------------

    def _part(self, name: str, load) -> Any:
        value = self._parts.get(name, _UNLOADED)
        if value is _UNLOADED:
            value = self._parts[name] = load()
        return value

    @property
    def plugin(self) -> Any:
        """XML family: the game's plugin (loaded on first use); None for other families."""
        return self._part("plugin", self._make_plugin)

    def _make_plugin(self) -> Any:
        plugin_class = self.load_plugin()
        return None if plugin_class is None else plugin_class(self)

    @property
    def rules(self) -> ModuleType | None:
        """Other families: the package its door plays it with (loaded on first use)."""
        return self._part("rules", self.load_rules)

    @property
    def view(self) -> ModuleType:
        """Its picture (``render_svg(state, last_move, previous)``), loaded when first asked: a
        server without a viewer never loads the pictures."""
        return self._part("view", self.load_view)

    @property
    def pointing(self) -> ModuleType | None:
        """The module that turns a legal move into the clicks that choose it (``steps``,
        ``boxes``, optionally ``extra_moves``); None: no pointing."""
        return self._part("pointing", self.load_pointing)

    @property
    def strategy(self) -> ModuleType | None:
        """The game's strategy module for the search rungs (loaded on first use); None: it has none."""
        return self._part("strategy", self.load_strategy)

    @property
    def name(self) -> str:
        """The name a person types: the first short name."""
        return self.short_names[0] if self.short_names else self.game_type


class XmlSeason(GameEntry):
    """One season of the Software-Challenge XML family: the facts the lobby and the tools read
    before any game exists, and the plugin (``load_plugin``: the game's :class:`XmlPlugin`
    subclass, given this value, so the facts are stated here once)."""

    family = XML
    display_name: ClassVar[str] = ""  # the game's name without its year ("Piranhas"), as the welcome says
    season: ClassVar[int | None] = None  # the year; None: the year in its game type
    dialect: ClassVar[Dialect] = CLASSIC
    envelope: ClassVar[Envelope] = ENVELOPE_2022  # modern dialect: the result and timeout envelope
