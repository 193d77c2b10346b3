package cctest

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/cc"
)

// Fixture defaults.
const (
	// DefaultMSS is the segment size of the fixture: a 1500 B Ethernet MTU
	// less 40 B of IPv4+TCP headers and 12 B of timestamps (Linux's usual
	// MSS).
	DefaultMSS = 1448
	// minRTO is the retransmission timer's floor: RFC 6298 §2.4 asks for
	// 1 s, Linux uses 200 ms (TCP_RTO_MIN, include/net/tcp.h).
	minRTO = 200 * time.Millisecond
	// compactAfter: acknowledged segments are dropped from the front of
	// the record once there are this many and they are half of it.
	compactAfter = 4096
)

// Path is a bulk sender (never application limited) over a FIFO
// bottleneck: a segment entering at t waits for the link, is served at
// Rate, and is acknowledged RTT (taken when it leaves the bottleneck)
// later, never before an earlier segment's ACK. Entry drops come from
// i.i.d. loss, an optional token-bucket policer and the drop-tail Buffer.
// It honours the controller's window and pacing rate. Set the exported
// fields before the first Run; Observe may be changed at any time.
type Path struct {
	C cc.Controller
	// Rate is the bottleneck's rate in bytes/s for a segment whose service
	// starts at t.
	Rate func(t time.Duration) float64
	// RTT is the base round-trip time added to a segment that leaves the
	// bottleneck at t.
	RTT func(t time.Duration) time.Duration
	// Buffer is the drop-tail limit in bytes (0: unlimited).
	Buffer int
	// LossP is the i.i.d. drop probability at the bottleneck's entry,
	// drawn from Rand (which may be nil while LossP is 0).
	LossP float64
	// Outages are [start, end) intervals in which no segment starts
	// service (one already scheduled still leaves on time).
	Outages [][2]time.Duration
	MSS     int
	Rand    *rand.Rand
	// Observe, when set, sees every ACK after the controller processed it.
	Observe func(now time.Duration, rs *cc.RateSample)

	police, bucket, tokens   float64 // token bucket, bytes/s and bytes
	tokenTime                time.Duration
	now, linkFree, nextSend  time.Duration
	lastAck                  time.Duration
	pkts                     []segment
	head                     int
	seq                      int64
	inflight                 int
	delivered, lost          int64
	deliveredTime, firstSent time.Duration
	minRTT, srtt             time.Duration
	recovering               bool
	recoveryEnd              int64
	sent, drops              int
	rs                       cc.RateSample
	stats                    stats
}

// segment is one transmission's record (the sender's per-skb state of
// Linux tcp_rate.c plus the fixture's own ACK time).
type segment struct {
	seq                      int64
	sent, ackAt              time.Duration
	base                     time.Duration // base RTT it met
	dropped                  bool
	delivered                int64 // C.delivered when sent
	deliveredTime, firstSent time.Duration
	txInFlight               int
	lostAtSend               int64
}

// NewPath builds a path of bitsPerSec and fixed base RTT for controller c,
// with DefaultMSS and a seeded loss stream.
func NewPath(c cc.Controller, bitsPerSec float64, rtt time.Duration) *Path {
	return &Path{
		C:    c,
		Rate: func(time.Duration) float64 { return bitsPerSec / 8 },
		RTT:  func(time.Duration) time.Duration { return rtt },
		MSS:  DefaultMSS,
		Rand: rand.New(rand.NewPCG(3, 5)),
	}
}

// Police puts a token-bucket policer of rate bytes/s and depth bytes,
// starting full, in front of the bottleneck.
func (p *Path) Police(rate, depth float64) {
	p.police, p.bucket, p.tokens, p.tokenTime = rate, depth, depth, p.now
}

// Run processes events (sends, ACKs, RTOs) until the clock reaches until;
// the last one may lie beyond it, as when the path waits out an outage.
func (p *Path) Run(until time.Duration) {
	for p.now < until {
		ackT := time.Duration(math.MaxInt64)
		for i := p.head; i < len(p.pkts); i++ {
			if !p.pkts[i].dropped {
				ackT = p.pkts[i].ackAt
				break
			}
		}
		sendT := time.Duration(math.MaxInt64)
		if p.inflight+p.MSS <= p.C.CWnd() {
			sendT = max(p.nextSend, p.now)
		}
		switch {
		case ackT == math.MaxInt64 && sendT == math.MaxInt64:
			p.timeout()
		case sendT <= ackT:
			p.now = sendT
			p.send()
		default:
			p.now = ackT
			p.ack()
		}
	}
}

// send transmits one segment through the policer and the bottleneck.
func (p *Path) send() {
	if p.inflight == 0 {
		p.firstSent, p.deliveredTime = p.now, p.now
	}
	p.inflight += p.MSS
	pk := segment{seq: p.seq, sent: p.now, delivered: p.delivered, deliveredTime: p.deliveredTime,
		firstSent: p.firstSent, txInFlight: p.inflight, lostAtSend: p.lost}
	p.seq++
	p.sent++
	pk.dropped = p.dropAtEntry()
	if pk.dropped {
		p.drops++
	} else {
		p.linkFree = p.service(p.now)
		pk.base = p.RTT(p.linkFree)
		pk.ackAt = max(p.linkFree+pk.base, p.lastAck)
		p.lastAck = pk.ackAt
	}
	p.pkts = append(p.pkts, pk)
	p.C.OnSend(p.now, cc.SentInfo{Bytes: p.MSS, Inflight: p.inflight})
	p.nextSend = p.now
	if r := p.C.PacingRate(); r > 0 {
		p.nextSend += time.Duration(float64(p.MSS) / r * float64(time.Second))
	}
}

// dropAtEntry applies random loss, the policer and the buffer limit.
func (p *Path) dropAtEntry() bool {
	if p.LossP > 0 && p.Rand.Float64() < p.LossP {
		return true
	}
	if p.police > 0 {
		p.tokens = min(p.bucket, p.tokens+p.police*(p.now-p.tokenTime).Seconds())
		p.tokenTime = p.now
		if p.tokens < float64(p.MSS) {
			return true
		}
		p.tokens -= float64(p.MSS)
	}
	if p.Buffer > 0 && p.linkFree > p.now {
		queued := p.Rate(p.now) * (p.linkFree - p.now).Seconds()
		return queued+float64(p.MSS) > float64(p.Buffer)
	}
	return false
}

// service returns when a segment arriving at t has left the bottleneck.
func (p *Path) service(t time.Duration) time.Duration {
	start := max(t, p.linkFree)
	for _, o := range p.Outages {
		if start >= o[0] && start < o[1] {
			start = o[1]
		}
	}
	return start + time.Duration(float64(p.MSS)/p.Rate(start)*float64(time.Second))
}

// ack delivers the next acknowledged segment, builds its rate sample and
// hands it to the controller.
func (p *Path) ack() {
	priorInflight := p.inflight
	lostBytes := 0
	for p.pkts[p.head].dropped { // RACK-like: a later segment was delivered
		p.head++
		lostBytes += p.MSS
	}
	pk := p.pkts[p.head]
	p.head++
	p.compact()
	p.lost += int64(lostBytes)
	p.inflight -= lostBytes + p.MSS
	p.delivered += int64(p.MSS)
	p.deliveredTime = p.now
	rtt := p.now - pk.sent
	if p.minRTT == 0 || rtt < p.minRTT {
		p.minRTT = rtt
	}
	if p.srtt == 0 {
		p.srtt = rtt
	} else {
		p.srtt += (rtt - p.srtt) / 8 // RFC 6298 §2.3, alpha = 1/8
	}
	p.rs = cc.RateSample{AckedBytes: p.MSS, AckedPackets: 1, LostBytes: lostBytes, LostPackets: lostBytes / p.MSS,
		RTT: rtt, MinRTT: p.minRTT, SRTT: p.srtt, PriorDelivered: pk.delivered,
		TotalDelivered: p.delivered, TotalLost: p.lost, TxInFlight: pk.txInFlight, Lost: p.lost - pk.lostAtSend,
		Inflight: p.inflight, PriorInflight: priorInflight}
	p.rateSample(&pk)
	p.recovery(&pk, lostBytes)
	p.stats.add(p.MSS, lostBytes, rtt-pk.base)
	p.C.OnAck(p.now, &p.rs)
	if p.Observe != nil {
		p.Observe(p.now, &p.rs)
	}
}

// rateSample fills the delivery-rate fields (draft-cheng §3.3, Linux
// tcp_rate_gen): the interval is the longer of the send and ACK phases,
// and samples shorter than min_rtt are invalid.
func (p *Path) rateSample(pk *segment) {
	sendElapsed := pk.sent - pk.firstSent
	ackElapsed := p.now - pk.deliveredTime
	p.firstSent = pk.sent
	interval := max(sendElapsed, ackElapsed)
	p.rs.Delivered = p.delivered - pk.delivered
	if interval <= 0 || interval < p.minRTT {
		return // invalid sample: Interval and DeliveryRate stay 0
	}
	p.rs.Interval = interval
	p.rs.DeliveryRate = float64(p.rs.Delivered) / interval.Seconds()
}

// recovery tracks an RFC 6675 recovery episode: it starts on an ACK that
// reports a loss outside one and lasts until everything sent before it
// started is acknowledged.
func (p *Path) recovery(pk *segment, lostBytes int) {
	if p.recovering && pk.seq >= p.recoveryEnd {
		p.recovering = false
	}
	if lostBytes > 0 && !p.recovering {
		p.recovering = true
		p.recoveryEnd = p.seq - 1
		p.rs.NewLossEpisode = true
	}
	p.rs.InRecovery = p.recovering
}

// timeout fires the retransmission timer (RFC 6298 §5, floor minRTO, as
// Linux: max(minRTO, 2·SRTT) here) once nothing is left to be
// acknowledged, and counts everything in flight as lost.
func (p *Path) timeout() {
	p.now += max(minRTO, 2*p.srtt)
	p.lost += int64(p.inflight)
	p.inflight = 0
	p.head = len(p.pkts)
	p.compact()
	p.recovering = false
	p.C.OnRTO(p.now)
}

// compact drops acknowledged segments from the front of the record.
func (p *Path) compact() {
	if p.head > compactAfter && p.head > len(p.pkts)/2 {
		n := copy(p.pkts, p.pkts[p.head:])
		p.pkts = p.pkts[:n]
		p.head = 0
	}
}
