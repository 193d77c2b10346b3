// Package cctest holds test fixtures for congestion controllers, shared by
// the tests of the cc/* packages:
//
//   - Path, a synthetic bulk sender over a fixed-rate (or time-varying)
//     FIFO bottleneck that feeds a controller a stream of cc.RateSample
//     values the way a transport would: one ACK per segment, delivery-rate
//     samples per draft-cheng-iccrg-delivery-rate-estimation §3, losses
//     detected when a later segment is acknowledged (as RACK would), one
//     recovery episode per window of losses (RFC 6675) and an RTO when
//     everything in flight is lost. It is a fixture, not a network model:
//     no retransmissions, no delayed ACKs, no reverse-path queue.
//   - Dumbbell and RunYAML, which run controllers by name over the network
//     simulator (scenario + netsim, our transport) and return the result,
//     and FixedLink, the fixed-link acceptance run every controller passes
//     (FixedLinkLowDelay adds the queueing-delay bound of delay-based ones).
//   - Registered, the check of a controller's registry entry: defaults,
//     description, source and the refusal of out-of-range parameters.
//   - SteadyAcks and BenchAcks, a controller's per-ACK path in steady
//     state (after 3 s of a 100 Mbit/s, 40 ms Path), for allocation tests
//     and benchmarks.
//
// It imports no controller package, so a controller's own (internal)
// tests can use it without an import cycle.
package cctest
