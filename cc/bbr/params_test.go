package bbr

import "testing"

// TestParamChecks: gains outside (0, 100] and bad windows are errors.
func TestParamChecks(t *testing.T) {
	if checkGains("x", 1, 2.5) != nil {
		t.Error("valid gains refused")
	}
	for _, g := range []float64{0, -1, 101} {
		if checkGains("x", g) == nil {
			t.Errorf("gain %v accepted", g)
		}
	}
	if errBadParams("bbr3") == nil {
		t.Error("errBadParams returned nil")
	}
	for _, p := range []map[string]float64{{"beta": 1}, {"loss_thresh": 0}, {"probe_rtt_interval_s": 20}} {
		if _, err := newVariant(variantV3(), cfgWith(p)); err == nil {
			t.Errorf("params %v accepted", p)
		}
	}
	if _, err := newV1(cfgWith(map[string]float64{"bw_rounds": 0})); err == nil {
		t.Error("bw_rounds 0 accepted")
	}
}
