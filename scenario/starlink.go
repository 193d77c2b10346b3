package scenario

import (
	"math/rand/v2"
	"strings"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/link/starlink"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/orbit"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/sim"
)

// resolveStarlink resolves the Starlink profile of the path, as an *Error
// that points at the city or overrides field when it is bad.
func (s *Scenario) resolveStarlink(fail failFunc) error {
	sp, err := profile.StarlinkNamed(s.Path.Profile, s.Path.City, s.Path.Overrides)
	if err != nil {
		field := "path.overrides"
		if strings.HasPrefix(err.Error(), "city:") {
			field = "path.city"
		}
		return fail(field, "%v", err)
	}
	s.starlink = sp
	return nil
}

// epoch is the run's t = 0 on the wall clock: epoch_utc when given, else
// orbit.Epoch() (the day the simulator places runs on, and where the Walker
// shells start) plus an offset within the minute drawn from the seed
// (DESIGN.md "Time"); only the second within the minute matters to the
// Starlink model (reconfigurations at :12/:27/:42/:57).
func (s *Scenario) epoch() time.Time {
	if !s.EpochUTC.IsZero() {
		return s.EpochUTC
	}
	r := sim.Stream(s.Seed, "epoch")
	return orbit.Epoch().Add(time.Duration(r.Int64N(int64(time.Minute/time.Millisecond))) * time.Millisecond)
}

// starlinkPath builds the Starlink path: the terminal's downlink and uplink
// access links plus the city's terrestrial leg on the server side. In the
// downlink direction data crosses terrestrial → downlink and ACKs uplink →
// terrestrial; in the uplink direction the reverse.
func (s *Scenario) starlinkPath(spec *netsim.Spec) {
	sp := s.starlink
	at := s.epoch()
	epoch := starlink.MinuteOffset(at)
	spec.EpochUTC = at.Format(time.RFC3339Nano)
	spec.BaseRTT = sp.Downlink.BaseOWD + sp.Uplink.BaseOWD + 2*sp.Terrestrial.OneWay
	spec.Schedule = starlink.NewSchedule(sp, epoch)
	spec.GROSegments = sp.TDMA.GROSegments
	slotSeed := sim.Stream(s.Seed, "starlink/slots").Uint64()
	access := func(down bool, drop link.DropFunc) (link.Stage, error) {
		cfg := starlink.Config{Drop: drop, Epoch: epoch, SlotSeed: slotSeed, SlotOWD: s.orbitSlotOWD()}
		if down {
			cfg.Rand = sim.Stream(s.Seed, "starlink/downlink")
			return starlink.NewDownlink(sp, cfg)
		}
		cfg.Rand = sim.Stream(s.Seed, "starlink/uplink")
		return starlink.NewUplink(sp, cfg)
	}
	// A ptot stage (path.loss_model, orbit outages) sits where packets enter
	// the access link, on the time axis its reconfigurations and the orbit
	// slots share; forward is whether the access link carries the data.
	forward := func(down bool) bool { return down == (s.Path.Direction != "uplink") }
	access = s.withOrbitAccess(access, forward)
	up, down := starlink.Path(sp, access, func() *rand.Rand { return sim.Stream(s.Seed, "terrestrial/downlink") })
	if s.Path.Direction == "uplink" {
		spec.Forward = netsim.LinkSpec{Name: "uplink", Build: up}
		spec.Reverse = netsim.LinkSpec{Name: "downlink", Build: down}
		return
	}
	spec.Forward = netsim.LinkSpec{Name: "downlink", Build: down}
	spec.Reverse = netsim.LinkSpec{Name: "uplink", Build: up}
}
