"""Hase und Igel 2025 as an SVG picture: the 65-field track (with the markets), both hares,
their carrots, salads and cards, the last move.

``render_svg(game, last_move, previous)`` takes what ``PLUGIN.game_from_state`` returns (a
:class:`~swc_local.games.hase_und_igel_2025.xmlgame.HaseUndIgel2025Game`, or a bare :class:`State`),
the move that led to it and, optionally, the game before it.  Pure and deterministic; the track
is drawn as in the 2018 view (:mod:`swc_local.games.hase_und_igel.view`).

Conformance notes (choices where no official picture exists to copy):

* Team ONE is red, TWO blue, as in the official GUI; the move is written as the official
  ``toString`` (German), as the server's messages quote it.
* Who made the last move: a team without a sensible move is skipped (the turn counter then
  jumps by two), so the turn's parity alone cannot tell.  With ``previous`` it is the team that
  was to move there; without it, the team whose ``lastAction`` is the move (the one whose turn
  it was by parity when both or neither match).
* ``last_move=None`` falls back to the state's own ``lastMove``.
"""

from __future__ import annotations

from swc_local.games import svg
from swc_local.games.hare_track import SEAT_COLORS, track_picture
from swc_local.games.hase_und_igel_2025.rules import is_over, winner
from swc_local.games.hase_und_igel_2025.state import TEAMS, Advance, CardAction, State


def mover(state: State, move, previous) -> int:
    """The seat that made ``move`` (see the conformance notes)."""
    if previous is not None:
        return svg.unwrap(previous, "state")[0].seat
    by_parity = (state.turn - 1) % 2
    shown = CardAction(move.cards[-1]) if isinstance(move, Advance) and move.cards else None
    matching = [seat for seat, hare in enumerate(state.hares) if hare.last_action in (move, shown)]
    return matching[0] if len(matching) == 1 else by_parity


def render_svg(game, last_move=None, previous=None) -> str:
    state, names = svg.unwrap(game, "state")
    move = last_move if last_move is not None else state.last_move
    if is_over(state):
        result = winner(state)
        who = "draw" if result.winner is None else f"{TEAMS[result.winner]} wins"
        status = (f"game over: {who}", "#222" if result.winner is None else SEAT_COLORS[result.winner])
    else:
        status = (f"{TEAMS[state.seat]} to move", SEAT_COLORS[state.seat])
    shown = (names[0] or "ONE", names[1] or "TWO")
    lines = [(f"{shown[seat]} ({hare.team}): field {hare.position}, carrots {hare.carrots}, salads {hare.salads}, "
              f"cards [{', '.join(hare.cards)}], last {hare.last_action or '-'}", SEAT_COLORS[seat])
             for seat, hare in enumerate(state.hares)]
    last = None
    if move is not None and state.turn > 0:
        seat = mover(state, move, previous)
        before = None if previous is None else svg.unwrap(previous, "state")[0].hares[seat].position
        last = (before, state.hares[seat].position, str(move), seat)
    return track_picture("Hase und Igel 2025", state.track, shown, TEAMS, "12", status, state.turn,
                         (state.hares[0].position, state.hares[1].position), lines, last)
