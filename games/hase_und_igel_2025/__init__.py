"""Hase und Igel 2025 (``swc_2025_hase_und_igel``): the 2025 remake, rules as the official 25.x plugin."""
