package probe

import (
	"math"
	"sort"
	"time"
)

// Frame is the MAC frame period found in the arrivals: a TDMA link (Starlink
// grants in 1/750 s frames, seed 001 §2) releases packets in per-frame
// batches, so arrival times cluster on a grid of that period while the send
// times do not.
type Frame struct {
	Period time.Duration `json:"period"`
	// Coherence is the mean resultant length of the arrival times' phases
	// on the grid, averaged over windows (1: every packet on the grid; a
	// random process gives about 1/√(packets per window)). SendCoherence
	// is the same for the send times: a sender's own regularity, which
	// must not be mistaken for the link's.
	Coherence     float64 `json:"coherence"`
	SendCoherence float64 `json:"send_coherence"`
}

// Frame search parameters.
const (
	// frameWindow is the span over which a grid must hold its phase: the
	// path's delay shifts between reconfiguration intervals (finding 15) and
	// the two clocks drift, so phases are fitted per window. 100 ms holds
	// 75 Starlink frames: a period error of 1 µs moves the phase by 75 µs,
	// a twentieth of a frame.
	frameWindow = 100 * time.Millisecond
	// frameStep is the search grid; the peak is refined by a parabola.
	frameStep = time.Microsecond
	// frameWindows bounds the windows searched (evenly spread over the
	// trace) to keep the search in the tens of milliseconds.
	frameWindows = 40
	// minFramePackets is the least number of arrivals a window needs;
	// maxFramePackets the most it keeps (evenly thinned): 256 put the
	// coherence of random times near 0.06, far below minCoherence, and
	// bound the search at ~5·10⁷ phase evaluations.
	minFramePackets, maxFramePackets = 8, 256
	// minCoherence and minContrast are the acceptance: arrivals on the grid
	// (coherence 0.6 means most within a sixth of a frame) and clearly
	// more so than the sends.
	minCoherence, minContrast = 0.6, 0.3
)

// findFrame searches periods in [lo, hi] for the longest one on which
// the arrivals of s cluster (every divisor of the frame period fits as
// well as the period itself). ok is false when none does.
func findFrame(s []Sample, lo, hi time.Duration) (f Frame, ok bool) {
	recv, sent := frameWindowsOf(s)
	if len(recv) == 0 {
		return f, false
	}
	nSteps := int((hi - lo) / frameStep)
	coh := make([]float64, nSteps+1)
	for k := range coh {
		coh[k] = coherence(recv, lo+time.Duration(k)*frameStep)
	}
	peak := 0.0
	for _, c := range coh {
		peak = max(peak, c)
	}
	if peak < minCoherence {
		return f, false
	}
	// The longest local maximum within 90 % of the peak.
	for k := nSteps; k >= 0; k-- {
		c := coh[k]
		if c < 0.9*peak || (k > 0 && coh[k-1] > c) || (k < nSteps && coh[k+1] > c) {
			continue
		}
		p := float64(lo + time.Duration(k)*frameStep)
		if k > 0 && k < nSteps {
			// Parabola through the three points around the maximum.
			a, b, d := coh[k-1], c, coh[k+1]
			if den := a - 2*b + d; den < 0 {
				p += 0.5 * (a - d) / den * float64(frameStep)
			}
		}
		f = Frame{Period: time.Duration(p), Coherence: coherence(recv, time.Duration(p)), SendCoherence: coherence(sent, time.Duration(p))}
		return f, f.Coherence-f.SendCoherence >= minContrast
	}
	return f, false
}

// frameWindowsOf splits the delivered samples' arrival and send times into
// up to frameWindows windows of frameWindow, spread over the trace, each
// relative to its window's start.
func frameWindowsOf(s []Sample) (recv, sent [][]float64) {
	var arr []Sample
	for _, x := range s {
		if !x.Lost {
			arr = append(arr, x)
		}
	}
	if len(arr) < minFramePackets {
		return nil, nil
	}
	sort.Slice(arr, func(i, j int) bool { return arr[i].Recv() < arr[j].Recv() })
	first, last := arr[0].Recv(), arr[len(arr)-1].Recv()
	nWin := int((last-first)/frameWindow) + 1
	stride := max(1, nWin/frameWindows)
	i := 0
	for w := 0; w < nWin; w += stride {
		from := first + time.Duration(w)*frameWindow
		to := from + frameWindow
		for i < len(arr) && arr[i].Recv() < from {
			i++
		}
		end := i
		for end < len(arr) && arr[end].Recv() < to {
			end++
		}
		step := max(1, (end-i+maxFramePackets-1)/maxFramePackets)
		var r, t []float64
		for j := i; j < end; j += step {
			r = append(r, float64(arr[j].Recv()-from))
			t = append(t, float64(arr[j].Sent-from))
		}
		if len(r) >= minFramePackets {
			recv, sent = append(recv, r), append(sent, t)
		}
	}
	return recv, sent
}

// coherence is the mean over windows of |mean of exp(2πi·t/p)| over the
// window's times: how tightly they sit on some grid of period p.
func coherence(win [][]float64, p time.Duration) float64 {
	w := 2 * math.Pi / float64(p)
	sum := 0.0
	for _, ts := range win {
		var c, s float64
		for _, t := range ts {
			sn, cs := math.Sincos(w * t)
			c, s = c+cs, s+sn
		}
		sum += math.Hypot(c, s) / float64(len(ts))
	}
	return sum / float64(len(win))
}
