// Package link holds the stages a packet crosses on a path — random loss,
// queues with their drop policies and AQMs, a server of a given rate,
// propagation delay, outages — and their composition into a one-way link.
//
// Stages are pull-based and clock-free: the engine enqueues packets, asks a
// stage for its NextEvent, and dequeues at that time. The simulator passes
// virtual time and the live emulator passes monotonic wall time, so the same
// stage code runs in both. A stage computes departure times from its own
// state (not from when it is polled), so a late poll in real time does not
// shift the schedule. Link knows nothing of TCP.
package link
