"""The wire dialects and result envelopes of the XML family, as typed values.

Why a module of its own: a season's value (games/<game>/entry.py) states its dialect and
envelope, and the registry's tuple of values must load without any wire code (the viewer draws
without it, issue 30); the plugin contract (games/plugin.py) re-exports them.  Generic code
compares with these values and never spells them: a StrEnum equals its text, so logs, settings
and records that carried the strings read the same.
"""

from __future__ import annotations

from enum import StrEnum


class Dialect(StrEnum):
    """A wire dialect of the XML family, a typed value that generic code compares with and never
    spells: each season states its own on its value (games/<game>/entry.py)."""

    CLASSIC = "classic"
    """The 2018/2019 wire dialect: ``<room><data class=...>``, colours RED/BLUE."""

    MODERN = "modern"
    """The 2022+ dialect: ``<join/>``, ``moveRequest``, teams ONE/TWO, ``<scores><entry>``."""

    SEASON_2021 = "2021"
    """The 2021 hybrid (Blokus 2021): the classic move request, result and connection ends with the
    2022 team names, state and admin requests (spec blokus_2021.md §8; server/xml/season_2021.py)."""


class Envelope(StrEnum):
    """The result and timeout envelope of a modern-dialect season."""

    V2022 = "2022"
    """Modern envelope of the 22.x servers (Ostseeschach): ``<score cause reason>``, ``<winner team/>``
    only for a win, no timeouts for ``<join/>`` players, a forced step on a half-empty room ignored."""

    V2025 = "2025"
    """Modern envelope of the 24.2+ servers (Hase und Igel 2025, Piranhas 2026, Blokus 2027):
    ``<score>`` with parts only, always ``<winner [team] regular reason/>``, the violator's parts all
    0, timeouts for ``<join/>`` players too (server key ``timeout``), ``<close/>`` answered with
    ``</protocol>``, a forced step on a half-empty room cancels it.  See modern_dialect_2023plus.md."""


CLASSIC, MODERN, SEASON_2021 = Dialect.CLASSIC, Dialect.MODERN, Dialect.SEASON_2021
ENVELOPE_2022, ENVELOPE_2025 = Envelope.V2022, Envelope.V2025

TEAM_DIALECTS = frozenset({MODERN, SEASON_2021})
"""The dialects whose seats are the teams ONE/TWO (the others: red/blue)."""
