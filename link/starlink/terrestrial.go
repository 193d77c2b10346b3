package starlink

import (
	"math/rand/v2"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/profile"
)

// NewTerrestrial returns the city's terrestrial leg between the PoP and the
// server for one direction (down: server → PoP): the fixed one-way delay,
// after the leg's i.i.d. loss in the server → PoP direction when the
// profile has one. rng gives the losses' key (a stream of its own, so the
// access link's draws do not change with it): with tdma.keyed_draws the
// draws are common random
// numbers keyed by the TDMA frame a packet arrives in and its position
// there (link.NewKeyedLoss), so runs of one seed lose the same arrivals
// whatever their senders do; drop receives the lost packets.
func NewTerrestrial(p *profile.StarlinkProfile, down bool, rng *rand.Rand, drop link.DropFunc) (link.Stage, error) {
	d, err := link.NewDelay(p.Terrestrial.OneWay)
	if err != nil {
		return nil, err
	}
	if !down || p.Terrestrial.DownlinkLoss == 0 {
		return d, nil
	}
	var l *link.Loss
	if p.TDMA.KeyedDraws {
		l, err = link.NewKeyedLoss(p.Terrestrial.DownlinkLoss, rng.Uint64(), p.TDMA.Frame, drop)
	} else {
		l, err = link.NewLoss(p.Terrestrial.DownlinkLoss, rng, drop)
	}
	if err != nil {
		return nil, err
	}
	return link.NewChain(l, d), nil
}
