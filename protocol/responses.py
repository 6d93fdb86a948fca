"""The lobby's responses as Elements, and the plain words both sides share: no pydantic here.

Split from :mod:`.messages` (the requests, decoded into pydantic models) because every bot
process imports this side and nothing else of the lobby: the client library reads responses,
and a game's plugin declares its result columns with :class:`ScoreFragment`.  Importing pydantic
and building the request models cost a ``swc bot`` process about 0.2 s of CPU at every start.
:mod:`.messages` re-exports all of it, so the server keeps one name for the lobby's messages.
"""

from __future__ import annotations

from dataclasses import dataclass

from swc_local.protocol.element import Element

CLOSE_CONNECTION_TAG = "sc.protocol.responses.CloseConnection"
MOVE_REQUEST_CLASS = "sc.framework.plugins.protocol.MoveRequest"

# <data class=...> values the lobby itself knows; a player sending one of these instead of a move
# is told "NAME hat kein Zug-Objekt gesendet." (spec §6) rather than dropped.
PROTOCOL_DATA_CLASSES = frozenset(
    {
        "welcomeMessage",
        "memento",
        "error",
        "result",
        MOVE_REQUEST_CLASS,
        "sc.framework.plugins.protocol.MoveRequest",
        "sc.shared.WelcomeMessage",
        "sc.shared.GameResult",
        "sc.protocol.responses.ProtocolErrorMessage",
        "sc.protocol.responses.MementoPacket",
        "sc.protocol.responses.MementoEvent",
    }
)


def java_bool(value: str | None) -> bool:
    return value is not None and value.lower() == "true"


# -- the two <prepare> syntaxes (the dialect hint reads them before any request is decoded) --


@dataclass(frozen=True, slots=True)
class PrepareSyntax:
    """Where a dialect's ``<prepare>`` keeps what :class:`Prepare` holds, as data: everything
    else (``gameType``, ``<slot displayName canTimeout shouldBePaused>``) both dialects write
    alike, and ``shouldBePaused`` on any slot pauses the room in both."""

    pause: str | None
    """The ``<prepare>`` attribute that pauses the room (None: there is none)."""
    reserved: str | None
    """The ``<slot>`` attribute that reserves its seat, reserved when missing (None: every
    listed seat is reserved)."""


CLASSIC_PREPARE = PrepareSyntax(pause=None, reserved=None)
MODERN_PREPARE = PrepareSyntax(pause="pause", reserved="reserved")


# -- responses (server -> client) -----------------------------------------------------------


def joined(room_id: str) -> Element:
    return Element("joined", {"roomId": room_id})


def joined_game_room(room_id: str, existing: bool) -> Element:
    return Element("joinedGameRoom", {"roomId": room_id, "existing": "true" if existing else "false"})


def prepared(room_id: str, reservations: list[str]) -> Element:
    return Element(
        "prepared",
        {"roomId": room_id},
        [Element("reservation", text=code) for code in reservations],
    )


def observed(room_id: str) -> Element:
    return Element("observed", {"roomId": room_id})


def left(room_id: str) -> Element:
    return Element("left", {"roomId": room_id})


def close_connection() -> Element:
    return Element(CLOSE_CONNECTION_TAG)


def testing(test_mode: bool) -> Element:
    return Element("testing", {"testMode": "true" if test_mode else "false"})


def room(room_id: str, data: Element) -> Element:
    return Element("room", {"roomId": room_id}, [data])


def welcome(room_id: str, color: str) -> Element:
    return room(room_id, Element("data", {"class": "welcomeMessage", "color": color}))


def memento(room_id: str, state: Element) -> Element:
    return room(room_id, Element("data", {"class": "memento"}, [state]))


def move_request(room_id: str) -> Element:
    return room(room_id, Element("data", {"class": MOVE_REQUEST_CLASS}))


def error(room_id: str, message: str, original_request: Element | None = None) -> Element:
    children = [original_request] if original_request is not None else []
    return room(room_id, Element("data", {"class": "error", "message": message}, children))


@dataclass(frozen=True, slots=True)
class ScoreFragment:
    """One column of a result's ``<definition>``: the one type for it. A game's plugin declares
    its columns with it (``games/plugin.py`` re-exports it) and both dialects write it alike."""

    name: str
    aggregation: str  # "SUM" or "AVERAGE"
    relevant_for_ranking: bool = True

    def to_element(self) -> Element:
        return Element(
            "fragment",
            {"name": self.name},
            [
                Element("aggregation", text=self.aggregation),
                Element("relevantForRanking", text="true" if self.relevant_for_ranking else "false"),
            ],
        )
