"""Hase und Igel 2018 as an SVG picture: the 65-field track, both hares, their carrots, salads and
cards, the last move.

``render_svg(game, last_move, previous)`` takes what ``PLUGIN.game_from_state`` returns (a
:class:`~swc_local.games.hase_und_igel.xmlgame.HaseUndIgelGame`, or a bare :class:`State`), the
:class:`Move` that led to it and, optionally, the game before it.  Pure and deterministic (see
:mod:`swc_local.games.svg`).  The track drawing is shared with Hase und Igel 2025.

Conformance notes (choices where no official picture exists to copy):

* The track runs as a snake of five rows of 13 fields (0 = start top left, 64 = goal bottom
  left), so neighbouring fields touch; each field shows its number and its kind in words.
* The last move: the mover's field now is ``last-to`` (``data-cell`` = field number); with the
  state before the move, the field it left is ``last-from`` and an arrow joins them.  The move's
  actions are written under the track.
* ``last_move=None`` falls back to the state's own ``lastMove``.
"""

from __future__ import annotations

from swc_local.games import svg
from swc_local.games.hare_track import (  # noqa: F401 -- the track drawing, shared with 2025
    CELL, FIELD_STYLE, MARGIN, PER_ROW, SEAT_COLORS, draw_hares, draw_last_move, draw_track, field_center, panel, snake,
    track_grid, track_picture,
)
from swc_local.games.hase_und_igel.rules import ADVANCE, CARD, Action, Move, outcome

def action_text(action: Action | None) -> str:
    if action is None:
        return "-"
    if action.kind == ADVANCE:
        return f"advance {action.value}"
    if action.kind == CARD:
        return f"card {action.card}" + (f" {action.value}" if action.value else "")
    return action.kind + (f" {action.value}" if action.value else "")


def render_svg(game, last_move: Move | None = None, previous=None) -> str:
    state, names = svg.unwrap(game, "state")
    move = last_move if last_move is not None else state.last_move
    seats = ("red", "blue")
    decided = outcome(state)
    if decided is not None:
        who = "draw" if decided[0] is None else f"{seats[decided[0]].upper()} wins"
        status = (f"game over: {who}", "#222" if decided[0] is None else SEAT_COLORS[decided[0]])
    else:
        status = (f"{seats[state.turn % 2].upper()} to move", SEAT_COLORS[state.turn % 2])
    players = (state.red, state.blue)
    shown = (names[0] or "red", names[1] or "blue")
    lines = [(f"{shown[seat]} ({seats[seat]}): field {p.index}, carrots {p.carrots}, salads {p.salads}, "
              f"cards [{', '.join(p.cards)}], last {action_text(p.last)}", SEAT_COLORS[seat])
             for seat, p in enumerate(players)]
    last = None
    if move is not None and state.turn > 0:
        mover = (state.turn - 1) % 2  # 2018 never skips a player
        before = None if previous is None else svg.unwrap(previous, "state")[0].player(mover).index
        last = (before, players[mover].index, ", ".join(action_text(a) for a in move.actions), mover)
    return track_picture("Hase und Igel", state.board, shown, seats, "RB", status, state.turn,
                         (state.red.index, state.blue.index), lines, last)
