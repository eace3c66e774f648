"""Policies written in Python: raced beside the built-in ones on common random numbers, seeing
the `ctx` the rhai scripts see (one declaration per model), checked by the engine."""

import pytest

import packlab

HORIZON = 20000


class BestFit:
    """PG-RR's best fit, as the rhai starter writes it (scripts/best_fit.rhai); counts its calls."""

    def __init__(self):
        self.calls = 0

    def schedule(self, ctx):
        self.calls += 1
        start = 0
        while True:
            # Only a job no larger than the largest room can start: jump to the next such job.
            job = ctx.first_fitting(start, ctx.max_residual)
            if job is None:
                break
            server = ctx.best_fit(job)
            if server is not None:
                ctx.start(job, server)
            start = job.id + 1


def without_policy(report):
    return {k: v for k, v in report.items() if k != "policy"}


def test_a_python_best_fit_is_bf_j_to_the_bit_and_keeps_its_state():
    policy = BestFit()
    race = packlab.run("pgrr-a1", policy=[policy, "bf-j"], seed=1, horizon=HORIZON)
    python, builtin = race.reports
    assert without_policy(python) == without_policy(builtin)
    assert python["started"] > 0
    # Called once a slot: its state lived on between decisions.
    assert policy.calls == HORIZON
    assert race.labels == ["Script (BestFit)", "BF-J"]


def test_a_stepped_python_lane_reads_as_the_built_in_one():
    race = packlab.run("pgrr-a1", policy=[BestFit(), "bf-j"], seed=2, horizon=HORIZON)
    race.step(until=HORIZON // 2)
    python, builtin = race.readings()
    assert {k: v for k, v in python.items() if k not in ("policy", "label")} == \
        {k: v for k, v in builtin.items() if k not in ("policy", "label")}


class Raises:
    def schedule(self, ctx):
        if ctx.slot == 10:
            return 1 / 0


def test_an_exception_stops_its_lane_with_the_tracebacks_last_line():
    with pytest.raises(RuntimeError, match=r"Raises\.schedule raised ZeroDivisionError: division by zero"):
        packlab.run("pgrr-a1", policy=[Raises(), "bf-j"], seed=1, horizon=HORIZON).reports


class Overfills:
    """Starts the head on server 0 whether or not it fits, and swallows the refusal."""

    def schedule(self, ctx):
        job = ctx.head()
        while job is not None:
            try:
                ctx.start(job, 0)
            except RuntimeError:
                pass
            job = ctx.job(job.id + 1)


def test_an_invalid_decision_is_refused_by_the_engine_even_when_caught():
    with pytest.raises(RuntimeError, match=r"policy script:host=\d+: .*(does not fit|room)"):
        packlab.run("pgrr-a1", policy=[Overfills()], seed=1, horizon=HORIZON).reports


class NoServer:
    def schedule(self, ctx):
        job = ctx.head()
        if job is not None:
            ctx.start(job, 10**6)


def test_a_server_that_does_not_exist_is_named():
    with pytest.raises(RuntimeError, match="server 1000000 does not exist"):
        packlab.run("pgrr-a1", policy=[NoServer()], seed=1, horizon=HORIZON).reports


class Keeps:
    def __init__(self):
        self.kept = None
        self.error = None

    def schedule(self, ctx):
        if self.kept is not None and self.error is None:
            try:
                self.kept.queue_len
            except RuntimeError as e:
                self.error = str(e)
        self.kept = ctx


def test_ctx_reaches_nothing_after_its_call():
    policy = Keeps()
    packlab.run("pgrr-a1", policy=[policy], seed=1, horizon=100).reports
    assert policy.error == "ctx is used outside the call it was given to"


class NoMethod:
    def admit(self, ctx):
        pass


def test_a_policy_without_the_models_routine_is_refused_naming_it():
    with pytest.raises(ValueError, match=r"NoMethod has no method `schedule\(ctx\)`"):
        packlab.run("pgrr-a1", policy=[NoMethod()], seed=1, horizon=100).reports


class Misuses:
    def schedule(self, ctx):
        ctx.best_fit("big")


def test_a_call_with_the_wrong_types_says_the_signatures():
    with pytest.raises(RuntimeError, match=r"ctx\.best_fit takes best_fit\(float\) or best_fit\(job\)"):
        packlab.run("pgrr-a1", policy=[Misuses()], seed=1, horizon=100).reports


def test_python_policies_race_only_in_run():
    with pytest.raises(ValueError, match="policy: a Python policy object races only in packlab.run"):
        packlab.sweep("pgrr-a1", policy=[BestFit()], horizon=1000, progress=False)
