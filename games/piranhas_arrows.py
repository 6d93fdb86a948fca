"""Where a Piranhas fish landed, for the views of both seasons (2019 and 2026).

A move names its start field and direction, not its destination; both seasons' pictures work
the destination out the same way, so the two helpers live here (no game imports another game).
"""

from __future__ import annotations


def exact_destination(before, move, refusals) -> list[int]:
    """Where the rules send ``move`` from the state ``before`` it ([] if they refuse it)."""
    try:
        return [before.check(move)]
    except refusals:
        return []


def landing_fields(ray, on_line: int, is_mover, is_opponent) -> list[int]:
    """The fields of ``ray`` a fish may have landed on, given ``on_line`` fish on its line after
    the move: it went ``on_line`` fields (nothing eaten) or one more (it ate a fish there); the
    field must hold the mover's fish now and no opponent may lie on the way."""
    found = []
    for distance in (on_line, on_line + 1):
        if 1 <= distance <= len(ray) and is_mover(ray[distance - 1]) \
                and not any(is_opponent(c) for c in ray[: distance - 1]):
            found.append(ray[distance - 1])
    return found
