"""`packlab.sweep` and `packlab.stability` against the CLI's files for the same request: the
same rows, every number equal (the CSV's shortest round-trip text parses to the same float)."""

import csv

import pytest

import packlab


def parse(text):
    """A CSV cell as the package gives it: None when empty, else an int, a float or text."""
    if text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def read_csv(path):
    with open(path, newline="") as f:
        return [{k: parse(v) for k, v in row.items()} for row in csv.DictReader(f)]


def test_sweep_equals_the_cli(cli, tmp_path):
    args = dict(policy="vqs,bf-js", seed=5, horizon=20000, reps=2)
    result = packlab.sweep("pgrr-a1", axis="load", grid=[0.5, 0.6], progress=False, **args)
    cli("sweep", "--preset", "pgrr-a1", "--policy", "vqs,bf-js", "--seed", "5", "--horizon", "20000", "--reps", "2",
        "--load", "0.5,0.6", "--out", str(tmp_path))
    expected = read_csv(tmp_path / "pgrr-a1-summary.csv")
    # The CSV writes an absent analysis as an empty cell.
    assert result["summary"] == expected
    runs = read_csv(tmp_path / "pgrr-a1-runs.csv")
    assert [r["mean_queue"] for r in result["runs"]] == [r["mean_queue"] for r in runs]
    assert [r["seed"] for r in result["runs"]] == [r["seed"] for r in runs]
    assert len(result["runs"]) == 2 * 2 * 2


def test_sweep_progress_and_errors():
    calls = []
    packlab.sweep("pgrr-a1", policy="vqs", horizon=5000, axis="load", grid="0.5,0.6", reps=2,
                  progress=lambda *a: calls.append(a))
    assert calls and calls[-1][:2] == (4, 4)
    with pytest.raises(ValueError, match=r"load"):
        packlab.sweep("pgrr-a1", axis="load", grid=[0.5, -1], progress=False)
    with pytest.raises(ValueError, match="a sweep sets load itself"):
        packlab.sweep("pgrr-a1", axis="load", grid=[0.5], load=0.7, progress=False)


def test_stability_equals_the_cli(cli, tmp_path):
    options = ["--policy", "vqs", "--horizon", "200000", "--reps", "2", "--tolerance", "0.2", "--max-runs", "200"]
    result = packlab.stability("pgrr-a1", policy="vqs", horizon=200000, reps=2, tolerance=0.2, max_runs=200,
                               progress=False)
    cli("stability", "--preset", "pgrr-a1", *options, "--out", str(tmp_path))
    assert result["rows"] == read_csv(tmp_path / "pgrr-a1-stability.csv")
    assert result["columns"] == list(result["rows"][0])
    assert result["runs"] > 0 and result["rounds"] > 0


def test_stability_errors_name_the_argument():
    with pytest.raises(ValueError, match="reps"):
        packlab.stability("pgrr-a1", reps=1, progress=False)
    with pytest.raises(ValueError, match="the stability map moves the load itself"):
        packlab.stability("pgrr-a1", load=0.5, progress=False)
    with pytest.raises(ValueError, match="expected KEY=V1,V2"):
        packlab.stability("pgrr-a1", axis="servers", progress=False)


def test_ctrl_c_stops_a_sweep_between_batches():
    import os
    import signal

    calls = []

    def interrupt(done, total, what):
        calls.append(done)
        if len(calls) == 1:
            os.kill(os.getpid(), signal.SIGINT)

    # Python raises KeyboardInterrupt only with its own handler in place; a process started in
    # the background of a script inherits Ctrl-C ignored, and Python then installs none.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            packlab.sweep("pgrr-a1", policy="vqs", horizon=5000, axis="load", grid=[0.5, 0.6, 0.7], reps=4,
                          progress=interrupt)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert len(calls) == 1, "no batch ran after the interrupt"
