package repro001

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/result"
)

// TCP procedures (seed 001 §TCP Performance). These are about the
// senders, not the link: the paper gives qualitative findings, and the
// report shows what the model makes of them; nothing here has a profile
// value to meet. Each run is one bulk flow on the downlink, sampled every
// tcpInterval.
const tcpInterval = 100 * time.Millisecond

// SlowStart is one slow-start variant's first seconds (finding 20: a slow
// start must build queue pressure to earn the allocation; HyStart++-like
// exits come too early, plain exponential growth overshoots into AQM and
// head-drop losses).
type SlowStart struct {
	Name                 string
	CCA, Params          string
	Mbps2s, Mbps5s       float64 // mean throughput over the first 2 s and 5 s
	Retransmits5s        int64
	T, Mbps              []float64
	FirstLossS, PeakCwnd float64 // first retransmission (s), largest cwnd (MB)
}

// slowStarts are the variants compared: CUBIC with each HyStart mode
// (cc/cubic: hystart 0 none, 1 Linux HyStart, 2 HyStart++ of RFC 9406)
// and BBRv1 for the model-based startup.
var slowStarts = []struct{ name, cca, params string }{
	{"cubic, no HyStart", "cubic", "{hystart: 0}"},
	{"cubic, HyStart (Linux)", "cubic", "{hystart: 1}"},
	{"cubic, HyStart++", "cubic", "{hystart: 2}"},
	{"bbr1 (startup)", "bbr1", ""},
}

// slowStartDuration holds the ramp (~400 ms) many times over.
const slowStartDuration = 8 * time.Second

func runSlowStart(l lab, v Variant, anchor time.Time, seed int) ([]SlowStart, error) {
	var out []SlowStart
	for _, c := range slowStarts {
		res, err := run{name: "slowstart-" + c.cca, path: starlink("downlink", v, nil), dur: slowStartDuration.String(), seed: seed,
			epoch: anchor, interval: tcpInterval.String(), flows: []flowSpec{tcp(c.cca, c.params)}}.exec(l)
		if err != nil {
			return nil, err
		}
		f := res.Flows[0]
		s := SlowStart{Name: c.name, CCA: c.cca, Params: c.params, FirstLossS: nan}
		s.T, s.Mbps = flowRate(f)
		s.Mbps2s, s.Mbps5s = meanOver(s.T, s.Mbps, 0, 2), meanOver(s.T, s.Mbps, 0, 5)
		for _, iv := range f.Intervals {
			if iv.T <= 5 {
				s.Retransmits5s += iv.Retransmits
			}
			if iv.Retransmits > 0 && math.IsNaN(s.FirstLossS) {
				s.FirstLossS = iv.T - tcpInterval.Seconds()
			}
			s.PeakCwnd = math.Max(s.PeakCwnd, float64(iv.CWndBytes)/1e6)
		}
		out = append(out, s)
	}
	return out, nil
}

// Recovery is one CCA's throughput around reconfiguration boundaries
// (findings 13, 22, 23: the allocation resets; every CCA restarts lower
// than its first slow start and recovers slowly and partly; SatPipe-like
// stalls delay it).
type Recovery struct {
	CCA string
	// Before is the mean throughput over the 3 s before a boundary,
	// After1s over the first second after it; Recover the median time
	// to a 100 ms sample at 90 % of Before (NaN: not within the slot).
	Before, After1s, Recover float64 // Mbit/s, Mbit/s, s
	Boundaries               int
	T, Mbps                  []float64
}

// recoveryCCAs: loss-based, model-based, and the two LEO-aware ones the
// model has (satcp: CUBIC told of handovers; leocc: BBR with the schedule).
var recoveryCCAs = []string{"cubic", "bbr1", "bbr3", "satcp", "leocc"}

func runRecovery(l lab, v Variant, anchor time.Time, seed int, period time.Duration, boundaries int) ([]Recovery, []float64, error) {
	dur := time.Duration(boundaries)*period + 5*time.Second - time.Second // anchor is 1 s into a slot
	var bs []float64
	for k := 1; k <= boundaries; k++ {
		bs = append(bs, (time.Duration(k)*period - time.Second).Seconds())
	}
	var out []Recovery
	for _, cca := range recoveryCCAs {
		res, err := run{name: "recovery-" + cca, path: starlink("downlink", v, nil), dur: dur.String(), seed: seed,
			epoch: anchor, interval: tcpInterval.String(), flows: []flowSpec{tcp(cca, "")}}.exec(l)
		if err != nil {
			return nil, nil, err
		}
		rc := Recovery{CCA: cca, Boundaries: len(bs)}
		rc.T, rc.Mbps = flowRate(res.Flows[0])
		var before, after, rec []float64
		for _, b := range bs {
			pre := meanOver(rc.T, rc.Mbps, b-3, b)
			before = append(before, pre)
			after = append(after, meanOver(rc.T, rc.Mbps, b, b+1))
			t := nan
			for i, x := range rc.T {
				if x > b+tcpInterval.Seconds() && rc.Mbps[i] >= 0.9*pre {
					t = x - tcpInterval.Seconds()/2 - b
					break
				}
			}
			rec = append(rec, t)
		}
		rc.Before, rc.After1s, rc.Recover = medianF(before), medianF(after), medianF(rec)
		out = append(out, rc)
	}
	return out, bs, nil
}

// flowRate is a flow's per-interval throughput (Mbit/s) at each
// interval's end.
func flowRate(f result.Flow) (t, mbps []float64) {
	prev := 0.0
	for _, iv := range f.Intervals {
		dt := iv.T - prev
		if dt <= 0 {
			continue
		}
		t = append(t, iv.T)
		mbps = append(mbps, float64(iv.Bytes*8)/dt/1e6)
		prev = iv.T
	}
	return t, mbps
}

// meanOver is the mean of v over samples with from < t <= to.
func meanOver(t, v []float64, from, to float64) float64 {
	sum, n := 0.0, 0
	for i, x := range t {
		if x > from && x <= to {
			sum += v[i]
			n++
		}
	}
	if n == 0 {
		return nan
	}
	return sum / float64(n)
}

// recoveryFits checks that a slot holds the recovery windows.
func recoveryFits(period time.Duration) error {
	if period < 5*time.Second {
		return fmt.Errorf("recovery: period %v is under 5 s: no 3 s before and 1 s after a boundary", period)
	}
	return nil
}
