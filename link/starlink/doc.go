// Package starlink owns the Starlink access-link model of seed 001: one
// terminal's downlink (queue on the satellite) and uplink (queue on the
// terminal) as link.Stage implementations, and the 15 s reconfiguration
// Schedule (a cc.Schedule for LeoCC and SaTCP). Every number comes from a
// profile.StarlinkProfile.
//
// A Link is, in order: the PoP rate limiter (downlink only, finding 12) →
// the AQM deciding on each arrival → one head-drop buffer counted in
// packets, shared by all flows, with per-flow queues served by deficit
// round robin → a demand-driven allocation granted in TDMA frames (packets
// of a frame leave together) → random loss → the base one-way delay. At each
// boundary ((epoch + t − offset) mod period == 0) the link serves nothing for
// the outage, resets the allocation to base (regrowing over `regrow`) and
// draws the next slot's stable rate and OWD shift (and, optionally, a
// base-RTT step and delay spikes).
//
// Choices the seeds leave open, and why:
//   - Head-drop victim: the globally oldest packet, whatever its flow (seed
//     001 finding 18: the shared DL buffer drops the front of the queue).
//   - Loss coupling on the DL comes from the AQM deciding per arrival on the
//     shared queue (same probability for every flow); the UL AQM looks at
//     the arriving flow's own queue, isolating loss (finding 19). With
//     aqm.sojourn (opt-in) it looks at that flow's own head-of-line wait
//     instead, outside the last outage (issue 17, calibrate/fits/README.md).
//   - Arrivals during an outage are queued, not dropped (finding 14: the DL
//     queue surges and overflows, the deep UL queue absorbs it); loss then
//     comes from head-drop overflow and the reset allocation, not from a
//     timer. outage.drop_arrivals switches to DropOutage.
//   - The allocation neither grows nor decays during an outage.
//
// The terrestrial leg of a city is not part of a Link: the engine chains a
// link.Delay of profile.Terrestrial.OneWay.
package starlink
