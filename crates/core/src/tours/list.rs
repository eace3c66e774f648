//! The tours themselves, as data: each step's text, scenario, question, check and the values
//! its text states.

use super::{Check, LANES, Question, Stated, Step, Tour};
use crate::exercises::{self, Exercise};

/// Every tour, one per paper at least.
pub const TOURS: &[Tour] = &[
    Tour {
        id: "vqs-vs-best-fit",
        title: "Rounding against best fit on one server",
        paper: "PG-RR",
        steps: &[
            Step {
                text: "One server, jobs of size 0.4 or 0.6, at α = 0.7 of the capacity. VQS rounds each job up to \
                       its cell of the partition (J = 2 levels) and guarantees only 2/3 of the capacity; best fit \
                       packs a 0.4 with a 0.6 and fills the server.",
                after: "",
                link: "preset=pgrr-a1&policy=vqs,bf-js&seed=1",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "Which policy's queue will grow?",
                    choices: &["VQS", "BF-J/S", "both", "neither"],
                    answer: 0,
                }),
                check: Check::Grows { grows: "vqs", settles: "bf-js" },
                source: "PG-RR (journal) §VII-A example 1, Fig. 3a; the 2/3 bound: §V",
                states: &[
                    Stated { key: "servers", value: "1", said: "One server" },
                    Stated { key: "load", value: "0.7", said: "α = 0.7" },
                    Stated { key: "j", value: "2", said: "J = 2" },
                ],
            },
            Step {
                text: "Now sizes 0.2 (two thirds of the jobs) and 0.5, and every job is served for exactly 100 \
                       slots, not for a random time. The load rises to α = 0.918 of the capacity, and the VQS lane \
                       changes to J = 3, a partition one level finer, so that a 0.2 (below 1/4) has a cell of its \
                       own. VQS still rounds each job up to its cell, best fit still packs each server as full as \
                       it can. The papers' guarantees assume geometric service times.",
                after: "Why: best fit refills the server with 0.2 + 0.2 + 0.5, 90% full, and serves each size a \
                        little slower than it arrives; VQS alternates five 0.2s and two 0.5s. Best fit is \
                        guaranteed 1/2 of the capacity when service times are geometric; the paper puts this \
                        example's failure down to the fixed ones.",
                link: "preset=pgrr-a2&policy=vqs,bf-js&seed=1&horizon=2000000",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "Which policy's queue will grow this time?",
                    choices: &["VQS", "BF-J/S", "both", "neither"],
                    answer: 1,
                }),
                check: Check::Grows { grows: "bf-js", settles: "vqs" },
                source: "PG-RR (journal) §VII-A example 2 and the paragraph after it, Fig. 3b; the 1/2 bound: \
                         §IV, under §II's geometric service times",
                states: &[
                    Stated {
                        key: "size",
                        value: "discrete:0.2@2/3,0.5@1/3",
                        said: "sizes 0.2 (two thirds of the jobs) and 0.5",
                    },
                    Stated { key: "service", value: "deterministic:100", said: "served for exactly 100 slots" },
                    Stated { key: "load", value: "0.918", said: "α = 0.918" },
                    Stated { key: "j", value: "3", said: "J = 3" },
                ],
            },
            Step {
                text: "Back to the first step: one server, sizes 0.4 and 0.6 with random service times, α = 0.7 and \
                       VQS at J = 2 again. The stability map under the charts runs each \
                       policy at many loads and narrows down the largest load at which its queue stays put: its \
                       frontier. The theorem promises VQS at least 2/3 of the capacity, whatever the sizes; the \
                       map shows what it keeps on this mix, and best fit's next to it.",
                after: "Why: VQS rounds each 0.4 up to half the server and each 0.6 up to all of it, so a server \
                        never holds a 0.4 beside a 0.6, and the rounded jobs take 3/2 of the room the real ones \
                        need: on this mix the 2/3 the theorem promises is all VQS keeps. Best fit pairs a 0.4 \
                        with a 0.6 and keeps the whole capacity. Follow a tested load in the map's table to watch \
                        the queue there.",
                link: "preset=pgrr-a1&policy=vqs,bf-js&seed=1&horizon=1000000&map=4",
                highlight: "stability-map",
                question: Some(Question {
                    prompt: "Where will VQS's frontier sit on this mix?",
                    choices: &[
                        "at 2/3 of the capacity, what the theorem promises",
                        "between 2/3 and the capacity",
                        "at the capacity, as best fit's",
                    ],
                    answer: 0,
                }),
                check: Check::Frontier { policy: "vqs", fraction: 2.0 / 3.0, within: 0.05 },
                source: "PG-RR (journal) §V (Theorem 3: VQS keeps 2/3 of the capacity) and §VII-A example 1 \
                         (the bound is tight on A1's mix)",
                states: &[
                    Stated { key: "servers", value: "1", said: "one server" },
                    Stated { key: "size", value: "discrete:0.4@0.5,0.6@0.5", said: "sizes 0.4 and 0.6" },
                    Stated { key: "service", value: "geometric:100", said: "random service times" },
                    Stated { key: "load", value: "0.7", said: "α = 0.7" },
                    Stated { key: "j", value: "2", said: "J = 2" },
                ],
            },
            Step {
                text: "The same server, sizes and lanes, now at α = 0.5, where both queues stay short. From slot \
                       10 000 the load rises to α = 0.85, between VQS's 2/3 and best fit's whole capacity, and at \
                       slot 30 000 it comes back to 0.5. The table under the stats says, for each change, the \
                       band each queue held before it, its peak after it and when it was back in that band.",
                after: "Why: at α = 0.85 best fit still keeps up and its queue rises only a little, while VQS \
                        loses ground all through the surge: on this mix it keeps only 2/3 of the capacity (the \
                        map's step). When α is 0.5 again both can serve more than arrives, but VQS has the longer \
                        queue to work off, and works it off more slowly.",
                link: "preset=pgrr-a1&policy=vqs,bf-js&seed=1&load=0.5&horizon=60000\
                       &change=10000%3Aload%3D0.85%3B30000%3Aload%3D0.5",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "Once the load is back to α = 0.5, whose queue is back to its usual length first?",
                    choices: &["VQS", "BF-J/S", "both at about the same time"],
                    answer: 1,
                }),
                check: Check::DrainsFirst { first: "bf-js", later: "vqs" },
                source: "PG-RR (journal) §V (Theorem 3: VQS keeps 2/3 of the capacity), §IV (BF-J/S keeps 1/2, and \
                         on A1's mix all of it: §VII-A example 1); the surge and the recovery are packlab's (RES-94)",
                states: &[Stated { key: "load", value: "0.5", said: "now at α = 0.5" }],
            },
        ],
    },
    Tour {
        id: "msf-swings",
        title: "Most Servers First against Quickswap",
        paper: "MSFQ",
        steps: &[
            Step {
                text: "32 cores; a tenth of the jobs need all 32, and they arrive at λ = 7.5 jobs per time unit. \
                   MSF (most servers first) always starts the jobs \
                   that need the most cores. MSFQ with ℓ = 31 stops starting small jobs as soon as at most ℓ of \
                   them are left (n₁ ≤ 31), lets those finish, then serves the large jobs.",
                after: "Why: MSF keeps every core busy, yet it alternates long phases of large jobs and of small \
                    jobs, and the number in system swings into the thousands; MSFQ's quick switch keeps both \
                    phases short.",
                link: "preset=msfq-d1&policy=msf,msfq:l=31&seed=1&horizon=400000",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "Both keep the cores about as busy. Under which do fewer jobs wait?",
                    choices: &["MSF", "MSFQ", "about the same"],
                    answer: 1,
                }),
                check: Check::Shorter { longer: "msf", shorter: "msfq:l=31", factor: 5.0 },
                source: "MSFQ §1 Fig. 1 (k = 32, ℓ = k − 1), §4.1 (MSF's phases), §4.2 (phase 3 ends when n₁ ≤ ℓ)",
                states: &[
                    Stated { key: "cores", value: "32", said: "32 cores" },
                    Stated { key: "classes", value: "1@0.9,32@0.1", said: "a tenth of the jobs need all 32" },
                    Stated { key: "load", value: "7.5", said: "λ = 7.5" },
                    Stated { key: LANES, value: "msf,msfq:l=31", said: "MSFQ with ℓ = 31" },
                ],
            },
            Step {
                text: "The same 32 cores and the same mix of jobs. The stability map under the charts runs each \
                   policy at many arrival rates and narrows down the largest at which its queue stays put: its \
                   frontier. No policy can keep more than k / E[need × size] = 32 / 4.1 = 7.805 jobs per time \
                   unit, the capacity; the first step ran both at 7.5, just below it, MSF with a long queue.",
                after: "Why: when every job needs one core or all of them, MSFQ never leaves idle for long a core \
                    that a waiting job could use, and Theorem 3 proves it throughput-optimal: its queue stays put \
                    up to the capacity. So does MSF's (Theorem 1: MSF is MSFQ with ℓ = 0), but look at its row: \
                    near and past the capacity its phases grow with its queue (a phase of large jobs serves one \
                    per time unit while 7.8 arrive), so no run of the map's length decides there, and the map \
                    says so with an undecided band rather than guess. Follow a tested load in the map's table \
                    to watch the queue there.",
                link: "preset=msfq-d1&policy=msf,msfq:l=31&seed=1&horizon=400000&map=4",
                highlight: "stability-map",
                question: Some(Question {
                    prompt: "Where will MSFQ's frontier sit on this mix?",
                    choices: &[
                        "at the capacity, 7.805",
                        "near 7.5, where MSF's queue was so long in the first step",
                        "well below 7.5",
                    ],
                    answer: 0,
                }),
                check: Check::Frontier { policy: "msfq:l=31", fraction: 1.0, within: 0.05 },
                source: "MSFQ §5.1 (Theorem 3: MSFQ is throughput-optimal for every ℓ; Theorem 1, ℓ = 0, is MSF: §4.2), \
                     §1 Fig. 1 (k = 32, λ = 7.5 close to the limit 7.805)",
                states: &[
                    Stated { key: "cores", value: "32", said: "32 cores" },
                    Stated { key: "load", value: "7.5", said: "ran both at 7.5" },
                ],
            },
            Step {
                text: "The same 32 cores and mix, at λ = 6 jobs per time unit. At time 10 000 the arrivals rise to \
                       λ = 7.5, below the capacity of 7.805 that both policies keep, and at 20 000 they fall back \
                       to 6. The table under the stats gives each policy's peak in the system during the surge.",
                after: "Why: both keep the capacity, so neither queue grows for ever, but MSF serves the large jobs \
                        only in long phases of their own, and the small jobs that arrive meanwhile pile up; at \
                        λ = 7.5 its phases are long. MSFQ switches as soon as few small jobs are left, so its \
                        phases stay short and so does its peak.",
                link: "preset=msfq-d1&policy=msf,msfq:l=31&seed=1&load=6&horizon=30000\
                       &change=10000%3Aload%3D7.5%3B20000%3Aload%3D6",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "During the surge, whose number in system climbs higher?",
                    choices: &["MSF", "MSFQ", "about the same"],
                    answer: 0,
                }),
                check: Check::PeaksHigher { higher: "msf", lower: "msfq:l=31", factor: 3.0 },
                source: "MSFQ §4.1 (MSF's phases), §4.2 and §5.1 (MSFQ's switch, Theorem 3), §1 Fig. 1 (λ = 7.5); \
                         the surge and its peak are packlab's (RES-94)",
                states: &[Stated { key: "load", value: "6", said: "at λ = 6 jobs per time unit" }],
            },
        ],
    },
    Tour {
        id: "mw-local-mixed-fleet",
        title: "MaxWeight with local refresh on a mixed fleet",
        paper: "GH-RA",
        steps: &[
            Step {
                text: "Servers of two sizes, five small and five large servers, at a traffic intensity ζ = 0.9. \
                       MaxWeight that re-plans a server only when it empties keeps \
                       stale configurations on the busy servers; Algorithm 2's Poisson clocks keep choosing afresh \
                       and route by join-the-shortest-queue.",
                after: "",
                link: "preset=ghra-b3&policy=mw-local,alg2-jsq&seed=1",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "Which queue builds up?",
                    choices: &["MaxWeight, local refresh", "Algorithm 2", "neither"],
                    answer: 0,
                }),
                check: Check::Grows { grows: "mw-local", settles: "alg2-jsq" },
                source: "GH-RA §VII-B (10 servers of two sizes, ζ = 0.9: MW-local unstable, Algorithm 2 stable)",
                states: &[
                    Stated { key: "servers", value: "5xsmall,5xlarge", said: "five small and five large servers" },
                    Stated { key: "load", value: "0.9", said: "ζ = 0.9" },
                ],
            },
            Step {
                text: "The same five small and five large servers. The stability map under the charts runs each \
                       policy at many traffic intensities ζ and narrows down the largest at which its queue stays \
                       put: its frontier. ζ = 1 is the boundary of the capacity region, and Theorem 2 proves that \
                       Algorithm 2 keeps all of it when its weights grow slower than log Q (the map draws that \
                       line apart: these clocks are the paper's simulations', which grow as log Q); whether \
                       MaxWeight with local refresh keeps it on servers of two sizes, the paper leaves open. The \
                       first step ran both at ζ = 0.9.",
                after: "Why: MaxWeight with local refresh picks a server's configuration only when the server is \
                        empty, and a busy large server is seldom empty, so it keeps serving a mix chosen for \
                        queues long gone: part of the capacity region is lost, and the first step's ζ = 0.9 lies \
                        beyond its frontier. Algorithm 2's clocks and dummy jobs keep every server's configuration \
                        following its queues, so its frontier is the boundary. Follow a tested load in the map's \
                        table to watch the queue there.",
                link: "preset=ghra-b3&policy=mw-local,alg2-jsq&seed=1&map=4",
                highlight: "stability-map",
                question: Some(Question {
                    prompt: "Where will the frontier of MaxWeight with local refresh sit against Algorithm 2's?",
                    choices: &[
                        "below it: MaxWeight loses part of the capacity region",
                        "at the same place, the boundary ζ = 1",
                        "above it",
                    ],
                    answer: 0,
                }),
                check: Check::FrontierBelow { below: "mw-local", at_capacity: "alg2-jsq", within: 0.05 },
                source: "GH-RA §VII-B (MW-local's stability on a heterogeneous fleet is open; Fig. 3 at ζ = 0.9), \
                         §IV Theorem 2 (Algorithm 2 is throughput-optimal), §II (the capacity region C)",
                states: &[
                    Stated { key: "servers", value: "5xsmall,5xlarge", said: "five small and five large servers" },
                    Stated { key: "load", value: "0.9", said: "ran both at ζ = 0.9" },
                ],
            },
            Step {
                text: "The same fleet at ζ = 0.6, where both queues stay short. At time 10 000 the traffic rises \
                       to ζ = 0.95 for 10 000 time units, then falls back to 0.6. The table under the stats gives \
                       each policy's peak during the surge and when its queue was back to its usual length.",
                after: "Why: ζ = 0.95 lies beyond the frontier of MaxWeight with local refresh (the map's step): \
                        its busy servers keep configurations chosen for the queues before the surge, and jobs \
                        pile up until it ends. Algorithm 2's clocks keep choosing every server's configuration \
                        afresh, so it keeps up at 0.95. Back at ζ = 0.6 both drain, MaxWeight from far higher.",
                link: "preset=ghra-b3&policy=mw-local,alg2-jsq&seed=1&load=0.6&horizon=30000\
                       &change=10000%3Aload%3D0.95%3B20000%3Aload%3D0.6",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "During the surge, whose queue climbs higher?",
                    choices: &["MaxWeight, local refresh", "Algorithm 2", "about the same"],
                    answer: 0,
                }),
                check: Check::PeaksHigher { higher: "mw-local", lower: "alg2-jsq", factor: 2.0 },
                source: "GH-RA §VII-B (MW-local on a fleet of two sizes, Fig. 3), §IV Theorem 2 (Algorithm 2); the \
                         surge and its peak are packlab's (RES-94)",
                states: &[Stated { key: "load", value: "0.6", said: "at ζ = 0.6" }],
            },
            Step {
                text: "The same ten servers at ζ = 0.6, where both queues stay short. At time 10 000 two of the \
                       large servers are lost (the fleet becomes five small and three large) for 10 000 time \
                       units, then they come back. The arrivals stay the same, now on less capacity. A lost \
                       server takes no new VM, its waiting VMs join other servers' queues, and it leaves once \
                       its VMs are done. The table under the stats gives each policy's peak while they are away.",
                after: "Why: on eight servers the same arrivals ask for more than the configurations MaxWeight \
                        with local refresh settles into: its busy servers re-choose only when they empty, which \
                        under this load they rarely do, so the jobs the lost servers would have taken pile up. \
                        Algorithm 2's clocks and dummies keep moving every server's configuration towards the \
                        queues, and the eight servers still carry the load: its queue rises a little and settles.",
                link: "preset=ghra-b3&policy=mw-local,alg2-jsq&seed=1&load=0.6&horizon=30000\
                       &change=10000%3Aservers%3D5xsmall%2C3xlarge%3B20000%3Aservers%3D5xsmall%2C5xlarge",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "While the two large servers are away, whose queue climbs higher?",
                    choices: &["MaxWeight, local refresh", "Algorithm 2", "about the same"],
                    answer: 0,
                }),
                // Seeds 1-5 with the CLI: MW-local peaks 3 685 to 5 513, Algorithm 2 102 to 120 (the
                // lowest ratio 30.7, seed 2).
                check: Check::PeaksHigher { higher: "mw-local", lower: "alg2-jsq", factor: 10.0 },
                source: "GH-RA §VII-B (MW-local on a fleet of two sizes, Fig. 3), §IV Theorem 2 (Algorithm 2); the \
                         lost servers and the peak are packlab's (RES-94, RES-97)",
                states: &[Stated { key: "load", value: "0.6", said: "at ζ = 0.6" }],
            },
        ],
    },
    Tour {
        id: "dra-approaches-greedy",
        title: "DRA and the global greedy's reward",
        paper: "PG-AS",
        steps: &[
            Step {
                text: "180 empty servers. DRA reserves slots for the types that arrive and grows the greedy \
                   configurations; power-of-d packs greedily without reserving. U^(g), the global greedy's \
                   reward, is what DRA tends to as L grows; the LP optimum U* can be higher (in the paper's \
                   Fig. 2 example, U^(g) falls to about 0.86 of U*).",
                after: "",
                link: "preset=pgas-c4&policy=dra,po-d&seed=1",
                highlight: "chart-reward",
                question: Some(Question {
                    prompt: "How close to U^(g) does DRA get within 50 time units?",
                    choices: &["within 10%", "about half", "far below"],
                    answer: 0,
                }),
                check: Check::RewardNearGreedy { policy: "dra", fraction: 0.9 },
                source: "PG-AS §4 (DRA; Theorem 4.1: its limit is U^(g)), §7.1 Fig. 4 (L = 180); ≈ 0.862 of U* at α = 1: §7.1 \
                         after Fig. 2",
                states: &[
                    Stated { key: "servers", value: "180", said: "180 empty servers" },
                    Stated { key: "horizon", value: "50", said: "within 50 time units" },
                ],
            },
            Step {
                text: "Why is DRA's target U^(g) and not U*? The α view at the foot of the page scales the workload: \
                   at low α the greedy packing serves everything and equals the optimum; from some α on, every \
                   server can run the best configuration full and they meet again. In between the greedy runs \
                   out of the small types the optimum mixes in. DRA now races alone, for 20 time units at this \
                   run's α = 1.",
                after: "",
                link: "preset=pgas-c2&policy=dra&seed=1&horizon=20",
                highlight: "alpha-view",
                question: Some(Question {
                    prompt: "Over which range of α does U^(g) fall below U*?",
                    choices: &["from α = 6/7 to α = 6", "everywhere", "only above α = 6"],
                    answer: 0,
                }),
                check: Check::CriticalPoints { labels: &["α = 6/7", "α = 6"] },
                source: "PG-AS §7.1, Fig. 2 and the paragraph after it (critical points α = 6/7 and α = 6)",
                states: &[
                    Stated { key: "load", value: "1", said: "this run's α = 1" },
                    Stated { key: "horizon", value: "20", said: "20 time units" },
                    Stated { key: LANES, value: "dra", said: "DRA now races alone" },
                ],
            },
            Step {
                text: "Fig. 3's setting at L = 180: DRA and power-of-d race again at α = 1. At time 100 the workload \
                       triples to α = 3 for 100 time units, then falls back. Nothing waits here, so the table under \
                       the stats reads each stretch in what it earned and lost: each lane's reward per server and the \
                       share of its arrivals rejected before the surge, during it and after it.",
                after: "Why: a loss system turns away what finds no slot, so three times the arrivals means a larger \
                        share lost. But DRA chooses what it keeps: GPA recomputes the greedy configurations on the \
                        jobs in the system plus the reserve, and DRA gives each server that empties the configuration \
                        that pays most for the new mix. It re-reserves for the surge and earns more per server, close \
                        to the global greedy's U^(g) = 1148 at α = 3 (against 3196/3 ≈ 1065.3 at α = 1); when the \
                        load falls back, re-reserving the same way brings it back to its earlier reward.",
                link: "preset=pgas-c3&policy=dra,po-d&seed=1&horizon=300&warmup=50\
                       &change=100%3Aload%3D3%3B200%3Aload%3D1",
                highlight: "chart-reward",
                question: Some(Question {
                    prompt: "During the surge, what happens to the share of arrivals DRA rejects, and to its reward \
                             per server?",
                    choices: &[
                        "both rise",
                        "more are rejected and the reward falls",
                        "fewer are rejected and the reward rises",
                    ],
                    answer: 0,
                }),
                check: Check::SurgePays { policy: "dra", factor: 1.05 },
                source: "PG-AS §4 (DRA: GPA on Y(t) + g(L), CRA reconfigures empty servers; Algorithm 2), §7.1 Fig. 2 \
                         (U^(g) against α: 1148 at α = 3); the surge and its stretches are packlab's (RES-94)",
                states: &[
                    Stated { key: LANES, value: "dra,po-d", said: "DRA and power-of-d race again" },
                    Stated { key: "load", value: "1", said: "at α = 1" },
                ],
            },
        ],
    },
    // The exercises, a tour each (a new exercise is one more such entry).
    Tour {
        id: exercises::BEST_FIT.id,
        title: "Write best fit yourself",
        paper: "PG-RR",
        steps: &[exercise_step(&exercises::BEST_FIT)],
    },
    Tour {
        id: exercises::MSF.id,
        title: "Write Most Servers First yourself",
        paper: "MSFQ",
        steps: &[exercise_step(&exercises::MSF)],
    },
    Tour {
        id: exercises::JSQ.id,
        title: "Write join the shortest queue yourself",
        paper: "GH-RA",
        steps: &[exercise_step(&exercises::JSQ)],
    },
];

/// The step of an exercise: its task, on its scenario (the reference racing alone, to play).
const fn exercise_step(exercise: &'static Exercise) -> Step {
    Step {
        text: exercise.task,
        after: "",
        link: exercise.link,
        question: None,
        highlight: "lanes",
        check: Check::Exercise(exercise),
        source: exercise.source,
        states: &[],
    }
}
