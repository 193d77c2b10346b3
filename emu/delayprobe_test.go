package emu

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/internal/livetest"
	"github.com/leolab/leolab/link/schedule"
	"github.com/leolab/leolab/scenario"
)

// delayProbe says how a live probe's one-way delays read a delay file:
// which file second applies to a packet and what the rest of the path
// adds to it.
type delayProbe struct {
	path  *schedule.PathLog
	first int     // the file second of run second 0 (the delay_file's offset)
	reach float64 // s from a probe's send to the delay stage: the second that applies is the one it reaches it in
	fixed float64 // ms the rest of the path adds to the file's one-way delay
	tol   float64 // ms: how far each second's median may be from file + fixed
	// releaseStall makes a release error p99 above tol a host stall (a
	// failed run with it is repeated, livetest.Repeat); the pump's gap
	// over 2 ms always is one.
	releaseStall bool
}

// probeFileDelays runs sc, whose first flow is a recorded probe, live for
// dur under livetest.Repeat and checks, per second the probe reaches the
// delay stage in: a NULL second's packets are all lost and no others; the
// median one-way delay is file + p.fixed within ±p.tol; and at least
// dur − 5 seconds are measured. Packets within 5 ms of a second's edge
// (the pump's timing there) are not counted.
func probeFileDelays(t *testing.T, sc *scenario.Scenario, dur time.Duration, p delayProbe) {
	t.Helper()
	secs := int(dur / time.Second)
	livetest.Repeat(t, func(a *livetest.Attempt) {
		_, rc := liveConfig(t, sc, false)
		res := live(t, rc)
		gap := time.Duration(res.Instrument["pump_gap_max_us"]) * time.Microsecond
		p99 := time.Duration(res.Instrument["release_err_p99_us"]) * time.Microsecond
		a.Stall("pump gap max", gap, 2*time.Millisecond)
		if p.releaseStall {
			a.Stall("release error p99", p99, time.Duration(p.tol*float64(time.Millisecond)))
		}
		per := map[int][]float64{}
		lostOut, lostIn := 0, 0
		for _, pk := range res.Flows[0].Packets {
			at := pk.SentS + p.reach
			k := int(at)
			if k >= secs || pk.OWDMs == 0 {
				continue
			}
			frac := at - float64(k)
			down := p.path.Down[p.first+k]
			switch {
			case frac < 0.005 || frac > 0.995: // the pump's timing at a second's edge
			case down && pk.OWDMs >= 0:
				lostIn++ // should have been lost
			case !down && pk.OWDMs < 0:
				lostOut++
			case !down:
				per[k] = append(per[k], pk.OWDMs)
			}
		}
		if lostIn > 0 || lostOut > 0 {
			a.Errorf("%d packets delivered in NULL seconds, %d lost outside them", lostIn, lostOut)
		}
		worst := 0.0
		for k, owds := range per {
			slices.Sort(owds)
			want := p.path.OWD[p.first+k]*1e3 + p.fixed
			d := owds[len(owds)/2] - want
			worst = max(worst, math.Abs(d))
			if math.Abs(d) > p.tol {
				a.Errorf("second %d: median owd %.3f ms, want file + %.3f ms = %.3f ms (±%.1f ms)", k, owds[len(owds)/2], p.fixed, want, p.tol)
			}
		}
		if len(per) < secs-5 {
			a.Errorf("%d seconds measured, want %d", len(per), secs-5)
		}
		t.Logf("run %d: probe over %d seconds, worst median error %.3f ms; pump gap max %v, release p99 %v",
			a.N, len(per), worst, gap, p99)
	})
}
