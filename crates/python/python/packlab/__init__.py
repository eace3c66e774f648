"""packlab in Python: the Rust simulation core of packlab (the same one the CLI and the page
run), as Python values. See docs/python.md.

    >>> import packlab
    >>> race = packlab.run("pgrr-a1", policy="vqs,bf-js", seed=1, horizon=20000)
    >>> [r["mean_queue"] for r in race.reports]
"""

from ._packlab import Race, describe, policies, presets, run

__all__ = ["Race", "describe", "policies", "presets", "run"]
