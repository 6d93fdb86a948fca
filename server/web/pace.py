"""How a table started from the viewer begins: at once, paused, or at a pace a person can follow.

Two random bots finish a game in about a second, before anyone can press Pause; a table may
therefore start paused (the game page's Step and Unpause go on) or at a pace: the room is
prepared paused and stepped once every ``pace`` seconds, the admin lobby's ``step`` as an admin
would send it, so the referee, the clocks and the replay are those of any paused room.

Conformance notes (the official server has no pace; these are the viewer's choices):

* A paced room shows as running; its page offers Pause (the pace stops, the room stays paused:
  Step and Unpause then work as for any paused room), Unpause (full speed) and Cancel.
* A step is sent only while no move request is open, so a bot that thinks longer than the pace
  is never asked twice (2018/2019 rooms would send the request again and restart its clock).
* A pace is 0.05 to 60 seconds a move.
"""

from __future__ import annotations

import trio

PACE_RANGE = (0.05, 60.0)
"""The seconds between two moves a table may ask for."""


def read_start(request: dict) -> tuple[bool, float | None]:
    """(start paused, seconds a move or None) of a table request's ``"start"``: ``"now"`` (the
    default), ``"paused"`` or a number of seconds a move; ValueError names what is accepted."""
    start = request.get("start", "now")
    if start in (None, "now"):
        return False, None
    if start == "paused":
        return True, None
    low, high = PACE_RANGE
    if isinstance(start, (int, float)) and not isinstance(start, bool) and low <= start <= high:
        return True, float(start)
    raise ValueError(f'start: "now", "paused" or seconds a move from {low:g} to {high:g}, not {start!r}'[:200])


async def pace_room(record, seconds: float) -> None:
    """Step ``record``'s live room once every ``seconds`` while it is paced (``record.pace``), until
    the room closes or a person pauses or unpauses it (the record then drops its pace)."""
    while True:
        await trio.sleep(seconds)
        room = record.room
        if room is None or not record.pace:
            return
        if room.status.value == "running" and room.paused and room.pending is None:
            room.step(False)
