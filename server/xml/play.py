""""Play from here": a prepared room of the XML lobby that starts from a state of a shown game
(what the XML family lends the web viewer, server/xml/door.py's ``share_with_viewer``).

What ``--load-game``/``--turn`` does for every room of a server, for one room: the game is
rebuilt from the chosen ``<state>`` with ``plugin.game_from_state`` and handed to
``Lobby.create_room``; its two reservation codes are what ``<prepare>`` would have answered.
A position that is already decided is refused, as ``--load-game`` refuses it.
"""

from __future__ import annotations

from swc_local.games.plugin import TEAM_DIALECTS
from swc_local.protocol import messages as msg
from swc_local.server.xml.records import XmlRecord


class PlayError(ValueError):
    pass


def prepare_from(lobby, record: XmlRecord, index: int) -> dict:
    """The room prepared from state ``index`` of ``record``: its id, game, turn and reservation
    codes; PlayError (a ValueError) for a state that is not there or already decided."""
    try:
        state = record.state_element(index)
    except IndexError:
        raise PlayError(f"no state {index}") from None
    plugin = record.plugin
    game = plugin.game_from_state(state)
    if game.outcome() is not None:
        raise PlayError("the game is already decided in this state; choose an earlier one")
    name = "" if plugin.dialect in TEAM_DIALECTS else "Unknown"  # the seat names of 2021 and 2022+ are ""
    descriptors = (msg.SlotDescriptor(display_name=name, can_timeout=True),) * 2
    room, codes = lobby.prepare(plugin, descriptors, paused=False, initial_game=game)
    return {"room": room.id, "game": plugin.game_type, "turn": game.turn, "reservations": codes}
