"""Packages for the build: ``bot`` and ``calibration`` as found, plus ``bot.templates``.

``bot.templates`` is the top-level ``templates/`` folder (the skins' one source), shipped inside the
package so a wheel carries its skins; ``bot.skin`` finds them there or, in a checkout, in place.
Everything else is in ``pyproject.toml``.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["bot", "bot.*", "calibration", "calibration.*"]), "bot.templates"],
    package_dir={"bot.templates": "templates"},
)
