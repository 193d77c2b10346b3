package emu

import (
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/link/starlink"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/sim"
)

// StarlinkPath returns the two directions of the Starlink path of profile
// p for a live run whose link time 0 is the wall-clock instant epoch (give
// the same instant as Config.Epoch): the terminal's access links, with the
// schedule at the real UTC position of epoch, plus the city's terrestrial
// leg on the server side. Uplink (client → server) is the access uplink then
// the terrestrial delay; downlink (server → client) the terrestrial delay
// then the access downlink (after the leg's own loss, if the city has one). This mirrors the simulator's path (package
// scenario); the random streams are the simulator's for the same seed.
func StarlinkPath(p *profile.StarlinkProfile, epoch time.Time, seed uint64) (uplink, downlink StageFactory) {
	off := starlink.MinuteOffset(epoch)
	slotSeed := sim.Stream(seed, "starlink/slots").Uint64()
	access := func(down bool, drop link.DropFunc) (link.Stage, error) {
		cfg := starlink.Config{Drop: drop, Epoch: off, SlotSeed: slotSeed}
		if down {
			cfg.Rand = sim.Stream(seed, "starlink/downlink")
			return starlink.NewDownlink(p, cfg)
		}
		cfg.Rand = sim.Stream(seed, "starlink/uplink")
		return starlink.NewUplink(p, cfg)
	}
	return starlink.Path(p, access, func() *rand.Rand { return sim.Stream(seed, "terrestrial/downlink") })
}

// StarlinkSchedule is p's reconfiguration schedule in times since the
// wall-clock instant t0 (for controllers that use it: LeoCC, SaTCP).
func StarlinkSchedule(p *profile.StarlinkProfile, t0 time.Time) starlink.Schedule {
	return starlink.NewSchedule(p, starlink.MinuteOffset(t0))
}
