"""XML mapping for Hase und Igel 2025: moves in, states out (spec §8).

Why hand-written: the official server serializes with XStream, whose attribute and child order
decide the bytes (``<state class="state" startTeam turn>``, then ``board``, the two ``hare``
elements, ``lastMove``); the renderings here are checked byte for byte against the captures.

Spec-conformance notes:
- Moves are decoded as XStream does: ``distance``/``amount`` are ints read like Java's (shared
  with the 2018 mapping, the same XStream converter), a missing one is 0; unknown attributes are
  ignored; ``<card>`` children must name a card exactly; any other child element, an unknown card
  or an unparseable number is a malformed move (the official server closes the connection, cause
  ``PROTOCOL_ERROR``). The full class names (``sc.plugin2025.Advance``, ...) are accepted too,
  because XStream resolves a class attribute by alias or by class name.
- ``lastAction`` is written after every hare's first move (``class="card"`` with the card name as
  text after a card played on a HARE field) and read back the same way.
"""

from __future__ import annotations

import functools

from swc_local.games.hase_und_igel_2025 import track
from swc_local.games.hase_und_igel_2025.state import (
    CARDS,
    TEAMS,
    Action,
    Advance,
    CardAction,
    EatSalad,
    ExchangeCarrots,
    FallBack,
    Hare,
    Move,
    State,
)
from swc_local.games.plugin import MalformedMove, int_attr
from swc_local.protocol.element import Element

MOVE_CLASSES = {
    "advance": "advance", "sc.plugin2025.Advance": "advance",
    "eatsalad": "eatsalad", "sc.plugin2025.EatSalad": "eatsalad",
    "fallback": "fallback", "sc.plugin2025.FallBack": "fallback",
    "exchangecarrots": "exchangecarrots", "sc.plugin2025.ExchangeCarrots": "exchangecarrots",
}


def malformed(message: str) -> MalformedMove:
    """XStream could not read the move: the official server drops the player (PROTOCOL_ERROR)."""
    return MalformedMove(message, cause="PROTOCOL_ERROR")


def _card(element: Element) -> str:
    if element.tag != "card" or element.children:
        raise malformed(f"unexpected element <{element.tag}> in a move")
    if element.text not in CARDS:
        raise malformed(f"no card {element.text!r}")
    return element.text


def decode_move(data: Element) -> Move:
    """A ``<data class=...>`` (or ``lastMove``/``lastAction``) element as a move.

    Raises MalformedMove when the official server could not have decoded it.
    """
    kind = MOVE_CLASSES.get(data.get("class", ""))
    if kind is None:
        raise malformed(f"no move class {data.get('class')!r}")
    if kind == "advance":
        return Advance(int_attr(data, "distance", "PROTOCOL_ERROR"), tuple(_card(c) for c in data.children))
    if data.children:
        raise malformed(f"unexpected element <{data.children[0].tag}> in a move")
    if kind == "eatsalad":
        return EatSalad()
    if kind == "fallback":
        return FallBack()
    return ExchangeCarrots(int_attr(data, "amount", "PROTOCOL_ERROR"))


def action_element(action: Action, tag: str) -> Element:
    """``action`` as ``<TAG class=...>``: a client's ``data``, a state's ``lastMove``/``lastAction``."""
    if isinstance(action, Advance):
        cards = [Element("card", text=card) for card in action.cards]
        return Element(tag, {"class": "advance", "distance": str(action.distance)}, cards)
    if isinstance(action, EatSalad):
        return Element(tag, {"class": "eatsalad"})
    if isinstance(action, FallBack):
        return Element(tag, {"class": "fallback"})
    if isinstance(action, ExchangeCarrots):
        return Element(tag, {"class": "exchangecarrots", "amount": str(action.amount)})
    return Element(tag, {"class": "card"}, text=action.card)


def move_element(move: Move) -> Element:
    """The ``<data class=...>`` a client sends for ``move``."""
    return action_element(move, "data")


@functools.lru_cache(maxsize=256)
def board_element(fields: tuple[str, ...]) -> Element:
    """The ``<board>``: it never changes during a game, so it is built and rendered once."""
    return Element("board", {}, [Element("field", text=kind) for kind in fields]).freeze()


def hare_element(hare: Hare) -> Element:
    attrs = {"team": hare.team, "position": str(hare.position), "salads": str(hare.salads),
             "carrots": str(hare.carrots)}
    children = [] if hare.last_action is None else [action_element(hare.last_action, "lastAction")]
    children.append(Element("cards", {}, [Element("card", text=card) for card in hare.cards]))
    return Element("hare", attrs, children)


def state_element(state: State) -> Element:
    children = [board_element(state.track), hare_element(state.hares[0]),
                hare_element(state.hares[1])]
    if state.last_move is not None:
        children.append(action_element(state.last_move, "lastMove"))
    return Element("state", {"class": "state", "startTeam": "ONE", "turn": str(state.turn)},
                   children)


def _parse_action(element: Element | None) -> Action | None:
    if element is None:
        return None
    if element.get("class") == "card":
        card = element.text.strip()
        if card not in CARDS:
            raise ValueError(f"no card {card!r}")
        return CardAction(card)
    try:
        return decode_move(element)
    except MalformedMove as error:
        raise ValueError(str(error)) from None


def _parse_hare(element: Element, team: str) -> Hare:
    cards_element = element.find("cards")
    cards = [] if cards_element is None else [c.text.strip() for c in cards_element.findall("card")]
    if any(card not in CARDS for card in cards):
        raise ValueError(f"unknown card in {cards}")
    return Hare(team, int(element.get("position", "0")), int(element.get("salads", "5")),
                int(element.get("carrots", "68")), _parse_action(element.find("lastAction")),
                cards)


def parse_state(state: Element) -> State:
    """A memento's ``<state>`` back to a State; ValueError when it is not a 2025 state."""
    board = state.find("board")
    if board is None:
        raise ValueError("state without <board>")
    fields = tuple(field.text.strip() for field in board.findall("field"))
    if len(fields) != track.SIZE or any(kind not in track.FIELDS for kind in fields):
        raise ValueError(f"a board needs {track.SIZE} known fields")
    hare_elements = state.findall("hare")
    if len(hare_elements) != 2:
        raise ValueError("a state needs two <hare> elements")
    by_team = {element.get("team"): element for element in hare_elements}
    if set(by_team) != set(TEAMS):
        # socha 3.x takes the first hare as ONE; so does this loader when teams are missing.
        by_team = dict(zip(TEAMS, hare_elements))
    hares = (_parse_hare(by_team["ONE"], "ONE"), _parse_hare(by_team["TWO"], "TWO"))
    last = _parse_action(state.find("lastMove"))
    if isinstance(last, CardAction):
        raise ValueError("lastMove cannot be a card")
    return State(fields, int(state.get("turn", "0")), hares, last)
