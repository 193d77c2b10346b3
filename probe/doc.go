// Package probe owns the prober's inference: what a probe flow's one-way
// delays say about the link it crossed. From a trace of probe packets (send
// time, one-way delay or loss) it finds the reconfiguration outages and
// fits their schedule (period, phase, position in the UTC minute, outage
// length), the base one-way delay of each reconfiguration interval and its
// shifts between them, the MAC frame period from the batching of arrivals,
// the delivered rate over time and its ramp (the demand-driven allocation
// of seed 001), the drop policy and size of a queue that a line-rate burst
// overflowed, and loss; and it turns what it found into Starlink profile
// overrides, so that sim and emu replay the link that was probed. For
// procedures of several probes it reads the AQM's drop probability
// against the queue a packet found (InferAQMCurve), the allocation from a
// burst's drain rate (DrainRate) and its decay and hold once demand
// stopped (InferDecay), a mouse's delay and loss beside an elephant
// (InferIsolation) and the threshold of an upstream rate limiter from a
// sweep of offered rates (InferPoP); package repro001 runs them as seed
// 001's procedures.
//
// It reads the per-packet records of a leolab result (a cbr flow with
// record: true, from sim, emu or net — package field) and plain
// one-way-delay series such as LeoReplayer's delay traces. The methods follow seed 001's analysis of
// NetScalpel measurements: every figure comes from send and receive times
// alone, so the same inference runs on a real dish's probes and on the
// model's, and the model's own parameters are the test of the inference.
package probe
