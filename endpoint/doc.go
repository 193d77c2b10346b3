// Package endpoint owns the real traffic endpoints of the live emulator:
// kernel TCP bulk senders and receivers created inside network namespaces
// with a per-socket congestion control (TCP_CONGESTION) whose TCP_INFO is
// sampled every interval into result.Flow; leolab's own transport (package
// transport, any cc controller) carried over UDP by a real-time driver, so
// algorithms the kernel lacks (BBRv3, LeoCC, ...) run on the live path; and
// constant-bit-rate UDP flows that measure per-packet one-way delay (both
// namespaces share the machine's clock).
//
// The timing-critical threads run on locked threads at raised priority, so
// a loaded host's normal threads cannot delay them by a time slice: the
// transport loops SCHED_FIFO below the emulator's pump, the CBR sender and
// receiver (which run at up to line rate) at nice -20. Limitation: the transport's datagrams carry no ECN
// (the sockets neither set ECT nor read the TOS byte). It also holds Hist, the microsecond-resolution histogram these
// endpoints and the emulator's pump use to report delays and timing errors.
//
// Endpoints read the wall clock: they are real-time code. Times in results
// are relative to an epoch the caller passes in (the emulator's start).
package endpoint
