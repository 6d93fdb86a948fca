"""Hive (Software-Challenge 2020): rules in :mod:`.rules`, XML in :mod:`.xmlmap`, and the
server-facing plugin object in :mod:`.plugin` (``PLUGIN``)."""
