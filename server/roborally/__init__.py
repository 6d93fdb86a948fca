"""The Robo Rally door: the lab's JSON lines, "Protokoll Version 1.0".

``door`` accepts connections, ``lobby`` seats players and runs rooms (the rules are
``games/roborally``), ``config`` reads its settings, ``cli`` is the ``swc roborally`` drop-in.
"""
