"""The web door: a browser viewer and a JSON API for every game of every door, live and from files.

* :mod:`.book` -- the games the viewer knows (live ones and opened files) and their steps;
* each family's records (``server/<family>/records.py``, reached through its ServerFamily's
  viewer hooks, server/door.py and server/families.py) -- where its states come from: the admin observer's stream for
  the XML games, each door's game events otherwise; no module here names a family;
* :mod:`.files` -- replays and logs opened by ``swc view`` or uploaded on the start page;
* :mod:`.app` -- the pages and ``/api/`` (starlette), :mod:`.door` -- serving them with hypercorn's
  trio worker inside the server's own trio process.
"""
