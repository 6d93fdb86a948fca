"""``swc tournament``: round robins, gauntlets and SPRT runs of bot commands, kept in SQLite.

The statistics (:mod:`.elo`, :mod:`.sprt`, :mod:`.binomial`) are pure; the schedule
(:mod:`.schedule`), the database (:mod:`.db`) and the standings (:mod:`.standings`) are plain
data; games are played by the one match runner, locally or as tasks on a Dask cluster
(:mod:`.executors`).
"""
