"""One entry point to draw any game's state: ``render(game_type, state, last_move) -> SVG``.

Why a dispatcher of its own: the web door draws states of all eight games but should know none of
them; each game keeps its picture beside its rules (``games/<game>/view.py``) and is imported only
when a state of that game is first drawn, so serving Piranhas never loads Blokus.

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

import importlib

VIEW_MODULES: dict[str, str] = {
    "swc_2019_piranhas": "swc_local.games.piranhas.view",
    "swc_2018_hase_und_igel": "swc_local.games.hase_und_igel.view",
    "swc_2022_ostseeschach": "swc_local.games.ostseeschach.view",
    "swc_2025_hase_und_igel": "swc_local.games.hase_und_igel_2025.view",
    "swc_2026_piranhas": "swc_local.games.piranhas_2026.view",
    "swc_2027_blokus": "swc_local.games.blokus.view",
    "swc_2020_hive": "swc_local.games.hive.view",
    "reversixt": "swc_local.games.reversixt.view",
    "roborally": "swc_local.games.roborally.view",
}
"""Game type -> its view module; the XML games' types are the registry's."""

_SHORT_NAMES = {module.split(".")[2]: game_type for game_type, module in VIEW_MODULES.items()}
"""The registry's short names (``piranhas``, ``blokus``, ...): each game's package name."""


def game_types() -> list[str]:
    """Every game type :func:`render` can draw."""
    return list(VIEW_MODULES)


def view_module(game_type: str):
    """The view module of ``game_type`` (a full type or the registry's short name)."""
    name = VIEW_MODULES.get(_SHORT_NAMES.get(game_type, game_type))
    if name is None:
        raise KeyError(f"no view for game type {game_type!r}; known: {', '.join(VIEW_MODULES)}")
    return importlib.import_module(name)


def render(game_type: str, state, last_move=None, previous=None) -> str:
    """``state`` of ``game_type`` as one standalone ``<svg>`` string (escaped, with a viewBox)."""
    return view_module(game_type).render_svg(state, last_move, previous)
