"""`packlab.starters`: each Python starting point equals its built-in policy bit for bit on
every preset of its model (a short horizon: the per-decision cost is Python's), and there is
one for every rhai starter the model ships."""

import pytest

import packlab
from packlab import starters

# Horizons short enough for a Python decision per slot or event, long enough for thousands of
# decisions: PG-RR in slots, MSFQ and GH-RA in time units.
HORIZON = {"pgrr": 2000, "msfq": 2000, "ghra": 100}


def presets_of(model):
    return [p["id"] for p in packlab.presets() if p["model"] == model]


CASES = [(s, p) for s in starters.ALL for p in presets_of(s.model)]


def without_policy(report):
    return {k: v for k, v in report.items() if k != "policy"}


def same_run(python, builtin):
    """Every field of the Python lane's report equals the built-in's (its policy aside); the
    built-in may report more (MSF's analysis by phase, a property of that policy)."""
    assert set(python) <= set(builtin)
    assert without_policy(python) == {k: builtin[k] for k in python if k != "policy"}


@pytest.mark.parametrize("starter,preset", CASES, ids=[f"{s.__name__}-{p}" for s, p in CASES])
def test_each_starter_equals_its_built_in_policy(starter, preset):
    race = packlab.run(preset, policy=[starter(), starter.policy], seed=3, horizon=HORIZON[starter.model])
    python, builtin = race.reports
    assert python["arrivals"] > 0
    same_run(python, builtin)


def test_every_model_with_scripts_has_python_starters():
    assert {s.model for s in starters.ALL} == {"pgrr", "msfq", "ghra"}
    assert all(presets_of(s.model) for s in starters.ALL)


@pytest.mark.parametrize("preset", presets_of("pgrr"))
def test_the_stateful_vqs_starter_equals_vqs_at_another_depth(preset):
    """J = 3 whatever the preset's j: most sizes are then at most 2^-J, which `small_jobs =
    "round"` has occupy 2^-J as under VQS."""
    race = packlab.run(preset, policy=[starters.VQS(), "vqs"], seed=3, horizon=HORIZON["pgrr"], j=3)
    python, builtin = race.reports
    assert python["started"] > 0
    same_run(python, builtin)
