// Package tracelink owns the trace-driven link stages: a Server that
// delivers packets at the opportunities of a Mahimahi trace (looping as
// Mahimahi's mm-link does) from a queue discipline of link/qdisc, and a
// DelayLine that delays each packet by a LeoReplayer delay trace. Both are
// link.Stage implementations, clock-free like every stage, so the
// simulator and the live emulator replay a trace with the same code.
//
// Time 0 of the run is the start of both traces, as LeoReplayer aligns its
// link and delay shells on one BASE_TIMESTAMP. The file formats are package
// trace's.
package tracelink
