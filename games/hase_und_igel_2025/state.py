"""Hase und Igel 2025 state, moves and the shared checks (spec §1, §3, §4.2-§4.6, §4.8).

Pure Python: no I/O, no XML, no protocol import, so bots, tests and the server share one engine.
Moves are small frozen values; a :class:`State` is mutable and copied cheaply (the legal-move
generator tries card sequences on copies).

Why the checks return a :class:`Mistake` instead of raising: the official code chains them
("first mistake wins") and the generator asks the same questions without wanting exceptions;
:mod:`rules` turns a returned mistake into :class:`RuleViolation`.

Spec-conformance notes:
- A negative or zero advance is judged only by the target check, as on the server (spec §9
  H26/H27), and ``cost`` is applied to it as written. Distances are 32-bit ints (XStream reads
  them so) and the cost and target of an advance wrap like Kotlin ``Int`` arithmetic, so a huge
  distance gets the server's mistake (e.g. ``FIELD_NONEXISTENT`` where the cost wrapped to a small
  number) rather than one computed with unbounded integers.
- ``lastAction`` after a card is the card itself (:class:`CardAction`), which is also how the
  SWAP_CARROTS "already played" check recognises it.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field

from swc_local.games.hase_und_igel_2025.track import (
    CARROTS,
    GOAL,
    GOAL_INDEX,
    HARE,
    HEDGEHOG,
    LAST_SALAD,
    MARKET,
    POSITION_1,
    POSITION_2,
    SALAD,
    previous_hedgehog,
)

EAT_SALAD = "EAT_SALAD"
SWAP_CARROTS = "SWAP_CARROTS"
FALL_BACK = "FALL_BACK"
HURRY_AHEAD = "HURRY_AHEAD"
CARDS = (FALL_BACK, HURRY_AHEAD, EAT_SALAD, SWAP_CARROTS)
MOVING_CARDS = frozenset({FALL_BACK, HURRY_AHEAD})
CARD_LABELS = {EAT_SALAD: "Salat fressen", SWAP_CARROTS: "Karotten tauschen",
               FALL_BACK: "Zurückfallen", HURRY_AHEAD: "Vorrücken"}

TEAMS = ("ONE", "TWO")
START_CARROTS = 68
START_SALADS = 5
MARKET_PRICE = 10
ROUND_LIMIT = 30
TURN_LIMIT = 2 * ROUND_LIMIT


class Mistake(enum.Enum):
    """``HuIMoveMistake``: the enum name goes into error messages, the value into results."""

    GOAL_CONDITIONS = "Voraussetzungen für Zielfeld nicht erfüllt"
    NO_SALAD = "Kein Salat verfügbar"
    MISSING_CARROTS = "Nicht genügend Karotten"
    MUST_EAT_SALAD = "Auf einem Salatfeld muss ein Salat gegessen werden"
    CANNOT_ENTER_FIELD = "Feld kann nicht betreten werden"
    FIELD_OCCUPIED = "Das Feld ist besetzt"
    FIELD_NONEXISTENT = "Das Feld existiert nicht"
    HEDGEHOG_ONLY_BACKWARDS = "Ein Igelfeld kann nur mit einem Rückwärtzug betreten werden"
    CANNOT_MOVE_FORWARD = "Vorwärtszug ist nicht möglich"
    CANNOT_FALL_BACK = "Rückwärtszug ist nicht möglich"
    CANNOT_EAT_SALAD = "Es kann gerade kein Salat gegessen werden"
    CANNOT_EXCHANGE_CARROTS = ("Karotten tauschen kann nicht mit dieser Karottenanzahl gespielt "
                               "werden")
    MUST_BUY_ONE_CARD = "Auf einem Marktfeld muss genau eine Karte gekauft werden"
    MUST_PLAY_CARD = "Beim Betreten eines Hasenfeldes muss eine Hasenkarte gespielt werden"
    CARD_NOT_OWNED = "Karte kann nicht gespielt werden, da nicht im Besitz"
    CANNOT_PLAY_CARD = "Karte kann nicht gespielt werden"
    CANNOT_PLAY_SWAP_CARROTS_ALREADY_PLAYED = (
        "Karottenaustauschkarte kann nicht gespielt werden: Wurde bereits innerhalb der letzten "
        "zwei Züge gespielt")
    CANNOT_PLAY_SWAP_CARROTS_BEYOND_LAST_SALAD = (
        "Karottenaustauschkarte kann nicht gespielt werden: Nicht alle Spieler sind vor dem "
        "letzten Salatfeld")
    CANNOT_PLAY_FALL_BACK = "Rückzugskarte nicht spielbar"
    CANNOT_PLAY_HURRY_AHEAD = "Vorwärtssprungkarte nicht spielbar"


# --- moves ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Advance:
    distance: int
    cards: tuple[str, ...] = ()

    def __str__(self) -> str:
        if not self.cards:
            return f"Vorwärts um {self.distance}"
        labels = ", ".join(CARD_LABELS[card] for card in self.cards)
        return f"Vorwärts um {self.distance} mit Karten [{labels}]"


@dataclass(frozen=True, slots=True)
class EatSalad:
    def __str__(self) -> str:
        return "Salat fressen"


@dataclass(frozen=True, slots=True)
class FallBack:
    def __str__(self) -> str:
        return "Zurückfallen"


@dataclass(frozen=True, slots=True)
class ExchangeCarrots:
    amount: int

    def __str__(self) -> str:
        return f"Karottenvorrat um {self.amount} aendern"


@dataclass(frozen=True, slots=True)
class CardAction:
    """A hare's ``lastAction`` after an advance whose last card was played on a HARE field."""

    card: str

    def __str__(self) -> str:
        return CARD_LABELS[self.card]


Move = Advance | EatSalad | FallBack | ExchangeCarrots
Action = Move | CardAction


# --- state ------------------------------------------------------------------------------------


@dataclass(slots=True)
class Hare:
    team: str
    position: int = 0
    salads: int = START_SALADS
    carrots: int = START_CARROTS
    last_action: Action | None = None
    cards: list[str] = field(default_factory=list)

    def copy(self) -> Hare:
        return Hare(self.team, self.position, self.salads, self.carrots, self.last_action,
                    list(self.cards))


@dataclass(slots=True)
class State:
    track: tuple[str, ...]
    turn: int = 0
    hares: tuple[Hare, Hare] = field(default_factory=lambda: (Hare("ONE"), Hare("TWO")))
    last_move: Move | None = None

    def copy(self) -> State:
        return State(self.track, self.turn, (self.hares[0].copy(), self.hares[1].copy()),
                     self.last_move)

    @property
    def seat(self) -> int:
        """0 (ONE) moves on even turns; ONE always starts."""
        return self.turn % 2

    @property
    def current(self) -> Hare:
        return self.hares[self.turn % 2]

    def opponent(self, hare: Hare) -> Hare:
        return self.hares[1] if hare is self.hares[0] else self.hares[0]

    def field_at(self, index: int) -> str | None:
        return self.track[index] if 0 <= index < len(self.track) else None


def int32(value: int) -> int:
    """``value`` wrapped as a Java/Kotlin ``Int`` (the server's arithmetic overflows silently)."""
    return (value + (1 << 31)) % (1 << 32) - (1 << 31)


def cost(distance: int) -> int:
    """Carrots an advance by ``distance`` costs (also for distance <= 0, as the server has it).

    Computed in 32-bit ints like the server: ``d * (d + 1)`` is even before and after wrapping,
    so halving it is exact.
    """
    return int32(distance * (distance + 1)) // 2


def max_distance(carrots: int) -> int:
    """How far ``carrots`` can carry a hare (the server's closed form, spec §4.7)."""
    if carrots >= 990:
        return 44
    if carrots < 1:
        return 0
    return int(math.sqrt(2 * carrots + 0.25) - 0.48)


def is_ahead(state: State, hare: Hare) -> bool:
    return hare.position > state.opponent(hare).position


def must_eat_salad(state: State, hare: Hare) -> bool:
    return state.field_at(hare.position) == SALAD and not isinstance(hare.last_action, EatSalad)


def check_target(state: State, hare: Hare, index: int, carrots: int) -> Mistake | None:
    """May ``hare`` enter field ``index`` holding ``carrots``? (spec §3, the target check)."""
    if index == 0:
        return Mistake.CANNOT_ENTER_FIELD
    kind = state.field_at(index)
    if kind != GOAL and index == state.opponent(hare).position:
        return Mistake.FIELD_OCCUPIED
    if kind == SALAD:
        return None if hare.salads > 0 else Mistake.NO_SALAD
    if kind == MARKET:
        return None if carrots >= MARKET_PRICE else Mistake.MISSING_CARROTS
    if kind == HARE:
        return None if hare.cards else Mistake.CARD_NOT_OWNED
    if kind == GOAL:
        return None if carrots <= 10 and hare.salads == 0 else Mistake.GOAL_CONDITIONS
    if kind == HEDGEHOG:
        return Mistake.HEDGEHOG_ONLY_BACKWARDS
    if kind is None:
        return Mistake.FIELD_NONEXISTENT
    return None


def check_advance(state: State, hare: Hare, distance: int) -> Mistake | None:
    """The part of an advance judged before it moves: carrots for the cost, then the target."""
    left = int32(hare.carrots - cost(distance))
    if left < 0:
        return Mistake.MISSING_CARROTS
    return check_target(state, hare, int32(hare.position + distance), left)


def eat_salad(state: State, hare: Hare) -> None:
    hare.salads -= 1
    hare.carrots += 10 if is_ahead(state, hare) else 30


def check_card(state: State, hare: Hare, card: str) -> Mistake | None:
    """The card's own check, made after it left the hand (spec §4.2)."""
    if card == EAT_SALAD:
        return None if hare.salads > 0 else Mistake.NO_SALAD
    if card == SWAP_CARROTS:
        for someone in state.hares:
            if someone.position >= LAST_SALAD:
                return Mistake.CANNOT_PLAY_SWAP_CARROTS_BEYOND_LAST_SALAD
            if someone.last_action == CardAction(SWAP_CARROTS):
                return Mistake.CANNOT_PLAY_SWAP_CARROTS_ALREADY_PLAYED
        return None
    other = state.opponent(hare).position
    if card == FALL_BACK:
        if not is_ahead(state, hare):
            return Mistake.CANNOT_PLAY_FALL_BACK
        return check_target(state, hare, other - 1, hare.carrots)
    if is_ahead(state, hare):
        return Mistake.CANNOT_PLAY_HURRY_AHEAD
    return check_target(state, hare, other + 1, hare.carrots)


def play_card(state: State, hare: Hare, card: str) -> Mistake | None:
    """Play ``card`` from the hand on a HARE field: remove it, check it, apply its effect."""
    if card not in hare.cards:
        return Mistake.CARD_NOT_OWNED
    hare.cards.remove(card)
    mistake = check_card(state, hare, card)
    if mistake is not None:
        return mistake
    card_effect(state, hare, card)
    return None


def card_effect(state: State, hare: Hare, card: str) -> None:
    """What a card does once it passed its check."""
    opponent = state.opponent(hare)
    if card == EAT_SALAD:
        eat_salad(state, hare)
    elif card == SWAP_CARROTS:
        hare.carrots, opponent.carrots = opponent.carrots, hare.carrots
    elif card == FALL_BACK:
        hare.position = opponent.position - 1
    else:
        hare.position = opponent.position + 1


def fallback_target(state: State, hare: Hare) -> int | None:
    """The hedgehog a fallback goes to, or None when there is none or it is occupied."""
    target = previous_hedgehog(state.track, hare.position)
    if target is None or target == state.opponent(hare).position:
        return None
    return target


def may_exchange(state: State, hare: Hare, amount: int) -> bool:
    return state.field_at(hare.position) == CARROTS and (
        amount == 10 or (amount == -10 and hare.carrots >= 10))


def award_position(state: State, hare: Hare) -> None:
    """POSITION_1 pays 10 to a hare ahead, POSITION_2 pays 30 to one not ahead (spec §4.6)."""
    kind = state.field_at(hare.position)
    if kind == POSITION_1 and is_ahead(state, hare):
        hare.carrots += 10
    elif kind == POSITION_2 and not is_ahead(state, hare):
        hare.carrots += 30


def in_goal(hare: Hare) -> bool:
    return hare.position == GOAL_INDEX
