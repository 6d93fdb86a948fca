"""The contract between the server and a game.

The server knows a game only through :class:`GamePlugin` (one object per game type, an
:class:`XmlPlugin` its season's value builds, found in :mod:`swc_local.games.registry`) and the :class:`RunningGame` objects it creates (one per room).  Everything a game
needs from XML goes through :class:`swc_local.protocol.element.Element`, so a game never sees bytes and the
server never sees a board.

Seat numbers: 0 is the first slot (red, ONE), 1 the second (blue, TWO).

Fault handling is split on purpose, because the official server scores the cases differently:

* :class:`InvalidMove` -- the move decoded fine but a rule check failed: ``RULE_VIOLATION`` with
  the reason text, the offender is told ``Ungueltiger Zug von 'NAME'.\\nREASON``.
* :class:`MalformedMove` -- the data could not even be turned into a move object (bad enum value,
  missing attribute, or an internal crash of the official rule code that we reproduce): the
  offender is dropped without a message and scored ``LEFT``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

from swc_local.games.dialects import (  # noqa: F401  (the dialects are declared with the contract)
    CLASSIC, ENVELOPE_2022, ENVELOPE_2025, MODERN, SEASON_2021, TEAM_DIALECTS, Dialect, Envelope,
)
from swc_local.protocol.element import Element
from swc_local.protocol.xstream import java_int
from swc_local.protocol.responses import ScoreFragment  # noqa: F401  (the plugins declare their result columns with it)

def seat_labels(plugin: object) -> tuple[str, str]:
    """What a person calls the two seats of ``plugin``'s game, first seat first.

    The names of the game's own wire: ``red``/``blue`` for the classic games (as their welcome
    says), ``ONE``/``TWO`` for the 2022+ ones (as their welcome, ``<winner team/>`` and the
    official tools say).  ``swc match``, its report and the pytest helper all label seats with
    this one function; an object without a ``dialect`` counts as classic."""
    return ("ONE", "TWO") if getattr(plugin, "dialect", CLASSIC) in TEAM_DIALECTS else ("red", "blue")


class InvalidMove(Exception):
    """A rule check failed. ``reason`` is the official, verbatim reason text.

    Modern dialect: ``reason`` is the InvalidMoveException's *message* (2022: the score reason,
    "<mistake> bei Zug '<move>'"; 2025: what follows "Regelverletzung von NAME: "), and
    ``detail`` its *toString* ("InvalidMoveException(mistake=..., move=...)"), which the error
    message carries after "Ungueltiger Zug von 'NAME'.\n".  Classic games leave ``detail`` out.
    """

    def __init__(self, reason: str, detail: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.detail = reason if detail is None else detail


class MalformedMove(Exception):
    """The move could not be decoded (or the official code crashed on it): scored LEFT.

    Modern dialect: ``cause`` is the LEFT cause the official server wrote ("UNKNOWN" when its
    code failed on the move, "PROTOCOL_ERROR" when XStream could not parse a value, 2025+).
    """

    def __init__(self, message: str = "", cause: str = "UNKNOWN"):
        super().__init__(message)
        self.cause = cause


def int_attr(element: Element, name: str, cause: str = "UNKNOWN") -> int:
    """An int attribute of a move as XStream reads it (``Long.decode``, wrapped to a Java int); a
    missing one is Java's default 0; one XStream cannot read is MalformedMove with ``cause``."""
    text = element.get(name)
    if text is None:
        return 0
    try:
        return java_int(text)
    except ValueError as error:
        raise MalformedMove(str(error), cause=cause) from None


@dataclass(frozen=True, slots=True)
class Outcome:
    """A win condition that holds: ``winner`` is a seat, or None for a draw.  ``regular`` False:
    the 2025 envelope's ``<winner regular="false">`` although nobody broke a rule (a stuck ship
    in Mississippi Queen 2024)."""

    winner: int | None
    reason: str
    regular: bool = True


@runtime_checkable
class RunningGame(Protocol):
    """One running game: a pure, mutable rules engine plus its XML mapping."""

    @property
    def turn(self) -> int: ...

    @property
    def current_seat(self) -> int:
        """The seat whose move is expected next."""
        ...

    def set_display_names(self, names: tuple[str, str]) -> None:
        """Called once when the game starts; names appear in states and results."""
        ...

    def decode_move(self, data: Element) -> object:
        """Turn a ``<data class="move" ...>`` element into a move, or raise MalformedMove."""
        ...

    def apply(self, seat: int, move: object) -> None:
        """Validate and perform ``move`` for ``seat``; raise InvalidMove with the reason text.

        A failed move may leave the state partly changed when the official rules did so
        (Hase und Igel applies actions one at a time without rollback).
        """
        ...

    def outcome(self) -> Outcome | None:
        """The game-over check the server runs after every valid move."""
        ...

    def state_element(self) -> Element:
        """The ``<state>`` element of a memento for the current state."""
        ...

    def score_parts(self, seat: int) -> list[str]:
        """The result ``<part>`` values after the first ("Gewinner") one."""
        ...

    def winner_element(self, seat: int) -> Element:
        """The result's ``<winner .../>`` element for ``seat`` (classic dialect only)."""
        ...

    # Modern dialect only: ``move_text`` and ``early_outcome``, hooks with defaults in
    # :class:`GameHooks`.  ``apply`` may raise MalformedMove (the official rule code crashed: the
    # player is dropped, LEFT with ``cause``).  An InvalidMove carries the error text as
    # ``detail``.
    #
    # ``set_display_names`` gets "" for players who came in by ``<join/>`` (they have no name).
    # ``outcome().reason`` is the win reason as sent in a 2025 ``<winner reason>`` (names filled
    # in); the 2022 envelope never sends it.  ``score_parts`` must work in every state, also
    # when the game stops early (violation, timeout, cancel at turn 0).


class GamePlugin(Protocol):
    """A game type the server can host."""

    game_type: str  # e.g. "swc_2019_piranhas"
    display_name: str
    dialect: Dialect  # CLASSIC, MODERN or SEASON_2021 (games/dialects.py)
    soft_timeout_ms: int
    hard_timeout_ms: int
    score_fragments: tuple[ScoreFragment, ...]
    move_classes: frozenset[str]  # <data class=...> values decoded as a move
    data_classes: frozenset[str]  # other class aliases the game's XML knows (not moves)
    error_echoes_move: bool  # the invalid-move error carries <originalRequest> (2018: yes, 2019: no)
    # and the hooks of :class:`PluginHooks` (envelope, season, recognizes_state), which a plugin
    # inherits with their defaults and overrides only where its game differs.

    def new_game(self, rng: random.Random) -> RunningGame:
        """A fresh game; the board is generated now, from ``rng`` only."""
        ...

    def game_from_state(self, state: Element) -> RunningGame:
        """Rebuild a game from a memento's ``<state>`` (bots, replays, loading a position)."""
        ...

    def legal_moves(self, game: RunningGame) -> list[object]:
        """Every legal move for the side to move (may be empty)."""
        ...

    def move_element(self, move: object) -> Element:
        """The ``<data class="move" ...>`` element a client sends for ``move``."""
        ...

    def random_move(self, game: RunningGame, rng: random.Random) -> object | None:
        """A uniformly random legal move, or None when there is none (the reference bot)."""
        ...

    def describe(self, game: RunningGame) -> str:
        """A small text board for people (replays, logs)."""
        ...


class PluginHooks:
    """The optional members of a :class:`GamePlugin`, declared with their defaults.

    Why hooks instead of ``getattr(plugin, name, default)`` at each use: the defaults live in
    one place, a plugin states what it changes in one-line overrides (python-chess's variants
    are the model), and a misspelt override is a plain attribute, found by reading the class.
    """

    envelope: Envelope = ENVELOPE_2022
    """Modern dialect: the result and timeout envelope, ENVELOPE_2022 or ENVELOPE_2025 (an
    :class:`XmlPlugin` reads it from its season's value)."""

    season: int | None = None
    """The year of the game (e.g. 2022); None: the year in its game type. ``<join/>`` without
    gameType goes to the newest modern season unless the server's ``defaultGame`` names another."""

    close_alias: bool = True
    """Modern dialect: whether a player of this game may close with ``<close/>`` (2025+);
    False: it is an unknown element that drops the connection (24.x, the 2022 envelope too)."""

    step_repeats_request: bool = False
    """Modern dialect: a ``step`` while a move request is open sends the memento and a second
    request (24.x); False: it is ignored."""

    def game_from_replay(self, states: list[Element]) -> RunningGame:
        """The game at the first of a replay's memento ``<state>`` s (``swc replay --check``);
        a game whose states show only part of its board may take the rest from the later ones."""
        return self.game_from_state(states[0])

    def copy_game(self, game: RunningGame) -> RunningGame:
        """An independent copy of ``game`` (by default through its state's XML)."""
        return self.game_from_state(game.state_element())

    def recognizes_state(self, state: Element) -> bool | None:
        """Whether a memento's ``<state>`` is this game's, for class names several years share
        (``state``); None: no opinion, the state's class alone decides (the registry)."""
        return None


class GameHooks:
    """The optional members of a :class:`RunningGame`, declared with their defaults (see PluginHooks)."""

    def move_text(self, move: object) -> str:
        """Modern dialect: the move's Kotlin toString, e.g. "Zug von [0|1] zu [1|2]", quoted in
        "It's not your turn yet; expected: ONE(), got TWO() (msg was <move_text>).".."""
        return str(move)

    def snapshot(self) -> object | None:
        """A copy of this game that later moves leave alone, cheap enough to take on every move: the
        web viewer keeps one per state of a live room instead of the memento's bytes and renders
        ``snapshot.state_element()`` only when a page asks. None: the viewer keeps the bytes."""
        return None

    def echoes_move(self, move: object) -> bool:
        """2020 classic rooms: whether the invalid-move error of ``move`` carries it as
        ``<originalRequest>`` (the 2020 SDK's skip names no move)."""
        return True

    def early_outcome(self) -> Outcome | None:
        """2025 envelope: who leads when an admin cancels the game before its end (25.x
        ``currentWinner()``); None: the room's rule (the first ranking score part that differs)."""
        return None


class PositionGame(GameHooks):
    """One room's game over a position of pure rules, plus the display names the server sets: the
    wrapper every modern game shares (``turn``, ``current_seat``, ``set_display_names``,
    ``legal_moves``, ``apply``), its game's facts as class attributes, as a python-chess variant
    states its own.

    ``apply`` pushes a move onto the position (:meth:`push`) and maps the rules' own exceptions:
    :attr:`violation` (a move the rules refuse) to :meth:`mistake`'s ``InvalidMove``, :attr:`crash`
    (a move the official code crashed on) to :meth:`malformed`'s ``MalformedMove``; a move that is
    no :attr:`move_type` is a TypeError naming :attr:`game_name`.
    """

    __slots__ = ("position", "names")

    violation: ClassVar[type[Exception] | tuple[type[Exception], ...]] = ()
    crash: ClassVar[type[Exception] | tuple[type[Exception], ...]] = ()
    move_type: ClassVar[type | tuple[type, ...]] = object
    game_name: ClassVar[str] = ""
    wire: ClassVar[Any] = None
    """The season's XML mapping (its ``xmlmap`` module): ``decode_move``, ``move_element`` and
    ``position_from_state`` (the default :meth:`from_state`)."""
    position_class: ClassVar[Any] = None
    """The rules' position (``start(rng)``: the default :meth:`start`)."""

    def __init__(self, position: Any, names: tuple[str, str] = ("", "")) -> None:
        self.position = position
        self.names = names

    @classmethod
    def start(cls, rng: random.Random) -> PositionGame:
        """A fresh game, its board drawn from ``rng`` only."""
        return cls(cls.position_class.start(rng))

    @classmethod
    def from_state(cls, state: Element) -> PositionGame:
        """The game a memento's ``<state>`` shows."""
        return cls(cls.wire.position_from_state(state))

    def decode_move(self, data: Element) -> object:
        return self.wire.decode_move(data)

    @property
    def turn(self) -> int:
        return self.position.turn

    @property
    def current_seat(self) -> int:
        return self.position.current

    def set_display_names(self, names: tuple[str, str]) -> None:
        self.names = (names[0], names[1])

    def legal_moves(self) -> list:
        return self.position.legal_moves()

    def apply(self, seat: int, move: object) -> None:
        if seat != self.current_seat:
            raise ValueError(f"seat {seat} is not on turn")
        if not isinstance(move, self.move_type):
            raise TypeError(f"not {self.game_name} move: {move!r}")
        try:
            self.push(move)
        except self.violation as violation:
            raise self.mistake(violation, move) from None
        except self.crash as crash:
            raise self.malformed(crash) from None

    def push(self, move: Any) -> None:
        """Make the move on the position (the rules raise :attr:`violation` or :attr:`crash`)."""
        self.position.push(move)

    def mistake(self, violation: Any, move: Any) -> InvalidMove:
        return InvalidMove(str(violation))

    def malformed(self, crash: Exception) -> MalformedMove:
        return MalformedMove(str(crash))


class RandomMoveFromLegal:
    """Mixin for a :class:`GamePlugin` whose reference bot plays a uniformly random one of
    :meth:`legal_moves`: the same ``rng.choice`` on the same list, so every plugin that uses it
    draws the same moves for the same seed as before."""

    def random_move(self, game: RunningGame, rng: random.Random) -> object | None:
        moves = self.legal_moves(game)
        return rng.choice(moves) if moves else None


class XmlPlugin(PluginHooks, RandomMoveFromLegal):
    """The one plugin base of every XML season, parametrised by its game class (:attr:`game_class`,
    a :class:`PositionGame` whose ``wire`` is the season's XML mapping and ``position_class`` its
    rules) and given the season's value (games/<game>/entry.py) when the value loads it: the
    game type, display name, dialect, envelope and year are read from that value, stated once.

    A season overrides only what differs: its result columns and class aliases (class
    attributes), ``recognizes_state``, ``describe`` and, rarely, ``new_game`` or ``random_move``.
    """

    game_class: ClassVar[type[PositionGame]]
    soft_timeout_ms: ClassVar[int] = 2000
    hard_timeout_ms: ClassVar[int] = 10000

    def __init__(self, entry: Any) -> None:
        self.entry = entry  # the season's value (an XmlSeason)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game_type!r})"

    @property
    def game_type(self) -> str:
        return self.entry.game_type

    @property
    def display_name(self) -> str:
        return self.entry.display_name

    @property
    def dialect(self) -> Dialect:  # type: ignore[override]
        return self.entry.dialect

    @property
    def envelope(self) -> Envelope:  # type: ignore[override]
        return self.entry.envelope

    @property
    def season(self) -> int | None:  # type: ignore[override]
        return self.entry.season

    @property
    def wire(self) -> Any:
        return self.game_class.wire

    def new_game(self, rng: random.Random) -> PositionGame:
        return self.game_class.start(rng)

    def game_from_state(self, state: Element) -> PositionGame:
        return self.game_class.from_state(state)

    def legal_moves(self, game: PositionGame) -> list:
        return game.legal_moves()

    def move_element(self, move: object) -> Element:
        return self.wire.move_element(move)
