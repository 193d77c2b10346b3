package counterfactual

import (
	"fmt"
	"testing"
	"time"

	"github.com/leolab/leolab/cc/bbr"
	"github.com/leolab/leolab/learn"
)

// BenchmarkLabelDecision labels one UP decision of sydney20 (its entry
// after 10 s) with K replays per feasible gain: 5·K replays, each a run
// from the start to the decision plus one cycle, scored and averaged.
func BenchmarkLabelDecision(b *testing.B) {
	build := specOf(b, sydney20)
	base, err := Base(build)
	if err != nil {
		b.Fatal(err)
	}
	var e Entry
	for _, x := range base.Entries {
		if x.Phase == bbr.GainUp && x.At.T > 10*time.Second {
			e = x
			break
		}
	}
	if e.Phase != bbr.GainUp {
		b.Fatal("no UP entry after 10 s")
	}
	p := learn.DefaultParams()
	// References of a Starlink downlink row (order of magnitude of the
	// profile: ~100 Mbit/s, 30 ms RTT, q_ref at its eq. 8 cap 0.15·RTT_min);
	// they only scale the reward, the
	// benchmark times the replays.
	refs := learn.Refs{BRef: 100e6, TauRef: 1, RTTMin: 0.03, QueueRef: 0.0045}
	for _, k := range []int{1, 4, 8} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			eps := Dither(k)
			os := make([]Outcome, len(eps))
			for b.Loop() {
				for _, g := range learn.Feasible(learn.Up) {
					for i, x := range eps {
						w, err := Replay(build, e, g*(1+x), 0)
						if err != nil {
							b.Fatal(err)
						}
						os[i] = Score(g*(1+x), w, refs, time.Second, p)
					}
					_ = Mean(os)
				}
			}
		})
	}
}
