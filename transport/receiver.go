package transport

import (
	"time"

	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
)

// sackOptionBase is the fixed on-wire cost of a SACK option: kind and length
// (RFC 2018 §3) plus two NOPs of padding to a 4-byte boundary.
const sackOptionBase = 4

// sackBlocksExpected is Linux's TCP_SACK_BLOCKS_EXPECTED (tcp_input.c):
// SACK compression assumes only two blocks reliably reach the sender.
const sackBlocksExpected = 2

// Receiver is one flow's TCP-like receiver. It is not safe for concurrent use.
type Receiver struct {
	cfg  ReceiverConfig
	pool *packet.Pool

	rcvNxt uint64   // RFC 793 RCV.NXT
	ooo    rangeSet // out-of-order data held above rcvNxt
	// recent holds one sequence number inside each recently changed block,
	// most recent first (RFC 2018 §4 block order).
	recent  [packet.MaxSack]uint64
	nRecent int
	dsack   packet.Block // duplicate segment to report first (RFC 2883)

	unacked  int           // in-order segments received since the last ACK
	quick    int           // quick ACKs left (Linux icsk_ack.quick)
	ackNow   bool          // an immediate ACK is due
	delackAt time.Duration // delayed-ACK timer
	ce       bool          // CE seen since the last ACK

	// SACK compression (Linux tcp_sock compressed_ack, dup_ack_counter,
	// compressed_ack_rcv_nxt and compressed_ack_timer).
	compressed int            // out-of-order ACKs held back since the last ACK
	dupAcks    int            // immediate duplicate ACKs sent for compRcvNxt
	compRcvNxt uint64         // RCV.NXT the duplicate count refers to
	compAt     time.Duration  // compression timer
	flush      *packet.Packet // ACK built before a SACK block would go unreported
	echo       uint64         // TxID of the latest segment
	now        time.Duration

	win rcvWindow // receive-window autotuning (unless cfg.NoAutoTune)
	// edge is the largest right edge offered (RCV.NXT + window), which a
	// later ACK never moves back (offeredWindow).
	edge uint64

	stats ReceiverStats
}

// ReceiverStats are the receiver's cumulative counters.
type ReceiverStats struct {
	BytesReceived int64 // payload bytes delivered in order (RCV.NXT)
	Segments      int64 // data segments received
	DupSegments   int64 // segments carrying only already-received data
	OutOfOrder    int64 // segments received above a hole
	Acks          int64 // ACKs sent
}

// NewReceiver returns a receiver taking ACK packets from pool.
func NewReceiver(cfg ReceiverConfig, pool *packet.Pool) *Receiver {
	cfg = cfg.withDefaults()
	return &Receiver{cfg: cfg, pool: pool, quick: cfg.QuickAcks, delackAt: sim.Never, compAt: sim.Never,
		win: newRcvWindow(cfg.MSS, cfg.Rwnd)}
}

// OnData processes a data segment. The caller keeps ownership of p.
func (r *Receiver) OnData(now time.Duration, p *packet.Packet) {
	r.now = now
	r.stats.Segments++
	r.echo = p.TxID
	r.ce = r.ce || p.CE
	b := packet.Block{Start: p.Seq, End: p.Seq + uint64(p.Len)}
	switch {
	case b.End <= r.rcvNxt:
		r.duplicate(b)
	case b.Start > r.rcvNxt:
		r.outOfOrder(b)
		r.growWindow(now, p.Len, b.End)
	default:
		r.inOrder(now, b)
		r.growWindow(now, p.Len, b.End)
		if !r.cfg.NoAutoTune {
			r.win.onInOrder(now, r.rcvNxt)
		}
	}
	r.stats.BytesReceived = int64(r.rcvNxt)
}

// duplicate: already received data is ACKed at once with a DSACK block
// (RFC 5681 §4.2 via RFC 1122; RFC 2883 §4).
func (r *Receiver) duplicate(b packet.Block) {
	r.stats.DupSegments++
	r.dsack = b
	r.ackNow = true
}

// outOfOrder buffers data above a hole and ACKs (RFC 5681 §4.2), at once
// or compressed (ofoAck).
func (r *Receiver) outOfOrder(b packet.Block) {
	if c, ok := r.ooo.containing(b.Start); ok && c.End >= b.End {
		r.duplicate(b)
		return
	}
	r.stats.OutOfOrder++
	if r.compressed > 0 && r.flush == nil && r.sackPressure(b) {
		// Linux tcp_sack_new_ofo_skb (TCP_SACK_BLOCKS_EXPECTED = 2):
		// before a block is pushed to third place or beyond, the ACKs
		// held back go out, so every block was reported in first or
		// second place at least once.
		r.flush = r.makeAck(r.now)
	}
	r.ooo.add(b)
	r.remember(b.Start)
	r.ofoAck()
}

// sackPressure tells whether b would move SACK blocks down the list:
// it extends a block that is not among the two most recent, or it starts
// a new block while two or more exist.
func (r *Receiver) sackPressure(b packet.Block) bool {
	for i := 0; i < r.nRecent; i++ {
		if c, ok := r.ooo.containing(r.recent[i]); ok && c.Start <= b.End && b.Start <= c.End {
			return i >= sackBlocksExpected
		}
	}
	return r.nRecent >= sackBlocksExpected
}

// ofoAck is Linux's SACK compression (__tcp_ack_snd_check with data out
// of order): the first three duplicate ACKs for a RCV.NXT go at once, the
// following ones wait for the compression timer or for CompSackNr held
// back. RFC 5681 §4.2 asks for an immediate ACK per out-of-order segment;
// Linux departs from it to spare the reverse path (here: Starlink's
// uplink, whose AQM would otherwise drop the ACK flood of a loss).
func (r *Receiver) ofoAck() {
	if r.cfg.CompSackNr == 0 || r.compressed >= r.cfg.CompSackNr {
		r.ackNow = true
		return
	}
	if r.compRcvNxt != r.rcvNxt {
		r.compRcvNxt, r.dupAcks = r.rcvNxt, 0
	}
	if r.dupAcks < compSackImmediate {
		r.dupAcks++
		r.ackNow = true
		return
	}
	r.compressed++
	if r.compAt == sim.Never {
		r.compAt = r.now + r.cfg.CompSackDelay
	}
}

// inOrder advances RCV.NXT, pulling in buffered data, and applies the ACK
// policy: immediate when a gap was filled (RFC 5681 §4.2) or in quick-ACK
// mode, otherwise every AckEvery segments or at the delayed-ACK timer
// (RFC 1122 §4.2.3.2, RFC 5681 §4.2).
func (r *Receiver) inOrder(now time.Duration, b packet.Block) {
	filled := r.ooo.len() > 0
	r.rcvNxt = b.End
	if f, ok := r.ooo.first(); ok && f.Start <= r.rcvNxt {
		r.rcvNxt = max(r.rcvNxt, f.End)
	}
	r.ooo.removeBelow(r.rcvNxt)
	r.unacked++
	switch {
	case filled || r.quick > 0 || r.unacked >= r.cfg.AckEvery:
		if r.quick > 0 {
			r.quick--
		}
		r.ackNow = true
	case r.delackAt == sim.Never:
		r.delackAt = now + r.cfg.DelAckTimeout
	}
}

// growWindow raises the offered window for n new bytes; a growing window
// is ACKed at once (tcp_grow_window sets icsk_ack.quick), so the sender
// learns of it without the delayed-ACK wait.
func (r *Receiver) growWindow(now time.Duration, n int, end uint64) {
	if r.cfg.NoAutoTune {
		return
	}
	before := r.win.ssthresh
	r.win.onData(now, n, end, int(r.ooo.bytes()))
	if r.win.ssthresh > before {
		r.ackNow = true
	}
}

// remember puts the block containing seq first in the recent list, dropping
// entries that now fall in the same block.
func (r *Receiver) remember(seq uint64) {
	blk, _ := r.ooo.containing(seq)
	k := 0
	var keep [packet.MaxSack]uint64
	keep[k] = seq
	k++
	for i := 0; i < r.nRecent && k < len(keep); i++ {
		if c, ok := r.ooo.containing(r.recent[i]); ok && c != blk {
			keep[k] = r.recent[i]
			k++
		}
	}
	r.recent, r.nRecent = keep, k
}

// Next returns the ACK to send at now, or nil when none is due.
func (r *Receiver) Next(now time.Duration) *packet.Packet {
	r.now = now
	if p := r.flush; p != nil {
		r.flush = nil
		return p
	}
	if !r.ackNow && r.delackAt > now && r.compAt > now {
		return nil
	}
	return r.makeAck(now)
}

// offeredWindow is the window an ACK carries: the buffer's free space
// (the autotuned window, or the configured one, less the out-of-order data
// held), but never less than what keeps the right edge where an earlier
// ACK put it. Linux does not shrink the offered window (tcp_select_window,
// net/ipv4/tcp_output.c: "Never shrink the offered window" unless the
// tcp_shrink_window sysctl, off by default, allows it; RFC 9293
// §3.8.6.2.2 asks the same): while a hole holds RCV.NXT back, the data
// arriving above it eats the free space but the sender may still fill up
// to the edge already offered, so a sender in loss recovery keeps sending
// up to RCV.NXT plus the largest window.
func (r *Receiver) offeredWindow(now time.Duration) int {
	var wnd int
	if r.cfg.NoAutoTune {
		wnd = max(r.cfg.Rwnd-int(r.ooo.bytes()), 0)
	} else {
		wnd = r.win.window(int(r.ooo.bytes()))
	}
	if edge := r.rcvNxt + uint64(wnd); edge >= r.edge {
		r.edge = edge
	} else {
		wnd = int(r.edge - r.rcvNxt)
	}
	if !r.cfg.NoAutoTune {
		r.win.offered(now, r.edge)
	}
	return wnd
}

// makeAck builds the ACK of the current state and resets the ACK timers
// and counters (Linux tcp_send_ack and tcp_event_ack_sent).
func (r *Receiver) makeAck(now time.Duration) *packet.Packet {
	p := r.pool.Get()
	p.Flow, p.Kind = r.cfg.Flow, packet.Ack
	p.Ack, p.Echo, p.ECE = r.rcvNxt, r.echo, r.ce
	p.Rwnd = r.offeredWindow(now)
	r.fillSacks(p)
	p.Size = packet.AckSize
	if p.NSack > 0 {
		p.Size += sackOptionBase + int(p.NSack)*packet.SackBlockSize
	}
	p.SentAt = now
	r.ackNow, r.delackAt, r.unacked, r.ce = false, sim.Never, 0, false
	r.compressed, r.compAt = 0, sim.Never
	r.stats.Acks++
	return p
}

// fillSacks writes the SACK blocks: a DSACK first if any, then the most
// recently changed blocks, then the remaining ones from the highest down
// (RFC 2018 §4, RFC 2883 §4).
func (r *Receiver) fillSacks(p *packet.Packet) {
	n := 0
	if r.dsack.End > r.dsack.Start {
		p.Sack[n] = r.dsack
		n++
		r.dsack = packet.Block{}
	}
	have := func(b packet.Block) bool {
		for _, x := range p.Sack[:n] {
			if x == b {
				return true
			}
		}
		return false
	}
	for i := 0; i < r.nRecent && n < packet.MaxSack; i++ {
		if b, ok := r.ooo.containing(r.recent[i]); ok && !have(b) {
			p.Sack[n] = b
			n++
		}
	}
	for i := r.ooo.len() - 1; i >= 0 && n < packet.MaxSack; i-- {
		if b := r.ooo.r[i]; !have(b) {
			p.Sack[n] = b
			n++
		}
	}
	p.NSack = uint8(n)
}

// NextWake returns when Next must be called: now if an ACK is due, the
// earlier of the delayed-ACK and SACK-compression timers, or sim.Never.
func (r *Receiver) NextWake() time.Duration {
	if r.ackNow || r.flush != nil {
		return r.now
	}
	return min(r.delackAt, r.compAt)
}

// Stats returns the receiver's counters.
func (r *Receiver) Stats() ReceiverStats { return r.stats }
