"""The wire mapping of Robo Rally: the rules' events as messages of "Protokoll Version 1.0", and
a player's game messages as calls of the rules (:func:`apply_message`), one beside the other.

:func:`messages` turns the events of :mod:`.events` into ``(to, client_id, message_type, body)``
with ``to`` one of ``"all"``, ``"others"`` (all but ``client_id``) and ``"one"``; the server
encodes each body with :func:`swc_local.protocol.roborally.encode` (which checks it against the
message's model) and sends it to those peers. Who is told what is decided here, not in the
rules (spec roborally.md §3 and §5):

* a dealt hand is ``YourCards`` to its player and ``NotYourCards`` (only the count) to the others;
* a card the player played itself (``PlayCard``) is announced to the others only; one the
  server played for it goes to all;
* an empty register shows as the card ``"Null"`` in ``CurrentCards``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from swc_local.protocol.roborally import FieldError, parse_body

from . import events as e

Out = tuple[str, int, str, dict]


def _all(message_type: str, body: dict) -> list[Out]:
    return [("all", 0, message_type, body)]


_MAPPING: dict[type, Callable] = {
    e.PhaseStarted: lambda ev: _all("ActivePhase", {"phase": ev.phase}),
    e.PlayerToAct: lambda ev: _all("CurrentPlayer", {"clientID": ev.pid}),
    e.StartPointTaken: lambda ev: _all("StartingPointTaken", {"x": ev.x, "y": ev.y, "clientID": ev.pid}),
    e.DeckShuffled: lambda ev: _all("ShuffleCoding", {"clientID": ev.pid}),
    e.HandDealt: lambda ev: [("one", ev.pid, "YourCards", {"cardsInHand": list(ev.cards)}),
                             ("others", ev.pid, "NotYourCards", {"clientID": ev.pid, "cardsInHand": len(ev.cards)})],
    e.RegisterChanged: lambda ev: _all("CardSelected", {"clientID": ev.pid, "register": ev.register, "filled": ev.filled}),
    e.SelectionDone: lambda ev: _all("SelectionFinished", {"clientID": ev.pid}),
    e.TimerRunning: lambda ev: _all("TimerStarted", {}),
    e.TimerOver: lambda ev: _all("TimerEnded", {"clientIDs": list(ev.unfinished)}),
    e.RegistersFilled: lambda ev: [("one", ev.pid, "CardsYouGotNow", {"cards": list(ev.cards)})],
    e.RegisterRevealed: lambda ev: _all("CurrentCards", {"activeCards": [
        {"clientID": pid, "card": card or "Null"} for pid, card in ev.cards]}),
    e.CardPlayed: lambda ev: [("others" if ev.by_player else "all", ev.pid, "CardPlayed",
                               {"clientID": ev.pid, "card": ev.card})],
    e.EnergyGained: lambda ev: _all("Energy", {"clientID": ev.pid, "count": ev.count, "source": ev.source}),
    e.CardReplaced: lambda ev: _all("ReplaceCard", {"register": ev.register, "newCard": ev.card, "clientID": ev.pid}),
    e.Turned: lambda ev: _all("PlayerTurning", {"clientID": ev.pid, "rotation": ev.rotation}),
    e.Moved: lambda ev: _all("Movement", {"clientID": ev.pid, "x": ev.x, "y": ev.y}),
    e.Rebooting: lambda ev: _all("Reboot", {"clientID": ev.pid}),
    e.DamageToPick: lambda ev: [("one", ev.pid, "PickDamage", {"count": ev.count, "availablePiles": list(ev.piles)})],
    e.DamageTaken: lambda ev: _all("DrawDamage", {"clientID": ev.pid, "cards": list(ev.cards)}),
    e.BoardElementsActive: lambda ev: _all("Animation", {"type": ev.kind}),
    e.CheckpointReached: lambda ev: _all("CheckPointReached", {"clientID": ev.pid, "number": ev.number}),
    e.GameWon: lambda ev: _all("GameFinished", {"clientID": ev.pid}),
}


def messages(happened: Iterable[e.Event]) -> list[Out]:
    """The messages for these events, in order."""
    out: list[Out] = []
    for event in happened:
        out += _MAPPING[type(event)](event)
    return out


LATE = ""
"""What :func:`apply_message` returns as the error of a ``PlayCard`` that came too late: ignored
(logged), nobody is told and nothing is sent."""


def apply_message(game, pid: int, kind: str, body: dict) -> tuple[str | None, str | None]:
    """One game message of player ``pid`` (``SetStartingPoint``, ``SelectedCard``, ``PlayCard``,
    ``SelectedDamage``, ``RebootDirection``) as a call of the rules: ``(error, after)``, the
    ``Error`` text for the sender (None: accepted; :data:`LATE`: ignored) and one more text to
    send it after the game's answers (a card the rules played instead)."""
    after: str | None = None
    if kind == "SetStartingPoint":
        error = game.check_setup_turn(pid)
        if error is None:
            try:
                point = parse_body(kind, body)
            except FieldError as field_error:
                error = str(field_error)
            else:
                error = game.on_set_starting_point(pid, point.x, point.y)  # type: ignore[attr-defined]
    elif kind == "SelectedCard":
        error = game.on_selected_card(pid, body.get("card"), body.get("register"))
    elif kind == "PlayCard":
        error = game.play_card_error(pid)
        if error == LATE:
            return LATE, None
        if error is None:
            try:
                card = parse_body(kind, body).card  # type: ignore[attr-defined]
            except FieldError as field_error:
                error = str(field_error)
            else:
                after = game.on_play_card(pid, card)
    elif kind == "SelectedDamage":
        error = None if game.damage_pending_for(pid) else "No damage selection pending"
        if error is None:
            try:
                cards = parse_body(kind, body).cards  # type: ignore[attr-defined]
            except FieldError as field_error:
                error = str(field_error)
            else:
                error = game.on_selected_damage(pid, cards)
    else:  # RebootDirection
        error = game.on_reboot_direction(pid, body.get("direction"))
    return error, after
