"""Policies written in Python: raced beside the built-in ones on common random numbers, seeing
the `ctx` the rhai scripts see (one declaration per model), checked by the engine."""

import sys

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


def same_run(python, builtin):
    """Every field of the Python lane's report equals the built-in's (its policy aside); the
    built-in may report more (MSF's analysis by phase, a property of that policy)."""
    assert set(python) <= set(builtin)
    assert without_policy(python) == {k: builtin[k] for k in python if k != "policy"}


def test_a_python_best_fit_is_bf_j_to_the_bit_and_keeps_its_state():
    policy = BestFit()
    race = packlab.run("pgrr-a1", policy=[policy, "bf-j"], seed=1, horizon=HORIZON)
    python, builtin = race.reports
    same_run(python, builtin)
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


class Loops:
    def schedule(self, ctx):
        if ctx.slot == 10:
            while True:
                pass


class LoopsAndCatches:
    """Swallows the budget's error and loops on: each further line raises again."""

    def schedule(self, ctx):
        while True:
            try:
                while True:
                    pass
            except BaseException:
                continue


def test_a_policy_that_loops_is_stopped_naming_it_and_its_budget():
    message = r"Loops\.schedule ran more than 1000000 lines of Python in one decision \(an endless loop\?\)"
    with pytest.raises(RuntimeError, match=message):
        packlab.run("pgrr-a1", policy=[Loops(), "bf-j"], seed=1, horizon=HORIZON).reports
    with pytest.raises(RuntimeError, match=r"LoopsAndCatches\.schedule ran more than 1000000 lines"):
        packlab.run("pgrr-a1", policy=[LoopsAndCatches()], seed=1, horizon=HORIZON).reports


def test_the_budget_leaves_the_programs_own_trace_function_in_place():
    def tracer(frame, event, arg):
        return None

    sys.settrace(tracer)
    try:
        packlab.run("pgrr-a1", policy=[BestFit()], seed=1, horizon=100).reports
        assert sys.gettrace() is tracer
    finally:
        sys.settrace(None)
    packlab.run("pgrr-a1", policy=[BestFit()], seed=1, horizon=100).reports
    assert sys.gettrace() is None


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
    refused = r"Overfills\.schedule decided what the model refuses: .*(does not fit|room)"
    with pytest.raises(RuntimeError, match=refused):
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


class CountingMsf:
    """MSFQ's most-servers-first, counting its decisions by class (state kept on itself)."""

    def __init__(self):
        self.started = {}

    def admit(self, ctx):
        k = ctx.classes - 1
        while k >= 0 and ctx.free > 0:
            while ctx.waiting(k) > 0 and ctx.need(k) <= ctx.free:
                ctx.start(k)
                self.started[k] = self.started.get(k, 0) + 1
            k -= 1


def test_an_msfq_admission_routine_is_msf_to_the_bit_and_keeps_its_state():
    policy = CountingMsf()
    race = packlab.run("msfq-d1", policy=[policy, "msf"], seed=5, horizon=2000)
    python, builtin = race.reports
    same_run(python, builtin)
    assert sum(policy.started.values()) > 1000


class Lowest:
    """GH-RA's lowest-numbered shortest queue, as the rhai starter jsq_lowest writes it."""

    def __init__(self):
        self.routed = 0

    def route(self, ctx):
        best, shortest = None, 0
        for s in ctx.eligible():
            q = ctx.queue(s)
            if best is None or q < shortest:
                best, shortest = s, q
        ctx.route(best)
        self.routed += 1


def test_a_ghra_routing_is_alg2_jsq_lowest_to_the_bit():
    policy = Lowest()
    race = packlab.run("ghra-b1", policy=[policy, "alg2-jsq:ties=lowest"], seed=5, horizon=100)
    python, builtin = race.reports
    same_run(python, builtin)
    assert policy.routed == python["arrivals"] > 0


class Unrouted:
    def route(self, ctx):
        ctx.job_type


class Twice:
    def route(self, ctx):
        s = ctx.eligible()[0]
        ctx.route(s)
        ctx.route(s)


def test_a_routing_is_checked_by_the_engine():
    with pytest.raises(RuntimeError, match=r"`Unrouted\.route\(ctx\)` returned without routing the arriving job"):
        packlab.run("ghra-b1", policy=[Unrouted()], seed=1, horizon=10).reports
    with pytest.raises(RuntimeError, match="policy bug: this job is already routed to server"):
        packlab.run("ghra-b1", policy=[Twice()], seed=1, horizon=10).reports


def test_each_model_asks_for_its_own_routine():
    with pytest.raises(ValueError, match=r"BestFit has no method `admit\(ctx\)`"):
        packlab.run("msfq-d1", policy=[BestFit()], seed=1, horizon=10).reports
    with pytest.raises(ValueError, match=r"BestFit has no method `route\(ctx\)`"):
        packlab.run("ghra-b1", policy=[BestFit()], seed=1, horizon=10).reports


def test_ctx_lists_the_members_the_model_declares():
    seen = {}

    class Looks:
        def schedule(self, ctx):
            seen["dir"] = dir(ctx)
            seen["help"] = dict(ctx.help())

    packlab.run("pgrr-a1", policy=[Looks()], seed=1, horizon=2).reports
    assert {"slot", "max_residual", "best_fit", "start", "note"} <= set(seen["dir"])
    assert seen["help"]["start(job, int)"].startswith("starts a waiting job")
