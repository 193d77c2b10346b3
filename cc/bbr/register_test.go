package bbr

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/leolab/leolab/cc"
)

// TestRegistry: every name is registered with a description, a source and
// its knobs; unknown knobs and out-of-range values are refused; the
// controllers are paced from the start and expose their phase.
func TestRegistry(t *testing.T) {
	for _, name := range []string{"bbr1", "bbr2", "bbr3", "bbr"} {
		info, ok := cc.Lookup(name)
		if !ok {
			t.Fatalf("%s not registered", name)
		}
		if info.Description == "" || info.Source == "" || len(info.Params) == 0 {
			t.Errorf("%s: incomplete info %+v", name, info)
		}
		c, err := cc.New(name, cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(1, 1)), Params: info.Params})
		if err != nil {
			t.Fatalf("%s with its default params: %v", name, err)
		}
		if ins := c.(cc.Inspector).Inspect(); ins["phase"] != PhaseStartup {
			t.Errorf("%s: initial phase %v, want STARTUP", name, ins["phase"])
		}
		if _, err := cc.New(name, cc.Config{Params: map[string]float64{"nope": 1}}); err == nil {
			t.Errorf("%s accepted an unknown parameter", name)
		}
		if _, err := cc.New(name, cc.Config{Params: map[string]float64{"drain_gain": -1}}); err == nil ||
			!strings.Contains(err.Error(), "gain") {
			t.Errorf("%s accepted a negative gain: %v", name, err)
		}
	}
	// Initial pacing: startup gain · 10 segments / 1 ms · 0.99.
	for name, gain := range map[string]float64{"bbr1": v1HighGain, "bbr2": v2HighGain, "bbr3": 2.77} {
		c := newTest(name, 1, nil)
		if want := gain * 14480 / 1e-3 * 0.99; c.PacingRate() < want*0.9999 || c.PacingRate() > want*1.0001 {
			t.Errorf("%s initial pacing %v, want %v", name, c.PacingRate(), want)
		}
	}
	// The draft's DOWN gain is selectable.
	c := newTest("bbr3", 1, map[string]float64{"down_gain": 0.9})
	if c.(*BBR).p.down != 0.9 {
		t.Error("down_gain parameter ignored")
	}
}
