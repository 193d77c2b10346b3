package bbr

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// TestV1ProbeRTT: after the path's base RTT steps up, no sample matches the
// old min_rtt, so PROBE_RTT starts 10 s after the last min_rtt sample, caps
// cwnd at 4 packets, and ends 200 ms (plus at most one round) after
// inflight reached 4 packets.
func TestV1ProbeRTT(t *testing.T) {
	c := newTest("bbr1", 2, nil)
	b := c.(*V1)
	p := newSynth(c, 10e6, 40*time.Millisecond)
	p.RTT = func(at time.Duration) time.Duration {
		if at > time.Second {
			return 45 * time.Millisecond
		}
		return 40 * time.Millisecond
	}
	var lastMin, enter, armed, exit time.Duration
	minSeen := time.Duration(math.MaxInt64)
	p.Observe = func(now time.Duration, rs *cc.RateSample) {
		if rs.RTT <= minSeen {
			minSeen, lastMin = rs.RTT, now
		}
		if b.mode == modeProbeRTT {
			if enter == 0 {
				enter = now
			}
			if b.probeArmed && armed == 0 {
				armed = now
			}
			if b.cwnd > cwndMinTargetPkts*b.mss {
				t.Fatalf("PROBE_RTT cwnd %d > 4 packets", b.cwnd)
			}
		} else if enter != 0 && exit == 0 {
			exit = now
		}
	}
	p.Run(13 * time.Second)
	if enter == 0 || exit == 0 {
		t.Fatalf("PROBE_RTT not entered/left (enter %v exit %v)", enter, exit)
	}
	// Entered on the first ACK after the window expired; ACKs are ~1.2 ms
	// apart at 10 Mbit/s.
	if d := enter - lastMin; d <= v1MinRTTWin || d > v1MinRTTWin+5*time.Millisecond {
		t.Errorf("PROBE_RTT entered %v after the last min_rtt sample, want just over 10s", d)
	}
	if d := exit - armed; d <= probeRTTDuration || d > probeRTTDuration+60*time.Millisecond {
		t.Errorf("PROBE_RTT lasted %v at 4 packets, want 200ms..200ms+1 round", d)
	}
	if b.mode != modeProbeBW {
		t.Errorf("after PROBE_RTT mode %d, want PROBE_BW", b.mode)
	}
}

// TestV1PacketConservation: the first ACK of recovery sets cwnd to
// inflight + acked, and the end of recovery restores the saved cwnd.
func TestV1PacketConservation(t *testing.T) {
	c := newTest("bbr1", 1, nil)
	b := c.(*V1)
	p := newSynth(c, 50e6, 30*time.Millisecond)
	p.Run(3 * time.Second)
	saved := b.cwnd
	mss := 1448
	rs := cc.RateSample{AckedBytes: mss, LostBytes: 3 * mss, Delivered: int64(mss), Interval: 30 * time.Millisecond,
		DeliveryRate: p.Rate(0), PriorDelivered: p.Delivered(), TotalDelivered: p.Delivered() + int64(mss),
		Inflight: 20 * mss, PriorInflight: 24 * mss, InRecovery: true, NewLossEpisode: true, RTT: 31 * time.Millisecond}
	c.OnAck(p.Now()+time.Millisecond, &rs)
	if want := 21 * mss; b.cwnd != want {
		t.Fatalf("first recovery ACK: cwnd %d, want inflight+acked = %d", b.cwnd, want)
	}
	if b.priorCwnd != saved {
		t.Fatalf("prior cwnd %d, want the pre-recovery %d", b.priorCwnd, saved)
	}
	rs.InRecovery, rs.NewLossEpisode, rs.LostBytes = false, false, 0
	rs.TotalDelivered += int64(mss)
	c.OnAck(p.Now()+2*time.Millisecond, &rs)
	if b.cwnd < saved {
		t.Fatalf("after recovery cwnd %d, want restored ≥ %d", b.cwnd, saved)
	}
}
