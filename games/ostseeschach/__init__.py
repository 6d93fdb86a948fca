"""Ostseeschach (Software-Challenge 2022): rules in :mod:`.rules`, XML in :mod:`.xmlmap`, and the
server-facing plugin object in :mod:`.plugin` (``PLUGIN``)."""
