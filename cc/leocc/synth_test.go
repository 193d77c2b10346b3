package leocc

import (
	"math/rand/v2"

	"github.com/leolab/leolab/cc"
)

// testConfig is a controller configuration with a fixed random stream.
func testConfig(params map[string]float64, sched cc.Schedule) cc.Config {
	return cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(3, 4)), Params: params, Schedule: sched}
}
