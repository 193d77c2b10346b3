package probe

import (
	"math"
	"time"
)

// Schedule is the periodic grid the outages fall on: boundaries at
// Phase + k·Period since the trace's epoch (Starlink: every 15 s, at
// :12, :27, :42 and :57 of each UTC minute; seed 001 §Reconfigurations).
type Schedule struct {
	Period time.Duration `json:"period"`
	Phase  time.Duration `json:"phase"` // in [0, Period)
	// UTCOffset is the boundaries' position in the UTC minute, modulo
	// Period; -1 when the trace's epoch is unknown.
	UTCOffset time.Duration `json:"utc_offset"`
	// OnGrid counts the outages within the tolerance of a boundary; Off
	// the others (not reconfigurations, or a wrong grid).
	OnGrid, Off int
	// Residual is the RMS distance of the on-grid outages' starts from
	// their boundaries.
	Residual time.Duration `json:"residual"`
}

// Next returns the first boundary at or after t.
func (s Schedule) Next(t time.Duration) time.Duration {
	r := (t - s.Phase) % s.Period
	if r < 0 {
		r += s.Period
	}
	if r == 0 {
		return t
	}
	return t + s.Period - r
}

// fitSchedule finds the periodic grid of the outage starts and fits its
// period and phase to them by least squares. Candidates are periods in
// [minP, maxP], each with the grid (anchored at a start) holding the most
// starts within tol. A candidate qualifies when its grid holds at least
// two starts and at least half of its boundaries in [from, to] (the
// trace): a grid whose boundaries mostly pass without an outage is not
// the link's. Chosen is the longest qualifying period whose count is at
// least four fifths of the best: longest, because every divisor of the
// period fits as well (7.5 s fits a 15 s schedule); four fifths, because
// a shorter grid also catches a stray outage or two by chance. Among
// those, a grid whose outages are alike in length (within alikeSpread of
// their median) goes first: reconfigurations repeat one mechanism (seed
// 001 finding 14: ~45 ms on the downlink every time), while a host's
// stall that happens to pair with one of them on some other period does
// not look like it (a live run: 45, 45 ms at 15 s against 20, 45 ms at
// 26.9 s). ok is false when no candidate qualifies.
func fitSchedule(starts, lengths []time.Duration, from, to, minP, maxP, tol time.Duration) (s Schedule, ok bool) {
	n := len(starts)
	if n < 2 {
		return s, false
	}
	type cand struct {
		p      time.Duration
		anchor int
		count  int
	}
	var cands []cand
	most := 0
	// Candidate periods: the difference of two starts divided by a whole
	// number of periods between them. Every pair while there are few
	// outages (a loaded host's stalls can fall between two
	// reconfigurations); pairs at most maxPairGap outages apart in long
	// traces, where strays are rare next to the schedule's own.
	reach := n
	if n > maxAllPairs {
		reach = maxPairGap
	}
	for i := range n {
		for j := i + 1; j < min(n, i+reach+1); j++ {
			d := starts[j] - starts[i]
			// A grid needs outages on half its boundaries (2c >= boundaries
			// below), and m periods between two starts are m boundaries:
			// m beyond 2n+2 cannot fit, however far apart the starts are.
			for m := 1; m <= 2*n+2 && d/time.Duration(m) >= minP; m++ {
				p := d / time.Duration(m)
				if p > maxP {
					continue
				}
				c := fits(starts, starts[i], p, tol)
				if c < 2 || 2*c < boundaries(starts[i], p, from, to) {
					continue
				}
				cands = append(cands, cand{p, i, c})
				most = max(most, c)
			}
		}
	}
	need := (4*most + 4) / 5
	best, bestAnchor, bestAlike := time.Duration(0), 0, false
	for _, c := range cands {
		if c.count < need {
			continue
		}
		a := alike(starts, lengths, starts[c.anchor], c.p, tol)
		if (a && !bestAlike) || (a == bestAlike && c.p > best) {
			best, bestAnchor, bestAlike = c.p, c.anchor, a
		}
	}
	if best == 0 {
		return s, false
	}
	// Least squares t_k = phase + n_k·period over the starts on the grid.
	a := starts[bestAnchor]
	var sn, st, snn, snt, k float64
	for _, t := range starts {
		nk := math.Round(float64(t-a) / float64(best))
		if d := t - a - time.Duration(nk*float64(best)); d < -tol || d > tol {
			s.Off++
			continue
		}
		x, y := nk, float64(t-a)
		sn, st, snn, snt, k = sn+x, st+y, snn+x*x, snt+x*y, k+1
	}
	period := float64(best)
	intercept := st / k
	if den := k*snn - sn*sn; den > 0 {
		period = (k*snt - sn*st) / den
		intercept = (st - period*sn) / k
	}
	s.Period = time.Duration(period)
	phase := (a + time.Duration(intercept)) % s.Period
	if phase < 0 {
		phase += s.Period
	}
	s.Phase = phase
	var ss float64
	for _, t := range starts {
		r := t - s.Phase
		d := r - time.Duration(math.Round(float64(r)/period)*period)
		if d < -tol || d > tol {
			continue
		}
		s.OnGrid++
		ss += float64(d) * float64(d)
	}
	s.Off = n - s.OnGrid
	s.Residual = time.Duration(math.Sqrt(ss / float64(max(1, s.OnGrid))))
	s.UTCOffset = -1
	return s, true
}

// Candidate pairs: all of them up to maxAllPairs outages (n² pairs, each
// checked against n starts), else those at most maxPairGap apart.
const maxAllPairs, maxPairGap = 32, 4

// alikeSpread is how far from their median the lengths of a grid's
// outages may be for the grid to count as one mechanism's.
const alikeSpread = 0.25

// alike reports whether the outages on the grid (anchored at a, period p)
// are within alikeSpread of their median length.
func alike(starts, lengths []time.Duration, a, p, tol time.Duration) bool {
	var on []time.Duration
	for i, t := range starts {
		r := (t - a) % p
		if r < 0 {
			r += p
		}
		if r <= tol || p-r <= tol {
			on = append(on, lengths[i])
		}
	}
	med := quantile(on, 0.5)
	for _, l := range on {
		if d := float64(l - med); d > alikeSpread*float64(med) || -d > alikeSpread*float64(med) {
			return false
		}
	}
	return true
}

// boundaries counts the grid's boundaries (anchored at a, period p) in
// [from, to].
func boundaries(a, p, from, to time.Duration) int {
	first := a - (a-from)/p*p // the first boundary at or after from
	if first < from {
		first += p
	}
	if first > to {
		return 0
	}
	return int((to-first)/p) + 1
}

// fits counts the starts within tol of the grid anchored at a with period p.
func fits(starts []time.Duration, a, p, tol time.Duration) int {
	c := 0
	for _, t := range starts {
		r := (t - a) % p
		if r < 0 {
			r += p
		}
		if r <= tol || p-r <= tol {
			c++
		}
	}
	return c
}
