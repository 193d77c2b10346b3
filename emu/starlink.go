package emu

import (
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
	uplink = func(drop link.DropFunc) (link.Stage, error) {
		a, err := starlink.NewUplink(p, starlink.Config{
			Rand: sim.Stream(seed, "starlink/uplink"), Drop: drop, Epoch: off, SlotSeed: slotSeed,
		})
		if err != nil {
			return nil, err
		}
		t, err := starlink.NewTerrestrial(p, false, nil, drop)
		if err != nil {
			return nil, err
		}
		return link.NewChain(a, t), nil
	}
	downlink = func(drop link.DropFunc) (link.Stage, error) {
		t, err := starlink.NewTerrestrial(p, true, sim.Stream(seed, "terrestrial/downlink"), drop)
		if err != nil {
			return nil, err
		}
		a, err := starlink.NewDownlink(p, starlink.Config{
			Rand: sim.Stream(seed, "starlink/downlink"), Drop: drop, Epoch: off, SlotSeed: slotSeed,
		})
		if err != nil {
			return nil, err
		}
		return link.NewChain(t, a), nil
	}
	return uplink, downlink
}

// StarlinkSchedule is p's reconfiguration schedule in times since the
// wall-clock instant t0 (for controllers that use it: LeoCC, SaTCP).
func StarlinkSchedule(p *profile.StarlinkProfile, t0 time.Time) starlink.Schedule {
	return starlink.NewSchedule(p, starlink.MinuteOffset(t0))
}
