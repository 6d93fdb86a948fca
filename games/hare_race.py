"""The carrot arithmetic of a Hase und Igel race, shared by both seasons' ladder strategies
(games/hase_und_igel/strategy.py, games/hase_und_igel_2025/strategy.py).

A common module, because no game imports another game (ARCHITECTURE.md), and both seasons price
an advance alike: ``n`` fields cost ``n(n + 1)/2`` carrots, a carrot field gives 10 a turn, and a
hare must reach the goal with at most 10 left.  What differs between the seasons (the salad
rules, the cards) stays in each strategy and comes in as arguments.
"""

from __future__ import annotations


def race_turns(turns: float, left: int, carrots: int, salads: int, visits: int, *, extra: int = 0,
               drop: int = 10, longest_stride: int | None = None) -> float:
    """``turns`` (those counted so far: the salads') plus the turns the carrots cost over the
    ``left`` fields still to go: the strides they allow (covering ``R`` fields in ``n`` advances
    costs about ``R²/2n + R/2``, counting the 20 carrots every salad still brings and ``extra``,
    and no fewer than ``visits + 1`` advances, nor fewer than one per ``longest_stride`` fields),
    the turns spent taking carrots (10 a turn) when the stock is short, and those spent dropping
    carrots (``drop`` a turn) when more than 10 would be left at the goal.  The additions keep
    the strategies' order, so the evaluation is the same to the last bit."""
    budget = carrots + 20 * salads + extra - 5
    spend = budget - left / 2
    if spend >= left / 2:
        strides = left * left / (2 * spend)
        if longest_stride is not None:
            strides = max(strides, left / longest_stride)
        turns += strides if strides > visits + 1 else visits + 1
    else:  # not even one field a turn: take carrots (10 a turn) on the way
        turns += left + (left - budget) / 10
    if not salads:
        excess = carrots - left * (left + 1) / 2 - 10  # more than the last advance can spend
        if excess > 0:
            turns += excess / drop
    return turns
