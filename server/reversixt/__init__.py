"""The ReversiXT door: the course's binary protocol, 2-8 players on a map.

``door`` accepts and seats players, ``game`` referees one game over the wire (the rules are
``games/reversixt``), ``config`` reads its settings, ``dropin`` is the stand-alone
``swc reversixt`` server that behaves like the reference server's command line.
"""
