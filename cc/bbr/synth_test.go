package bbr

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/cc"
)

// synthPath is the test fixture shared by the controllers' tests: one
// sender with unlimited data, a fixed-rate FIFO bottleneck with an optional
// byte buffer, i.i.d. random loss, a token-bucket policer, and a base RTT
// (which may step up over time). It produces rate samples the way
// draft-cheng-iccrg-delivery-rate-estimation and Linux tcp_rate.c do, one
// ACK per segment, losses detected when a later segment is acknowledged
// (as RACK would), and feeds them to the controller. It is not a network
// simulator: no retransmissions, no delayed ACKs, no reverse-path queue.
type synthPath struct {
	rate   float64                             // bottleneck, bytes/s
	rtt    func(t time.Duration) time.Duration // base RTT at time t (non-decreasing)
	buf    int                                 // bottleneck buffer in bytes; 0 = unlimited
	lossP  float64                             // i.i.d. drop probability
	police float64                             // token-bucket rate in bytes/s; 0 = none
	bucket float64                             // token-bucket depth in bytes
	mss    int
	c      cc.Controller
	rng    *rand.Rand
	// observe, when set, sees every ACK after the controller processed it.
	observe func(now time.Duration, rs *cc.RateSample)

	now, linkFree, nextSend  time.Duration
	pkts                     []synthPkt
	head                     int
	seq                      int64
	delivered, lost          int64
	deliveredTime, firstSent time.Duration
	inflight                 int
	minRTT, srtt             time.Duration
	recovering               bool
	recoveryEnd              int64
	tokens                   float64
	tokenTime                time.Duration
	lastEvent                time.Duration
	drops, sent              int
	rs                       cc.RateSample
}

type synthPkt struct {
	seq                          int64
	sent, ackAt                  time.Duration
	dropped                      bool
	delivered                    int64
	deliveredTime, firstSentTime time.Duration
	txInFlight                   int
	lostAtSend                   int64
}

// newSynth builds a path of rate bits/s and fixed base RTT for controller c.
func newSynth(c cc.Controller, bitsPerSec float64, rtt time.Duration) *synthPath {
	return &synthPath{
		rate: bitsPerSec / 8, rtt: func(time.Duration) time.Duration { return rtt },
		mss: 1448, c: c, rng: rand.New(rand.NewPCG(7, 11)),
	}
}

// bdpBytes is the path's bandwidth-delay product at its base RTT at t=0.
func (p *synthPath) bdpBytes() float64 { return p.rate * p.rtt(0).Seconds() }

// run advances the path until the given time.
func (p *synthPath) run(until time.Duration) {
	for p.now < until {
		ackT := time.Duration(math.MaxInt64)
		for i := p.head; i < len(p.pkts); i++ {
			if !p.pkts[i].dropped {
				ackT = p.pkts[i].ackAt
				break
			}
		}
		sendT := time.Duration(math.MaxInt64)
		if p.inflight+p.mss <= p.c.CWnd() {
			sendT = max(p.nextSend, p.now)
		}
		if ackT == math.MaxInt64 && sendT == math.MaxInt64 {
			p.timeout()
			continue
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

// send transmits one segment through the policer and the bottleneck.
func (p *synthPath) send() {
	if p.inflight == 0 {
		p.firstSent, p.deliveredTime = p.now, p.now
	}
	p.inflight += p.mss
	pk := synthPkt{seq: p.seq, sent: p.now, delivered: p.delivered, deliveredTime: p.deliveredTime,
		firstSentTime: p.firstSent, txInFlight: p.inflight, lostAtSend: p.lost}
	p.seq++
	p.sent++
	pk.dropped = p.dropAtEntry()
	if !pk.dropped {
		start := max(p.now, p.linkFree)
		p.linkFree = start + time.Duration(float64(p.mss)/p.rate*float64(time.Second))
		pk.ackAt = p.linkFree + p.rtt(p.linkFree)
	} else {
		p.drops++
	}
	p.pkts = append(p.pkts, pk)
	p.lastEvent = p.now
	p.c.OnSend(p.now, cc.SentInfo{Bytes: p.mss, Inflight: p.inflight})
	p.nextSend = p.now
	if r := p.c.PacingRate(); r > 0 {
		p.nextSend += time.Duration(float64(p.mss) / r * float64(time.Second))
	}
}

// dropAtEntry applies random loss, the policer and the buffer limit.
func (p *synthPath) dropAtEntry() bool {
	if p.lossP > 0 && p.rng.Float64() < p.lossP {
		return true
	}
	if p.police > 0 {
		p.tokens = min(p.bucket, p.tokens+p.police*(p.now-p.tokenTime).Seconds())
		p.tokenTime = p.now
		if p.tokens < float64(p.mss) {
			return true
		}
		p.tokens -= float64(p.mss)
	}
	if p.buf > 0 && p.linkFree > p.now {
		queued := p.rate * (p.linkFree - p.now).Seconds()
		return queued+float64(p.mss) > float64(p.buf)
	}
	return false
}

// ack delivers the next acknowledged segment and builds its rate sample.
func (p *synthPath) ack() {
	priorInflight := p.inflight
	lostBytes := 0
	for p.pkts[p.head].dropped { // RACK-like: a later segment was delivered
		p.head++
		lostBytes += p.mss
	}
	pk := p.pkts[p.head]
	p.head++
	p.lost += int64(lostBytes)
	p.inflight -= lostBytes + p.mss
	p.delivered += int64(p.mss)
	p.deliveredTime = p.now
	p.compact()
	rtt := p.now - pk.sent
	if p.minRTT == 0 || rtt < p.minRTT {
		p.minRTT = rtt
	}
	if p.srtt == 0 {
		p.srtt = rtt
	} else {
		p.srtt += (rtt - p.srtt) / 8
	}
	p.rs = cc.RateSample{AckedBytes: p.mss, AckedPackets: 1, LostBytes: lostBytes, LostPackets: lostBytes / p.mss,
		RTT: rtt, MinRTT: p.minRTT, SRTT: p.srtt, PriorDelivered: pk.delivered,
		TotalDelivered: p.delivered, TotalLost: p.lost, TxInFlight: pk.txInFlight, Lost: p.lost - pk.lostAtSend,
		Inflight: p.inflight, PriorInflight: priorInflight}
	p.rateSample(&pk)
	p.recovery(&pk, lostBytes)
	p.lastEvent = p.now
	p.c.OnAck(p.now, &p.rs)
	if p.observe != nil {
		p.observe(p.now, &p.rs)
	}
}

// rateSample fills the delivery-rate fields (draft-cheng §3.3, tcp_rate_gen).
func (p *synthPath) rateSample(pk *synthPkt) {
	sendElapsed := pk.sent - pk.firstSentTime
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

// recovery tracks an RFC 6675-style recovery episode.
func (p *synthPath) recovery(pk *synthPkt, lostBytes int) {
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

// timeout fires the RTO when everything in flight was dropped.
func (p *synthPath) timeout() {
	rto := max(200*time.Millisecond, 2*p.srtt)
	p.now = max(p.now, p.lastEvent+rto)
	p.lost += int64(p.inflight)
	p.inflight = 0
	p.head = len(p.pkts)
	p.compact()
	p.recovering = true
	p.recoveryEnd = p.seq - 1
	p.lastEvent = p.now
	p.c.OnRTO(p.now)
}

// compact drops acknowledged segments from the front of the slice.
func (p *synthPath) compact() {
	if p.head > 4096 && p.head > len(p.pkts)/2 {
		n := copy(p.pkts, p.pkts[p.head:])
		p.pkts = p.pkts[:n]
		p.head = 0
	}
}

// newTest builds a registered controller with a seeded stream.
func newTest(name string, seed uint64, params map[string]float64) cc.Controller {
	c, err := cc.New(name, cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(seed, 3)), Params: params})
	if err != nil {
		panic(err)
	}
	return c
}

// cfgWith is a complete Config with the given params.
func cfgWith(params map[string]float64) cc.Config {
	return cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(1, 1)), Params: params}
}
