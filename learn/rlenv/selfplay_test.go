package rlenv

import (
	"reflect"
	"testing"
	"time"

	"github.com/leolab/leolab/cc/astraea"
)

// Self-play episodes: every flow is an agent, each records its own
// transitions with the task's reward, and the collection is the same
// with 1 or 2 workers.
func TestSelfPlayCollect(t *testing.T) {
	d := AstraeaDist()
	d.Duration = 4 * time.Second
	c := Collector{Dist: d, Task: AstraeaTask(), Workers: 2, Noise: 0.2}
	a, err := c.Collect(5, 0, 3, func() Policy { return zeroPolicy{} })
	if err != nil {
		t.Fatal(err)
	}
	c.Workers = 1
	b, err := c.Collect(5, 0, 3, func() Policy { return zeroPolicy{} })
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range a {
		flows := map[int]int{}
		for _, tr := range e.Transitions {
			flows[tr.Flow]++
			if len(tr.S) != astraea.StateDim || tr.R < -1 || tr.R > 1 {
				t.Fatalf("%s: bad transition %+v", e.Episode, tr)
			}
		}
		n := 1 + len(e.Episode.Competitors)
		if n < 2 || n > 4 || len(flows) != n || len(e.Result.Flows) != n {
			t.Fatalf("%s: %d flows, transitions from %v", e.Episode, len(e.Result.Flows), flows)
		}
		for _, f := range e.Result.Flows {
			if f.CCA != "astraea" {
				t.Fatalf("%s: flow %d runs %s", e.Episode, f.ID, f.CCA)
			}
		}
		if !reflect.DeepEqual(e.Transitions, b[i].Transitions) {
			t.Fatalf("%s: differs between 2 workers and 1", e.Episode)
		}
		t.Logf("%s: transitions per flow %v", e.Episode, flows)
	}
	bad := d
	bad.MinCompetitors = 4
	if bad.Validate() == nil {
		t.Error("min competitors above competitors accepted")
	}
}
