"""The XML door: Software-Challenge Germany's protocol, both dialects (2018/2019 and 2022+).

Connections (``connection``), the lobby that seats them (``lobby``, ``modern_lobby``, routed by
the tables of ``dialects``), the rooms that referee one game (``room``, ``modern_room``), replays
(``replay``) and the pacing of 2022+ clients (``peer_reads``).
"""
