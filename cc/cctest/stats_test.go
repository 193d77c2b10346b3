package cctest

import (
	"math"
	"testing"
	"time"
)

// 50 Mbit/s × 60 ms = 375 000 B = 258.98 segments of 1448 B.
func TestBDP(t *testing.T) {
	p := NewPath(&fixedWindow{}, testBps, testBase)
	if got := p.BDPBytes(); math.Abs(got-375000) > 1e-6 {
		t.Errorf("BDP %v B, want 375000", got)
	}
	if got, want := p.BDPPackets(), 375000.0/1448; math.Abs(got-want) > 1e-9 {
		t.Errorf("BDP %v segments, want %v", got, want)
	}
}

// A window that fills the pipe and leaves W − B − 1 segments queued:
// just after an ACK (before the freed slot is used) the backlog is one
// segment less, minus the part of the head segment already served. The
// measurement window restarts at ResetStats and sees no loss.
func TestQueueAndWindow(t *testing.T) {
	const w = 280
	p := NewPath(&fixedWindow{cwnd: w * DefaultMSS}, testBps, testBase)
	p.Run(2 * time.Second)
	if q, want := p.QueuePackets(), w-p.BDPPackets()-2; math.Abs(q-want) > 1 {
		t.Errorf("queue %.2f segments, want %.2f ± 1", q, want)
	}
	p.ResetStats()
	if p.MeanQueue() != 0 {
		t.Errorf("mean queue %v right after ResetStats, want 0", p.MeanQueue())
	}
	p.Run(p.Now() + time.Second)
	if u := p.Throughput() / (testBps / 8); math.Abs(u-1) > 1e-3 || p.LossRate() != 0 {
		t.Errorf("utilisation %.5f, loss rate %v over 1 s, want 1 and 0", u, p.LossRate())
	}
}

// Utilisation measures from the warm-up on: a window of 280 segments
// (> the 259-segment BDP) keeps the 50 Mbit/s link busy, so the
// utilisation is 1 to within the ACK clock's granularity, and the window
// starts at 1 s, not at 0 where the first RTT carries nothing.
func TestUtilisation(t *testing.T) {
	p := NewPath(&fixedWindow{cwnd: 280 * DefaultMSS}, testBps, testBase)
	if u := p.Utilisation(time.Second, 3*time.Second); math.Abs(u-1) > 1e-3 {
		t.Errorf("utilisation %.5f over 1–3 s, want 1", u)
	}
	if from := p.stats.from; from < time.Second || from > time.Second+testBase {
		t.Errorf("measurement window from %v, want 1 s (+ one event)", from)
	}
}
