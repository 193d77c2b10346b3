package leocc

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/cc"
)

// path is the synthetic ACK stream of the unit tests: one bulk sender, a
// FIFO bottleneck whose rate and base RTT are functions of time, service
// outages, one ACK per segment in order, losses (bottleneck overflow)
// reported when a later segment is acknowledged, and delivery-rate samples
// per draft-cheng-iccrg-delivery-rate-estimation §3. It is a fixture, not
// a network model: no retransmissions and no reverse-path queue.
type path struct {
	rate    func(t time.Duration) float64       // bytes/s
	rtt     func(t time.Duration) time.Duration // base RTT added after the bottleneck
	outages [][2]time.Duration                  // [start, end) without service
	buf     int                                 // bottleneck buffer, bytes (0: unlimited)
	mss     int
	c       cc.Controller
	// each, when set, sees every ACK after the controller.
	each func(now time.Duration, rs *cc.RateSample)

	now, free, nextSend, lastAck time.Duration
	q                            []pkt
	delivered, lost              int64
	deliveredAt, firstSent       time.Duration
	inflight                     int
	minRTT, srtt                 time.Duration
	recoverTo                    int64
	seq                          int64
	rs                           cc.RateSample
}

type pkt struct {
	seq                    int64
	sent, ackAt            time.Duration
	drop                   bool
	delivered              int64
	deliveredAt, firstSent time.Duration
	inflight               int
}

func constRate(bitsPerSec float64) func(time.Duration) float64 {
	return func(time.Duration) float64 { return bitsPerSec / 8 }
}

func constRTT(d time.Duration) func(time.Duration) time.Duration {
	return func(time.Duration) time.Duration { return d }
}

// testConfig is a controller configuration with a fixed random stream.
func testConfig(params map[string]float64, sched cc.Schedule) cc.Config {
	return cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(3, 4)), Params: params, Schedule: sched}
}

// run advances the path to until.
func (p *path) run(until time.Duration) {
	for p.now < until {
		ackT := time.Duration(math.MaxInt64)
		if len(p.q) > 0 {
			for i := range p.q {
				if !p.q[i].drop {
					ackT = p.q[i].ackAt
					break
				}
			}
		}
		sendT := time.Duration(math.MaxInt64)
		if p.inflight+p.mss <= p.c.CWnd() {
			sendT = max(p.nextSend, p.now)
		}
		if ackT == math.MaxInt64 && sendT == math.MaxInt64 {
			panic("leolab BUG: synthetic path stalled (all in-flight data dropped)")
		}
		if sendT <= ackT {
			p.now = sendT
			p.send()
		} else {
			p.now = ackT
			p.ack()
		}
	}
}

// service returns when a segment arriving at t leaves the bottleneck.
func (p *path) service(t time.Duration) time.Duration {
	start := max(t, p.free)
	for _, o := range p.outages {
		if start >= o[0] && start < o[1] {
			start = o[1]
		}
	}
	return start + time.Duration(float64(p.mss)/p.rate(start)*float64(time.Second))
}

func (p *path) send() {
	if p.inflight == 0 {
		p.firstSent, p.deliveredAt = p.now, p.now
	}
	p.inflight += p.mss
	k := pkt{seq: p.seq, sent: p.now, delivered: p.delivered, deliveredAt: p.deliveredAt,
		firstSent: p.firstSent, inflight: p.inflight}
	p.seq++
	queued := 0.0
	if p.free > p.now {
		queued = p.rate(p.now) * (p.free - p.now).Seconds()
	}
	if p.buf > 0 && queued+float64(p.mss) > float64(p.buf) {
		k.drop = true
	} else {
		p.free = p.service(p.now)
		k.ackAt = max(p.free+p.rtt(p.free), p.lastAck)
		p.lastAck = k.ackAt
	}
	p.q = append(p.q, k)
	p.c.OnSend(p.now, cc.SentInfo{Bytes: p.mss, Inflight: p.inflight})
	p.nextSend = p.now
	if r := p.c.PacingRate(); r > 0 {
		p.nextSend += time.Duration(float64(p.mss) / r * float64(time.Second))
	}
}

func (p *path) ack() {
	prior := p.inflight
	lost := 0
	for p.q[0].drop {
		p.q = p.q[1:]
		lost += p.mss
	}
	k := p.q[0]
	p.q = p.q[1:]
	p.lost += int64(lost)
	p.inflight -= lost + p.mss
	p.delivered += int64(p.mss)
	p.deliveredAt = p.now
	rtt := p.now - k.sent
	if p.minRTT == 0 || rtt < p.minRTT {
		p.minRTT = rtt
	}
	if p.srtt == 0 {
		p.srtt = rtt
	} else {
		p.srtt += (rtt - p.srtt) / 8
	}
	p.rs = cc.RateSample{AckedBytes: p.mss, AckedPackets: 1, LostBytes: lost, LostPackets: lost / p.mss,
		RTT: rtt, MinRTT: p.minRTT, SRTT: p.srtt, PriorDelivered: k.delivered, TotalDelivered: p.delivered,
		TotalLost: p.lost, TxInFlight: k.inflight, Inflight: p.inflight, PriorInflight: prior}
	p.firstSent = k.sent
	if iv := max(k.sent-k.firstSent, p.now-k.deliveredAt); iv > 0 && iv >= p.minRTT {
		p.rs.Delivered = p.delivered - k.delivered
		p.rs.Interval = iv
		p.rs.DeliveryRate = float64(p.rs.Delivered) / iv.Seconds()
	}
	if lost > 0 && p.recoverTo <= k.seq {
		p.rs.NewLossEpisode = true
		p.recoverTo = p.seq
	}
	p.rs.InRecovery = k.seq < p.recoverTo
	p.c.OnAck(p.now, &p.rs)
	if p.each != nil {
		p.each(p.now, &p.rs)
	}
}
