package profile

import "fmt"

// uniformMedianDiff is the median of |U1 - U2| for U1, U2 independent
// uniform on [-a, a], as a fraction of a: 2 - sqrt(2). The per-slot stable
// rate is drawn uniformly around the nominal maximum, so the half-width is
// median_rate_change / uniformMedianDiff.
const uniformMedianDiff = 0.5857864376269049

// Validate checks every parameter's range and the constraints between
// parameters. Errors name the parameter path and the allowed range.
func (sp *StarlinkProfile) Validate() error {
	if err := checkAll(params(sp)); err != nil {
		return err
	}
	r := sp.Reconfig
	if r.Offset >= r.Period {
		return fmt.Errorf("reconfig.offset: %v out of range (allowed: 0s..reconfig.period %v)", r.Offset, r.Period)
	}
	if r.Spikes.Head+r.Spikes.Tail > r.Period {
		return fmt.Errorf("reconfig.spikes.head + tail: %v exceeds reconfig.period %v", r.Spikes.Head+r.Spikes.Tail, r.Period)
	}
	if r.RTTSteps.Enabled && len(r.RTTSteps.Magnitudes) == 0 {
		return fmt.Errorf("reconfig.rtt_steps.magnitudes: empty (allowed: at least one step when enabled)")
	}
	for _, d := range []struct {
		name string
		a    *Access
	}{{"downlink", &sp.Downlink}, {"uplink", &sp.Uplink}} {
		if err := d.a.validate(d.name, r.Period); err != nil {
			return err
		}
	}
	return nil
}

func (a *Access) validate(dir string, period interface{ Seconds() float64 }) error {
	if a.Outage.Duration.Seconds() >= period.Seconds() {
		return fmt.Errorf("%s.outage.duration: %v out of range (allowed: below reconfig.period %v)", dir, a.Outage.Duration, period)
	}
	if maxMedian := uniformMedianDiff * a.MaxRate(); a.Drift.MedianRateChange >= maxMedian {
		return fmt.Errorf("%s.drift.median_rate_change: %s out of range (allowed: 0bps..%s, 0.586 x alloc.base x alloc.multiplier, so slot rates stay positive)",
			dir, FormatRate(a.Drift.MedianRateChange), FormatRate(maxMedian))
	}
	if a.Alloc.DemandLow > a.Alloc.DemandHigh {
		return fmt.Errorf("%s.alloc.demand_low: %g out of range (allowed: 0..alloc.demand_high %g)", dir, a.Alloc.DemandLow, a.Alloc.DemandHigh)
	}
	q := a.AQM
	if q.MinPackets >= q.MaxPackets {
		return fmt.Errorf("%s.aqm.min_packets: %d out of range (allowed: 0..aqm.max_packets-1 = %d)", dir, q.MinPackets, q.MaxPackets-1)
	}
	if q.AvgTime > 0 && q.PerFlow {
		return fmt.Errorf("%s.aqm.avg_time: %v with aqm.per_flow: true (allowed: 0s when per_flow; the average is of the shared queue)", dir, q.AvgTime)
	}
	if q.Mode == "adaptive" {
		if q.MaxProbFloor > q.MaxProb || q.MaxProb > q.MaxProbCap {
			return fmt.Errorf("%s.aqm.max_prob: %g out of range (allowed: aqm.max_prob_floor %g..aqm.max_prob_cap %g)", dir, q.MaxProb, q.MaxProbFloor, q.MaxProbCap)
		}
		if q.TargetLow >= q.TargetHigh {
			return fmt.Errorf("%s.aqm.target_low: %g out of range (allowed: 0..aqm.target_high %g)", dir, q.TargetLow, q.TargetHigh)
		}
	}
	return nil
}
