package repro001

import (
	"sync"
	"testing"
)

// The quick study (default and perturbed profiles, TCP runs on the
// default) is run once for the tests of this package.
var (
	studyOnce sync.Once
	studyRes  *Study
	studyErr  error
)

func quickStudy(t *testing.T) *Study {
	t.Helper()
	if testing.Short() {
		t.Skip("the quick study takes about two minutes on 2 cores")
	}
	studyOnce.Do(func() { studyRes, studyErr = Run(Options{}) })
	if studyErr != nil {
		t.Fatal(studyErr)
	}
	return studyRes
}

// Issue 20, acceptance 3: every quantity of seed 001 is inferred from the
// probe packets and lands within its tolerance of the profile's value, on
// the default profile and on the perturbed ones (a DL buffer of 800
// without flow isolation and a 30 s period; other bases, holds, decays,
// outages, AQM slopes and PoP rates), so that no inference is hard-wired
// to seed 001's numbers.
func TestQuantitiesMatchProfiles(t *testing.T) {
	st := quickStudy(t)
	if len(st.Variants) != 1+len(Perturbed()) {
		t.Fatalf("%d profiles studied, want %d", len(st.Variants), 1+len(Perturbed()))
	}
	for _, vr := range st.Variants {
		t.Run(vr.Variant.Name, func(t *testing.T) {
			if len(vr.Quantities) < 40 {
				t.Errorf("%d quantities, want every finding's (40 or more)", len(vr.Quantities))
			}
			for _, q := range vr.Quantities {
				t.Logf("%-5s %-8s %-52s paper %-18s profile %10.4g inferred %10.4g %s", q.Finding, q.Direction, q.Name, q.Paper, q.Profile, q.Inferred, q.Tolerance())
				if !q.OK() {
					t.Errorf("finding %s, %s %s: inferred %.4g, profile %.4g, want %s (%s)", q.Finding, q.Direction, q.Name, q.Inferred, q.Profile, q.Tolerance(), q.Why)
				}
			}
		})
	}
}

// The TCP procedures run on the default profile and show what the model
// makes of the paper's qualitative findings: Linux HyStart leaves slow
// start early and delivers less over the first 5 s than exponential slow
// start, which loses at least as much (finding 20); every CCA that used
// more than the base allocation before a reconfiguration delivers less in
// the second after it (findings 13, 23). HyStart++ is not asserted: in
// the model an AQM loss ends slow start before its RTT test fires, so it
// runs like none (the report's differences say so).
func TestTCPFindings(t *testing.T) {
	st := quickStudy(t)
	if len(st.SlowStart) != len(slowStarts) || len(st.Recovery) != len(recoveryCCAs) {
		t.Fatalf("%d slow starts, %d recoveries: want %d and %d", len(st.SlowStart), len(st.Recovery), len(slowStarts), len(recoveryCCAs))
	}
	none, hy := st.SlowStart[0], st.SlowStart[1]
	for _, s := range st.SlowStart {
		t.Logf("%s: %.1f Mbit/s over 2 s, %.1f over 5 s, %d retransmissions, first at %.1f s", s.Name, s.Mbps2s, s.Mbps5s, s.Retransmits5s, s.FirstLossS)
	}
	if !(hy.Mbps5s < none.Mbps5s) || hy.Retransmits5s > none.Retransmits5s {
		t.Errorf("HyStart %.1f Mbit/s, %d retransmissions; none %.1f, %d: want HyStart slower and losing no more",
			hy.Mbps5s, hy.Retransmits5s, none.Mbps5s, none.Retransmits5s)
	}
	base := st.Variants[0].Profile.Downlink.Alloc.Base / 1e6
	for _, r := range st.Recovery {
		t.Logf("%s: before %.1f, first second after %.1f Mbit/s, back to 90 %% in %.2f s", r.CCA, r.Before, r.After1s, r.Recover)
		if r.Before > 1.2*base && !(r.After1s < r.Before) {
			t.Errorf("%s: %.1f Mbit/s in the second after the boundary, %.1f before: want less", r.CCA, r.After1s, r.Before)
		}
	}
}
