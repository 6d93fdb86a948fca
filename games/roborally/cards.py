"""Card names and counts (spec roborally.md §5.2)."""

from __future__ import annotations

PROGRAMMING_DECK: dict[str, int] = {
    "MoveI": 5, "MoveII": 3, "MoveIII": 1, "TurnRight": 3, "TurnLeft": 3,
    "UTurn": 1, "BackUp": 1, "PowerUp": 1, "Again": 2,
}
DAMAGE_PILES: dict[str, int] = {"Spam": 38, "Virus": 18, "Trojan": 12, "Worm": 6}
DAMAGE = frozenset(DAMAGE_PILES)
PROGRAMMING = frozenset(PROGRAMMING_DECK)
SPECIAL = frozenset({"EnergyRoutine", "SandboxRoutine", "WeaselRoutine", "SpeedRoutine", "SpamFolder", "RepeatRoutine"})
CARD_NAMES = PROGRAMMING | DAMAGE | SPECIAL  # every card name a player may send (spec §3)
PICKABLE = ("Virus", "Trojan", "Worm")  # the order of PickDamage's piles and of the server's pick
MOVES = {"MoveI": 1, "MoveII": 2, "MoveIII": 3}
ALIASES = {"TrojanHorse": "Trojan"}
EMPTY_CARD = (None, "Null", "null")
HAND_SIZE = 9
REGISTERS = 5
START_ENERGY = 5


def new_deck() -> list[str]:
    return [card for card, count in PROGRAMMING_DECK.items() for _ in range(count)]


def canonical(card: str) -> str:
    return ALIASES.get(card, card)
