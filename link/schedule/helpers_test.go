package schedule

import (
	"math/rand/v2"
	"slices"
	"time"
)

func rngFor(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }

func slicesEqual(a, b []time.Duration) bool { return slices.Equal(a, b) }
