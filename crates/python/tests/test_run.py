"""`packlab.run` against `packlab run --json`: the same scenario gives the same numbers, every
digit (Python floats compared with ==, after both went through the core's JSON)."""

import pytest

import packlab

# A short run of every model: the first preset of each that simulates (a twentieth of its
# horizon, so the suite stays quick), by a link and by keys.
def one_preset_per_model():
    seen = {}
    for p in packlab.presets():
        d = packlab.describe(p["id"])
        horizon = int(next(k["value"] for k in d["keys"] if k["key"] == "horizon"))
        if p["model"] in seen:
            continue
        try:
            packlab.run(p["id"], horizon=max(horizon // 20, 1000)).reports
        except ValueError:
            continue  # a preset of the theory alone
        seen[p["model"]] = (p["id"], max(horizon // 20, 1000))
    return list(seen.values())


CASES = one_preset_per_model()


def test_every_model_has_a_case():
    assert len(CASES) == len({p["model"] for p in packlab.presets()})


@pytest.mark.parametrize("preset,horizon", CASES)
def test_link_equals_the_cli(cli, preset, horizon):
    link = f"?preset={preset}&seed=7&horizon={horizon}"
    race = packlab.run(link)
    expected = cli.json("run", "--link", link)
    assert race.reports == expected
    assert [r["policy"] for r in race.reports] == race.policies
    assert len(race.reports) >= 1


@pytest.mark.parametrize("preset,horizon", CASES)
def test_keys_equal_the_cli(cli, preset, horizon):
    race = packlab.run(preset, seed=11, horizon=horizon, load=0.5)
    expected = cli.json("run", "--preset", preset, "--seed", "11", "--horizon", str(horizon), "--set", "load=0.5")
    assert race.reports == expected


def test_policy_list_and_series(cli):
    race = packlab.run("pgrr-a1", policy=["vqs", "bf-js"], seed=3, horizon=20000)
    assert race.reports == cli.json("run", "--preset", "pgrr-a1", "--policy", "vqs,bf-js", "--seed", "3",
                                    "--horizon", "20000")
    series = race.series("queue")
    assert list(series) == ["start", "end", *race.labels]
    assert len(series["start"]) == len(series["VQS (J=2)"]) > 0
    assert series["start"][0] == 0


def test_link_opens_the_same_race():
    race = packlab.run("pgrr-a2", policy="bf-js", seed=4, horizon=5000)
    again = packlab.run(race.link)
    assert again.reports == race.reports


def test_a_run_that_cannot_start_names_its_policy():
    with pytest.raises(ValueError, match=r"^policy dra: types: types=random:50 is 50 random collections"):
        packlab.run("pgas-c1", policy="dra").reports


def test_bad_keys_raise_value_error_naming_them():
    with pytest.raises(ValueError, match=r"load: must be a number in \(0, 10\]"):
        packlab.run("pgrr-a1", load=-1)
    with pytest.raises(ValueError, match="seed"):
        packlab.run("pgrr-a1", seed="x")
    with pytest.raises(ValueError, match="nosuchkey"):
        packlab.run("pgrr-a1", nosuchkey=1)
    with pytest.raises(ValueError, match="preset"):
        packlab.run("pgrr-z9")
    with pytest.raises(ValueError, match="policy"):
        packlab.run("pgrr-a1", policy="nosuch")
    with pytest.raises(ValueError, match="metric"):
        packlab.run("pgrr-a1", horizon=2000).series("nosuch")


def test_describe_lists_keys_with_ranges():
    d = packlab.describe("msfq-d1")
    assert d["id"] == "msfq-d1" and d["keys"]
    for k in d["keys"]:
        assert k["range"] and k["help"]
    assert any(p["default"] for p in d["model_policies"])
    with pytest.raises(ValueError, match="preset"):
        packlab.describe("nope")


def test_stepping_reaches_the_reports_numbers():
    race = packlab.run("pgrr-a1", policy="vqs,bf-js", seed=2, horizon=20000)
    assert race.step(until=5000) == 5000
    early = race.readings()
    assert [r["policy"] for r in early] == race.labels
    # Cut anywhere, the trajectory is the same: on to the horizon in two pieces.
    assert race.step(by=7000) == 12000
    assert race.step() == 20000
    for reading, report in zip(race.readings(), race.reports):
        assert reading["mean_queue"] == report["mean_queue"]
        assert reading["arrivals"] == report["arrivals"]
    one_go = packlab.run("pgrr-a1", policy="vqs,bf-js", seed=2, horizon=20000)
    one_go.step(until=20000)
    assert one_go.readings() == race.readings()
    with pytest.raises(ValueError, match="until"):
        race.step(until=-1)
