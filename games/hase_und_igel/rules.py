"""Hase und Igel 2018 rules as the official 18.2.6 server refereed them (spec §2-§7).

Pure Python: no I/O, no XML, no protocol import, so bots, tests and the server share one engine.

Why this validator is literal: ``perform_move`` and the ``can_*`` checks follow the spec -- actions sorted by ``order`` and applied one at a
time to the live state without rollback, with recursive hare look-ahead -- because a faithful
stand-in must fail exactly where the official server failed and leave the same partial state.
The legal-move *generator* is a separate, faster enumeration (:mod:`movegen`); keeping the two
independent lets the property tests check one against the other.

Spec-conformance notes:
- ``currentPlayer`` is derived from ``turn`` parity (RED on even turns); a loaded state's
  ``currentPlayer`` attribute is not consulted (the 2018 release always starts with RED).
- A card action without a type (XML ``<card>`` lacking ``type``) raises :class:`RuleCrash` when
  the move reaches it, after the earlier actions were applied: the spec (§12) leaves this open
  and calls an unhandled exception likely; the plugin maps the crash to a malformed move (LEFT).
- The unreachable skip message (``Nur das ausspielen ...``) is raised by :func:`perform_action`
  for a skip with order > 0, which only a direct call (bypassing the structural check) can see.
- ``Keine Aktionen vorhanden.`` is used for every move without actions, including a decoded
  ``<data class="move"/>`` (the spec's contract), although XStream may have left the list null.
- ``isFirst`` in the goal (both on 64) needs strictly fewer carrots, as §4 states; it matters
  only for constructed states.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from swc_local.games.hase_und_igel.board import (
    CARROT,
    GOAL,
    GOAL_INDEX,
    HARE,
    HEDGEHOG,
    INVALID,
    POSITION_1,
    POSITION_2,
    SALAD,
    START,
    previous_hedgehogs,
)

TAKE = "TAKE_OR_DROP_CARROTS"
EAT = "EAT_SALAD"
HURRY = "HURRY_AHEAD"
FALL = "FALL_BACK"
CARD_TYPES = (TAKE, EAT, HURRY, FALL)  # also the order of a fresh hand

ADVANCE, CARD, EXCHANGE, EAT_SALAD, FALL_BACK, SKIP = (
    "advance", "card", "exchangeCarrots", "eatSalad", "fallBack", "skip")

START_CARROTS = 68
START_SALADS = 5
ROUND_LIMIT = 30
TURN_LIMIT = 2 * ROUND_LIMIT
RED, BLUE = 0, 1
COLORS = ("RED", "BLUE")

GOAL_REASON = "Das Spiel ist beendet.\nEin Spieler ist im Ziel"
ROUND_LIMIT_REASON = "Das Rundenlimit wurde erreicht."

# Verbatim violation texts (§7).
NO_ACTIONS = "Keine Aktionen vorhanden."
BAD_ORDER = "Das order Attribut wurde nicht richtig gesetzt."
ONLY_CARDS_AFTER_FIRST = "Nach der ersten Aktion können nur noch Karten folgen."
MUST_PLAY_CARD = "Es muss eine Karte ausgespielt werden."
CANNOT_EAT = "Es kann gerade kein Salat (mehr) gegessen werden."
CANNOT_FALL_BACK = "Es kann gerade kein Rückzug gemacht werden."
CANNOT_SKIP = "Spieler kann noch einen anderen Zug ausführen, aussetzen ist nicht erlaubt."
SKIP_NOT_FIRST = "Nur das ausspielen von Karten ist nach der ersten Aktion erlaubt."


def advance_failed(distance: int) -> str:
    return f"Vorwärtszug um {distance} Felder ist nicht möglich"


def card_failed(card_type: str | None) -> str:
    return f"Das Ausspielen der {card_type} Karte ist nicht möglich."


def exchange_failed(value: int) -> str:
    return f"Es können nicht {value} Karotten aufgenommen werden."


def not_a_move(display_name: str) -> str:
    """The reason when a player's ``<data>`` is no move at all (the server sends it)."""
    return f"{display_name} hat kein Zug-Objekt gesendet."


class RuleViolation(Exception):
    """A rule check failed; ``message`` is the official text."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class RuleCrash(Exception):
    """The official rule code would have crashed (e.g. a card without a type)."""


class Action(NamedTuple):
    """One action.  ``value`` is the distance of an advance, the value of a card or exchange."""

    kind: str
    order: int = 0
    value: int = 0
    card: str | None = None

    def __str__(self) -> str:
        """How a person reads it (the seat page's move list): ``advance 3``, ``card EAT_SALAD``,
        ``card TAKE_OR_DROP_CARROTS -10``, ``exchangeCarrots 10``, ``eatSalad``; the repr stays
        the tuple's."""
        if self.kind == ADVANCE:
            return f"advance {self.value}"
        if self.kind == CARD:
            return f"card {self.card} {self.value}" if self.card == TAKE else f"card {self.card}"
        if self.kind == EXCHANGE:
            return f"{self.kind} {self.value}"
        return self.kind


class Move(NamedTuple):
    """A move as sent: actions in the client's order, plus debug hints (``content`` or None)."""

    actions: tuple[Action, ...]
    hints: tuple[str | None, ...] = ()

    def __str__(self) -> str:
        return ", then ".join(str(action) for action in self.actions) or "no action"


def advance(distance: int, order: int = 0) -> Action:
    return Action(ADVANCE, order, distance)


def card(card_type: str, value: int = 0, order: int = 0) -> Action:
    return Action(CARD, order, value, card_type)


def exchange(value: int, order: int = 0) -> Action:
    return Action(EXCHANGE, order, value)


def eat_salad(order: int = 0) -> Action:
    return Action(EAT_SALAD, order)


def fall_back(order: int = 0) -> Action:
    return Action(FALL_BACK, order)


def skip(order: int = 0) -> Action:
    return Action(SKIP, order)


COST = tuple(n * (n + 1) // 2 for n in range(200))


def cost(distance: int) -> int:
    return distance * (distance + 1) // 2


@dataclass(slots=True)
class Player:
    color: int
    index: int = 0
    carrots: int = START_CARROTS
    salads: int = START_SALADS
    cards: list[str] = field(default_factory=lambda: list(CARD_TYPES))
    last: Action | None = None  # lastNonSkipAction
    must_play_card: bool = False  # transient, never serialized

    def copy(self) -> Player:
        return Player(self.color, self.index, self.carrots, self.salads, list(self.cards),
                      self.last, self.must_play_card)


@dataclass(slots=True)
class State:
    board: tuple[str, ...]
    red: Player = field(default_factory=lambda: Player(RED))
    blue: Player = field(default_factory=lambda: Player(BLUE))
    turn: int = 0
    last_move: Move | None = None

    @property
    def current(self) -> Player:
        return self.red if self.turn % 2 == 0 else self.blue

    @property
    def other(self) -> Player:
        return self.blue if self.turn % 2 == 0 else self.red

    def player(self, seat: int) -> Player:
        return self.red if seat == RED else self.blue

    def copy(self) -> State:
        return State(self.board, self.red.copy(), self.blue.copy(), self.turn, self.last_move)


_prev_hedgehog = lru_cache(maxsize=256)(previous_hedgehogs)


def field_at(board: tuple[str, ...], index: int) -> str:
    return board[index] if 0 <= index < len(board) else INVALID


# ---------------------------------------------------------------- validator checks (literal)

def is_first(p: Player, o: Player) -> bool:
    if o.index > p.index:
        return False
    if p.index == GOAL_INDEX and o.index == GOAL_INDEX:
        return p.carrots < o.carrots
    return True


def must_eat_salad(board: tuple[str, ...], p: Player) -> bool:
    last = p.last
    return (field_at(board, p.index) == SALAD and last is not None
            and (last.kind == ADVANCE or (last.kind == CARD and last.card in (FALL, HURRY))))


def must_advance(board: tuple[str, ...], p: Player) -> bool:
    if field_at(board, p.index) in (HEDGEHOG, START):
        return True
    last = p.last
    return last is not None and (
        last.kind == EAT_SALAD or (last.kind == CARD and last.card in (EAT, TAKE)))


def _occupied(index: int, p: Player, o: Player) -> bool:
    return index != GOAL_INDEX and (p.index == index or o.index == index)


def any_card_playable(board: tuple[str, ...], p: Player, o: Player) -> bool:
    """The hare look-ahead (§4.7): could ``p`` play one of its cards now?"""
    return any(can_play_card(board, p, o, c, 20 if c == TAKE else 0) for c in p.cards)


def can_advance(board: tuple[str, ...], p: Player, o: Player, distance: int) -> bool:
    if distance < 1 or must_eat_salad(board, p):
        return False
    price = cost(distance)
    target = p.index + distance
    if p.carrots < price or _occupied(target, p, o):
        return False
    kind = field_at(board, target)
    if kind in (INVALID, HEDGEHOG, START):
        return False
    if kind == SALAD:
        return p.salads > 0
    if kind == GOAL:
        return p.carrots - price <= 10 and p.salads == 0
    if kind == HARE:
        look = p.copy()
        look.index, look.carrots, look.last = target, p.carrots - price, advance(distance)
        return any_card_playable(board, look, o)
    return True


def _card_target_ok(board, p: Player, o: Player, target: int, card_type: str) -> bool:
    kind = field_at(board, target)
    if kind in (INVALID, HEDGEHOG, START):
        return False
    if kind == SALAD:
        return p.salads > 0
    if kind == GOAL:
        return p.carrots <= 10 and p.salads == 0
    if kind == HARE:
        look = p.copy()
        look.index, look.last = target, card(card_type)
        look.cards.remove(card_type)
        return any_card_playable(board, look, o)
    return True


def can_play_card(board: tuple[str, ...], p: Player, o: Player, card_type: str | None,
                  value: int) -> bool:
    if field_at(board, p.index) != HARE or must_advance(board, p) or card_type not in p.cards:
        return False
    if card_type == TAKE:
        return value in (20, 0) or (value == -20 and p.carrots >= 20)
    if card_type == EAT:
        return p.salads > 0
    if card_type == HURRY:
        return not is_first(p, o) and _card_target_ok(board, p, o, o.index + 1, HURRY)
    if card_type == FALL:
        target = o.index - 1
        return is_first(p, o) and target != 0 and _card_target_ok(board, p, o, target, FALL)
    return False


def can_exchange(board: tuple[str, ...], p: Player, value: int) -> bool:
    return field_at(board, p.index) == CARROT and (
        value == 10 or (value == -10 and p.carrots >= 10))


def can_eat_salad(board: tuple[str, ...], p: Player) -> bool:
    return field_at(board, p.index) == SALAD and p.salads > 0 and not must_advance(board, p)


def fall_back_target(board: tuple[str, ...], p: Player, o: Player) -> int | None:
    if must_eat_salad(board, p) or not 0 <= p.index < len(board):
        return None
    target = _prev_hedgehog(board)[p.index]
    if target < 0 or _occupied(target, p, o):
        return None
    return target


def max_skip_distance(carrots: int) -> int:
    """How far the skip check looks: the affordable distance, capped at 44 (§4.6)."""
    distance = 0
    while distance < 44 and COST[distance + 1] <= carrots:
        distance += 1
    return distance


def can_skip(board: tuple[str, ...], p: Player, o: Player) -> bool:
    return not (
        any(can_play_card(board, p, o, c, 20 if c == TAKE else 0) for c in p.cards)
        or fall_back_target(board, p, o) is not None
        or can_exchange(board, p, 10) or can_exchange(board, p, -10)
        or can_eat_salad(board, p)
        or any(can_advance(board, p, o, d) for d in range(1, max_skip_distance(p.carrots) + 1))
    )


# ---------------------------------------------------------------- performing a move

def perform_action(state: State, action: Action) -> None:
    """Apply one action for the player to move, or raise RuleViolation (state may be changed)."""
    board, p, o = state.board, state.current, state.other
    kind = action.kind
    if kind == ADVANCE:
        distance = action.value
        if not can_advance(board, p, o, distance):
            raise RuleViolation(advance_failed(distance))
        p.carrots -= cost(distance)
        p.index += distance
        if field_at(board, p.index) == HARE:
            p.must_play_card = True
        p.last = action
    elif kind == CARD:
        if action.card is None:
            raise RuleCrash("card without a type")
        p.must_play_card = False
        card_type = action.card
        if not can_play_card(board, p, o, card_type, action.value):
            raise RuleViolation(card_failed(card_type))
        if card_type == TAKE:
            p.carrots += action.value
        elif card_type == EAT:
            p.salads -= 1
            p.carrots += 10 if is_first(p, o) else 30
        else:
            p.index = o.index + 1 if card_type == HURRY else o.index - 1
            if field_at(board, p.index) == HARE:
                p.must_play_card = True
        p.cards.remove(card_type)
        p.last = action
    elif kind == EXCHANGE:
        if not can_exchange(board, p, action.value):
            raise RuleViolation(exchange_failed(action.value))
        p.carrots += action.value
        p.last = action
    elif kind == EAT_SALAD:
        if not can_eat_salad(board, p):
            raise RuleViolation(CANNOT_EAT)
        p.salads -= 1
        p.carrots += 10 if p.index > o.index else 30
        p.last = action
    elif kind == FALL_BACK:
        target = fall_back_target(board, p, o)
        if target is None:
            raise RuleViolation(CANNOT_FALL_BACK)
        p.carrots += 10 * (p.index - target)
        p.index = target
        p.last = action
    elif kind == SKIP:
        if action.order > 0:
            raise RuleViolation(SKIP_NOT_FIRST)
        if not can_skip(board, p, o):
            raise RuleViolation(CANNOT_SKIP)
    else:
        raise RuleCrash(f"unknown action {kind!r}")


def perform_move(state: State, move: Move) -> None:
    """Validate and apply ``move`` for the player to move (§3); no rollback on failure."""
    actions = sorted(move.actions, key=lambda a: a.order)  # stable, like Java's List.sort
    if not actions:
        raise RuleViolation(NO_ACTIONS)
    for counter, action in enumerate(actions):
        if action.order != counter:
            raise RuleViolation(BAD_ORDER)
        if action.kind != CARD and action.order != 0:
            raise RuleViolation(ONLY_CARDS_AFTER_FIRST)
        perform_action(state, action)
    if state.current.must_play_card:
        raise RuleViolation(MUST_PLAY_CARD)
    state.last_move = Move(tuple(actions), move.hints)  # the echo shows the sorted actions
    state.turn += 1
    apply_position_bonus(state)


def apply_position_bonus(state: State) -> None:
    """POSITION_1 / POSITION_2 carrots for the player now to move (§6)."""
    c, o = state.current, state.other
    kind = field_at(state.board, c.index)
    if kind == POSITION_1 and is_first(c, o):
        c.carrots += 10
    elif kind == POSITION_2 and is_first(o, c):
        c.carrots += 30


# ---------------------------------------------------------------- game end

def outcome(state: State) -> tuple[int, str] | None:
    """(winning seat, reason) if the game is over, else None (§7).  Never a draw."""
    red, blue = state.red, state.blue
    if state.turn % 2 == 0:
        if red.index == GOAL_INDEX:
            if blue.index == GOAL_INDEX and blue.carrots < red.carrots:
                return BLUE, GOAL_REASON
            return RED, GOAL_REASON
        if blue.index == GOAL_INDEX:
            return BLUE, GOAL_REASON
    if state.turn >= TURN_LIMIT:
        if red.index != blue.index:
            return (RED if red.index > blue.index else BLUE), ROUND_LIMIT_REASON
        if red.carrots != blue.carrots:
            return (RED if red.carrots < blue.carrots else BLUE), ROUND_LIMIT_REASON
        return RED, ROUND_LIMIT_REASON
    return None


def new_state(board: tuple[str, ...]) -> State:
    return State(board)
