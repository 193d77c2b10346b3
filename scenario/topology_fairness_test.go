package scenario_test

import (
	"math"
	"testing"

	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/result"
)

// maxMin is the max–min fair allocation (bits/s on the wire) of flows
// crossing links of the given capacities, by progressive filling
// (Bertsekas & Gallager, Data Networks, §6.5.2): raise every unfrozen flow
// equally until a link fills, freeze its flows, repeat.
func maxMin(capacity []float64, routes [][]int) []float64 {
	alloc := make([]float64, len(routes))
	frozen := make([]bool, len(routes))
	left := append([]float64(nil), capacity...)
	for {
		// the smallest equal increment that fills a link
		inc, bottleneck := math.Inf(1), -1
		for l := range left {
			n := 0
			for f, r := range routes {
				if !frozen[f] && contains(r, l) {
					n++
				}
			}
			if n > 0 && left[l]/float64(n) < inc {
				inc, bottleneck = left[l]/float64(n), l
			}
		}
		if bottleneck < 0 {
			return alloc
		}
		for f, r := range routes {
			if frozen[f] {
				continue
			}
			alloc[f] += inc
			for _, l := range r {
				left[l] -= inc
			}
		}
		for f, r := range routes {
			if !frozen[f] && contains(r, bottleneck) {
				frozen[f] = true
			}
		}
	}
}

func contains(r []int, l int) bool {
	for _, x := range r {
		if x == l {
			return true
		}
	}
	return false
}

// goodputMbps is a flow's acknowledged payload rate over (from, to].
func goodputMbps(f result.Flow, from, to float64) float64 {
	var bytes int64
	for _, iv := range f.Intervals {
		if iv.T > from && iv.T <= to {
			bytes += iv.Bytes
		}
	}
	return float64(bytes) * 8 / (to - from) / 1e6
}

// parkingLot runs a seed 002 three-bottleneck example and returns each
// flow's goodput over (10 s, end] with its max–min share converted to
// goodput (the share of a 1500-byte packet that is payload).
func parkingLot(t *testing.T, file string) (got, want []float64) {
	t.Helper()
	sc, spec := loadSpec(t, file)
	res, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	capacity := make([]float64, len(sc.Links))
	for i, h := range sc.Links {
		capacity[i] = h.RateBps
	}
	var routes [][]int
	for _, f := range spec.Flows {
		routes = append(routes, f.Route.Data)
	}
	payload := float64(packet.MSS) / float64(packet.MSS+packet.HeaderSize)
	for i, a := range maxMin(capacity, routes) {
		want = append(want, a*payload/1e6)
		got = append(got, goodputMbps(res.Flows[i], 10, res.DurationS))
	}
	return got, want
}

// Issue 19 acceptance 2: with SFQ at every hop, the three-bottleneck
// parking lot gives every flow its max–min share within 5 % (seed 002
// Fig. 9b: "fair queueing enforces max–min fairness"); with drop-tail it
// does not: the long flow, with three times the cross flows' RTT and a
// loss at every hop, gets far less.
func TestParkingLotMaxMin(t *testing.T) {
	sfq, want := parkingLot(t, "../examples/seed002/fig9b-parking-lot-sfq.yaml")
	dt, _ := parkingLot(t, "../examples/seed002/fig7-parking-lot.yaml")
	names := []string{"long", "cross1", "cross2", "cross3"}
	for i := range want {
		t.Logf("%-6s max–min %5.2f Mbit/s goodput; SFQ %5.2f (%+5.1f %%); drop-tail %5.2f (%+5.1f %%)",
			names[i], want[i], sfq[i], 100*(sfq[i]/want[i]-1), dt[i], 100*(dt[i]/want[i]-1))
		if math.Abs(sfq[i]/want[i]-1) > 0.05 {
			t.Errorf("SFQ: %s %.2f Mbit/s, want max–min %.2f within 5 %%", names[i], sfq[i], want[i])
		}
	}
	if dt[0]/want[0] > 0.95 {
		t.Errorf("drop-tail: the long flow got %.2f Mbit/s, within 5 %% of max–min %.2f: the comparison shows nothing", dt[0], want[0])
	}
}

// The progressive filling of the parking lot's rates is the closed form
// of the example's comment: hop1 halves, the rest goes to the cross flows.
func TestMaxMinClosedForm(t *testing.T) {
	got := maxMin([]float64{20, 40, 60}, [][]int{{0, 1, 2}, {0}, {1}, {2}})
	for i, w := range []float64{10, 10, 30, 50} {
		if math.Abs(got[i]-w) > 1e-9 {
			t.Errorf("flow %d: %g, want %g", i, got[i], w)
		}
	}
}
