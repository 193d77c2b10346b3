package repro001

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Live tolerances. A live run's packets cross real sockets, TUN devices
// and the pump, and the host keeps each of them off its CPU now and then
// (emu's gap meter: a few ms several times per 10 s on a shared 2-core
// VM, tens of ms under load). Where that timing error moves an inference
// by a known amount, the live comparison widens the simulator's
// tolerance by exactly that amount, computed from the run's own
// measurements (liveRun); every other quantity keeps the simulator's
// tolerance. The widening is in the Why text, so the report says it.

// liveTolerances returns qs with the live widenings of the runs' measured
// timing errors.
func liveTolerances(qs []Quantity, runs []liveRun) []Quantity {
	byName := map[string]liveRun{}
	for _, r := range runs {
		byName[r.name] = r
	}
	out := append([]Quantity(nil), qs...)
	for i := range out {
		q := &out[i]
		switch {
		case strings.HasPrefix(q.Name, "reconfiguration period") || strings.HasPrefix(q.Name, "boundary offset"):
			// An outage's first missing probe is late by as long as the
			// pump or the sender was held at the boundary, and the grid's
			// least squares carry at most that into its phase and (over
			// the probe's few boundaries) its period.
			r, ok := byName["reconfig-"+q.Direction]
			if !ok {
				continue
			}
			w := max(r.pumpGap, r.senderPause)
			q.Abs += w.Seconds()
			q.Why += fmt.Sprintf("; live: + the light probe's longest host stall, %.1f ms", ms(w))
		case strings.HasPrefix(q.Name, "control: drop-tail") && strings.HasSuffix(q.Name, "keeps"):
			// A full drop-tail queue keeps one packet more for each the
			// link serves while the burst is still arriving: a pause of
			// the burst's sender or of the pump frees that room and the
			// burst's later packets fill it (a CI run kept 802 of 800).
			r, ok := byName["burst-droptail"]
			if !ok {
				continue
			}
			w := max(r.pumpGap, r.senderPause)
			n := math.Ceil(w.Seconds() * controlRate / (8 * 1500))
			q.Abs += n
			q.Why += fmt.Sprintf("; live: + the %.0f packets the link serves in the burst's longest host stall, %.2f ms", n, ms(w))
		case strings.HasPrefix(q.Name, "regrowth after a reset"):
			// The slot-rate probe runs across boundaries (not repeated on
			// a stall, singleSlot): a pump gap holds the link's releases
			// and a sender pause the demand the allocation grows on, so
			// the first 20 ms bin at 90 % of the slot's rate comes late
			// by at most the run's longest stall.
			r, ok := byName["slots-"+q.Direction]
			if !ok {
				continue
			}
			w := max(r.pumpGap, r.senderPause)
			q.Abs += ms(w)
			q.Why += fmt.Sprintf("; live: + the slot probe's longest host stall, %.1f ms", ms(w))
		}
	}
	return out
}

// Host-stall tolerances of the live checks (livetest.Attempt.Stall): a
// failed check with a stall beyond these is the host's doing.
const (
	// lightStall: a pump gap or sender pause longer than the prober's
	// least outage (probe.Options' 10 ms) reads as an outage of its own.
	lightStall = 10 * time.Millisecond
	// runStall, for the single-slot procedures: at the downlink's peak
	// allocation (340 Mbit/s) 5 ms is 140 packets of 1500 bytes, under
	// the 10 % of the 1500-packet buffer a burst count may be off; a
	// fifth of the decay's 25 ms grid of gaps; a quarter of the ramp's
	// 20 ms averages.
	runStall = 5 * time.Millisecond
)

// stallTolerance is the longest host stall the checks of the run named
// name tolerate.
func stallTolerance(name string) time.Duration {
	if strings.HasPrefix(name, "reconfig-") {
		return lightStall
	}
	return runStall
}

// stalls lists the runs whose host stalls exceeded their tolerance in the
// run that counted, and the runs repeated for one.
func stalls(runs []liveRun) []string {
	var out []string
	for _, r := range runs {
		tol := stallTolerance(r.name)
		rep := ""
		if r.tries > 1 {
			rep = fmt.Sprintf(", after %d runs", r.tries)
		}
		if w := max(r.pumpGap, r.senderPause); w > tol {
			out = append(out, fmt.Sprintf("%s: pump gap %.1f ms, sender pause %.1f ms (tolerance %v%s)", r.name, ms(r.pumpGap), ms(r.senderPause), tol, rep))
		} else if rep != "" {
			out = append(out, fmt.Sprintf("%s: within tolerance%s (the earlier ones stalled)", r.name, rep))
		}
	}
	return out
}
