"""What a game package declares about itself: one value, :class:`GameEntry` (every family) or
:class:`XmlSeason` (a season of the Software-Challenge XML family), in its ``entry.py``.

Why one value per game, as python-chess states a variant: the facts (game type, short names,
title, season, dialect and envelope, seats) are class attributes of one small class, and the parts
a layer above needs come from one override, ``load_parts``: a real import of the game's modules
inside the method, returning them as :class:`Parts`.  The registry's tuple
(:data:`swc_local.games.registry.GAMES`) lists these values and every table of the games layer
(the plugins, the views, the pointing) is derived from it, so a new season is one folder and one
line in that tuple.

Why a loader and not imports: the tuple is read by every ``swc`` process (``--help`` lists the
games), and importing each game's rules costs about half a second (issue 30); a value loads its
parts on first use and keeps them.  An ``entry.py`` imports nothing of its own package at module
level, so the tuple costs only these classes.

Why one loader for all parts (issue 42): four loaders of one shape in every game were the house's
most repeated code.  Loading the picture, the pointing and the strategy with the plugin costs a
process that only plays a few milliseconds: those modules import nothing heavy at module level
(games/svg.py imports its PNG encoders inside the function that needs them), and
``python -m benchmarks.startup`` measures ``swc bot`` before and after (benchmarks/README.md).

Why no reference bot here: the games layer does not know its clients (issue 42).  The reference
bots' commands and the rungs they play come from the client layer (client/ladder.py ``command``
and ``rungs``); what a game states is a fact its clients read, such as a plugin having a
``greedy_move`` or the game having a ``strategy`` module.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar, NamedTuple

from swc_local.games.dialects import CLASSIC, ENVELOPE_2022, Dialect, Envelope

XML = "xml"
"""The name of the Software-Challenge family (the XML lobby): :class:`XmlSeason`'s; the other families name themselves."""


class Parts(NamedTuple):
    """What a game package offers the layers above (None: it has no such part)."""

    plugin: type | None = None
    """XML family: the season's :class:`~swc_local.games.plugin.XmlPlugin` subclass (instantiated with the entry)."""
    rules: ModuleType | None = None
    """Other families: the package its door plays it with."""
    view: ModuleType | None = None
    """The SVG picture (``render_svg(state, last_move, previous)``), every game."""
    pointing: ModuleType | None = None
    """The steps a person clicks (``steps``, ``boxes``, optionally ``extra_moves``); None: the
    viewer offers the moves as a list."""
    strategy: ModuleType | None = None
    """The game's knowledge for the ladder's search rungs (games/strategy.py states the contract);
    None: no search rung."""


class GameEntry:
    """One game of any wire family: its facts as class attributes, its parts (``load_parts``)
    loaded on first use and kept."""

    game_type: ClassVar[str] = ""
    family: ClassVar[str] = ""  # the wire family's name: xml, reversixt, roborally (each layer's family of that name)
    short_names: ClassVar[tuple[str, ...]] = ()
    seats: ClassVar[tuple[int, int]] = (2, 2)  # (fewest, most)
    title: ClassVar[str] = ""  # what people read (the viewer's lists): "Piranhas 2019"

    def __init__(self) -> None:
        self._parts: Parts | None = None
        self._plugin: Any = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game_type!r}, {self.family!r})"

    def __getstate__(self) -> dict:
        """Pickled without its loaded parts (a record read in a child process carries its game's
        value, server/xml/read_apart.py): modules do not pickle, and the receiving process loads
        its own on first use."""
        return {**self.__dict__, "_parts": None, "_plugin": None}

    def load_parts(self) -> Parts:
        """The game's parts: a subclass imports its modules here (a real import in the method)."""
        return Parts()

    @property
    def parts(self) -> Parts:
        """The parts, loaded on first use and kept."""
        if self._parts is None:
            self._parts = self.load_parts()
        return self._parts

    @property
    def plugin(self) -> Any:
        """XML family: the game's plugin (made once, given this value); None for other families."""
        if self._plugin is None and self.parts.plugin is not None:
            self._plugin = self.parts.plugin(self)
        return self._plugin

    @property
    def rules(self) -> ModuleType | None:
        return self.parts.rules

    @property
    def view(self) -> ModuleType | None:
        return self.parts.view

    @property
    def pointing(self) -> ModuleType | None:
        return self.parts.pointing

    @property
    def strategy(self) -> ModuleType | None:
        return self.parts.strategy

    @property
    def name(self) -> str:
        """The name a person types: the first short name."""
        return self.short_names[0] if self.short_names else self.game_type


class XmlSeason(GameEntry):
    """One season of the Software-Challenge XML family: the facts the lobby and the tools read
    before any game exists, and the plugin (``Parts.plugin``: the game's :class:`XmlPlugin`
    subclass, given this value, so the facts are stated here once)."""

    family = XML
    display_name: ClassVar[str] = ""  # the game's name without its year ("Piranhas"), as the welcome says
    season: ClassVar[int | None] = None  # the year; None: the year in its game type
    dialect: ClassVar[Dialect] = CLASSIC
    envelope: ClassVar[Envelope] = ENVELOPE_2022  # modern dialect: the result and timeout envelope
