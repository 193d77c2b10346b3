package cc_test

import (
	"testing"

	"github.com/leolab/leolab/cc"
)

// Reducing holds in recovery, in CWR and in both, and only then:
// NewLossEpisode does not count by itself (a tail loss a TLP repaired
// reduces once without entering recovery: transport processTLPAck).
func TestRateSampleReducing(t *testing.T) {
	for _, c := range []struct {
		recovery, cwr, newEpisode, want bool
	}{
		{false, false, false, false},
		{false, false, true, false},
		{true, false, false, true},
		{false, true, false, true},
		{true, true, true, true},
	} {
		rs := cc.RateSample{InRecovery: c.recovery, InCWR: c.cwr, NewLossEpisode: c.newEpisode}
		if got := rs.Reducing(); got != c.want {
			t.Errorf("InRecovery %v, InCWR %v, NewLossEpisode %v: Reducing() = %v, want %v", c.recovery, c.cwr, c.newEpisode, got, c.want)
		}
	}
}
