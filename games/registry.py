"""Every game this server hosts, of every wire family, in one tuple: :data:`GAMES`.

Each game package states one value about itself (``games/<game>/entry.py``, a
:class:`~swc_local.games.entry.GameEntry`, for the XML family an
:class:`~swc_local.games.entry.XmlSeason`): its game type, family, short names, title, seats,
season, dialect and envelope, reference bot, and the loaders of its plugin or rules, view and
pointing.  This module lists those values and derives every lookup from them: the XML door finds
its plugins through :func:`get` and :func:`all_plugins`; ``swc match``, ``swc replay``, ``swc
bot`` and the pytest fixtures through :func:`entry`; the viewer draws through ``entry.view``
(games/views.py) and points through ``entry.pointing`` (server/web/pointing.py).  The layers above
keep their own part of a family as typed values of their own (``server/families.py``,
``client/bots.py``, ``tools/families.py``, ``swc_pytest/families.py``) and join it to these values
by the family's name.

Adding a game is its folder and one line in :data:`GAMES` (ARCHITECTURE.md, "Where new things
go"); this tuple is the one place outside a game's folder that imports its modules
(tests/packaging/test_architecture.py checks it).  Importing it costs only the values: each
loads its parts on first use (issue 30).
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from swc_local.games.blokus import entry as blokus
from swc_local.games.blokus_2021 import entry as blokus_2021
from swc_local.games.entry import XML, GameEntry, Parts, XmlSeason  # noqa: F401 (XML, Parts: names the layers above use)
from swc_local.games.hase_und_igel import entry as hase_und_igel
from swc_local.games.hase_und_igel_2025 import entry as hase_und_igel_2025
from swc_local.games.hive import entry as hive
from swc_local.games.mississippi_queen import entry as mississippi_queen
from swc_local.games.ostseeschach import entry as ostseeschach
from swc_local.games.penguins import entry as penguins
from swc_local.games.piranhas import entry as piranhas
from swc_local.games.piranhas_2026 import entry as piranhas_2026
from swc_local.games.reversixt import entry as reversixt
from swc_local.games.roborally import entry as roborally

if TYPE_CHECKING:  # annotations only: the tuple loads no wire code (the viewer draws without it)
    from swc_local.games.plugin import GamePlugin
    from swc_local.protocol.element import Element

GAMES: tuple[GameEntry, ...] = (
    piranhas.ENTRY,
    hase_und_igel.ENTRY,
    ostseeschach.ENTRY,
    piranhas_2026.ENTRY,
    hase_und_igel_2025.ENTRY,
    blokus.ENTRY,
    penguins.ENTRY,
    mississippi_queen.ENTRY,
    blokus_2021.ENTRY,
    hive.ENTRY,
    reversixt.ENTRY,
    roborally.ENTRY,
)
"""Every game, the XML seasons first (``<join/>`` and the lists show them in this order)."""

FIXTURE_GAME: GameEntry = piranhas.ENTRY
"""The game the ``swc_server`` pytest fixture serves when a test names none (the first it served)."""


_names: tuple[tuple[GameEntry, ...], dict[str, GameEntry]] = ((), {})


def _by_name() -> dict[str, GameEntry]:
    """Every name of every game, built again only when :data:`GAMES` is another tuple (a test
    may add a game of its own, as tests/toy_family.py adds a family)."""
    global _names
    if _names[0] is not GAMES:
        _names = (GAMES, {name.lower(): game for game in GAMES for name in (game.game_type, *game.short_names)})
    return _names[1]


# -- every game -------------------------------------------------------------------------------


def entries() -> tuple[GameEntry, ...]:
    return GAMES


def entry(name: str) -> GameEntry | None:
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
    return [game.game_type for game in GAMES if isinstance(game, XmlSeason)]


def of_family(family: str) -> tuple[GameEntry, ...]:
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
