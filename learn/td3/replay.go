package td3

import "math/rand/v2"

// Sample is one transition as the learner stores it.
type Sample struct {
	S, S2 []float32
	A, R  float32
}

// Replay is a ring buffer of samples: once full, the oldest is replaced.
type Replay struct {
	buf  []Sample
	next int
	full bool
}

// NewReplay holds up to size samples.
func NewReplay(size int) *Replay { return &Replay{buf: make([]Sample, 0, max(size, 1))} }

// Add stores s.
func (r *Replay) Add(s Sample) {
	if !r.full && len(r.buf) < cap(r.buf) {
		r.buf = append(r.buf, s)
		if len(r.buf) == cap(r.buf) {
			r.full = true
		}
		return
	}
	r.buf[r.next] = s
	r.next = (r.next + 1) % len(r.buf)
}

// Len is the number of samples held.
func (r *Replay) Len() int { return len(r.buf) }

// sample fills out with uniformly drawn samples (with replacement).
func (r *Replay) sample(rng *rand.Rand, out []*Sample) {
	for i := range out {
		out[i] = &r.buf[rng.IntN(len(r.buf))]
	}
}
