"""Tools for bot authors: ``swc match`` (match runner and results table), ``swc replay`` (print and
check replays) and the player commands they start.

Kept apart from :mod:`swc_local.server`, which holds the server alone: these tools *use* a server
(in-process for ``swc match``) the way a bot author would.
"""
