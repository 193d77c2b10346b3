package rlenv

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/leolab/leolab/cc/orca"
)

// zeroPolicy acts 0 (CUBIC under Orca); exploration noise does the rest.
type zeroPolicy struct{}

func (zeroPolicy) Act([]float32) float32 { return 0 }

// short is the default distribution with 4 s episodes, for tests.
func short() Collector {
	d := DefaultDist()
	d.Duration = 4 * time.Second
	return Collector{Dist: d, Task: OrcaTask(), Workers: 2, Noise: 0.2}
}

// Same seed → identical transitions, with 1 or 2 workers; another seed
// gives other episodes.
func TestCollectDeterministic(t *testing.T) {
	c := short()
	a, err := c.Collect(7, 0, 4, func() Policy { return zeroPolicy{} })
	if err != nil {
		t.Fatal(err)
	}
	c.Workers = 1
	b, err := c.Collect(7, 0, 4, func() Policy { return zeroPolicy{} })
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range a {
		n += len(a[i].Transitions)
		if a[i].Episode.String() != b[i].Episode.String() || !reflect.DeepEqual(a[i].Transitions, b[i].Transitions) {
			t.Fatalf("episode %d differs between runs (%s)", i, a[i].Episode)
		}
	}
	if n < 4*100 {
		t.Fatalf("%d transitions from 4 episodes of 4 s (want ≥ 100 each at 20 ms)", n)
	}
	o, err := c.Collect(8, 0, 1, func() Policy { return zeroPolicy{} })
	if err != nil {
		t.Fatal(err)
	}
	if o[0].Episode.String() == a[0].Episode.String() {
		t.Errorf("seeds 7 and 8 drew the same episode %s", o[0].Episode)
	}
}

// Every period's throughput stays under the link rate (plus the two
// segments an ACK boundary can add to a 20 ms period) and every RTT
// sample mean stays above the base RTT; actions and states are finite and
// the state has the task's size.
func TestObservationSanity(t *testing.T) {
	c := short()
	eps, err := c.Collect(3, 0, 6, func() Policy { return zeroPolicy{} })
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eps {
		ep := e.Episode
		t.Logf("%s: agent %.2f Mbit/s, %d transitions", ep, e.Agent.ThroughputMbps, len(e.Transitions))
		rate := ep.RateMbps * 1e6
		for _, tr := range e.Transitions {
			o := tr.Obs
			slack := 2 * 1500 * 8 / 0.02 // two segments per 20 ms, bits/s
			if o.ThroughputBps > rate+slack {
				t.Fatalf("%s: period ending %v: %.2f Mbit/s over the %.2f Mbit/s link", ep, o.End, o.ThroughputBps/1e6, ep.RateMbps)
			}
			if o.AvgRTT < ep.RTT || o.MinRTT < ep.RTT {
				t.Fatalf("%s: period ending %v: RTT mean %v min %v under the base %v", ep, o.End, o.AvgRTT, o.MinRTT, ep.RTT)
			}
			if len(tr.S) != orca.StateDim || len(tr.S2) != orca.StateDim || !(tr.A >= -1 && tr.A <= 1) || math.IsNaN(float64(tr.R)) {
				t.Fatalf("%s: bad transition %+v", ep, tr)
			}
		}
		if u := e.Agent.ThroughputMbps / ep.RateMbps; u > 1.001 {
			t.Errorf("%s: agent used %.3f of the link", ep, u)
		}
	}
}

// Draws stay in the distribution's ranges.
func TestDrawRanges(t *testing.T) {
	d := DefaultDist()
	for i := range 200 {
		e := d.Draw(1, i)
		if e.RateMbps < d.RateMbps[0] || e.RateMbps > d.RateMbps[1] || e.RTT < d.RTT[0] || e.RTT > d.RTT[1] ||
			e.Loss < 0 || e.Loss > d.LossMax || len(e.Competitors) > d.Competitors {
			t.Fatalf("draw out of range: %s", e)
		}
		if b := e.BDPs(); b < 0.9*d.BufferBDP[0] || b > 1.1*d.BufferBDP[1] {
			t.Fatalf("%s: %.2f BDP outside %v", e, b, d.BufferBDP)
		}
	}
	bad := d
	bad.RateMbps = [2]float64{100, 10}
	if bad.Validate() == nil {
		t.Error("inverted rate range accepted")
	}
}

// With LEO on, episodes run on the Starlink downlink of a calibration
// city (never Tokyo) and, after slow start, give one transition per
// 20 ms period.
func TestLEOEpisode(t *testing.T) {
	c := short()
	c.Dist.LEO = true
	c.Dist.Competitors = 0
	c.Dist.Duration = 10 * time.Second // São Paulo's 383 ms slow start lasts seconds
	eps, err := c.Collect(2, 0, 1, func() Policy { return zeroPolicy{} })
	if err != nil {
		t.Fatal(err)
	}
	e := eps[0]
	if e.Episode.City == "" || e.Episode.City == "tokyo" {
		t.Fatalf("LEO episode city %q", e.Episode.City)
	}
	if n := len(e.Transitions); n < 50 {
		t.Fatalf("%s: %d transitions in 10 s", e.Episode, n)
	}
	t.Logf("%s: agent %.1f Mbit/s, %d transitions from %v", e.Episode, e.Agent.ThroughputMbps, len(e.Transitions), e.Transitions[0].Obs.End)
}
