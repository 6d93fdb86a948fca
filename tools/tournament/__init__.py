"""``swc tournament``: round robins, gauntlets and SPRT runs of bot commands, kept in SQLite.

The statistics (:mod:`.elo`, :mod:`.sprt`, :mod:`.binomial`) are pure; the schedule
(:mod:`.schedule`), the database (:mod:`.db`) and the standings (:mod:`.standings`) are plain
data; :mod:`.core` ties them together and applies the stopping rules; games are played by the one
match runner, locally or as tasks on a Dask cluster (:mod:`.executors`); :mod:`.report` and
:mod:`.live` draw the tables; :mod:`.arguments` and :mod:`.cli` are the command line. The
contest's formats (groups in match days, Champions League, Final Eight) plan their stages in
:mod:`.league` and show them in :mod:`.league_report`; :mod:`.launch` starts one from the viewer.
"""
