"""Robo Rally ("Protokoll Version 1.0" of the LMU software-engineering lab): rules, maps, bots."""
