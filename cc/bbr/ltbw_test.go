package bbr

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// TestV1PolicerDetection: behind a token-bucket policer at 40% of the link
// rate, two consistent lossy intervals make v1 use the policed rate
// (within 1/8, the consistency bound) with pacing gain 1.
func TestV1PolicerDetection(t *testing.T) {
	c := newTest("bbr1", 4, nil)
	b := c.(*V1)
	p := newSynth(c, 50e6, 30*time.Millisecond)
	police := 20e6 / 8 // bytes/s, 40% of the link
	p.Police(police, 100e3)
	detected := false
	p.Observe = func(now time.Duration, rs *cc.RateSample) {
		if b.lt.useBw && !detected {
			detected = true
			if math.Abs(b.lt.bw-police)/police > ltBwRatio {
				t.Errorf("policed rate %.0f B/s, policer %.0f B/s", b.lt.bw, police)
			}
			if b.mode == modeProbeBW && b.pacingGain != 1 {
				t.Errorf("pacing gain %v while policed, want 1", b.pacingGain)
			}
		}
	}
	p.Run(10 * time.Second)
	if !detected {
		t.Fatal("policer not detected in 10 s")
	}
}
