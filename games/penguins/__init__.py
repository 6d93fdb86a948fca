"""Penguins (Software-Challenge 2023, "Hey, danke für den Fisch"): rules in :mod:`.rules`, the
board generator in :mod:`.xorwow`, XML in :mod:`.xmlmap`, the server-facing plugin object in
:mod:`.plugin` (``PLUGIN``) and the browser picture in :mod:`.view`."""
