"""XML mapping for Hase und Igel 2018: moves in, states and winners out (spec §3, §5, §8).

Why hand-written: the official server serialized with XStream, whose field order, attribute order
and defaults decide the bytes (``<state class="state" turn startPlayer currentPlayer>``, then
``red``, ``blue``, ``board``, ``lastMove``); the renderings here are checked byte for byte
against the captures.

Spec-conformance notes:
- Integer attributes are read as XStream's int converter does (``Long.decode``: optional sign,
  ``0x``/``#`` hex, leading-zero octal; values up to 0xFFFFFFFF wrap to a negative int); anything
  else is a malformed move.  Missing ``order``/``distance``/``value`` are 0 (§3).
- Action elements may also be named by their full class name (``sc.plugin2018.Advance``), as
  XStream resolves them; any other child element of a move is malformed.  Unknown attributes are
  ignored, as XStream does.
- ``lastMove`` lists the actions in sorted (executed) order, then the hints: the official move
  sorts its action list in place, and declares the hint list after the action list.
- A ``<card>`` without ``type`` decodes to a card whose type is None (see rules.py).
"""

from __future__ import annotations

import functools

from swc_local.games.hase_und_igel import rules
from swc_local.games.hase_und_igel.rules import Action, Move, Player, State
from swc_local.games.plugin import MalformedMove, int_attr
from swc_local.protocol.element import Element

_TAGS = {
    rules.ADVANCE: rules.ADVANCE, "sc.plugin2018.Advance": rules.ADVANCE,
    rules.CARD: rules.CARD, "sc.plugin2018.Card": rules.CARD,
    rules.EXCHANGE: rules.EXCHANGE, "sc.plugin2018.ExchangeCarrots": rules.EXCHANGE,
    rules.EAT_SALAD: rules.EAT_SALAD, "sc.plugin2018.EatSalad": rules.EAT_SALAD,
    rules.FALL_BACK: rules.FALL_BACK, "sc.plugin2018.FallBack": rules.FALL_BACK,
    rules.SKIP: rules.SKIP, "sc.plugin2018.Skip": rules.SKIP,
}
_HINT_TAGS = ("hint", "sc.shared.DebugHint")


def decode_action(element: Element) -> Action:
    kind = _TAGS.get(element.tag)
    if kind is None or element.children:
        raise MalformedMove(f"unexpected element <{element.tag}> in a move")
    order = int_attr(element, "order")
    if kind == rules.ADVANCE:
        return Action(kind, order, int_attr(element, "distance"))
    if kind == rules.CARD:
        card_type = element.get("type")
        if card_type is not None and card_type not in rules.CARD_TYPES:
            raise MalformedMove(f"no card type {card_type!r}")
        return Action(kind, order, int_attr(element, "value"), card_type)
    if kind == rules.EXCHANGE:
        return Action(kind, order, int_attr(element, "value"))
    return Action(kind, order)


def decode_move(data: Element) -> Move:
    """The children of ``<data class="move">`` (or ``<lastMove>``) as a Move.

    Raises MalformedMove when the official server could not have decoded them.
    """
    actions: list[Action] = []
    hints: list[str | None] = []
    for child in data.children:
        if child.tag in _HINT_TAGS:
            hints.append(child.get("content"))
        else:
            actions.append(decode_action(child))
    return Move(tuple(actions), tuple(hints))


def action_element(action: Action, tag: str | None = None) -> Element:
    attrs = {"order": str(action.order)}
    if action.kind == rules.ADVANCE:
        attrs["distance"] = str(action.value)
    elif action.kind == rules.CARD:
        if action.card is not None:
            attrs["type"] = action.card
        attrs["value"] = str(action.value)
    elif action.kind == rules.EXCHANGE:
        attrs["value"] = str(action.value)
    if tag is not None:
        return Element(tag, {"class": action.kind, **attrs})
    return Element(action.kind, attrs)


def _hint_element(content: str | None) -> Element:
    return Element("hint", {} if content is None else {"content": content})


def move_children(move: Move) -> list[Element]:
    return [action_element(a) for a in move.actions] + [_hint_element(h) for h in move.hints]


def move_element(move: Move) -> Element:
    """The ``<data class="move">`` a client sends for ``move``."""
    return Element("data", {"class": "move"}, move_children(move))


def player_element(player: Player, display_name: str | None, tag: str | None = None,
                   winner: bool = False) -> Element:
    color = rules.COLORS[player.color]
    attrs = {"class": "player"} if winner else {}
    if display_name is not None:
        attrs["displayName"] = display_name
    attrs.update(color=color, index=str(player.index), carrots=str(player.carrots),
                 salads=str(player.salads))
    cards = Element("cards", {}, [Element("type", text=c) for c in player.cards])
    children = [cards]
    if player.last is not None:
        children.append(action_element(player.last, "lastNonSkipAction"))
    return Element(tag or color.lower(), attrs, children)


@functools.lru_cache(maxsize=1024)
def board_element(board: tuple[str, ...]) -> Element:
    """The ``<board>`` of a game: it never changes, so it is built and rendered once."""
    fields = [Element("fields", {"index": str(i), "type": kind}) for i, kind in enumerate(board)]
    return Element("board", {}, fields).freeze()


def state_element(state: State, names: tuple[str | None, str | None]) -> Element:
    attrs = {"class": "state", "turn": str(state.turn), "startPlayer": "RED",
             "currentPlayer": rules.COLORS[state.turn % 2]}
    board = board_element(tuple(state.board))
    children = [player_element(state.red, names[0]), player_element(state.blue, names[1]), board]
    if state.last_move is not None:
        children.append(Element("lastMove", {}, move_children(state.last_move)))
    return Element("state", attrs, children)


def winner_element(player: Player, display_name: str | None) -> Element:
    return player_element(player, display_name, tag="winner", winner=True)


def _parse_player(element: Element | None, color: int) -> tuple[Player, str | None]:
    player = rules.Player(color)
    if element is None:
        return player, None
    player.index = int(element.get("index", "0"))
    player.carrots = int(element.get("carrots", "0"))
    player.salads = int(element.get("salads", "0"))
    cards = element.find("cards")
    player.cards = [] if cards is None else [t.text.strip() for t in cards.findall("type")]
    last = element.find("lastNonSkipAction")
    if last is not None:
        kind = last.get("class", "")
        player.last = decode_action(Element(kind, {k: v for k, v in last.attrs.items()
                                                   if k != "class"}))
    return player, element.get("displayName")


def parse_state(state: Element) -> tuple[State, tuple[str | None, str | None]]:
    """A memento's ``<state>`` back to a State and the two display names."""
    board_element = state.find("board")
    fields = [] if board_element is None else board_element.findall("fields")
    board: list[str] = [""] * len(fields)
    for position, field in enumerate(fields):
        index = int(field.get("index", str(position)))
        board[index] = field.get("type", "")
    red, red_name = _parse_player(state.find("red"), rules.RED)
    blue, blue_name = _parse_player(state.find("blue"), rules.BLUE)
    last = state.find("lastMove")
    result = State(tuple(board), red, blue, int(state.get("turn", "0")),
                   None if last is None else decode_move(last))
    return result, (red_name, blue_name)
