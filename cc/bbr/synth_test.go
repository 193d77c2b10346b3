package bbr

import (
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
)

// newSynth builds the synthetic bottleneck of cctest (rate bits/s, fixed
// base RTT) for controller c, with this package's loss stream.
func newSynth(c cc.Controller, bitsPerSec float64, rtt time.Duration) *cctest.Path {
	p := cctest.NewPath(c, bitsPerSec, rtt)
	p.Rand = rand.New(rand.NewPCG(7, 11))
	return p
}

// newTest builds a registered controller with a seeded stream.
func newTest(name string, seed uint64, params map[string]float64) cc.Controller {
	c, err := cc.New(name, cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(seed, 3)), Params: params})
	if err != nil {
		panic(err)
	}
	return c
}

// cfgWith is a complete Config with the given params.
func cfgWith(params map[string]float64) cc.Config {
	return cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(1, 1)), Params: params}
}
