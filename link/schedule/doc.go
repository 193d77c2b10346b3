// Package schedule owns time-varying links: a fixed link whose rate, delay
// and loss follow a schedule of steps and ramps in run time, one-way delays
// replayed from a path file (LeoEM's precomputed path logs), and the
// handover instants such a file implies, as the cc.Schedule that SaTCP and
// LeoCC read (optionally moved by a prediction-error distribution).
//
// The stages (Loss, Server, Delay) are link.Stages like link's own and are
// composed the same way (link.Chain), so sim and emu run the same code; the
// quantities are Profiles (piecewise linear in time, with steps) that the
// stages evaluate at each packet's arrival, allocation-free.
//
// Rate changes and the packet on the wire. A packet's service ends when the
// rate integrated from its start reaches its size in bits: the bits sent
// before a change went at the old rate, the rest go at the new one (within a
// ramp the integral is quadratic). Neither finishing the packet at the old
// rate nor restarting it is right for a link whose capacity changes under a
// frame; this way a 1500-byte packet that started at 1 Mbit/s does not hold
// a link that has become 100 Mbit/s for 12 ms. A queue discipline whose
// parameters derive from the rate (link/qdisc's RateBps) is built with the
// rate at time 0.
//
// Delay changes keep packet order. A packet entering the delay line at t
// leaves at max(t + d(t), the departure of the packet before it). When the
// delay rises, packets spread out (the line is longer); when it drops by Δ,
// the packets of the next Δ leave back to back right behind the last packet
// of the longer delay, and after that every packet gets d(t) exactly. No
// packet overtakes another and none is lost to the change. netem does the
// opposite: its tfifo orders packets by time_to_send (Linux
// net/sched/sch_netem.c, tfifo_enqueue), so after `tc qdisc change ... delay`
// to a smaller value new packets leave before older ones; LeoEM changes its
// links' netem delays every second this way (emulator.py, tc via Mininet's
// link config), and issue 19 reports the same of LeoReplayer's delay
// replay. We do not, because a single route does
// not reorder (the packets are in one FIFO on the same hops), and the
// reordering of an emulator would make TCP's loss detection (RACK's reorder
// window, dupACK thresholds) react to an artefact of the tool rather than
// to the path; a route change that really reorders is a move between two
// paths, which is topology work (several paths, per-flow moves), not a
// property of one link's delay. The price is that a sharp drop shows up as
// a short burst of back-to-back arrivals (Delay.Held counts the packets
// concerned).
//
// Path files. ReadLeoEM reads one line per second; its total one-way delay
// holds for that second (a step, as LeoEM re-sets its delays once per
// second), a NULL line is a second without a route (the link is down, as
// LeoEM takes its first hop down: packets entering then are dropped as
// outage), and a line whose node list differs from the previous line's is a
// handover. The delay applies to both directions, as LeoEM sets the same
// delay on both interfaces of each hop.
//
// Topologies (links in series, per-flow paths, moving a flow between
// paths) are not this package's: a path is one link per direction here,
// and a composition of them is built from these stages elsewhere.
package schedule
