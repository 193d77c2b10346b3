package starlink

import (
	"math/rand/v2"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/profile"
)

// Access builds the terminal's access link in one direction (down:
// satellite → terminal); drop receives the packets it loses.
type Access func(down bool, drop link.DropFunc) (link.Stage, error)

// Path returns the builders of a Starlink path's two directions: the
// downlink crosses the city's terrestrial leg (server → PoP, with its loss)
// and then the access downlink; the uplink crosses the access uplink and
// then the terrestrial leg (PoP → server). The simulator and the emulator
// both build their path here, so the two engines chain the same stages.
// terrRand returns the terrestrial leg's loss stream; it is called on every
// build, so a rebuilt path replays the same draws.
func Path(p *profile.StarlinkProfile, access Access, terrRand func() *rand.Rand) (uplink, downlink func(link.DropFunc) (link.Stage, error)) {
	uplink = func(drop link.DropFunc) (link.Stage, error) {
		a, err := access(false, drop)
		if err != nil {
			return nil, err
		}
		t, err := NewTerrestrial(p, false, nil, drop)
		if err != nil {
			return nil, err
		}
		return link.NewChain(a, t), nil
	}
	downlink = func(drop link.DropFunc) (link.Stage, error) {
		t, err := NewTerrestrial(p, true, terrRand(), drop)
		if err != nil {
			return nil, err
		}
		a, err := access(true, drop)
		if err != nil {
			return nil, err
		}
		return link.NewChain(t, a), nil
	}
	return uplink, downlink
}
