package counterfactual

import (
	"reflect"
	"testing"
	"time"

	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/cc/bbr"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/scenario"
)

func specOf(t testing.TB, text string) SpecFunc {
	t.Helper()
	sc, err := scenario.Parse("test.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return func() (netsim.Spec, error) { return sc.Spec() }
}

const sydney20 = "version: 1\nname: cf\nduration: 20s\nseed: 3\ninterval: 1s\n" +
	"path: {profile: starlink, city: sydney, direction: downlink}\nflows: [{cca: bbr}]\n"

// Replaying an entry with the stock gain reproduces the base run: the
// window's end snapshot (every counter and BBR's model on the ACK that
// entered the next UP) is identical, bit for bit.
func TestReplayDefaultGainIsFaithful(t *testing.T) {
	build := specOf(t, sydney20)
	t0 := time.Now()
	base, err := Base(build)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("base run: %d entries in %v", len(base.Entries), time.Since(t0))
	checked := 0
	for k, e := range base.Entries {
		if e.At.T < 5*time.Second || checked >= 2 {
			continue
		}
		want := base.Window(k, 0)
		if want.Truncated {
			continue
		}
		def := 1.25 // bbr_pacing_gain[BBR_BW_PROBE_UP], tcp_bbr.c v3
		if e.Phase == bbr.GainDown {
			def = 0.91 // BBRv3's ProbeBW_DOWN gain (tcp_bbr.c v3: 90/100 + 1%)
		}
		t1 := time.Now()
		got, err := Replay(build, e, def, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v visit %d at %v: replay %v, window %v, %d bytes", e.Phase, e.Visit, e.At.T, time.Since(t1), got.Duration(), got.Delivered())
		if got != want {
			t.Errorf("%v visit %d: replay window\n%+v\nwant\n%+v", e.Phase, e.Visit, got, want)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no complete cycle after 5 s")
	}
}

// The probe is transparent: the base run's flow is stock bbr's, interval
// by interval (the stock gain through the policy hook, counting aside).
func TestBaseRunIsStockBBR(t *testing.T) {
	build := specOf(t, sydney20)
	spec, err := build()
	if err != nil {
		t.Fatal(err)
	}
	stock, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	base, err := Base(build)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(stock.Flows, base.Result.Flows) {
		t.Error("the probed base run's flows differ from stock bbr's")
	}
	// The probe counts SACKed bytes too: at the end it is ahead of the
	// cumulative ACK by at most a window.
	f := stock.Flows[0]
	cwnd := int64(f.Intervals[len(f.Intervals)-1].CWndBytes)
	if got := base.Last.Delivered; got < f.BytesAcked || got > f.BytesAcked+cwnd {
		t.Errorf("probe counted %d bytes delivered, the result %d acked (last cwnd %d)", got, f.BytesAcked, cwnd)
	}
}
