"""What happens in a Robo Rally game, as the rules report it (spec roborally.md §5).

The rules (:mod:`.game`) append these to :attr:`Game.outbox`; they say what happened in the
game's own words (a player id, a square, a card) and nothing about who is told what in which
message: that is the wire mapping's business (:mod:`.wire`, the messages of "Protokoll Version
1.0"). Keeping them apart lets the rules be tested, replayed and benchmarked without the
protocol, and lets a second protocol reuse the rules.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PhaseStarted:
    phase: int  # 0 setup, 2 programming, 3 activation


@dataclass(frozen=True, slots=True)
class PlayerToAct:
    pid: int


@dataclass(frozen=True, slots=True)
class StartPointTaken:
    pid: int
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class DeckShuffled:
    pid: int


@dataclass(frozen=True, slots=True)
class HandDealt:
    pid: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RegisterChanged:
    pid: int
    register: int
    filled: bool


@dataclass(frozen=True, slots=True)
class SelectionDone:
    pid: int


@dataclass(frozen=True, slots=True)
class TimerRunning:
    pass


@dataclass(frozen=True, slots=True)
class TimerOver:
    unfinished: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RegistersFilled:
    """The timer ran out on ``pid``: these cards were drawn blindly into its empty registers."""

    pid: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RegisterRevealed:
    """The cards of the register now played, in priority order (None: an empty register)."""

    cards: tuple[tuple[int, str | None], ...]


@dataclass(frozen=True, slots=True)
class CardPlayed:
    pid: int
    card: str
    by_player: bool  # the player played it itself (PlayCard), not the server for it


@dataclass(frozen=True, slots=True)
class EnergyGained:
    pid: int
    count: int  # the robot's energy now
    source: str  # "PowerUpCard" or "EnergySpace"


@dataclass(frozen=True, slots=True)
class CardReplaced:
    pid: int
    register: int
    card: str


@dataclass(frozen=True, slots=True)
class Turned:
    pid: int
    rotation: str  # "clockwise" or "counterclockwise"


@dataclass(frozen=True, slots=True)
class Moved:
    pid: int
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Rebooting:
    pid: int


@dataclass(frozen=True, slots=True)
class DamageToPick:
    pid: int
    count: int
    piles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DamageTaken:
    pid: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BoardElementsActive:
    kind: str  # BlueConveyorBelt, GreenConveyorBelt, PushPanel, Gear, WallShooting, PlayerShooting, EnergySpace, CheckPoint


@dataclass(frozen=True, slots=True)
class CheckpointReached:
    pid: int
    number: int


@dataclass(frozen=True, slots=True)
class GameWon:
    pid: int


Event = (PhaseStarted | PlayerToAct | StartPointTaken | DeckShuffled | HandDealt | RegisterChanged | SelectionDone
         | TimerRunning | TimerOver | RegistersFilled | RegisterRevealed | CardPlayed | EnergyGained | CardReplaced
         | Turned | Moved | Rebooting | DamageToPick | DamageTaken | BoardElementsActive | CheckpointReached | GameWon)
