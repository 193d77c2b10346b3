package sim

import (
	"hash/fnv"
	"math/rand/v2"
)

// Stream returns a random stream for the named component of a run with the
// given seed. Streams are independent of each other and of creation order, so
// adding a component never perturbs another's draws.
func Stream(seed uint64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}
