package link

import "time"

// Common random numbers. A random process that draws from one sequential
// stream hands its k-th number to whichever event comes k-th, so two runs
// of one seed whose traffic differs (another CCA, another pacing gain of a
// counterfactual replay) see different losses from the first packet that
// differs onward: the difference between the runs is then mostly the draw,
// not the change. Keyed draws fix that: the uniform of an event is a hash
// of (the run's key, the process, a time bin, the event's position within
// the bin), so the n-th packet of a bin meets the same number in every run
// whatever came before it (the variance-reduction technique of common
// random numbers; Law, Simulation Modeling and Analysis, 5th ed., §11.2).
// The draws stay independent and uniform across bins and positions, so
// each process keeps its distribution.

// Draw is the uniform on [0, 1) of event pos in bin of process proc under
// key: three rounds of SplitMix64's finaliser (Steele, Lea and Flood,
// "Fast splittable pseudorandom number generators", OOPSLA 2014; the
// constants of Vigna's splitmix64.c), one per input, and the top 53 bits
// as the mantissa (as math/rand/v2's Float64).
func Draw(key, proc uint64, bin int64, pos int) float64 {
	h := mix64(key + proc*0x9e3779b97f4a7c15)
	h = mix64(h ^ uint64(bin))
	h = mix64(h ^ uint64(pos))
	return float64(h>>11) * 0x1p-53
}

// mix64 is SplitMix64's output function: an increment by the golden gamma
// and two xor-shift-multiply rounds.
func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Binner numbers the events of one process by time bin: Next(now) returns
// now's bin and the event's position among the bin's events so far. Times
// must not go backwards (an engine's stages see them in order).
type Binner struct {
	Width time.Duration // bin width; > 0
	bin   int64
	n     int
}

// Next places an event at now.
func (b *Binner) Next(now time.Duration) (bin int64, pos int) {
	k := int64(now / b.Width)
	if k != b.bin {
		b.bin, b.n = k, 0
	}
	b.n++
	return k, b.n - 1
}
