"""Blokus 2021 (``swc_2021_blokus``): rules, wire mapping, view."""
