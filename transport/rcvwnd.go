package transport

import "time"

// Receive-window autotuning constants (Linux).
const (
	// initRcvWndSegs is the window a Linux receiver first advertises:
	// TCP_DEFAULT_INIT_RCVWND = 10 segments (include/net/tcp.h, applied in
	// tcp_select_initial_window, net/ipv4/tcp_output.c). It is also the
	// first rcvq_space.space (tcp_init_buffer_space: TCP_INIT_CWND × advmss).
	initRcvWndSegs = 10
	// initRcvClamp is the first window clamp: tcp_rmem[1] = 131072 bytes
	// of receive buffer (the default sysctl) at TCP_DEFAULT_SCALING_RATIO
	// = 1/2 window per buffer byte (include/net/tcp.h, Linux ≥ 6.7; older
	// kernels' tcp_adv_win_scale = 1 gives the same half).
	initRcvClamp = 131072 / 2
	// drsCushionSegs is the cushion DRS adds to twice the data copied in
	// a round trip (tcp_rcv_space_adjust: rcvwin = 2·copied + 16·advmss).
	drsCushionSegs = 16
)

// rcvWindow is Linux's receive-window autotuning, the two mechanisms
// that bound a sender by the receiver before the window reaches its
// ceiling (net/ipv4/tcp_input.c, Linux 4.19–6.15, the kernels of the real
// dataset's receivers):
//   - tcp_grow_window: each data segment raises rcv_ssthresh, the
//     advertised window, by twice its length (at least 2 MSS), up to the
//     window clamp: the window at most triples per round trip and opens
//     by ~2 segments per segment received, so a sender whose cwnd jumps
//     (Hybla's 2^rho − 1 per ACK) is still ACK-clocked;
//   - tcp_rcv_space_adjust (dynamic right-sizing): once per receiver RTT
//     the clamp grows to 2·copied + 16 MSS plus twice the growth of
//     copied over the previous RTT, never shrinking, up to the ceiling
//     (cfg.Rwnd, tcp_rmem[2] as a window).
//
// The receiver's RTT (rcv_rtt_est, which paces DRS) is sampled from the
// ACKs: the time from an ACK to the first data beyond the largest right
// edge offered until then. Such data can only have left the sender after
// that ACK reached it, so a sample is never below the RTT and equals it
// while the window binds (slow start); the estimate keeps the minimum.
// Linux samples the same quantity from TCP timestamps
// (tcp_rcv_rtt_measure_ts), which our packets do not carry, or without
// them as the time to receive one window (tcp_rcv_rtt_measure), which a
// back-to-back first flight shortens to its serialisation time. The
// application reads in-order data at once (iperf3's receiver), so copied
// equals RCV.NXT, and the window is the offered window less the
// out-of-order data held (the buffer's free space).
type rcvWindow struct {
	mss      int
	ceiling  int // largest window (cfg.Rwnd)
	clamp    int // window_clamp: the buffer's window, grown by DRS
	ssthresh int // rcv_ssthresh: the window offered, grown per segment

	space     int // rcvq_space.space: bytes copied in the last measured RTT
	spaceSeq  uint64
	spaceTime time.Duration

	rtt       time.Duration // rcv_rtt_est (minimum of the samples), 0 until measured
	probeEdge uint64        // data beyond it ends the current sample
	probeTime time.Duration // when the ACK that started the sample left
	probing   bool
	started   bool
}

// InitialRwnd is the window an autotuning receiver offers in its
// handshake (10 segments of mss), for SenderConfig.InitialRwnd.
func InitialRwnd(mss int) int { return initRcvWndSegs * mss }

func newRcvWindow(mss, ceiling int) rcvWindow {
	w := rcvWindow{mss: mss, ceiling: ceiling}
	w.clamp = min(initRcvClamp, ceiling)
	w.ssthresh = min(initRcvWndSegs*mss, w.clamp)
	w.space = initRcvWndSegs * mss
	return w
}

// onData grows the offered window for a new segment of n bytes ending at
// end (tcp_grow_window; Linux calls it for in-order and out-of-order
// data) and ends an RTT sample if the segment lies beyond its edge. ooo
// is the out-of-order data held, which occupies buffer space.
func (w *rcvWindow) onData(now time.Duration, n int, end uint64, ooo int) {
	if !w.started { // the connection's first data (tcp_init_buffer_space)
		w.started, w.spaceTime = true, now
	}
	if w.probing && end > w.probeEdge {
		if d := now - w.probeTime; d > 0 && (w.rtt == 0 || d < w.rtt) {
			w.rtt = d
		}
		w.probing = false
	}
	room := w.clamp - ooo - w.ssthresh
	if room <= 0 {
		return
	}
	w.ssthresh += min(room, max(2*w.mss, 2*n))
}

// onInOrder runs dynamic right-sizing after RCV.NXT advanced to rcvNxt
// (tcp_rcv_space_adjust, as the application reads): once per receiver
// RTT the clamp grows with the data copied in it.
func (w *rcvWindow) onInOrder(now time.Duration, rcvNxt uint64) {
	if w.rtt <= 0 || now-w.spaceTime < w.rtt {
		return
	}
	copied := int(rcvNxt - w.spaceSeq)
	if copied > w.space {
		rcvwin := 2*copied + drsCushionSegs*w.mss
		grow := int(int64(rcvwin) * int64(copied-w.space) / int64(w.space))
		rcvwin += 2 * grow
		w.clamp = max(w.clamp, min(rcvwin, w.ceiling))
		w.space = copied
	}
	w.spaceSeq, w.spaceTime = rcvNxt, now
}

// window is the buffer's free space: the autotuned window less the
// out-of-order data held (__tcp_select_window: the free space bounds it).
// Its right edge may move back while out-of-order data accumulates; the
// receiver keeps the edge it offered (Receiver.offeredWindow, Linux
// tcp_select_window) and tells offered.
func (w *rcvWindow) window(ooo int) int {
	return max(min(w.ssthresh, w.clamp)-ooo, 0)
}

// offered notes an ACK sent at now whose window ends at edge, the largest
// right edge offered so far: it starts an RTT sample if none is running,
// which data beyond that edge ends.
func (w *rcvWindow) offered(now time.Duration, edge uint64) {
	if !w.probing {
		w.probing, w.probeEdge, w.probeTime = true, edge, now
	}
}
