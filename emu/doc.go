// Package emu owns the live emulator: two network namespaces (a client —
// the terminal side — and a server — the remote end), one TUN device in
// each, and the real-time pump that reads IP packets from each TUN,
// classifies them into flows by 5-tuple, passes them through the uplink or
// downlink link.Stage at monotonic wall-clock time, and writes them to the
// other TUN at their release time. Any link.Stage plugs in, so the same link
// models run on sim and emu.
//
// StarlinkPath builds the Starlink path live: the same link models as the
// simulator, with the reconfiguration schedule at the real UTC minute of
// the run's epoch. FromSpec turns a simulator spec (a scenario file) into a
// Run: kernel TCP where the kernel has the algorithm (KernelCCA), leolab's
// transport over UDP otherwise, CBR probes. A topology runs live only when
// every flow crosses the same links (as those links in series); the pump
// cannot route by scenario flow (topology.go). Each hop of the series is
// metered, so that the result has the simulator's links, one per link
// direction (hops.go); a link's schedule or delay file runs on the flows'
// time axis with its handovers as the flows' schedule (timed.go).
//
// The pump measures its own instrument: the release-time error of every
// packet (how late it was written relative to its stage's due time), the
// gaps in which it was kept off its CPU (gaps.go), the packets it could not
// parse or write, and the kernel's drops at the TUN queues; Stats reports
// them with the results.
//
// All names carry a run id (owner pid and a random tag), so runs in
// parallel never collide; Close removes what a run created, and Cleanup
// removes the leftovers of runs whose process died (kill -9). Only
// namespaces are created: devices, addresses and routes live inside them
// and disappear with them, and the root namespace is never touched.
//
// The pump is one SCHED_FIFO thread. It spins shortly before releases and
// rests at least 6% of its time so that the kernel never throttles it (see
// rest.go); its throughput is bounded by one core (about
// 1 Gbit/s of 1500-byte packets), and timing depends on the host's load.
// Unless Config.Shared is set, a run tunes the host while it lasts
// (host.go): the pump on a CPU of its own, the process at nice -20, idle
// CPUs polling.
//
// Kernel flows send with the run's send buffer as their namespace's
// tcp_wmem maximum (sndbuf.go), so that kernel TCP and the simulator's
// transport run a scenario with the same buffer. Root is required.
package emu
