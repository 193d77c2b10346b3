// Package qdisc is leolab's zoo of queue disciplines for fixed links:
// drop-tail, head-drop, RED and Adaptive RED, CoDel, PIE, SFQ, FQ-CoDel,
// FQ-PIE and CAKE (COBALT with per-flow DRR and host isolation). Each is a
// link.Queue, served at a rate by link.Server, so the same code runs in sim
// (virtual time) and emu (wall time).
//
// Every discipline lives in its own file with the reference's variable
// names and its constants cited (RFC section or Linux net/sched/sch_*.c
// default). Shared pieces are in one place each: the CoDel control law
// (codel.go), PIE's drop-probability controller (pie.go), flow hashing
// with perturbation and set associativity (flowhash.go) and deficit round
// robin with RFC 8290's new/old flow lists (drr.go).
//
// Time is an argument: sojourn times are measured from packet.EnqueuedAt,
// and periodic work (PIE's T_UPDATE, SFQ's perturbation, ARED's interval)
// is caught up at the next enqueue or dequeue, so no timer is needed and
// a late poll does not shift the schedule. Randomness (RED, PIE, BLUE, hash
// seeds) comes from the *rand.Rand passed in, so runs are deterministic.
//
// ECN: where the reference marks, a queue built with ECN on sets CE on an
// ECN-capable packet (packet.ECT) instead of dropping it (RFC 3168 §5); a
// packet that is not ECN-capable is dropped as without ECN.
//
// The per-packet path allocates nothing.
package qdisc
