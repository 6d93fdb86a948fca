"""The wire mapping of Robo Rally: the rules' events as messages of "Protokoll Version 1.0".

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
