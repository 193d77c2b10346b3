package paper002

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/result"
)

// LiveCheck is one physical number of a live run against the bound the
// link model fixes for it (livetol.go): what the emulator must get right
// whatever the congestion controller does.
type LiveCheck struct {
	Figure, Run, What string
	Value             float64
	Lo, Hi            float64 // NaN: no bound on that side
	Unit, Why         string
	// PumpGap is the run's longest gap of the pump off its CPU; Stalled
	// says it exceeds liveStall, the stall the bounds allow for.
	PumpGap time.Duration
	Stalled bool
}

// OK reports whether the value is within its bounds.
func (c LiveCheck) OK() bool {
	return !math.IsNaN(c.Value) && !(c.Value < c.Lo) && !(c.Value > c.Hi)
}

// Bound is the check's interval as text.
func (c LiveCheck) Bound() string {
	switch {
	case math.IsNaN(c.Lo):
		return fmt.Sprintf("≤ %.4g", c.Hi)
	case math.IsNaN(c.Hi):
		return fmt.Sprintf("≥ %.4g", c.Lo)
	}
	return fmt.Sprintf("[%.4g, %.4g]", c.Lo, c.Hi)
}

// LiveChecks checks every live run of the parts (none on the simulator).
func (d *Data) LiveChecks(parts []*Part) ([]LiveCheck, error) {
	var out []LiveCheck
	for _, p := range parts {
		if p.Campaign.Engine != EngineEmu {
			continue
		}
		rate, err := pathRateMbps(p)
		if err != nil {
			return nil, err
		}
		for _, r := range p.Runs {
			res := d.Results[r.ID]
			if res == nil {
				continue
			}
			rc := runChecks{d: d, p: p, res: res, name: r.Name(), rate: rate}
			rc.gap = time.Duration(res.Instrument["pump_gap_max_us"] * float64(time.Microsecond))
			rc.ceiling()
			switch p.Figures[0].ID {
			case "fig1", "fig2":
				rc.leoem()
			case "fig9c":
				rc.aqm(r.CCAs[0], r.Sweep)
			}
			out = append(out, rc.out...)
		}
	}
	return append(out, d.probeChecks()...), nil
}

// runChecks collects one run's checks.
type runChecks struct {
	d    *Data
	p    *Part
	res  *result.Result
	name string
	rate float64 // the link's rate, Mbit/s
	gap  time.Duration
	out  []LiveCheck
}

func (rc *runChecks) add(what string, v, lo, hi float64, unit, why string) {
	rc.out = append(rc.out, LiveCheck{Figure: rc.p.Figures[0].ID, Run: rc.name, What: what, Value: v, Lo: lo, Hi: hi,
		Unit: unit, Why: why, PumpGap: rc.gap, Stalled: rc.gap > liveStall})
}

// ceiling: the flows' goodput together never exceeds the link's payload
// rate.
func (rc *runChecks) ceiling() {
	rc.add("aggregate goodput", sum(goodputs(rc.res)), math.NaN(), rc.rate*payloadFraction*(1+rateSlack), "Mbit/s",
		fmt.Sprintf("%g Mbit/s of 1500-byte IP packets carry at most %.1f Mbit/s of TCP payload (MSS 1448), + %.0f %%", rc.rate, rc.rate*payloadFraction, 100*rateSlack))
}

// utilisation: over the run's second half, a drop-tail link with a buffer
// of at least a BDP is busy whenever its path is up.
func (rc *runChecks) utilisation(up float64) {
	half := rc.res.DurationS / 2
	var agg float64
	for _, f := range rc.res.Flows {
		agg += rateIn(f, half, rc.res.DurationS)
	}
	rc.add("aggregate goodput, second half", agg, utilFloor*up*rc.rate*payloadFraction, math.NaN(), "Mbit/s",
		fmt.Sprintf("drop-tail with a buffer ≥ 1 BDP keeps the link busy: ≥ %.0f %% of the payload rate%s", 100*utilFloor,
			map[bool]string{true: fmt.Sprintf(" × the %.3f of the half the path is up", up), false: ""}[up < 1]))
}

// leoem: the LeoEM path's RTT floor second by second, and its smallest RTT.
func (rc *runChecks) leoem() {
	base, down := rc.d.BaseRTTMs, rc.d.BaseDown
	n := min(len(base), int(rc.res.DurationS))
	if n == 0 {
		return
	}
	least, upHalf, halfN := math.Inf(1), 0, 0
	for k := range n {
		if !down[k] {
			least = min(least, base[k])
		}
		if float64(k) >= rc.res.DurationS/2 {
			halfN++
			if !down[k] {
				upHalf++
			}
		}
	}
	if rc.p.Figures[0].ID == "fig1" && halfN > 0 {
		rc.utilisation(float64(upHalf) / float64(halfN))
	}
	for _, f := range rc.res.Flows {
		rc.add(fmt.Sprintf("flow %d min RTT", f.ID), f.MinRTTMs, least-minRTTBelow, least+minRTTAbove, "ms",
			"the path file's least round-trip propagation over the run (2 × one-way delay), − release error, + 3 ms of ACK scheduling and queue")
		worst, at := math.Inf(1), 0.0
		for _, iv := range f.Intervals {
			k := int(math.Ceil(iv.T)) - 1 // the second the interval ends in
			if iv.SRTTMs <= 0 || k < 1 || k >= n || down[k] || down[k-1] {
				continue
			}
			if m := iv.SRTTMs - min(base[k], base[k-1]); m < worst {
				worst, at = m, iv.T
			}
		}
		if !math.IsInf(worst, 1) {
			rc.add(fmt.Sprintf("flow %d sRTT − base RTT, least over the intervals (t = %.0f s)", f.ID, at), worst, -srttBelow, math.NaN(), "ms",
				"no interval's smoothed RTT is below the path file's round-trip propagation of its second or the one before, − release error")
		}
	}
}

// aqm: Fig. 9(c)'s five flows against their discipline.
func (rc *runChecks) aqm(cca string, point []campaign.Setting) {
	disc := (&cell{Point: point}).value(keyDiscipline)
	limit, err := queueLimit(rc.p)
	if err != nil {
		return
	}
	if disc == "droptail" && limit*1500*8/(rc.rate*1e6) >= aqmBaseRTTMs/1e3 {
		rc.utilisation(1)
	}
	if fairQueueing[disc] {
		rc.add("Jain's index of the flows' goodputs", metrics.Jain(goodputs(rc.res)), jainFloor, math.NaN(), "",
			disc+" splits the link max–min fairly among equal bulk flows")
	}
	drain := limit * 1500 * 8 / (rc.rate * 1e6) * 1e3 // ms to serve a full queue
	for _, f := range rc.res.Flows {
		m := meanSRTT(f, 0, 0)
		if tgt, ok := aqmTargetMs[disc]; ok && lossBased[cca] {
			rc.add(fmt.Sprintf("flow %d mean sRTT", f.ID), m, math.NaN(), aqmBaseRTTMs+tgt+aqmSlack, "ms",
				fmt.Sprintf("%s holds the sojourn near its %g ms target: base %g ms + target + %g ms", disc, tgt, aqmBaseRTTMs, aqmSlack))
			continue
		}
		rc.add(fmt.Sprintf("flow %d mean sRTT", f.ID), m, math.NaN(), aqmBaseRTTMs+drain+queueSlack, "ms",
			fmt.Sprintf("base %g ms + a full %g-packet queue at the link rate (%.0f ms) + %g ms", aqmBaseRTTMs, limit, drain, queueSlack))
	}
}

// pathRateMbps is a part's link rate (its campaign's path.rate), Mbit/s.
func pathRateMbps(p *Part) (float64, error) {
	s, _ := p.Campaign.Path["rate"].(string)
	v, ok := strings.CutSuffix(s, "Mbps")
	if f, err := strconv.ParseFloat(v, 64); ok && err == nil && f > 0 {
		return f, nil
	}
	return 0, fmt.Errorf("paper002: %s: path.rate %q: want a rate in Mbps", p.File, s)
}

// queueLimit is a part's queue limit in packets (path.queue.limit_packets).
func queueLimit(p *Part) (float64, error) {
	q, _ := p.Campaign.Path["queue"].(map[string]any)
	v, err := strconv.ParseFloat(fmt.Sprint(q["limit_packets"]), 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("paper002: %s: path.queue.limit_packets %v: want a packet count", p.File, q["limit_packets"])
	}
	return v, nil
}
