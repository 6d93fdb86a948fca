"""The move as a person reads it (pages, ``swc replay``, tables): an advance with the field it
reaches and the cards played there (bought, on a market), ``advance 5 to 12 (HARE), card
EAT_SALAD``, ``advance 3 to 20 (MARKET), buy HURRY_AHEAD``; ``eat a salad``, ``carrots +10``,
``fall back`` (spec hase_und_igel_2025.md §4).

Conformance notes: the field is the hare's field before the move plus the distance, where the
first card is played (a HURRY_AHEAD or FALL_BACK then moves it on); without the position before
the move (a replay's first state) the advance reads ``advance 5, card EAT_SALAD``.  The official
``toString`` (``Vorwärts um 5 mit Karten [Salat fressen]``) stays the wire's text, quoted in
error messages."""

from __future__ import annotations

from .state import MARKET, Advance, EatSalad, ExchangeCarrots, Move, State


def move_notation(move: Move, before: State | None = None) -> str:
    if isinstance(move, EatSalad):
        return "eat a salad"
    if isinstance(move, ExchangeCarrots):
        return f"carrots {move.amount:+d}"
    if not isinstance(move, Advance):
        return "fall back"
    text = f"advance {move.distance}"
    field = None
    if before is not None:
        target = before.current.position + move.distance
        field = before.field_at(target)
        text += f" to {target} ({field or 'off the track'})"
    if move.cards:
        verb = "buy" if field == MARKET else ("card" if len(move.cards) == 1 else "cards")
        text += f", {verb} {', '.join(move.cards)}"
    return text
