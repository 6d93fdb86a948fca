"""The modern (2022+) lobby dialect: requests, responses, and their byte forms, sans I/O.

The 22.x servers kept the XStream object stream of 2018/2019 (framing, escapes: see
:mod:`.writer` and :mod:`.element`) but changed almost every lobby message; this module holds
the 2022+ forms so the classic ones in :mod:`.messages` stay exactly as they were.  Nothing
here knows a game: room payloads stay :class:`Element` s.

Spec-conformance notes (ostseeschach_2022.md A.3/A.4, modern_dialect_2023plus.md):

* Requests are decoded leniently like XStream: only ``true`` (any case) is true, a missing
  boolean is false, a missing string is None.
* :func:`dialect_hint` says which dialect a message reveals by itself: ``<join/>`` without a
  game type, ``joinRoom``, ``authenticate password=``, ``prepare pause=``, a ``slot reserved=``,
  and the 2022+ CloseConnection forms are modern; ``authenticate passphrase=``,
  ``slot shouldBePaused=`` and the classic CloseConnection are classic.  Everything else (moves,
  ``observe``...) is answered in the dialect the connection already showed, or the room's.
* :func:`echo` re-serializes a request for ``<originalRequest>`` as XStream did: the class alias
  first, then the request's fields in declaration order (booleans always written, missing
  strings left out), so ``<step roomId="R"/>`` is echoed with ``forced="false"``.  A room
  packet echoes its ``<data>`` as received (the official server re-serialized the decoded move,
  which for a well-formed move is the same text).
* :func:`request_text` is the Kotlin ``toString`` the UnauthenticatedException message embeds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from swc_local.protocol.element import Element
# the elements both dialects write alike (re-exported for the modern lobby and room)
from swc_local.protocol.responses import (  # noqa: F401
    MODERN_PREPARE, ScoreFragment, java_bool, joined, left, memento, observed, prepared, room, welcome,
)

if TYPE_CHECKING:
    from swc_local.protocol.messages import Prepare

CLASSIC = "classic"
MODERN = "modern"

CLOSE_CONNECTION_2022 = "sc.protocol.CloseConnection"
"""What the 22.x Java client sends to end a connection (its ``close`` alias was not registered)."""
CLOSE_ALIAS = "close"
"""The 2023+ form (socha 3.x-5.x send ``<close/>``)."""
CLASSIC_CLOSE = "sc.protocol.responses.CloseConnection"

ROOM_DATA_CLASSES = frozenset({"welcomeMessage", "memento", "moveRequest", "result", "error", "paused"})
"""``<data class>`` aliases of the 2022+ room messages that are not moves."""

AUTHENTICATION_FAILED = "sc.server.network.AuthenticationFailedException: Failed to authenticate as administrator"
UNKNOWN_RESERVATION = (
    "sc.server.gaming.UnknownReservationException: Couldn't find a reservation for the provided token."
)
ROOM_EXCEPTION = "sc.api.plugins.exceptions.GameRoomException: "
MOVE_REQUEST_TO_STRING = "sc.protocol.room.MoveRequest@249b909c"
"""Java's identity hash of the MoveRequest object in every captured run (A.4)."""


def _kotlin_bool(value: bool) -> str:
    return "true" if value else "false"


# -- requests ---------------------------------------------------------------------------------


def dialect_hint(element: Element) -> str | None:
    """The dialect ``element`` shows by itself, or None when it is the same in both."""
    tag, attrs = element.tag, element.attrs
    if tag == "join":
        return MODERN if "gameType" not in attrs else None
    if tag in ("joinRoom", CLOSE_CONNECTION_2022, CLOSE_ALIAS):
        return MODERN
    if tag == CLASSIC_CLOSE:
        return CLASSIC
    if tag == "authenticate":
        if "password" in attrs:
            return MODERN
        return CLASSIC if "passphrase" in attrs else None
    if tag == "prepare":  # the attributes only the 2022+ syntax has (MODERN_PREPARE)
        if MODERN_PREPARE.pause in attrs or any(MODERN_PREPARE.reserved in slot.attrs for slot in element.findall("slot")):
            return MODERN
        if any("shouldBePaused" in slot.attrs for slot in element.findall("slot")):
            return CLASSIC
    return None


def decode_prepare(element: Element) -> Prepare:
    """A ``<prepare>`` in the 2022+ syntax (:func:`~.messages.decode_prepare`, the one parser of
    both): ``shouldBePaused`` on any slot also pauses the room.

    The pydantic request models are imported here, on the first prepare, because the client
    library reads responses with this module and a bot process should not pay for them."""
    from swc_local.protocol.messages import decode_prepare as decode

    return decode(element, MODERN_PREPARE)


_FIELDS: dict[str, tuple[tuple[str, bool], ...]] = {
    # alias: (attribute, is_boolean) in the Kotlin classes' declaration order
    "authenticate": (("password", False),),
    "join": (("gameType", False),),
    "joinRoom": (("roomId", False),),
    "joinPrepared": (("reservationCode", False),),
    "observe": (("roomId", False),),
    "pause": (("roomId", False), ("pause", True)),
    "step": (("roomId", False), ("forced", True)),
    "cancel": (("roomId", False),),
    "prepare": (("gameType", False), ("pause", True)),
    "slot": (("displayName", False), ("canTimeout", True), ("reserved", True)),
    "room": (("roomId", False),),
}


def _fields(element: Element) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, is_bool in _FIELDS.get(element.tag, ()):
        value = element.get(name)
        if is_bool:
            out[name] = _kotlin_bool(java_bool(value))
        elif value is not None:
            out[name] = value
    return out


def echo(element: Element, tag: str = "originalRequest") -> Element:
    """The request as XStream re-serialized it inside an errorpacket."""
    attrs = {"class": element.tag} | _fields(element)
    if element.tag == "prepare":
        children = [Element("slot", _fields(slot)) for slot in element.findall("slot")]
    elif element.tag == "room":
        children = list(element.children[:1])
    else:
        children = []
    return Element(tag, attrs, children)


def _text(value: str | None) -> str:
    return "null" if value is None else value


def request_text(element: Element) -> str:
    """The Kotlin ``toString`` of an admin request (for UnauthenticatedException)."""
    get = element.get
    match element.tag:
        case "prepare":
            prepare = decode_prepare(element)
            slots = ", ".join(
                f"SlotDescriptor(displayName={_text(s.display_name)}, canTimeout={_kotlin_bool(s.can_timeout)}, "
                f"reserved={_kotlin_bool(s.reserved)})"
                for s in prepare.slots
            )
            return (
                f"PrepareGameRequest(gameType={_text(prepare.game_type)}, slotDescriptors=[{slots}], "
                f"pause={_kotlin_bool(java_bool(get('pause')))})"
            )
        case "observe":
            return f"ObservationRequest(roomId={_text(get('roomId'))})"
        case "pause":
            return f"PauseGameRequest(roomId={_text(get('roomId'))}, pause={_kotlin_bool(java_bool(get('pause')))})"
        case "step":
            return f"StepRequest(roomId={_text(get('roomId'))}, forced={_kotlin_bool(java_bool(get('forced')))})"
        case "cancel":
            return f"CancelRequest(roomId={_text(get('roomId'))})"
    return element.tag


def data_text(room_id: str, data: Element | None) -> str:
    """``RoomPacket(roomId=…, data=…)`` for a room message that is not a move (A.4); ``data=null``
    for a ``<room>`` without data (golden/empty_move)."""
    if data is None:
        return f"RoomPacket(roomId={room_id}, data=null)"
    data_class = data.get("class") or ""
    if data_class == "moveRequest":
        inner = MOVE_REQUEST_TO_STRING
    elif data_class == "welcomeMessage":
        inner = f"WelcomeMessage(color={_text(data.get('color'))})"
    elif data_class == "paused":
        inner = f"GamePaused(paused={_kotlin_bool(java_bool(data.get('paused')))})"
    else:
        inner = f"sc.protocol.room.{data_class[:1].upper()}{data_class[1:]}"
    return f"RoomPacket(roomId={room_id}, data={inner})"


# -- responses --------------------------------------------------------------------------------


def errorpacket(message: str, request: Element | None) -> Element:
    children = [echo(request)] if request is not None else []
    return Element("errorpacket", {"message": message}, children)


def room_not_found(room_id: str | None) -> str:
    return f"{ROOM_EXCEPTION}Couldn't find a room with id {_text(room_id)}"


def unauthenticated(request: Element) -> str:
    return f"sc.server.network.UnauthenticatedException: Request {request_text(request)} requires authentication"


def joined_game_room(room_id: str, player_count: int) -> Element:
    return Element("joinedGameRoom", {"roomId": room_id, "playerCount": str(player_count)})


def move_request(room_id: str) -> Element:
    return room(room_id, Element("data", {"class": "moveRequest"}))


def paused(room_id: str, is_paused: bool) -> Element:
    return room(room_id, Element("data", {"class": "paused", "paused": _kotlin_bool(is_paused)}))


def error(room_id: str, message: str, original_message: Element | None) -> Element:
    """``<data class="error" message>`` with the offending move as ``<originalMessage class=…>``."""
    children = []
    if original_message is not None:
        attrs = {"class": original_message.get("class", "move")} | {
            k: v for k, v in original_message.attrs.items() if k != "class"
        }
        children.append(Element("originalMessage", attrs, original_message.children, original_message.text))
    return room(room_id, Element("data", {"class": "error", "message": message}, children))


@dataclass(frozen=True, slots=True)
class Score:
    """One ``<entry>`` of ``<scores>``.  ``cause`` None: the 2023+ form without cause/reason."""

    team: str
    name: str
    parts: tuple[str, ...]
    cause: str | None = None
    reason: str = ""

    def to_element(self) -> Element:
        player = Element("player", ({"name": self.name} if self.name else {}) | {"team": self.team})
        attrs = {} if self.cause is None else {"cause": self.cause, "reason": self.reason}
        score = Element("score", attrs, [Element("part", text=part) for part in self.parts])
        return Element("entry", children=[player, score])


@dataclass(frozen=True, slots=True)
class Winner:
    """``<winner team/>`` (2022) or ``<winner team? regular reason/>`` (2023+: ``regular`` set)."""

    team: str | None
    regular: bool | None = None
    reason: str = ""

    def to_element(self) -> Element:
        attrs = {"team": self.team} if self.team is not None else {}
        if self.regular is not None:
            attrs |= {"regular": _kotlin_bool(self.regular), "reason": self.reason}
        return Element("winner", attrs)


@dataclass(frozen=True, slots=True)
class Result:
    """``<data class="result">``: definition, one score per player, the winner if any."""

    definition: tuple[ScoreFragment, ...]
    scores: tuple[Score, ...]
    winner: Winner | None = None

    def to_element(self) -> Element:
        children = [
            Element("definition", children=[f.to_element() for f in self.definition]),
            Element("scores", children=[s.to_element() for s in self.scores]),
        ]
        if self.winner is not None:
            children.append(self.winner.to_element())
        return Element("data", {"class": "result"}, children)


# -- the 2025+ result: its violation texts name no cause ---------------------------------------

_VIOLATION_CAUSES = (
    ("Regelverletzung von ", "RULE_VIOLATION"),
    ("Missachtung des Spielablaufs von ", "RULE_VIOLATION"),
    ("laenger als", "SOFT_TIMEOUT"),
    ("keinen Zug gesendet", "HARD_TIMEOUT"),
    ("hat das Spiel verlassen", "LEFT"),
    ("kann sich nicht mehr bewegen", "STUCK"),  # a stuck ship (2024): regular="false", no rule broken
)


def violation_cause(reason: str) -> str:
    """The 2022-style cause of a 2025+ ``regular="false"`` reason (``Violation.kt``), or UNKNOWN.

    One such end is no violation: a ship that cannot move (Mississippi Queen 2024, spec §5, §10
    D3) ends the game ``regular="false"`` by the rules alone; its cause is ``STUCK``, a word of
    this project (2022's cause enum has none), so every tool shows the end as the server marks
    it, not regular, without calling it a rule violation."""
    for marker, cause in _VIOLATION_CAUSES:
        if marker in reason:
            return cause
    return "UNKNOWN"
