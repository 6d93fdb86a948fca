"""One entry point to draw any game's state: ``render(game_type, state, last_move) -> SVG``.

Why a dispatcher of its own: the web door draws states of all eight games but should know none of
them; each game keeps its picture beside its rules (``games/<game>/view.py``), and this module's
one table (:data:`VIEWS`, real imports) is the pure layer's list of pictures: drawing needs no
wire mapping, so the registry (which imports every plugin) reads its ``Game.view`` from here.

``state`` and ``last_move`` are what the game's replay printer works with (see each view's
docstring): for the XML games what ``plugin.game_from_state`` returns and the decoded move; for
ReversiXT the referee's :class:`~swc_local.games.reversixt.rules.State` (or the referee itself)
and its ``(player, x, y, special)`` move; for Robo Rally a round of
:func:`~swc_local.games.roborally.logview.follow` (or the live game), whose last move is where
each robot went since the round before (``previous``) or ``{robot: [(x, y), ...]}``.

What the pictures share (:mod:`swc_local.games.svg`): one ``<svg>`` with a viewBox and no ids;
pieces carry ``class="piece ..."`` and ``data-cell``; the last move's cells ``class="last-from"``
/ ``"last-to"``; every outside text (names, map names) escaped.

``previous`` (optional, every view takes it) is the state before ``last_move``, in the same form
as ``state``.  With it the Piranhas views place the arrow's head exactly where the picture after
the move alone is ambiguous (a fish that ate one went one field farther), the Hase und Igel views
mark the field the hare left, ReversiXT frames the squares a bomb blew away and Robo Rally shows
where each robot came from; without it each view draws what the state alone tells.  A viewer that
steps through states has it at hand, so it should always pass it.
"""

from __future__ import annotations

from types import ModuleType

from swc_local.games.blokus import view as blokus
from swc_local.games.hase_und_igel import view as hase_und_igel
from swc_local.games.hase_und_igel_2025 import view as hase_und_igel_2025
from swc_local.games.ostseeschach import view as ostseeschach
from swc_local.games.piranhas import view as piranhas
from swc_local.games.piranhas_2026 import view as piranhas_2026
from swc_local.games.penguins import view as penguins
from swc_local.games.mississippi_queen import view as mississippi_queen
from swc_local.games.blokus_2021 import view as blokus_2021
from swc_local.games.hive import view as hive
from swc_local.games.reversixt import view as reversixt
from swc_local.games.roborally import view as roborally

VIEWS: dict[str, ModuleType] = {
    "swc_2019_piranhas": piranhas,
    "swc_2018_hase_und_igel": hase_und_igel,
    "swc_2022_ostseeschach": ostseeschach,
    "swc_2025_hase_und_igel": hase_und_igel_2025,
    "swc_2026_piranhas": piranhas_2026,
    "swc_2027_blokus": blokus,
    "swc_2023_penguins": penguins,
    "swc_2024_mississippi_queen": mississippi_queen,
    "swc_2021_blokus": blokus_2021,
    "swc_2020_hive": hive,
    "reversixt": reversixt,
    "roborally": roborally,
}
"""Game type -> its view module; the XML games' types are the registry's (``Game.view`` reads
this table: the registry imports wire mappings, a picture needs none)."""

_SHORT_NAMES = {module.__name__.split(".")[2]: game_type for game_type, module in VIEWS.items()}
"""The registry's short names (``piranhas``, ``blokus``, ...): each game's package name."""


def game_types() -> list[str]:
    """Every game type :func:`render` can draw."""
    return list(VIEWS)


def view_module(game_type: str):
    """The view module of ``game_type`` (a full type or the registry's short name)."""
    module = VIEWS.get(_SHORT_NAMES.get(game_type, game_type))
    if module is None:
        raise KeyError(f"no view for game type {game_type!r}; known: {', '.join(VIEWS)}")
    return module


def render(game_type: str, state, last_move=None, previous=None) -> str:
    """``state`` of ``game_type`` as one standalone ``<svg>`` string (escaped, with a viewBox)."""
    return view_module(game_type).render_svg(state, last_move, previous)
