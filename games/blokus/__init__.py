"""Blokus 2027 (``swc_2027_blokus``): the current Software-Challenge season."""
