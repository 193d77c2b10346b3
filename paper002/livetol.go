package paper002

import "time"

// Live tolerances: how far a live run's physical numbers may be from what
// the link model fixes (livecheck.go). A live run's packets cross kernel
// TCP, TUN devices and the userspace pump, whose release error is p99 <
// 200 µs on a quiet host (README, live emulator), and the host keeps the
// pump off its CPU now and then (emu's gap meter: a few ms several times
// per 10 s on a shared 2-core VM). Each bound below says what it allows
// for; a failed check of a run whose pump gap exceeds liveStall is the
// host's doing (the report says so, the live test repeats it).
const (
	// payloadFraction is the goodput one 1500-byte IP packet carries for
	// Linux TCP over IPv4 with timestamps: MSS 1448 = 1500 − 20 (IPv4) −
	// 20 (TCP) − 12 (the timestamp option, RFC 7323 §3, padded). The
	// emulated link serves IP bytes, so goodput ≤ rate × 1448/1500.
	payloadFraction = 1448.0 / 1500
	// rateSlack is how far a run's mean goodput may exceed the payload
	// ceiling: the kernel's byte count and the pump's clock differ at the
	// run's edges by less than one interval's worth of a BDP (at 150
	// Mbit/s and 45 ms, 0.84 MB against 37 MB in 2 s); 1 % covers it with
	// room.
	rateSlack = 0.01
	// utilFloor is the least share of the payload ceiling a drop-tail
	// link with a buffer of at least one BDP delivers over a run's second
	// half: a loss-based sender's window cut (CUBIC's β = 0.7, RFC 9438
	// §4.6) leaves the queue non-empty, so the link never idles; kernel
	// BBR v1's PROBE_RTT (200 ms at 4 packets every 10 s, tcp_bbr.c) idles
	// it 2 %; the rest is for the host's stalls, during which the pump
	// releases nothing.
	utilFloor = 0.9
	// minRTTBelow, minRTTAbove bound a flow's smallest RTT sample against
	// the path's least round-trip propagation over the run (2 × the path
	// file's one-way delay): below by the pump's release error on the two
	// legs (p99 < 200 µs); above by 3 ms, what emu's TestLiveLeoEMReplay
	// allows kernel CUBIC (its RTT samples at the path's minimum carry the
	// receiver's ACK scheduling and a packet or two of queue).
	minRTTBelow = 0.2 // ms
	minRTTAbove = 3.0 // ms
	// owdTolerance bounds the path probe's median one-way delay of a
	// second against the path file's: the pump's release error (p99 <
	// 200 µs on a quiet host; emu's TestLiveLeoEMReplay allows the same).
	owdTolerance = 0.2 // ms
	// srttBelow bounds an interval's smoothed RTT under the least base RTT
	// of the seconds it may still average (its own and the one before:
	// RFC 6298's gain of 1/8 per sample forgets a second-old path within
	// a few ms at these rates): the release error on two legs.
	srttBelow = 0.2 // ms
	// jainFloor is Jain's index that flow queueing (FQ-CoDel, FQ-PIE,
	// CAKE) gives N equal bulk flows: max–min fair (issue 19 acceptance
	// 1, the simulator's tests). The five flows' ids hash into 1024
	// buckets (CAKE: 8-way set-associative), so they share none.
	jainFloor = 0.99
	// queueSlack is how far a flow's mean smoothed RTT may exceed the
	// base RTT plus the longest the queue can hold (its limit drained at
	// the link rate): the delayed ACK and the release error, and a host
	// stall's backlog (10 ms).
	queueSlack = 10.0 // ms
	// aqmSlack is how far a flow's mean smoothed RTT may exceed the base
	// RTT plus its AQM's target sojourn (CoDel's 5 ms, RFC 8289 §4.4;
	// PIE's 15 ms, RFC 8033 §4.1): the controllers let the sojourn above
	// target for an interval (100 ms) before they act, and slow start's
	// overshoot passes through (10 ms). The bound holds for senders
	// that back off on a drop (lossBased): BBR v1 does not (its window is
	// twice its BDP estimate whatever it loses, tcp_bbr.c), so five BBR v1
	// flows keep a standing queue that CoDel's and PIE's drops do not
	// drain — the simulator's bbr1 does the same (116 ms of mean sRTT
	// under CoDel) — and only the queue's drain time bounds their RTT.
	aqmSlack = 10.0 // ms
	// liveStall is the longest pump gap the checks above allow for: 5 ms
	// at 150 Mbit/s is 62 packets held and released late, 0.5 % of a 1 s
	// interval's bytes and a 5 ms RTT sample at most.
	liveStall = 5 * time.Millisecond
)

// Target sojourn times of the AQMs the delay checks know (ms).
var aqmTargetMs = map[string]float64{
	"codel": 5, "fq_codel": 5, "cake": 5, // RFC 8289 §4.4 TARGET; CAKE's COBALT takes CoDel's
	"pie": 15, "fq_pie": 15, // RFC 8033 §4.1 QDELAY_REF; sch_fq_pie's default target
}

// lossBased are the schemes whose window halves (or shrinks by β) on a
// drop, the senders an AQM's drops control (aqmSlack).
var lossBased = map[string]bool{"cubic": true, "reno": true}

// fairQueueing are the disciplines whose bulk flows split the link
// max–min fairly (jainFloor).
var fairQueueing = map[string]bool{"fq_codel": true, "fq_pie": true, "cake": true}
