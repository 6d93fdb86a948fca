"""The classic (2018/2019) lobby messages as pydantic models, and their XML forms.

Requests are decoded from the :class:`~protocol.element.Element` the reader produced
(:func:`decode_request`); responses render to Elements (``to_element``).  The game payload inside
``<room><data class=...>`` stays an Element: this package never knows a game.

Spec-conformance notes (classic lobby spec §2, §3):

* Booleans are parsed as XStream did: only ``true`` (any case) is true.  A missing ``canTimeout``
  or ``shouldBePaused`` on a listed slot is false (XStream skips the constructor).
* An element this table does not know is :class:`UnknownMessage`; the server drops the
  connection for it, as the official server did for unknown elements (``<close/>`` included).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from pydantic import BaseModel, ConfigDict

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


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


# -- requests (client -> server) ------------------------------------------------------------


class Authenticate(_Model):
    passphrase: str | None = None


class SlotDescriptor(_Model):
    """A seat of a ``prepare`` in either dialect (and of a room): 2018/2019 slots carry
    ``shouldBePaused``, 2022+ slots ``reserved`` (a 2018/2019 slot is always reserved)."""

    display_name: str | None = None
    can_timeout: bool = False
    should_be_paused: bool = False
    reserved: bool = True


UNLISTED_SLOT = SlotDescriptor(can_timeout=True)
"""What a seat the ``prepare`` does not list gets (spec §2; A.3): timeouts on, reserved, no name
(the room shows its dialect's blank name: "Unknown" in 2018/2019, empty in 2022+)."""


class Prepare(_Model):
    """The one ``prepare`` request of both dialects (:func:`decode_prepare`)."""

    game_type: str | None = None
    slots: tuple[SlotDescriptor, ...] = ()
    pause: bool = False


class JoinPrepared(_Model):
    reservation_code: str | None = None


class Join(_Model):
    game_type: str | None = None


class Observe(_Model):
    room_id: str | None = None


class Pause(_Model):
    room_id: str | None = None
    pause: bool = False


class Step(_Model):
    room_id: str | None = None
    forced: bool = False


class Cancel(_Model):
    room_id: str | None = None


class FreeReservation(_Model):
    reservation: str | None = None


class Timeout(_Model):
    room_id: str | None = None
    activate: bool = False
    slot: int = 0


class TestMode(_Model):
    test_mode: bool = False


class ScoreForPlayer(_Model):
    display_name: str | None = None


class CloseConnection(_Model):
    pass


class RoomPacket(_Model):
    """``<room roomId="R"><data class=...>``: a player's move (or something else)."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    room_id: str | None = None
    data: Element | None = None


class UnknownMessage(_Model):
    tag: str


Request = Union[
    Authenticate,
    Prepare,
    JoinPrepared,
    Join,
    Observe,
    Pause,
    Step,
    Cancel,
    FreeReservation,
    Timeout,
    TestMode,
    ScoreForPlayer,
    CloseConnection,
    RoomPacket,
    UnknownMessage,
]

ADMIN_REQUESTS = (Prepare, Observe, Pause, Step, Cancel, FreeReservation, Timeout, TestMode, ScoreForPlayer)


ROOM_REQUESTS = frozenset({"observe", "pause", "step", "cancel"})
"""The admin requests about one room: the same tags in both dialects."""


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


def _slot(element: Element, syntax: PrepareSyntax) -> SlotDescriptor:
    reserved = syntax.reserved is not None and syntax.reserved in element.attrs
    return SlotDescriptor(
        display_name=element.get("displayName"),
        can_timeout=java_bool(element.get("canTimeout")),
        should_be_paused=java_bool(element.get("shouldBePaused")),
        reserved=java_bool(element.get(syntax.reserved or "")) if reserved else True,
    )


def decode_prepare(element: Element, syntax: PrepareSyntax = CLASSIC_PREPARE) -> Prepare:
    """The one parser of ``<prepare>``: the request it stands for in ``syntax``."""
    slots = tuple(_slot(child, syntax) for child in element.findall("slot"))
    pause = syntax.pause is not None and java_bool(element.get(syntax.pause))
    return Prepare(
        game_type=element.get("gameType"), slots=slots, pause=pause or any(s.should_be_paused for s in slots)
    )


def _int(value: str | None, default: int = 0) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def decode_request(element: Element) -> Request:
    """The request a top-level message stands for (unknown elements included)."""
    tag, get = element.tag, element.get
    match tag:
        case "authenticate":
            return Authenticate(passphrase=get("passphrase"))
        case "prepare":
            return decode_prepare(element, CLASSIC_PREPARE)
        case "joinPrepared":
            return JoinPrepared(reservation_code=get("reservationCode"))
        case "join":
            return Join(game_type=get("gameType"))
        case "observe":
            return Observe(room_id=get("roomId"))
        case "pause":
            return Pause(room_id=get("roomId"), pause=java_bool(get("pause")))
        case "step":
            return Step(room_id=get("roomId"), forced=java_bool(get("forced")))
        case "cancel":
            return Cancel(room_id=get("roomId"))
        case "freeReservation":
            return FreeReservation(reservation=get("reservation"))
        case "timeout":
            return Timeout(room_id=get("roomId"), activate=java_bool(get("activate")), slot=_int(get("slot")))
        case "testMode":
            return TestMode(test_mode=java_bool(get("testMode")))
        case "scoreForPlayer":
            return ScoreForPlayer(display_name=get("displayName"))
        case "sc.protocol.responses.CloseConnection":
            return CloseConnection()
        case "room":
            return RoomPacket(room_id=get("roomId"), data=element.find("data"))
    return UnknownMessage(tag=tag)


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


class PlayerScore(_Model):
    cause: str
    reason: str | None = None
    parts: tuple[str, ...] = ()

    def to_element(self) -> Element:
        attrs = {"cause": self.cause}
        if self.reason is not None:
            attrs["reason"] = self.reason
        return Element("score", attrs, [Element("part", text=part) for part in self.parts])


class GameResult(_Model):
    """``<data class="result">`` (spec §8)."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    definition: tuple[ScoreFragment, ...]
    scores: tuple[PlayerScore, ...]
    winners: tuple[Element, ...] = ()

    def to_element(self) -> Element:
        definition = Element("definition", children=[f.to_element() for f in self.definition])
        children = [definition, *(s.to_element() for s in self.scores), *self.winners]
        return Element("data", {"class": "result"}, children)
