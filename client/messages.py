"""Typed server-to-client messages: what a bot or an admin script receives.

:func:`parse` turns one raw message (an :class:`~protocol.element.Element` from the same
stream reader the server uses) into a small frozen dataclass, so a bot can ``match`` on it
instead of digging through ``<room><data class=...>``.  The raw element is always kept in
``.element`` for anything this table does not model.

Spec-conformance notes (classic lobby spec §3, §8):

* A memento's ``state`` stays an Element; :attr:`Memento.game` rebuilds the game through the game
  plugin (``game_from_state``) only when asked, because a bot that keeps its own board never
  needs it.
* The plugin for a memento is the one the client was given, or else the first registered plugin
  whose ``data_classes`` contains the state's ``class`` attribute (Piranhas names
  ``sc.plugin2019.GameState``); Hase und Igel 2018 and Ostseeschach 2022 both say ``state``,
  so :func:`swc_local.games.registry.plugin_for_state` lets a plugin claim its own states.
* Both dialects parse into the same types: the 2022+ ``moveRequest``, ``welcomeMessage
  color="ONE"`` and ``<scores><entry>`` results as well as the classic ones (:func:`seat_of`
  maps red/ONE to seat 0).
* ``<left>`` is not wrapped in ``<room>``; ``<sc.protocol.responses.CloseConnection/>`` (and
  2021's ``<sc.protocol.CloseConnection/>``) becomes :class:`Closed`.  Anything else is
  :class:`Unknown`.
* A classic result's ``<winner>`` names its side by a ``color`` attribute (2018/2019) or a
  ``<color class="team">`` child (2021); 2021 writes two ``<winner>``s for a tie, read as a draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from swc_local.games.plugin import GamePlugin, RunningGame
from swc_local.protocol.modern import violation_cause  # noqa: F401 -- the 2025+ texts' causes
from swc_local.protocol import responses as msg
from swc_local.protocol.element import Element

__all__ = [
    "Joined", "JoinedGameRoom", "Prepared", "Observed", "Welcome", "Memento", "MoveRequest",
    "Score", "Result", "Error", "Left", "Closed", "Testing", "Unknown", "ServerMessage", "parse",
    "plugin_for_state", "seat_of",
]


@dataclass(frozen=True)
class Joined:
    room_id: str
    element: Element = field(repr=False, compare=False)


@dataclass(frozen=True)
class JoinedGameRoom:
    """Sent to every admin when someone ``join``-ed a room."""

    room_id: str
    existing: bool
    element: Element = field(repr=False, compare=False)


@dataclass(frozen=True)
class Prepared:
    room_id: str
    reservations: tuple[str, ...]
    element: Element = field(repr=False, compare=False)


@dataclass(frozen=True)
class Observed:
    room_id: str
    element: Element = field(repr=False, compare=False)


@dataclass(frozen=True)
class Welcome:
    room_id: str
    color: str  # "red"/"blue" (classic) or "ONE"/"TWO" (2022+), as on the wire
    element: Element = field(repr=False, compare=False)

    @property
    def seat(self) -> int:
        return seat_of(self.color)


@dataclass(frozen=True)
class Memento:
    room_id: str
    state: Element = field(repr=False)
    plugin: GamePlugin | None = field(default=None, repr=False, compare=False)
    element: Element = field(default=None, repr=False, compare=False)

    @property
    def turn(self) -> int | None:
        value = self.state.get("turn")
        return int(value) if value is not None and value.lstrip("-").isdigit() else None

    @property
    def game(self) -> RunningGame:
        """The game rebuilt from this state (a fresh object on every access)."""
        plugin = self.plugin or plugin_for_state(self.state)
        if plugin is None:
            raise LookupError(f"no game plugin knows states of class {self.state.get('class')!r}")
        return plugin.game_from_state(self.state)


@dataclass(frozen=True)
class MoveRequest:
    room_id: str
    element: Element = field(repr=False, compare=False)


@dataclass(frozen=True)
class Score:
    """One ``<score>`` of a result: cause, optional reason, and the parts as text."""

    cause: str
    reason: str | None
    parts: tuple[str, ...]

    @property
    def points(self) -> int:
        """The first part ("Gewinner"): 2 win, 1 draw, 0 loss."""
        return int(self.parts[0]) if self.parts else 0


@dataclass(frozen=True)
class Result:
    room_id: str
    fragments: tuple[str, ...]  # score fragment names, e.g. ("Gewinner", "∅ Schwarm")
    scores: tuple[Score, ...]  # red first, then blue
    winner: tuple[str, str] | None  # (displayName, COLOR or TEAM) or None for a draw
    element: Element = field(repr=False, compare=False)

    @property
    def winner_seat(self) -> int | None:
        if self.winner is None:
            return None
        return seat_of(self.winner[1])

    def verdict(self, seat: int) -> str:
        """``won``, ``lost`` or ``draw`` for the player in ``seat`` (0 red/ONE, 1 blue/TWO)."""
        if self.winner_seat is None:
            return "draw"
        return "won" if self.winner_seat == seat else "lost"

    def describe(self, seat: int | None = None, label: str | None = None) -> str:
        """The result in words: ``won as red: REGULAR 2/8 against REGULAR 0/8 (Gewinner/∅ Schwarm)``
        seen from ``seat`` (named ``label``, else ``seat N``), or without it ``seat 1 won: ...``;
        the reasons follow once each (the servers repeat one reason on every score): ``...: Das
        Rundenlimit wurde erreicht.``."""
        sides = [f"{score.cause or '?'} {'/'.join(score.parts)}".rstrip() for score in self.scores]
        reasons = list(dict.fromkeys(score.reason for score in self.scores if score.reason))
        names = f" ({'/'.join(self.fragments)})" if self.fragments else ""
        names += f": {'; '.join(reasons)}" if reasons else ""
        if seat is not None and len(sides) == 2 and seat in (0, 1):
            return (f"{self.verdict(seat)} as {label or f'seat {seat + 1}'}: {sides[seat]} against {sides[1 - seat]}"
                    f"{names}")
        head = "draw" if self.winner_seat is None else f"seat {self.winner_seat + 1} won"
        return f"{head}: " + ", ".join(f"seat {k + 1} {side}" for k, side in enumerate(sides)) + names

    def __str__(self) -> str:
        """What ``print(client.result)`` shows: :meth:`describe` (the dataclass's repr stays for
        debugging)."""
        return self.describe()


@dataclass(frozen=True)
class Error:
    room_id: str
    message: str
    original_request: Element | None = field(repr=False, compare=False)
    element: Element = field(repr=False, compare=False)


@dataclass(frozen=True)
class Left:
    room_id: str
    element: Element = field(repr=False, compare=False)


@dataclass(frozen=True)
class Closed:
    """The server's ``CloseConnection``: it is about to hang up."""

    element: Element = field(repr=False, compare=False)


@dataclass(frozen=True)
class Testing:
    test_mode: bool
    element: Element = field(repr=False, compare=False)


@dataclass(frozen=True)
class Unknown:
    element: Element


ServerMessage = Union[
    Joined, JoinedGameRoom, Prepared, Observed, Welcome, Memento, MoveRequest, Result, Error, Left,
    Closed, Testing, Unknown,
]


def plugin_for_state(state: Element) -> GamePlugin | None:
    """The registered plugin whose XML names this state's class, if any."""
    from swc_local.games import registry

    return registry.plugin_for_state(state)


CLOSE_CONNECTION_2021 = "sc.protocol.CloseConnection"
"""The 21.x+ server's CloseConnection (2021 sends it before closing, as 2019 sent its own)."""

MODERN_MOVE_REQUEST_CLASS = "moveRequest"
"""The 2022+ dialect's move request (``<data class="moveRequest"/>``)."""


def seat_of(color_or_team: str) -> int:
    """0 for red/ONE, 1 for blue/TWO (the first and the second seat of both dialects)."""
    return 0 if color_or_team.upper() in ("RED", "ONE") else 1


def _modern_result(room_id: str, data: Element, element: Element) -> Result:
    """The 2022+ result: ``<scores><entry><player name team/><score cause reason><part>``.

    The 2025+ envelope has no ``cause`` and puts the reason on ``<winner team regular reason>``:
    then every score of a ``regular`` result is REGULAR, otherwise the loser's cause is read from
    the violation text (:func:`violation_cause`; ``STUCK`` for a ship that cannot move, the one
    irregular end that breaks no rule) and the winner's is REGULAR, as 2022 wrote them; both
    scores carry the winner's reason, and the winner's name comes from its entry."""
    definition = data.find("definition")
    fragments = tuple(f.get("name") or "" for f in definition.findall("fragment")) if definition is not None else ()
    winner_element = data.find("winner")
    team = winner_element.get("team") if winner_element is not None else None
    envelope_2025 = winner_element is not None and "regular" in winner_element.attrs
    regular = not envelope_2025 or winner_element.get("regular") != "false"
    reason = winner_element.get("reason") if envelope_2025 else None
    scores = []
    names: dict[str | None, str] = {}
    for entry in data.find("scores").findall("entry"):
        player, s = entry.find("player"), entry.find("score")
        entry_team = player.get("team") if player is not None else None
        if player is not None:
            names[entry_team] = player.get("name") or ""
        if s is None:
            continue
        cause = s.get("cause")
        if cause is None and envelope_2025:
            cause = "REGULAR" if regular or entry_team == team else violation_cause(reason or "")
        scores.append(Score(cause or "", s.get("reason", reason), tuple(p.text for p in s.findall("part"))))
    winner = None
    if winner_element is not None and (team is not None or not envelope_2025):
        winner = (winner_element.get("name") or names.get(team, ""), team or "")
    return Result(room_id, fragments, tuple(scores), winner, element)




def _result(room_id: str, data: Element, element: Element) -> Result:
    definition = data.find("definition")
    fragments = tuple(f.get("name") or "" for f in definition.findall("fragment")) if definition is not None else ()
    scores = tuple(
        Score(s.get("cause") or "", s.get("reason"), tuple(p.text for p in s.findall("part")))
        for s in data.findall("score")
    )
    winners = data.findall("winner")
    winner = None
    if len(winners) == 1:  # 2021 names both players of a tie (two <winner>s): a draw
        team = winners[0].find("color")  # 2021: <color class="team">ONE</color>, 2019: color="RED"
        color = winners[0].get("color") or (team.text if team is not None else "") or ""
        winner = (winners[0].get("displayName") or "", color)
    return Result(room_id, fragments, scores, winner, element)


def parse(element: Element, plugin: GamePlugin | None = None) -> ServerMessage:
    """The typed form of one server message; ``plugin`` is used for mementos."""
    tag = element.tag
    room_id = element.get("roomId") or ""
    if tag == "room":
        data = element.find("data")
        kind = data.get("class") if data is not None else None
        if kind == "welcomeMessage":
            return Welcome(room_id, data.get("color") or "", element)
        if kind == "memento" and data.find("state") is not None:
            return Memento(room_id, data.find("state"), plugin, element)
        if kind == msg.MOVE_REQUEST_CLASS or kind == MODERN_MOVE_REQUEST_CLASS:
            return MoveRequest(room_id, element)
        if kind == "result" and data.find("scores") is not None:
            return _modern_result(room_id, data, element)
        if kind == "result":
            return _result(room_id, data, element)
        if kind == "error":
            original = data.find("originalRequest")
            if original is None:
                original = data.find("originalMessage")  # the 2022+ name
            return Error(room_id, data.get("message") or "", original, element)
        return Unknown(element)
    if tag == "joined":
        return Joined(room_id, element)
    if tag == "left":
        return Left(room_id, element)
    if tag == "joinedGameRoom":
        return JoinedGameRoom(room_id, msg.java_bool(element.get("existing")), element)
    if tag == "prepared":
        return Prepared(room_id, tuple(r.text for r in element.findall("reservation")), element)
    if tag == "observed":
        return Observed(room_id, element)
    if tag in (msg.CLOSE_CONNECTION_TAG, CLOSE_CONNECTION_2021):
        return Closed(element)
    if tag == "testing":
        return Testing(msg.java_bool(element.get("testMode")), element)
    return Unknown(element)
