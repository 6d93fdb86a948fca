"""A round's moves as a person reads them (pages, ``swc replay``): what each robot runs in a
register, in the order the server runs them (spec roborally.md §5: ``CurrentCards`` at the start
of each register, in priority order): ``register 2: robot 1 MoveI, robot 2 TurnLeft``.

Conformance note: a robot with an empty register (it rebooted this round) shows the wire's
``Null`` as ``-``; the cards keep the protocol's names, which the lab's clients show too."""

from __future__ import annotations


def register_notation(register: int, active_cards: list) -> str:
    """``active_cards`` is ``CurrentCards``' ``activeCards`` (``{clientID, card}`` objects)."""
    plays = []
    for entry in active_cards:
        if isinstance(entry, dict):
            card = entry.get("card")
            plays.append(f"robot {entry.get('clientID')} {'-' if card in (None, 'Null') else card}")
    return f"register {register}: " + (", ".join(plays) or "-")
