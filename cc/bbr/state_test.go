package bbr

import (
	"testing"

	"github.com/leolab/leolab/cc"
)

// TestRoundCounter: a round ends when an ACK acknowledges data sent after
// the round began (prior_delivered ≥ delivered at the round's start), and
// invalid samples (no interval) never end one.
func TestRoundCounter(t *testing.T) {
	var r roundCounter
	steps := []struct {
		prior, total int64
		interval     bool
		start        bool
	}{
		{0, 1000, true, true},      // first ACK: round 1 ends at 1000
		{500, 2000, true, false},   // sent before 1000 was delivered
		{1000, 3000, false, false}, // no valid interval
		{1000, 4000, true, true},   // round 2 ends at 4000
		{3999, 5000, true, false},
		{4000, 6000, true, true},
	}
	for i, s := range steps {
		rs := cc.RateSample{PriorDelivered: s.prior, TotalDelivered: s.total}
		if s.interval {
			rs.Interval = 1
		}
		if got := r.update(&rs); got != s.start {
			t.Fatalf("step %d: round start %v, want %v", i, got, s.start)
		}
	}
	if r.count != 3 {
		t.Errorf("%d rounds, want 3", r.count)
	}
	if recoveryState(true, &cc.RateSample{InRecovery: true}) != caLoss ||
		recoveryState(false, &cc.RateSample{InRecovery: true}) != caRecovery ||
		recoveryState(true, &cc.RateSample{}) != caOpen {
		t.Error("recovery state mapping")
	}
}

// TestModePhase: STARTUP, DRAIN and PROBE_RTT have their own phase
// numbers; PROBE_BW reports the cycle's.
func TestModePhase(t *testing.T) {
	for _, tc := range []struct {
		m    mode
		want int
	}{{modeStartup, PhaseStartup}, {modeDrain, PhaseDrain}, {modeProbeRTT, PhaseProbeRTT}, {modeProbeBW, PhaseRefill}} {
		if got := tc.m.phase(PhaseRefill); got != tc.want {
			t.Errorf("mode %d: phase %d, want %d", tc.m, got, tc.want)
		}
	}
}
