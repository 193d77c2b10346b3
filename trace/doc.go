// Package trace owns the trace files that Mahimahi and LeoReplayer users
// bring and take away: Mahimahi's delivery-opportunity traces (one line per
// opportunity, the millisecond at which the link may deliver one
// MTU-sized packet; the trace loops at its end) and LeoReplayer's delay
// traces (one line per fixed interval, 10 ms by default, with the one-way
// delay in milliseconds). It reads them with errors that name the file,
// the line and what is allowed, writes them, and exports the Starlink
// model (or a recorded run) in these formats.
//
// The trace-driven link stage that replays them is link/tracelink.
//
// Semantics carried over from the tools' sources (read, not copied):
//   - Mahimahi, src/frontend/link_queue.cc: timestamps are integer
//     milliseconds, non-decreasing, at least one, the last > 0; an empty
//     line is an error. Each opportunity delivers PACKET_SIZE = 1504 bytes
//     (link_queue.hh, "default max TUN payload size"); a packet longer than
//     what is left of an opportunity continues on the next one, and what a
//     finished packet leaves of an opportunity goes to the next packet in
//     the queue; an opportunity with nothing queued is lost. At the end the
//     trace starts again with its times shifted by its last timestamp.
//   - LeoReplayer (SpaceNetLab/LeoCC, leoreplayer/replayer/src/frontend/
//     delay_queue.cc): a packet entering the delay shell at t (ms since the
//     shell's start, which is also the link trace's start) leaves at
//     t + delay[(t / interval) mod n]; packets leave in order of that time,
//     so a falling delay can reorder them. The same trace delays both
//     directions.
package trace
