"""The starting points of policies written in Python: the rhai starters packlab ships
(crates/core/src/models/*/scripts/*.rhai), line for line in Python. Each names the built-in
policy it reproduces bit for bit (`policy`) and the model it decides for (`model`); pass an
instance as a policy: `packlab.run("pgrr-a1", policy=[starters.BestFit(), "bf-j"])`.

A policy is any object with the model's decision method: `schedule(ctx)` for PG-RR (every
slot, after departures and arrivals), `admit(ctx)` for MSFQ (after every arrival and
completion), `route(ctx)` for GH-RA (at every arrival). `ctx` offers what a rhai script's
`ctx` offers (`ctx.help()` lists it); decisions go through it and the engine checks them. The
object may keep state on itself between calls.
"""

__all__ = ["BestFit", "FirstFit", "VQS", "MostServersFirst", "FirstComeFirstServed", "StaticQuickswap",
           "JoinShortestQueue", "PowerOfTwo", "JoinShortestQueueLowest", "ALL"]


class BestFit:
    """Every slot, each waiting job, oldest first, goes to the fullest server it fits (the
    lowest-numbered one on ties); a job that fits nowhere waits."""

    model = "pgrr"
    policy = "bf-j"

    def schedule(self, ctx):
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


class FirstFit:
    """The oldest waiting job goes to the lowest-numbered server it fits; when it fits nowhere,
    everything behind it waits too."""

    model = "pgrr"
    policy = "fifo-ff"

    def schedule(self, ctx):
        while True:
            job = ctx.head()
            if job is None:
                break
            server = ctx.first_fit(job)
            if server is None:
                break
            ctx.start(job, server)


class VQS:
    """Virtual queue scheduling (PG-RR §4): waiting jobs fall into 2J virtual queues by size
    (`job.vq`). Every slot, servers in index order: an empty server renews, taking the
    configuration of K_RED with the most waiting jobs (`ctx.heaviest`), and keeps it until it is
    empty again; the configurations and the count of each queue are kept on the object between
    decisions (rhai keeps them in `ctx.state`). A configuration that reserves keeps 2/3 of the
    server for one job of VQ1; its other queue is walked oldest first and every job that fits
    what is left starts. `small_jobs = "round"` has jobs of size at most 2^-J occupy 2^-J, as
    VQS's do (a rhai script declares it on a line `// small jobs: round`)."""

    model = "pgrr"
    policy = "vqs"
    small_jobs = "round"

    def __init__(self):
        self.config = None  # per server, the configuration it renewed with
        self.queued = None  # per virtual queue, its waiting jobs

    def schedule(self, ctx):
        if self.config is None:
            self.config = [0] * ctx.servers
            self.queued = [0] * (2 * ctx.j)
        config, queued = self.config, self.queued
        for job in ctx.arrivals():
            queued[job.vq] += 1
        renewals = True  # False once an empty server placed nothing: the next would not either
        for server in range(ctx.servers):
            if ctx.queue_len == 0:
                break
            if ctx.residual(server) == 1.0:
                if not renewals:
                    continue
                k = ctx.heaviest(queued)
                if not (queued[ctx.config_queue(k)] > 0 or (ctx.reserves(k) and queued[1] > 0)):
                    renewals = False
                    continue
                config[server] = k
            k = config[server]
            if queued[1] > 0 and ctx.reserves(k) and ctx.holds(server, 1) == 0:
                ctx.start(ctx.oldest_in(1, 0, 1.0), server)
                queued[1] -= 1
            t = ctx.config_queue(k)
            start = 0
            while queued[t] > 0:
                job = ctx.oldest_in(t, start, ctx.vq_room(server, k))
                if job is None:
                    break
                ctx.start(job, server)
                queued[t] -= 1
                start = job.id + 1


class MostServersFirst:
    """After every arrival and completion: classes by descending need (the most cores first),
    each starting its oldest jobs while they fit."""

    model = "msfq"
    policy = "msf"

    def admit(self, ctx):
        k = ctx.classes - 1
        while k >= 0 and ctx.free > 0:
            while ctx.waiting(k) > 0 and ctx.need(k) <= ctx.free:
                ctx.start(k)
            k -= 1


class FirstComeFirstServed:
    """The oldest waiting job starts when it fits; while it does not, everything behind it
    waits."""

    model = "msfq"
    policy = "fcfs"

    def admit(self, ctx):
        while True:
            k = ctx.oldest()
            if k is None or ctx.need(k) > ctx.free:
                break
            ctx.start(k)


class StaticQuickswap:
    """One class at a time in a fixed cycle, the most cores first (MSFQ §5, l = k). While class
    i is served, up to k // i of its jobs run; once fewer than i * (k // i) cores are busy, it
    takes no more, drains, and the next class is served. Which class is served and whether it
    drains are kept on the object between decisions (rhai keeps them in `ctx.state`)."""

    model = "msfq"
    policy = "static-qs"

    def __init__(self):
        self.serving = 0  # the class served, counted from the one that needs the most cores
        self.draining = False

    def admit(self, ctx):
        while True:
            k = ctx.classes - 1 - self.serving
            per = ctx.cores // ctx.need(k)
            if not self.draining:
                while ctx.in_service(k) < per and ctx.waiting(k) > 0:
                    ctx.start(k)
                if ctx.busy >= ctx.need(k) * per:
                    return
                self.draining = True
            else:
                if ctx.in_service(k) > 0:
                    return
                self.serving = (self.serving + 1) % ctx.classes
                self.draining = False
                # With nothing in the system, it waits at this class for the next arrival.
                if ctx.waiting_total == 0 and ctx.busy == 0:
                    return


class JoinShortestQueue:
    """Algorithm 2's routing: an arriving job joins the shortest queue of its type among the
    servers that could hold it when empty, a uniformly random one of them on ties."""

    model = "ghra"
    policy = "alg2-jsq"

    def route(self, ctx):
        tied = ctx.shortest()
        if len(tied) == 1:
            ctx.route(tied[0])
        else:
            ctx.route(tied[ctx.random_int(0, len(tied) - 1)])


class PowerOfTwo:
    """Remark 1's routing: sample two distinct servers that could hold the job, join the one
    whose queue of its type is shorter (a coin decides a tie)."""

    model = "ghra"
    policy = "alg2-po2"

    def route(self, ctx):
        servers = ctx.eligible()
        n = len(servers)
        if n == 1:
            ctx.route(servers[0])
            return
        a = ctx.random_int(0, n - 1)
        # A uniform second server among the other n - 1.
        b = (a + 1 + ctx.random_int(0, n - 2)) % n
        qa, qb = ctx.queue(servers[a]), ctx.queue(servers[b])
        if qa < qb:
            pick = a
        elif qa > qb:
            pick = b
        else:
            pick = a if ctx.random_int(0, 1) == 0 else b
        ctx.route(servers[pick])


class JoinShortestQueueLowest:
    """Algorithm 2's routing with a stated tie rule: the shortest queue of the job's type among
    the servers that could hold it when empty, the lowest-numbered on ties."""

    model = "ghra"
    policy = "alg2-jsq:ties=lowest"

    def route(self, ctx):
        best, shortest = None, 0
        for s in ctx.eligible():
            q = ctx.queue(s)
            if best is None or q < shortest:
                best, shortest = s, q
        ctx.route(best)


ALL = [BestFit, FirstFit, VQS, MostServersFirst, FirstComeFirstServed, StaticQuickswap, JoinShortestQueue,
       PowerOfTwo, JoinShortestQueueLowest]
