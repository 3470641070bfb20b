"""``minebot calibrate``: make a skin for a client minebot has never seen, from screenshots of it.

Steps: :mod:`calibration.grid` finds the board with no template, :mod:`calibration.cluster` cuts and
groups its cells, :mod:`calibration.label` proposes a state per group, :mod:`calibration.session` asks
about unsure groups (:mod:`calibration.interactive`) and writes the skin (:mod:`calibration.writer`);
:mod:`calibration.sprites` reads published sprite sheets and :mod:`calibration.live` the screen.
"""
