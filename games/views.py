"""One entry point to draw any game's state: ``render(game_type, state, last_move) -> SVG``.

Why a dispatcher of its own: the web door draws states of every game but should know none of
them; each game keeps its picture beside its rules (``games/<game>/view.py``) and its value
(``games/<game>/entry.py``) loads it, so this module only looks the value up in the registry's
one tuple: a new game needs no line here.

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

from swc_local.games import registry


def game_types() -> list[str]:
    """Every game type :func:`render` can draw."""
    return [game.game_type for game in registry.entries() if game.view is not None]


def view_module(game_type: str) -> ModuleType:
    """The view module of ``game_type`` (a full type or a short name)."""
    game = registry.entry(game_type)
    module = None if game is None else game.view
    if module is None:
        known = ", ".join(game.game_type for game in registry.entries())
        raise KeyError(f"no view for game type {game_type!r}; known: {known}")
    return module


def render(game_type: str, state, last_move=None, previous=None) -> str:
    """``state`` of ``game_type`` as one standalone ``<svg>`` string (escaped, with a viewBox)."""
    return view_module(game_type).render_svg(state, last_move, previous)
