"""Robo Rally JSON wire format ("Protokoll Version 1.0"), sans I/O: bytes -> messages -> bytes.

Every message is one compact JSON object per line, ``{"messageType": T, "messageBody": {...}}``
(spec roborally.md §2). :class:`LineDecoder` turns received bytes into :class:`Incoming`
messages or :class:`Malformed` answers (the exact ``Error`` texts of the §2 table); the only
exception it ever raises is :class:`CodecError` (a line over the limit, after which the
connection must be closed). :func:`parse_body` validates a client message's body against its
pydantic model; :func:`encode` validates every server message against its model before it is
written, so the server cannot send a field the document does not define. The client side uses
the same models the other way round: ``LineDecoder(decode=decode_server_line)`` reads the
server's lines and :func:`encode_client` writes a checked client message (the reference bots).

Conformance notes:

* ``\\n`` and ``\\r\\n`` end a line; empty and whitespace-only lines are skipped; one object
  never spans several lines (spec §2, chosen).
* An integer field also accepts an integral JSON number (``5.0``), never a bool or a string
  (spec §2, chosen, for Gson clients).
* A line longer than 1 MiB before its ``\\n`` raises :class:`LineTooLong`; the server answers
  ``Message too long`` and closes.
* Server-only types received from a client decode as :class:`ServerOnly` (ignored, logged).
* ``HelloServer.group`` may be missing (read as ``""``); only a present non-string ``group``
  gets ``Invalid field: group`` (spec §4.2: the SoSe 2024 lab's RandomBot sends
  ``{"protocol":"Version 1.0","isAI":true}`` and the lab's server never reads ``group``).
  ``isAI`` may be missing too (``false``). The lab's server (``adrior11/roborally``) reads
  ``name`` and a chat ``message`` with Java's ``toString()``, so it would also take a number
  there; no known client sends one, and the contract (§4.3, §3.3) keeps them strings.
  Everything else the lab's server requires (``protocol``, ``to``, ``messageBody``) it requires
  as strictly as this codec.
* Text that cannot be encoded as UTF-8 (a lone surrogate written as a ``\\ud800`` escape:
  valid JSON, but no valid text) is ``Malformed JSON`` like any other line that is not UTF-8
  text: the server could neither forward nor log it.
* Fields whose *values* the spec checks with its own error text (figure, map, register, card,
  direction) are typed loosely here and checked by the lobby or the game, so that the phase
  and turn checks come first (spec §7.3, order of checks).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictStr, ValidationError

PROTOCOL_VERSION = "Version 1.0"
MAX_LINE_BYTES = 1 << 20
MAP_NAMES = ("Dizzy Highway", "Extra Crispy", "Lost Bearings", "Death Trap")
DIRECTIONS = ("top", "right", "bottom", "left")
PROGRAMMING_CARDS = ("MoveI", "MoveII", "MoveIII", "TurnLeft", "TurnRight", "UTurn", "BackUp", "PowerUp", "Again")
DAMAGE_CARDS = ("Spam", "Worm", "Virus", "Trojan")
SPECIAL_CARDS = ("EnergyRoutine", "SandboxRoutine", "WeaselRoutine", "SpeedRoutine", "SpamFolder", "RepeatRoutine")
CARD_NAMES = PROGRAMMING_CARDS + DAMAGE_CARDS + SPECIAL_CARDS
ANIMATIONS = ("BlueConveyorBelt", "GreenConveyorBelt", "PushPanel", "Gear", "CheckPoint", "PlayerShooting", "WallShooting", "EnergySpace")


class CodecError(Exception):
    """The only exception this module raises."""


class LineTooLong(CodecError):
    """A line exceeded the limit; answer ``Message too long`` and close the connection."""


class FieldError(CodecError):
    """A client message's field is missing or of the wrong JSON type."""

    def __init__(self, field: str) -> None:
        super().__init__(f"Invalid field: {field}")
        self.field = field


@dataclass(frozen=True)
class Incoming:
    """A well-formed client message of a known client type; the body is not validated yet."""

    type: str
    body: dict


@dataclass(frozen=True)
class Malformed:
    """A line that gets an ``Error`` with this text; the connection stays open."""

    error: str


@dataclass(frozen=True)
class ServerOnly:
    """A server-to-client type sent by a client: ignored without an answer (spec §2)."""

    type: str


def _integral(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("not an integer")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    raise ValueError("not an integer")


Int = Annotated[int, BeforeValidator(_integral)]
Direction = Literal["top", "right", "bottom", "left"]


class _Client(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


class _Server(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# --- client to server ----------------------------------------------------------------------

class HelloServer(_Client):
    group: StrictStr = ""  # missing: "" (spec §4.2, the SoSe 2024 RandomBot sends none)
    isAI: StrictBool = False
    protocol: Any = None
    clientID: Any = None


class Alive(_Client):
    pass


class PlayerValues(_Client):
    name: StrictStr
    figure: Any = None


class SetStatus(_Client):
    ready: StrictBool


class MapSelected(_Client):
    map: Any = None


class SendChat(_Client):
    message: StrictStr
    to: Int


class SetStartingPoint(_Client):
    x: Int
    y: Int


class SelectedCard(_Client):
    card: Any = None
    register_: Any = Field(None, alias="register")  # "register" would shadow BaseModel.register


class PlayCard(_Client):
    card: StrictStr


class SelectedDamage(_Client):
    cards: list[StrictStr]


class RebootDirection(_Client):
    direction: Any = None


CLIENT_MODELS: dict[str, type[_Client]] = {
    model.__name__: model
    for model in (HelloServer, Alive, PlayerValues, SetStatus, MapSelected, SendChat, SetStartingPoint,
                  SelectedCard, PlayCard, SelectedDamage, RebootDirection)
}


# --- server to client ----------------------------------------------------------------------

class _ActiveCard(_Server):
    clientID: int
    card: str


class _S:
    """Namespace of the server message models (some share a name with a client model)."""

    class HelloClient(_Server):
        protocol: str

    class Welcome(_Server):
        clientID: int

    class Alive(_Server):
        pass

    class PlayerAdded(_Server):
        clientID: int
        name: str
        figure: int

    class PlayerStatus(_Server):
        clientID: int
        ready: bool

    class SelectMap(_Server):
        availableMaps: list[str]

    class MapSelected(_Server):
        map: str

    class GameStarted(_Server):
        gameMap: list[list[list[dict[str, Any]] | None]]

    class ReceivedChat(_Server):
        message: str
        from_: int = Field(alias="from")
        isPrivate: bool

    class Error(_Server):
        error: str

    class ConnectionUpdate(_Server):
        clientID: int
        isConnected: bool
        action: Literal["Remove", "AIControl", "Ignore", "Reconnect"]

    class CardPlayed(_Server):
        clientID: int
        card: str

    class CurrentPlayer(_Server):
        clientID: int

    class ActivePhase(_Server):
        phase: Literal[0, 1, 2, 3]

    class StartingPointTaken(_Server):
        x: int
        y: int
        clientID: int

    class YourCards(_Server):
        cardsInHand: list[str]

    class NotYourCards(_Server):
        clientID: int
        cardsInHand: int

    class ShuffleCoding(_Server):
        clientID: int

    class CardSelected(_Server):
        clientID: int
        register_: Literal[1, 2, 3, 4, 5] = Field(alias="register")
        filled: bool

    class SelectionFinished(_Server):
        clientID: int

    class TimerStarted(_Server):
        pass

    class TimerEnded(_Server):
        clientIDs: list[int]

    class CardsYouGotNow(_Server):
        cards: list[str]

    class CurrentCards(_Server):
        activeCards: list[_ActiveCard]

    class ReplaceCard(_Server):
        register_: Literal[1, 2, 3, 4, 5] = Field(alias="register")
        newCard: str
        clientID: int

    class Movement(_Server):
        clientID: int
        x: int
        y: int

    class PlayerTurning(_Server):
        clientID: int
        rotation: Literal["clockwise", "counterclockwise"]

    class DrawDamage(_Server):
        clientID: int
        cards: list[str]

    class PickDamage(_Server):
        count: int
        availablePiles: list[str]

    class Animation(_Server):
        type: Literal[ANIMATIONS]  # type: ignore[valid-type]

    class Reboot(_Server):
        clientID: int

    class Energy(_Server):
        clientID: int
        count: int
        source: Literal["PowerUpCard", "EnergySpace"]

    class CheckPointReached(_Server):
        clientID: int
        number: int

    class GameFinished(_Server):
        clientID: int


SERVER_MODELS: dict[str, type[_Server]] = {
    name: model for name, model in vars(_S).items() if isinstance(model, type) and issubclass(model, _Server)
}
SERVER_ONLY_TYPES = frozenset(SERVER_MODELS) - frozenset(CLIENT_MODELS)
# MapSelected and Alive go both ways: a client's copy is handled as a client message.


def parse_body(message_type: str, body: dict) -> BaseModel:
    """Validate a client message body; raises :class:`FieldError` naming the first bad field."""
    model = CLIENT_MODELS.get(message_type)
    if model is None:
        raise CodecError(f"not a client message type: {message_type!r}")
    try:
        return model.model_validate(body)
    except ValidationError as error:
        first = error.errors()[0]
        loc = first.get("loc") or ("messageBody",)
        raise FieldError(str(loc[0])) from None
    except Exception as error:  # pydantic never raises anything else, but the contract says so
        raise CodecError(str(error)) from None


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""A ``\\uD800``..``\\uDFFF`` escape: the only way a UTF-8 line can decode to unencodable text."""


def _encodable(value: Any) -> bool:
    """False when a string anywhere in the value holds a lone surrogate (pairs are fine)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError, ValueError):
        return False
    return True


def _envelope(line: bytes) -> Incoming | Malformed | None:
    """The ``messageType`` and ``messageBody`` of one line, whichever side sent it."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return Malformed("Malformed JSON")
    if not text.strip():
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return Malformed("Malformed JSON")
    if _SURROGATE_ESCAPE.search(text) and not _encodable(value):
        return Malformed("Malformed JSON")
    if not isinstance(value, dict):
        return Malformed("Malformed message")
    message_type = value.get("messageType")
    body = value.get("messageBody")
    if not isinstance(message_type, str) or not isinstance(body, dict):
        return Malformed("Malformed message")
    return Incoming(message_type, body)


def decode_line(line: bytes) -> Incoming | Malformed | ServerOnly | None:
    """One line a client sent, without its line end; None for an empty or whitespace-only line."""
    event = _envelope(line)
    if not isinstance(event, Incoming) or event.type in CLIENT_MODELS:
        return event
    if event.type in SERVER_ONLY_TYPES:
        return ServerOnly(event.type)
    return Malformed(f"Unknown message type: {event.type}")


def decode_server_line(line: bytes) -> Incoming | Malformed | None:
    """One line the server sent (read by a client, e.g. the reference bots); body not validated."""
    event = _envelope(line)
    if isinstance(event, Incoming) and event.type not in SERVER_MODELS:
        return Malformed(f"Unknown message type: {event.type}")
    return event


class LineDecoder:
    """Split a byte stream into lines and decode them; bounded memory per connection.

    The server reads client lines (:func:`decode_line`); a client passes
    ``decode=decode_server_line``.
    """

    def __init__(self, max_line_bytes: int = MAX_LINE_BYTES, decode=decode_line) -> None:
        self.max_line_bytes = max_line_bytes
        self.decode = decode
        self._buffer = bytearray()
        self._failed = False

    def feed(self, data: bytes) -> list[Incoming | Malformed | ServerOnly]:
        if self._failed:
            raise LineTooLong("Message too long")
        self._buffer += data
        events: list[Incoming | Malformed | ServerOnly] = []
        start = 0
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n", start)
            if end < 0:
                break
            line = bytes(buffer[start:end])
            start = end + 1
            if line.endswith(b"\r"):
                line = line[:-1]
            if len(line) > self.max_line_bytes:
                self._failed = True
                raise LineTooLong("Message too long")
            event = self.decode(line)
            if event is not None:
                events.append(event)
        del buffer[:start]
        if len(buffer) > self.max_line_bytes + 1:  # room for a trailing \r
            self._failed = True
            raise LineTooLong("Message too long")
        return events


def encode(message_type: str, body: dict | None = None) -> bytes:
    """One validated, compact JSON line; raises :class:`CodecError` for a body the model refuses."""
    body = {} if body is None else body
    model = SERVER_MODELS.get(message_type)
    if model is None:
        raise CodecError(f"not a server message type: {message_type!r}")
    try:
        model.model_validate(body)
    except ValidationError as error:
        raise CodecError(f"invalid {message_type}: {error}") from None
    return encode_unchecked(message_type, body)


def encode_client(message_type: str, body: dict | None = None) -> bytes:
    """A client message as one compact JSON line, checked against its model (the bots' side)."""
    body = {} if body is None else body
    parse_body(message_type, body)
    return encode_unchecked(message_type, body)


def encode_unchecked(message_type: str, body: dict) -> bytes:
    """The wire line for a body already known to be valid (the map of ``GameStarted``)."""
    return (json.dumps({"messageType": message_type, "messageBody": body}, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


def show(value: Any) -> str:
    """A sent value inside an error text: strings as sent, other JSON values compact (spec §7.3)."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)
