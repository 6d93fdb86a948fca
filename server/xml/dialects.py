"""Which wire dialect answers a message: everything that decides it lives here, as tables.

One XML port serves both dialects (2018/2019 "classic", 2022+ "modern").  A connection's
dialect is not declared: each message is answered by the dialect it shows, or by the one of the
room or reservation it names, and the first message that shows one fixes it on the connection
(``Connection.dialect``).  A room's dialect is its class's (:data:`ROOM_CLASSES`).

Routing (in this order; the first that applies):

* ``authenticate``: the dialect the connection already speaks, else ``password=`` is modern and
  ``passphrase=`` classic;
* ``join``: without gameType modern; with one, the dialect of that game (an unknown game: the
  connection's dialect); ``joinRoom`` and the 2022+ CloseConnection forms: modern;
* ``joinPrepared``: the dialect of the room the code reserves;
* ``prepare``: the game's dialect for a modern or 2021 game, else the connection's dialect,
  else the syntax (``pause=``/``reserved=`` modern, ``shouldBePaused=`` classic);
* ``<room>``: the dialect of the sender's room (the room answers it, see
  ``Lobby.receive``); from a client that is not in it, the connection's dialect, else the
  room's;
* ``observe``/``pause``/``step``/``cancel``: the connection's dialect, else the room's;
* anything else: the connection's dialect.

The dialect chosen answers with its class in :data:`LOBBY_CLASSES` (``handle(connection,
element)``), handed the shared :class:`~swc_local.server.xml.lobby.Lobby`.

The 2021 hybrid (Blokus 2021, ``server/xml/season_2021.py``) is chosen by its game type
(``join``, ``prepare``, a reservation or room of its game); it writes its requests in the 2022
syntax, so what looks modern is 2021 on a connection that speaks 2021, or, before a connection
showed a dialect, on a server whose ``lobbyDialect`` is ``2021`` (:data:`MODERN_LOOKING`).

A connection that has shown no dialect yet (its first message is malformed, unknown, or an
error case above) is answered in the server's ``lobbyDialect`` (default classic, the 2018/2019
answers): the two servers answered byte-identical junk differently (``<protocol/>`` versus
nothing), so one of them has to be the default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from swc_local.games import registry
from swc_local.games.plugin import CLASSIC, MODERN, SEASON_2021
from swc_local.protocol import modern as wire
from swc_local.protocol.element import Element
from swc_local.protocol.messages import ROOM_REQUESTS
from swc_local.server.xml.classic_lobby import ClassicLobby
from swc_local.server.xml import season_2020
from swc_local.server.xml.modern_lobby import ModernLobby, season
from swc_local.server.xml.modern_room import ModernRoom
from swc_local.server.xml.room import GameRoom
from swc_local.server.xml.season_2021 import Season2021Lobby, Season2021Room

if TYPE_CHECKING:
    from swc_local.server.xml.connection import Connection

ROOM_CLASSES: dict[str, type[GameRoom]] = {CLASSIC: GameRoom, MODERN: ModernRoom, SEASON_2021: Season2021Room}
"""The room that referees a game of each dialect (``plugin.dialect``)."""

SEASON_ROOM_CLASSES: dict[tuple[str, int], type[GameRoom]] = {(CLASSIC, season_2020.SEASON): season_2020.Season2020Room}
"""A season whose SDK changed its dialect's room: (dialect, season) -> that room."""


def room_class(plugin) -> type[GameRoom]:
    """The room that referees ``plugin``'s game: its season's variant, else its dialect's."""
    return SEASON_ROOM_CLASSES.get((plugin.dialect, season(plugin))) or ROOM_CLASSES[plugin.dialect]


LOBBY_CLASSES: dict[str, type] = {CLASSIC: ClassicLobby, MODERN: ModernLobby, SEASON_2021: Season2021Lobby,
                                  season_2020.LOBBY_DIALECT: season_2020.Season2020Lobby}
"""What answers the lobby requests of each dialect (admin requests about one room,
``ROOM_REQUESTS``, are routed by the room when the connection showed no dialect)."""

MODERN_LOOKING = frozenset({SEASON_2021})
"""Dialects that share the 2022 request syntax (``password=``, ``pause=``, ``reserved=``,
``<join/>``, ``joinRoom``): what shows "modern" is theirs on a connection that speaks one, or,
before a connection showed any, on a server whose ``lobbyDialect`` is one."""

FIXES_DIALECT = frozenset({"join", "joinPrepared", "room", "authenticate"})
"""Tags whose routing fixes the connection's dialect even when the element shows none itself."""


def room_dialect(room: GameRoom | None) -> str | None:
    return room.dialect if room is not None else None


def _by_game(element: Element, known: str | None, hint: str | None, rooms, reservations) -> str | None:
    game_type = element.get("gameType")
    plugin = registry.get(game_type) if game_type is not None else None
    return (hint or MODERN) if game_type is None else (plugin.dialect if plugin is not None else known)


def _by_reservation(element: Element, known: str | None, hint: str | None, rooms, reservations) -> str | None:
    entry = reservations.get(element.get("reservationCode") or "")
    return room_dialect(entry[0]) if entry is not None else known


def _by_prepared_game(element: Element, known: str | None, hint: str | None, rooms, reservations) -> str | None:
    plugin = registry.get(element.get("gameType") or "")
    return plugin.dialect if plugin is not None and plugin.dialect != CLASSIC else (known or hint)


def _by_room(element: Element, known: str | None, hint: str | None, rooms, reservations) -> str | None:
    if known is not None:
        return known  # the handler looks the room up; no second lookup here
    room = rooms.get(element.get("roomId") or "")
    return room_dialect(room) if room is not None else hint


def _by_connection(element: Element, known: str | None, hint: str | None, rooms, reservations) -> str | None:
    return known or hint


RULES = {
    "join": _by_game,
    "joinPrepared": _by_reservation,
    "prepare": _by_prepared_game,
    "room": _by_room,
    **{tag: _by_room for tag in ROOM_REQUESTS},
}
"""Tag -> how its dialect is chosen when the element does not show one by itself."""


def route(lobby, connection: Connection, element: Element) -> str:
    """Which dialect answers ``element``; remembers it on the connection when it shows one.

    ``lobby`` is read for its ``rooms`` and ``reservations``.  A ``<room>`` from a player of
    that room never comes here: its room answers it.
    """
    tag = element.tag
    known = connection.dialect
    hint = wire.dialect_hint(element)
    if connection.fallback_dialect == season_2020.LOBBY_DIALECT:
        return _route_2020(lobby, connection, element, tag, known, hint)
    speaks = known or connection.fallback_dialect
    if speaks in MODERN_LOOKING and (hint == MODERN or (tag == "authenticate" and known is None)):
        hint = speaks  # 21.4.0 read only password=: passphrase= fails there too
    if tag == "authenticate":
        chosen = known or hint
    elif hint == MODERN and tag not in ("join", "prepare"):
        chosen = MODERN
    else:
        chosen = RULES.get(tag, _by_connection)(element, known, hint, lobby.rooms, lobby.reservations)
    if chosen is None:
        chosen = connection.fallback_dialect
    if connection.dialect is None and (hint is not None or tag in FIXES_DIALECT):
        connection.dialect = chosen
    return chosen


def _route_2020(lobby, connection: Connection, element: Element, tag: str, known: str | None, hint: str | None) -> str:
    """``lobbyDialect=2020``: the server answers as the 2020 one, whose ``password=`` and
    ``<join/>`` are classic; the classic answers are its lobby's (season_2020.py)."""
    if tag == "authenticate" or (tag == "join" and element.get("gameType") is None):
        hint = None
        chosen = known or season_2020.LOBBY_DIALECT
    elif hint == MODERN and tag != "prepare":
        chosen = MODERN
    else:
        chosen = RULES.get(tag, _by_connection)(element, known, hint, lobby.rooms, lobby.reservations) or CLASSIC
    if chosen == CLASSIC:
        chosen = season_2020.LOBBY_DIALECT
    if connection.dialect is None and (hint is not None or tag in FIXES_DIALECT):
        connection.dialect = chosen
    return chosen
