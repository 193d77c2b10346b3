package repro001

import (
	"testing"
	"time"

	"github.com/leolab/leolab/internal/livetest"
)

// needLive skips without what the emulator needs (root, namespaces, TUN)
// and takes the machine-wide live-test lock, as emu's live tests do.
func needLive(t *testing.T) {
	t.Helper()
	livetest.Need(t)
}

// liveSubsetLight is the test's light probe: 32 s holds at least two
// boundaries of the 15 s period wherever it starts (emu's
// TestLiveProbeReadsModel), enough for the schedule and the anchor.
const liveSubsetLight = 32 * time.Second

// A quick subset of the study, live (about 80 s): the downlink light
// probe (schedule, outage, frame, idle delay), the bursts of three sizes
// in both directions and the drop-tail control (buffer sizes, head drop,
// packets not bytes), and the downlink ramp, each read from the packets
// that crossed the emulator and compared with the default profile under
// the live tolerances (livetol.go). A failure with the host stalled beyond
// what the checks tolerate (the pump off its CPU, a sender paused), or
// with packets dropped at a TUN queue before the model, repeats the
// subset (a CI run inferred a 3,576-packet uplink buffer of 4,000 with no
// stall beyond tolerance; whether the TUN queue lost the rest was not
// recorded then), and after three such runs the test skips, naming the stalls.
func TestLiveSubsetMatchesProfile(t *testing.T) {
	needLive(t)
	p, err := Default.Profile()
	if err != nil {
		t.Fatal(err)
	}
	livetest.Repeat(t, func(a *livetest.Attempt) {
		start := time.Now()
		l := &liveLab{ctx: t.Context(), light: liveSubsetLight}
		defer func() {
			for _, r := range l.runs {
				a.Stall(r.name+": pump gap", r.pumpGap, stallTolerance(r.name))
				a.Stall(r.name+": sender pause", r.senderPause, stallTolerance(r.name))
				a.Lost(r.name+": packets the TUN queues dropped", r.hostDrops)
			}
		}()
		// A procedure that finds nothing (no schedule, no burst) is a
		// failed check of this run, judged with its stalls like the rest.
		rc, err := runReconfig(l, Default, "downlink", 1)
		if err != nil {
			a.Errorf("%v", err)
			return
		}
		l.schedule(rc.Report.Schedule.Period)
		anchor := rc.anchor()
		q, err := runQueue(l, Default, anchor, 1)
		if err != nil {
			a.Errorf("%v", err)
			return
		}
		ramp, err := runRamp(l, Default, "downlink", anchor, 1)
		if err != nil {
			a.Errorf("%v", err)
			return
		}
		qs := rc.quantities(p)
		qs = append(qs, q.quantities(p)...)
		qs = append(qs, ramp.quantities(p)...)
		n := 0
		for _, q := range liveTolerances(qs, l.runs) {
			if q.Name == "control: share of the newest kept that arrived" {
				// The open live finding of differences.go: on the
				// emulator the drop-tail control delivers runs of the
				// pump's 64-packet read batches from the whole burst.
				t.Logf("run %d: not compared (open live finding): %s %.3f", a.N, q.Name, q.Inferred)
				continue
			}
			n++
			if !q.OK() {
				a.Errorf("%s %s: inferred %.4g, profile %.4g (%s)", q.Direction, q.Name, q.Inferred, q.Profile, q.Tolerance())
			}
		}
		t.Logf("run %d: %d quantities compared in %v", a.N, n, time.Since(start).Round(time.Second))
	})
}
