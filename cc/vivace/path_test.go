package vivace

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/cc"
)

// testPath is the fixture the tests drive a controller with: a bulk sender
// (never application limited), a fixed-rate FIFO bottleneck with an
// optional drop-tail buffer and i.i.d. random loss, and a fixed base RTT,
// so RTT = base + queue/C. It honours the controller's window and pacing
// rate, returns one ACK per segment, detects a loss when a later segment is
// acknowledged (as RACK would) and runs one recovery episode per window of
// losses (RFC 6675). It fires OnRTO when nothing is left to be
// acknowledged. It is not a network simulator: no retransmissions, no
// delayed ACKs, no reverse-path queue.
type testPath struct {
	c     cc.Controller
	rate  float64       // bottleneck, bytes/s
	base  time.Duration // propagation RTT
	buf   int           // buffer limit in packets; 0 = unlimited
	lossP float64       // i.i.d. drop probability at the bottleneck's entry
	mss   int
	rng   *rand.Rand
	// observe, when set, sees every ACK after the controller processed it.
	observe func(now time.Duration, rs *cc.RateSample)

	now, linkFree, nextSend time.Duration
	pkts                    []testPkt
	head                    int
	seq                     int64
	inflight                int
	delivered, lost         int64
	minRTT, srtt            time.Duration
	recovering              bool
	recoveryEnd             int64
	rs                      cc.RateSample

	// statistics since resetStats
	statFrom              time.Duration
	ackedBytes, lostBytes int64
	qdelaySum             time.Duration
	acks                  int64
}

type testPkt struct {
	seq       int64
	sent, at  time.Duration // at: when its ACK arrives
	dropped   bool
	delivered int64 // C.delivered when sent
}

// newTestPath builds a path of bits/s and base RTT for controller c.
func newTestPath(c cc.Controller, bitsPerSec float64, base time.Duration) *testPath {
	return &testPath{c: c, rate: bitsPerSec / 8, base: base, mss: 1448, rng: rand.New(rand.NewPCG(3, 5))}
}

// bdpPackets is the bandwidth-delay product in segments.
func (p *testPath) bdpPackets() float64 { return p.rate * p.base.Seconds() / float64(p.mss) }

// run advances the path to the given time.
func (p *testPath) run(until time.Duration) {
	for p.now < until {
		ackT := time.Duration(math.MaxInt64)
		for i := p.head; i < len(p.pkts); i++ {
			if !p.pkts[i].dropped {
				ackT = p.pkts[i].at
				break
			}
		}
		sendT := time.Duration(math.MaxInt64)
		if p.inflight+p.mss <= p.c.CWnd() {
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

// queuePackets is the bottleneck's backlog at the current time.
func (p *testPath) queuePackets() float64 {
	if p.linkFree <= p.now {
		return 0
	}
	return p.rate * (p.linkFree - p.now).Seconds() / float64(p.mss)
}

func (p *testPath) send() {
	p.inflight += p.mss
	pk := testPkt{seq: p.seq, sent: p.now, delivered: p.delivered}
	p.seq++
	pk.dropped = (p.lossP > 0 && p.rng.Float64() < p.lossP) ||
		(p.buf > 0 && p.queuePackets()+1 > float64(p.buf))
	if !pk.dropped {
		p.linkFree = max(p.now, p.linkFree) + time.Duration(float64(p.mss)/p.rate*float64(time.Second))
		pk.at = p.linkFree + p.base
	}
	p.pkts = append(p.pkts, pk)
	p.c.OnSend(p.now, cc.SentInfo{Bytes: p.mss, Inflight: p.inflight})
	p.nextSend = p.now
	if r := p.c.PacingRate(); r > 0 {
		p.nextSend += time.Duration(float64(p.mss) / r * float64(time.Second))
	}
}

func (p *testPath) ack() {
	prior := p.inflight
	lostBytes := 0
	for p.pkts[p.head].dropped {
		p.head++
		lostBytes += p.mss
	}
	pk := p.pkts[p.head]
	p.head++
	if p.head > 4096 && p.head > len(p.pkts)/2 {
		p.pkts = append(p.pkts[:0], p.pkts[p.head:]...)
		p.head = 0
	}
	p.lost += int64(lostBytes)
	p.inflight -= lostBytes + p.mss
	p.delivered += int64(p.mss)
	rtt := p.now - pk.sent
	if p.minRTT == 0 || rtt < p.minRTT {
		p.minRTT = rtt
	}
	if p.srtt == 0 {
		p.srtt = rtt
	} else {
		p.srtt += (rtt - p.srtt) / 8
	}
	newEpisode := false
	if p.recovering && pk.seq >= p.recoveryEnd {
		p.recovering = false
	}
	if lostBytes > 0 && !p.recovering {
		p.recovering, newEpisode, p.recoveryEnd = true, true, p.seq
	}
	p.rs = cc.RateSample{AckedBytes: p.mss, AckedPackets: 1, LostBytes: lostBytes, LostPackets: lostBytes / p.mss,
		RTT: rtt, MinRTT: p.minRTT, SRTT: p.srtt, PriorDelivered: pk.delivered, Delivered: int64(p.mss),
		TotalDelivered: p.delivered, TotalLost: p.lost, Inflight: p.inflight, PriorInflight: prior,
		NewLossEpisode: newEpisode, InRecovery: p.recovering}
	p.ackedBytes += int64(p.mss)
	p.lostBytes += int64(lostBytes)
	p.qdelaySum += rtt - p.base
	p.acks++
	p.c.OnAck(p.now, &p.rs)
	if p.observe != nil {
		p.observe(p.now, &p.rs)
	}
}

// timeout fires the retransmission timer (RFC 6298 floor of 200 ms as
// Linux) and forgets everything in flight as lost.
func (p *testPath) timeout() {
	p.now += max(200*time.Millisecond, 2*p.srtt)
	p.lost += int64(p.inflight)
	p.inflight = 0
	p.pkts, p.head = p.pkts[:0], 0
	p.recovering = false
	p.c.OnRTO(p.now)
}

// resetStats starts a measurement window.
func (p *testPath) resetStats() {
	p.statFrom, p.ackedBytes, p.lostBytes, p.qdelaySum, p.acks = p.now, 0, 0, 0, 0
}

// throughput is the acknowledged bytes/s since resetStats.
func (p *testPath) throughput() float64 {
	return float64(p.ackedBytes) / (p.now - p.statFrom).Seconds()
}

// meanQueue is the mean backlog found by acknowledged segments on arrival
// since resetStats, in packets: (RTT − minimum RTT) × C / MSS, the minimum
// being the base RTT plus the segment's own transmission time.
func (p *testPath) meanQueue() float64 {
	if p.acks == 0 {
		return 0
	}
	return (p.qdelaySum/time.Duration(p.acks)).Seconds()*p.rate/float64(p.mss) - 1
}
