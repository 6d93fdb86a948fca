"""pytest plugin for bot authors (registered through the ``pytest11`` entry point as ``swc``).

Importing this package has no side effects; the fixtures live in :mod:`swc_local.swc_pytest.plugin`.
"""
