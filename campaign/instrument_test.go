package campaign

import (
	"context"
	"maps"
	"testing"
)

// A run's instrument reads back with it: a live one's pump figures, a
// simulated one's event counts.
func TestStoreInstrument(t *testing.T) {
	ctx := context.Background()
	st := openTemp(t)
	runs := mustExpand(t, smallCampaign)
	live, sim := runs[0], runs[1]
	res := simulate(t, live)
	res.Instrument = map[string]float64{"pump_gap_max_us": 4213.2, "release_err_p99_us": 58.5, "tun_drops_client": 0}
	if ok, err := st.Put(ctx, live, res); !ok || err != nil {
		t.Fatalf("put: %v %v", ok, err)
	}
	sres := simulate(t, sim)
	if ok, err := st.Put(ctx, sim, sres); !ok || err != nil {
		t.Fatalf("put: %v %v", ok, err)
	}
	back, err := st.Result(ctx, live.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(back.Instrument, res.Instrument) {
		t.Errorf("instrument read back %v, want %v", back.Instrument, res.Instrument)
	}
	if back, err := st.Result(ctx, sim.ID); err != nil || len(sres.Instrument) == 0 || !maps.Equal(back.Instrument, sres.Instrument) {
		t.Errorf("simulated run: instrument %v, err %v; want %v", back.Instrument, err, sres.Instrument)
	}
}
