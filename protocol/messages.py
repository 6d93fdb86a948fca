"""The classic (2018/2019) lobby messages as pydantic models, and their XML forms.

Requests are decoded from the :class:`~protocol.element.Element` the reader produced
(:func:`decode_request`); the result renders to an Element (``to_element``), and the other
responses are built in :mod:`.responses` (re-exported here), which bot processes import without
pydantic.  The game payload inside
``<room><data class=...>`` stays an Element: this package never knows a game.

Spec-conformance notes (classic lobby spec §2, §3):

* Booleans are parsed as XStream did: only ``true`` (any case) is true.  A missing ``canTimeout``
  or ``shouldBePaused`` on a listed slot is false (XStream skips the constructor).
* An element this table does not know is :class:`UnknownMessage`; the server drops the
  connection for it, as the official server did for unknown elements (``<close/>`` included).
"""

from __future__ import annotations

from typing import Union

from pydantic import BaseModel, ConfigDict

from swc_local.protocol.element import Element

# the responses and their helpers live apart, free of pydantic, for the client (see .responses)
from swc_local.protocol.responses import (  # noqa: F401
    CLASSIC_PREPARE, CLOSE_CONNECTION_TAG, MODERN_PREPARE, MOVE_REQUEST_CLASS, PROTOCOL_DATA_CLASSES, PrepareSyntax,
    ScoreFragment, close_connection, error,
    java_bool, joined, joined_game_room, left, memento, move_request, observed, prepared, room, testing, welcome,
)


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


# -- results (server -> client) ------------------------------------------------------------


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
