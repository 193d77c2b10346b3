package repro001

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/profile"
)

// AQM probe parameters (seed 001 §Queue Management, findings 8–11): one
// flow offered well above its allocation builds a queue through the
// range the AQM acts on; the drop rate of its packets, binned by the
// queue each found, is the AQM's curve. Offered 2× the ramp's peak: the
// linear uplink AQM settles where p = 1/2, past the 0–250 packets of
// finding 9 (500 at the default slope). On the downlink it stays below
// the PoP threshold: the PoP's FIFO would hold packets the count takes
// for the satellite's.
const (
	aqmOffered  = 2.0
	aqmDuration = 2500 * time.Millisecond
	aqmBin      = 25 // packets
)

// AQM is one direction's drop curve.
type AQM struct {
	Direction string
	Curve     probe.AQMCurve
}

func runAQM(l lab, v Variant, dir string, anchor time.Time, seed int, peakMbps, popMbps float64) (*AQM, error) {
	offered := aqmOffered * peakMbps
	if dir == "downlink" && popMbps > 0 {
		offered = min(offered, popMargin*popMbps)
	}
	tr, r, err := run{name: "aqm-" + dir, path: starlink(dir, v, noDrift), dur: (aqmDuration + 500*time.Millisecond).String(), seed: seed,
		epoch: anchor, flows: []flowSpec{cbr(offered*1e6, 1500, 0, aqmDuration)}}.inferred(l, probe.Options{})
	if err != nil {
		return nil, err
	}
	return &AQM{Direction: dir, Curve: probe.InferAQMCurve(tr, r.MinOWD, 0, aqmDuration, aqmBin)}, nil
}

func (q *AQM) quantities(p *profile.StarlinkProfile, limit int) []Quantity {
	a := access(p, q.Direction)
	c := q.Curve
	switch a.AQM.Mode {
	case "linear":
		return []Quantity{{Finding: "9", Direction: q.Direction, Name: "drop probability per queued packet (slope)", Unit: "1/packet",
			Paper: "~linear over 0–250 packets", Profile: a.AQM.MaxProb / float64(a.AQM.MaxPackets-a.AQM.MinPackets), Inferred: c.Slope, Rel: within10,
			Why: fmt.Sprintf("least squares through the origin over %d-packet bins up to %d packets", aqmBin, c.SlopeUntil)}}
	case "adaptive":
		return []Quantity{
			{Finding: "10", Direction: q.Direction, Name: "drops below 500 packets", Unit: "", Paper: "yes (< 500 packets)",
				Profile: 1, Inferred: verdict(c.FirstDrop >= 0 && c.FirstDrop < 500), Why: "a loss at a counted queue under 500"},
			{Finding: "10", Direction: q.Direction, Name: "largest queue (approaches the limit)", Unit: "packets", Paper: "approaches ~1500",
				Profile: float64(a.Queue.LimitPackets), Inferred: float64(c.MaxQueue), Rel: within10,
				Why: "counted from departures; head-dropped packets are missed near the limit"},
		}
	}
	return nil
}
