package repro001

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/profile"
)

// Burst parameters (seed 001 §Queue Investigation, findings 1–3): a burst
// at line rate (10 Gbit/s: arrives within a frame or two) overflows the
// idle access queue; what is delivered of it shows which end was dropped
// and how many packets the buffer held. Several packet sizes tell a limit
// in packets from one in bytes.
const burstLine = 10e9

// burstSizes are the packet sizes of the bursts, bytes.
var burstSizes = []int{500, 1000, 1500}

// burstPackets is each burst's length: beyond any buffer the paper
// reports (1500 DL, 4000 UL; finding 2) by 2.5×.
var burstPackets = map[string]int{"downlink": 4000, "uplink": 10000}

// burstOverrides keep the burst's view of the access queue alone: the PoP
// limiter would queue a line-rate burst before the satellite (finding 12:
// its own buffer, a second drop point), and on the uplink the per-flow AQM
// drops with probability 1 beyond 1000 packets (finding 9), so no burst
// could reach the 4000-packet limit; the AQM-on burst is shown apart.
func burstOverrides(dir string, aqmOn bool) map[string]any {
	ov := map[string]any{"pop.enabled": false}
	if dir == "uplink" && !aqmOn {
		ov["uplink.aqm.mode"] = "off"
	}
	return ov
}

// BurstResult is one burst's inference.
type BurstResult struct {
	Direction string
	Size      int
	AQM       bool // the uplink AQM was on
	Burst     probe.Burst
}

// Queue is the queue procedure's outcome for one variant.
type Queue struct {
	Bursts []BurstResult
	// Control is a burst into a fixed link's drop-tail queue of
	// controlLimit packets: the prober must tell the other policy.
	Control BurstResult
}

// controlLimit is the drop-tail control queue (issue 20's example of a
// perturbed queue: tail drop of 800 packets; the Starlink profile has no
// drop-policy knob, so it is a fixed link).
const controlLimit = 800

// controlRate is the control link's rate.
const controlRate = 100e6

func burstFlow(size, packets int) flowSpec {
	stop := time.Duration(float64(packets*size*8) / burstLine * float64(time.Second))
	return cbr(burstLine, size, 0, stop)
}

func runBurst(l lab, name, path string, anchor time.Time, seed, size, packets int) (probe.Burst, error) {
	_, r, err := run{name: name, path: path, dur: "3s", seed: seed, epoch: anchor, flows: []flowSpec{burstFlow(size, packets)}}.inferred(l, probe.Options{})
	if err != nil {
		return probe.Burst{}, err
	}
	if r.Burst == nil {
		return probe.Burst{}, fmt.Errorf("%s: the prober found no burst", name)
	}
	return *r.Burst, nil
}

// runQueue sends the bursts of both directions and the control.
func runQueue(l lab, v Variant, anchor time.Time, seed int) (*Queue, error) {
	q := &Queue{}
	for _, dir := range []string{"downlink", "uplink"} {
		for _, size := range burstSizes {
			b, err := runBurst(l, fmt.Sprintf("burst-%s-%d", dir, size), starlink(dir, v, burstOverrides(dir, false)), anchor, seed, size, burstPackets[dir])
			if err != nil {
				return nil, err
			}
			q.Bursts = append(q.Bursts, BurstResult{Direction: dir, Size: size, AQM: dir == "downlink", Burst: b})
		}
	}
	b, err := runBurst(l, "burst-uplink-aqm", starlink("uplink", v, burstOverrides("uplink", true)), anchor, seed, 1500, burstPackets["uplink"])
	if err != nil {
		return nil, err
	}
	q.Bursts = append(q.Bursts, BurstResult{Direction: "uplink", Size: 1500, AQM: true, Burst: b})
	path := fmt.Sprintf("{profile: fixed, rate: %s, rtt: 20ms, queue: {discipline: droptail, limit_packets: %d}}", rateText(controlRate), controlLimit)
	b, err = runBurst(l, "burst-droptail", path, anchor, seed, 1500, 3*controlLimit)
	if err != nil {
		return nil, err
	}
	q.Control = BurstResult{Direction: "fixed drop-tail", Size: 1500, Burst: b}
	return q, nil
}

// Limit is the buffer the 1500-byte burst of dir found (AQM off on the
// uplink): the later procedures' knowledge of the queue.
func (q *Queue) Limit(dir string) int {
	for _, b := range q.Bursts {
		if b.Direction == dir && b.Size == 1500 && (dir == "downlink" || !b.AQM) {
			return b.Burst.Kept
		}
	}
	return 0
}

// quantities compares the bursts with the profile.
func (q *Queue) quantities(p *profile.StarlinkProfile) []Quantity {
	var qs []Quantity
	for _, dir := range []string{"downlink", "uplink"} {
		a := access(p, dir)
		paper := map[string]string{"downlink": "~1500", "uplink": "~4000"}[dir]
		var kept = map[int]int{}
		for _, b := range q.Bursts {
			if b.Direction != dir || (dir == "uplink" && b.AQM) {
				continue
			}
			kept[b.Size] = b.Burst.Kept
			qs = append(qs, Quantity{Finding: "2", Direction: dir, Name: fmt.Sprintf("buffer (%d-byte burst)", b.Size), Unit: "packets",
				Paper: paper, Profile: float64(a.Queue.LimitPackets), Inferred: float64(b.Burst.Kept), Rel: within10,
				Why: "kept = the limit less the AQM's drops among the kept (downlink max_p 5 % at first)"})
			if b.Size == 1500 {
				qs = append(qs, Quantity{Finding: "1", Direction: dir, Name: "head drop (share of the newest kept that arrived)", Unit: "",
					Paper: "head drop", Profile: 1, Inferred: b.Burst.NewestDelivered, Rel: within10,
					Why: "head drop delivers the newest packets, tail drop none of them"})
			}
		}
		if kept[1500] > 0 {
			qs = append(qs, Quantity{Finding: "3", Direction: dir, Name: "kept 500-byte / kept 1500-byte packets", Unit: "",
				Paper: "packets, not bytes", Profile: 1, Inferred: float64(kept[500]) / float64(kept[1500]), Rel: within10,
				Why: "a byte limit would keep 3× as many 500-byte packets"})
		}
	}
	qs = append(qs, Quantity{Finding: "1", Direction: "fixed", Name: fmt.Sprintf("control: drop-tail %d keeps", controlLimit), Unit: "packets",
		Paper: "tail drop (the policy Starlink does not use)", Profile: controlLimit, Inferred: float64(q.Control.Burst.Kept), Abs: 1,
		Why: "the packet in service"}, Quantity{Finding: "1", Direction: "fixed", Name: "control: share of the newest kept that arrived", Unit: "",
		Paper: "tail drop", Profile: 0, Inferred: q.Control.Burst.NewestDelivered, Abs: 0.01,
		Why: "tail drop delivers none of the newest"})
	return qs
}
