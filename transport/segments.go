package transport

import "time"

// seg is the sender's record of one outstanding segment (Linux keeps the same
// facts in struct tcp_skb_cb). Its sequence range never changes: a
// retransmission resends the same bytes.
type seg struct {
	start, end uint64
	// xmit is the time of the latest (re)transmission (RACK.xmit_ts).
	xmit time.Duration

	// Delivery-rate snapshot taken at the latest transmission
	// (draft-cheng §3.2: P.delivered, P.delivered_time, P.first_sent_time,
	// P.is_app_limited) plus Linux's tx.in_flight and tx.lost for BBRv2/3.
	delivered     int64
	deliveredTime time.Duration
	firstSent     time.Duration
	lostAtSend    int64
	txInFlight    int
	appLimited    bool

	sacked      bool // selectively acknowledged (RFC 2018)
	lost        bool // marked lost (RACK, dup-threshold or RTO)
	retransOut  bool // a retransmission of a lost segment is in flight
	everRetrans bool // transmitted more than once (Karn's rule)

	// prev, next link the time-ordered list of segments that are in flight
	// and neither SACKed nor awaiting retransmission (Linux
	// tsorted_sent_queue, RFC 8985 §6.2). Values are absolute segment
	// indices; -1 ends the list.
	prev, next int64
}

func (s *seg) len() int { return int(s.end - s.start) }

// segRing holds the segments from snd.una to snd.nxt, addressed by absolute
// index (0 for the first segment ever sent). The ring doubles when full and
// is reused otherwise, so the steady state allocates nothing.
type segRing struct {
	buf  []seg
	mask int64
	head int64 // absolute index of the oldest outstanding segment
	tail int64 // absolute index the next new segment gets
	// tsHead, tsTail are the ends of the time-ordered list.
	tsHead, tsTail int64
}

const initialRing = 1024 // segments; grows by doubling

func newSegRing() segRing {
	return segRing{buf: make([]seg, initialRing), mask: initialRing - 1, tsHead: -1, tsTail: -1}
}

func (r *segRing) count() int64 { return r.tail - r.head }

// at returns the record of absolute index i (head <= i < tail).
func (r *segRing) at(i int64) *seg { return &r.buf[i&r.mask] }

// push appends a new segment record and returns its index.
func (r *segRing) push(start, end uint64) int64 {
	if r.count() == int64(len(r.buf)) {
		r.grow()
	}
	i := r.tail
	r.tail++
	*r.at(i) = seg{start: start, end: end, prev: -1, next: -1}
	return i
}

func (r *segRing) grow() {
	nb := make([]seg, 2*len(r.buf))
	nm := int64(len(nb) - 1)
	for i := r.head; i < r.tail; i++ {
		nb[i&nm] = *r.at(i)
	}
	r.buf, r.mask = nb, nm
}

// popHead removes the oldest segment; it must already be off the time list.
func (r *segRing) popHead() { r.head++ }

// find returns the index of the first segment whose start >= seq (tail if
// none).
func (r *segRing) find(seq uint64) int64 {
	lo, hi := r.head, r.tail
	for lo < hi {
		m := lo + (hi-lo)/2
		if r.at(m).start < seq {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Time-ordered list (RFC 8985 §6.2 "sorted by transmission time").

func (r *segRing) tsAppend(i int64) {
	s := r.at(i)
	s.prev, s.next = r.tsTail, -1
	if r.tsTail >= 0 {
		r.at(r.tsTail).next = i
	} else {
		r.tsHead = i
	}
	r.tsTail = i
}

// tsRemove unlinks i; it is a no-op for a segment not on the list.
func (r *segRing) tsRemove(i int64) {
	s := r.at(i)
	if s.prev < 0 && r.tsHead != i {
		return
	}
	if s.prev >= 0 {
		r.at(s.prev).next = s.next
	} else {
		r.tsHead = s.next
	}
	if s.next >= 0 {
		r.at(s.next).prev = s.prev
	} else {
		r.tsTail = s.prev
	}
	s.prev, s.next = -1, -1
}

func (r *segRing) tsClear() {
	for i := r.tsHead; i >= 0; {
		s := r.at(i)
		i = s.next
		s.prev, s.next = -1, -1
	}
	r.tsHead, r.tsTail = -1, -1
}
