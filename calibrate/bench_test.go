package calibrate

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/profile"
)

// BenchmarkEvaluation is one forward-model evaluation of a whole scenario
// kind as a fit runs it: the 40 uplink dedicated cells (8 CCAs × 5 cities,
// 300 s each, one seed) on every core, into a fresh store. A fit is
// MaxEvals of these per stage.
func BenchmarkEvaluation(b *testing.B) {
	real, err := campaign.RealData()
	if err != nil {
		b.Fatal(err)
	}
	cities := []string{"london", "mumbai", "ohio", "saopaulo", "sydney"}
	for i := 0; i < b.N; i++ {
		st, err := campaign.OpenStore(filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		fwd := &Forward{CCAs: []string{"bbr", "bbr1", "bbr2", "cubic", "hybla", "leocc", "pcc", "vegas"}, Cities: cities,
			Directions: []string{"uplink"}, Kinds: []string{campaign.Dedicated}, Seeds: []uint64{1},
			Duration: campaign.FullDuration, Exec: campaign.Pool{}, Store: st}
		rows, err := fwd.Eval(context.Background(), map[string]any{"uplink.alloc.base": profile.FormatRate(20e6),
			"uplink.drift.median_rate_change": "8Mbps"}, real)
		st.Close()
		if err != nil {
			b.Fatal(err)
		}
		if n := len(campaign.Magnitudes(rows)); n != 1 {
			b.Fatalf("%d scenario kinds scored, want 1", n)
		}
	}
}
