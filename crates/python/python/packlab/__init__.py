"""packlab in Python: the Rust simulation core of packlab (the same one the CLI and the page
run), as Python values. See docs/python.md.

    >>> import packlab
    >>> race = packlab.run("pgrr-a1", policy="vqs,bf-js", seed=1, horizon=20000)
    >>> [r["mean_queue"] for r in race.reports]
"""

from . import _packlab, starters
from ._packlab import Race, describe, policies, presets, run

__all__ = ["Race", "describe", "policies", "presets", "run", "stability", "starters", "sweep"]


def _bar(progress):
    """A progress callback for the core's batches: `progress` itself if callable; with True, a
    tqdm bar when tqdm is installed (it is not a dependency), else none."""
    if callable(progress):
        return progress, None
    if not progress:
        return None, None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None, None
    bar = tqdm(unit="run")

    def update(done, total, what):
        if bar.total != total:
            bar.reset(total=total)
        bar.set_description(what, refresh=False)
        bar.update(done - bar.n)

    return update, bar


def _batch(make, progress):
    update, bar = _bar(progress)
    try:
        return make(update)
    finally:
        if bar is not None:
            bar.close()


def sweep(link_or_preset, policy=None, seed=None, horizon=None, axis=None, grid=None, reps=None,
          progress=True, **keys):
    """A paper's figure as `packlab sweep` makes it: a dict with the runs' reports ("runs", the
    fields of `packlab run --json`) and the summary ("summary", the rows of PRESET-summary.csv).
    The axis and grid are the preset's unless given (axis="load", grid=[0.5, 0.7, 0.9]).
    `progress`: True for a tqdm bar when tqdm is installed, or a callable(done, total, what).
    Ctrl-C stops it between batches of runs with KeyboardInterrupt."""
    return _batch(lambda update: _packlab.sweep(link_or_preset, policy, seed, horizon, axis, grid, reps,
                                                update, **keys), progress)


def stability(link_or_preset, policy=None, seed=None, horizon=None, axis=None, reps=None, tolerance=None,
              max_runs=None, max_doublings=None, progress=True, **keys):
    """Where each policy stops being stable, as `packlab stability` finds it: a dict with the
    rows of PRESET-stability.csv ("rows"), the rounds and runs it took, and the CLI's warnings.
    `axis` as "servers=1,2,4". The finder's settings (reps, tolerance, max_runs, max_doublings)
    left as None are the core's defaults, the CLI's. `progress` and Ctrl-C as for `sweep`."""
    return _batch(lambda update: _packlab.stability(link_or_preset, policy, seed, horizon, axis, reps, tolerance,
                                                    max_runs, max_doublings, update, **keys), progress)
