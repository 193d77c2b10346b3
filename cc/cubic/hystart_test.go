package cubic

import (
	"testing"
	"time"

	"github.com/leolab/leolab/cc/reno"
)

func TestDelayThreshold(t *testing.T) {
	tests := []struct{ delayMin, want time.Duration }{
		{10 * time.Millisecond, 4 * time.Millisecond},    // 1.25 ms clamped up
		{50 * time.Millisecond, 6250 * time.Microsecond}, // min_rtt/8
		{128 * time.Millisecond, 16 * time.Millisecond},  // exactly the cap
		{383 * time.Millisecond, 16 * time.Millisecond},  // São Paulo: clamped down
	}
	for _, tt := range tests {
		if got := delayThreshold(tt.delayMin); got != tt.want {
			t.Errorf("delayThreshold(%v) = %v, want %v", tt.delayMin, got, tt.want)
		}
	}
}

func TestACKDelay(t *testing.T) {
	// 2·cwnd/srtt = 2·100·1448 B / 50 ms = 5.8 MB/s: 4·64 KiB takes 45 ms,
	// capped at 1 ms.
	if got := ackDelay(100*testMSS, testRTT); got != time.Millisecond {
		t.Errorf("slow link: %v, want the 1 ms cap", got)
	}
	// 2·20000·1448 B / 10 ms = 5.79 GB/s: 262144 B take 45.3 µs.
	got, want := ackDelay(20000*testMSS, 10*time.Millisecond), 4*gsoMaxSize*time.Second/time.Duration(2*20000*testMSS*100)
	if d := got - want; d < -time.Microsecond || d > time.Microsecond {
		t.Errorf("fast link: %v, want %v", got, want)
	}
	if ackDelay(100*testMSS, 0) != 0 {
		t.Error("no srtt must give no cushion")
	}
}

// slowStart runs bursts until slow start ends or maxRounds pass and
// returns the ssthresh found (0 if none) and the rounds run.
func slowStart(c *Cubic, f *flow, gap time.Duration, rttOf func(round int) time.Duration, maxRounds int) (ssthreshSegs, rounds int) {
	for rounds = 0; rounds < maxRounds && c.cwnd < c.ssthresh; rounds++ {
		f.burst(c, gap, rttOf(rounds))
	}
	if c.ssthresh == reno.InfiniteSSThresh {
		return 0, rounds
	}
	return c.ssthresh / testMSS, rounds
}

// TestHyStartDelayExit: ACKs arrive in short trains (no ACK-train exit);
// from the round starting at 160 segments the RTT rises by rise. Linux
// exits on the 9th sample of that round when rise exceeds
// clamp(min_rtt/8, 4, 16 ms) = 6.25 ms, leaving ssthresh = 160 + 8.
func TestHyStartDelayExit(t *testing.T) {
	tests := []struct {
		name    string
		hystart int
		rise    time.Duration
		want    int // ssthresh in segments, 0 = still in slow start
	}{
		{"rise above threshold exits", HyStartLinux, 10 * time.Millisecond, 160 + hystartMinSamples},
		{"rise below threshold does not", HyStartLinux, 5 * time.Millisecond, 0},
		{"hystart off does not", HyStartOff, 10 * time.Millisecond, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := defaults()
			o.hystart = tt.hystart
			c := newCubic(o)
			var f flow
			rtt := func(r int) time.Duration {
				if r >= 4 { // rounds 0..3: 10, 20, 40, 80 segments
					return testRTT + tt.rise
				}
				return testRTT
			}
			got, _ := slowStart(c, &f, 20*time.Microsecond, rtt, 6)
			if got != tt.want {
				t.Fatalf("ssthresh %d segments, want %d", got, tt.want)
			}
			if got != 0 && c.Inspect()["phase"] != reno.PhaseAvoidance {
				t.Fatalf("phase after exit %v", c.Inspect()["phase"])
			}
		})
	}
}

// TestHyStartACKTrainExit: ACKs paced by an 8000 packet/s bottleneck
// (125 µs apart) at a constant 50 ms RTT. A round's train exceeds
// (min_rtt + 1 ms cushion)/2 = 25.5 ms first in the round that starts at
// 320 segments, at ACK j = 205 (205·125 µs = 25.625 ms), so ssthresh =
// 320 + 205 segments.
func TestHyStartACKTrainExit(t *testing.T) {
	gap := 125 * time.Microsecond
	const w0 = 320
	thr := (testRTT + ackDelayMax) / 2
	j := int(thr/gap) + 1
	for _, detect := range []int{hystartACKTrain, hystartDelay, hystartACKTrain | hystartDelay} {
		o := defaults()
		o.detect = detect
		c := newCubic(o)
		var f flow
		got, _ := slowStart(c, &f, gap, func(int) time.Duration { return testRTT }, 7)
		want := w0 + j
		if detect&hystartACKTrain == 0 {
			want = 0 // constant RTT: the delay detector alone never fires
		}
		if got != want {
			t.Fatalf("detect %d: ssthresh %d segments, want %d", detect, got, want)
		}
	}
}

// TestHyStartOnlyAboveLowWindow: HyStart counts samples only from a
// window of 16 segments on (hystart_low_window).
func TestHyStartOnlyAboveLowWindow(t *testing.T) {
	c := newCubic(defaults())
	var f flow
	for range 12 { // 10 → 22 segments in one round
		f.now += 20 * time.Microsecond
		f.ack(c, 1, testRTT, false, false)
	}
	if c.hy.samples != 22-hystartLowWindow {
		t.Fatalf("samples %d, want %d (ACKs at cwnd 16..21)", c.hy.samples, 22-hystartLowWindow)
	}
}
