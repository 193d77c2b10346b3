package report

import (
	"fmt"
	"math"
)

// FlowSummary is one flow's outcome as the figures and the flow table need it.
// One run of a dedicated (single-flow) scenario gives one FlowSummary; a
// concurrent run gives one per competing flow, all with the same Group.
type FlowSummary struct {
	Group     string // what the flow is compared within, e.g. "downlink/sydney/concurrent"
	Label     string // the run it came from, e.g. a file name or "run3"
	CCA       string // congestion control, e.g. "bbr3", "cubic"; keys the colour
	City      string // server city, empty when not applicable
	Direction string // "downlink" or "uplink", empty when not applicable

	ThroughputMbps float64 // mean goodput over the run (Mbit/s)
	RetransPerGB   float64 // retransmitted segments per GB delivered (seed 000 Fig. 9)
	RTTInflation   float64 // mean RTT / min RTT (ratio, >= 1)
	P95DelayMs     float64 // 95th-percentile delay (ms): one-way if known, else RTT (Pantheon)
	// FairShareMbps is the fair share of the flow's bottleneck, ΣT/N over the
	// Group's N concurrent flows (seed 000 Fig. 10); 0 for a dedicated flow.
	FairShareMbps float64
}

// Series is one curve over time, e.g. one flow's per-interval throughput.
type Series struct {
	Name string    // legend entry, e.g. "bbr3 #1"
	Key  string    // colour key: a CCA name ("" uses Name)
	Unit string    // unit of V, e.g. "Mbit/s", "ms", "packets"; all series on one plot share it
	T    []float64 // seconds since the run's start (end of each interval)
	V    []float64 // values; NaN leaves a gap
}

// PhasePlane is the two-flow phase plane of seed 000 Fig. 15: the
// instantaneous throughput pair (X1[i], X2[i]) of two flows at time T[i].
type PhasePlane struct {
	Name1, Name2 string    // legend names of flow 1 (x axis) and flow 2 (y axis)
	T            []float64 // seconds since the start
	X1, X2       []float64 // throughput of flow 1 and 2 (Mbit/s)
	// CapacityMbps places the efficiency line x1 + x2 = C. Zero means
	// "unknown": the line is then drawn at the 95th percentile of x1 + x2,
	// i.e. the capacity the pair demonstrably reached.
	CapacityMbps float64
}

// SlotSeconds is the length of a Starlink reconfiguration slot in whole
// seconds: Starlink reconfigures every 15 s, at :12, :27, :42 and :57 of each
// UTC minute (seed 001, "15-second reconfiguration cycle"; seed 000 Fig. 3;
// DESIGN.md, Starlink access-link model).
const SlotSeconds = 15

// SlotProfile is a per-second breakdown of a flow (or a set of runs) within the
// 15 s reconfiguration slot: index 0 is the first second after a boundary,
// index SlotSeconds-1 the second that ends at the next boundary.
type SlotProfile struct {
	Name        string               // legend entry
	Key         string               // colour key: a CCA name ("" uses Name)
	Throughput  [SlotSeconds]float64 // mean throughput in that second of the slot (Mbit/s)
	Retransmits [SlotSeconds]float64 // mean retransmitted segments in that second of the slot
}

// RefLine is a labelled horizontal reference line, e.g. the saturation queue
// of the M/G/1 estimate at rho_max.
type RefLine struct {
	Y     float64
	Label string
}

func (s Series) key() string {
	if s.Key != "" {
		return s.Key
	}
	return s.Name
}

func (s SlotProfile) key() string {
	if s.Key != "" {
		return s.Key
	}
	return s.Name
}

// finiteNonNeg reports an error when v is NaN, infinite or negative.
func finiteNonNeg(what string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("%s = %v: want a finite value >= 0", what, v)
	}
	return nil
}

// validate checks the fields a figure draws from one flow.
func (f FlowSummary) validate(i int, delay bool) error {
	where := fmt.Sprintf("flow %d (%s %s)", i, f.CCA, f.Label)
	if f.CCA == "" {
		return fmt.Errorf("%s: empty cca", where)
	}
	checks := []struct {
		name string
		v    float64
	}{
		{"throughput_mbps", f.ThroughputMbps},
		{"retrans_per_gb", f.RetransPerGB},
		{"rtt_inflation", f.RTTInflation},
		{"fair_share_mbps", f.FairShareMbps},
	}
	if delay {
		checks = append(checks, struct {
			name string
			v    float64
		}{"p95_delay_ms", f.P95DelayMs})
	}
	for _, c := range checks {
		if err := finiteNonNeg(c.name, c.v); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	return nil
}

// validate checks that a series has one value per time and that time does
// not go backwards.
func (s Series) validate(i int) error {
	if len(s.T) != len(s.V) {
		return fmt.Errorf("series %d (%s): %d times but %d values", i, s.Name, len(s.T), len(s.V))
	}
	for j, t := range s.T {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return fmt.Errorf("series %d (%s): t[%d] = %v: want a finite time", i, s.Name, j, t)
		}
		if j > 0 && t < s.T[j-1] {
			return fmt.Errorf("series %d (%s): t[%d] = %v before t[%d] = %v", i, s.Name, j, t, j-1, s.T[j-1])
		}
		if math.IsInf(s.V[j], 0) {
			return fmt.Errorf("series %d (%s): v[%d] is infinite", i, s.Name, j)
		}
	}
	return nil
}

// validate checks that the three columns line up and hold finite throughputs.
func (pp PhasePlane) validate() error {
	if len(pp.X1) != len(pp.X2) || len(pp.T) != len(pp.X1) {
		return fmt.Errorf("phase plane: %d times, %d x1, %d x2: want equal lengths", len(pp.T), len(pp.X1), len(pp.X2))
	}
	if len(pp.X1) == 0 {
		return fmt.Errorf("phase plane: no points")
	}
	for i := range pp.X1 {
		if err := finiteNonNeg(fmt.Sprintf("x1[%d]", i), pp.X1[i]); err != nil {
			return fmt.Errorf("phase plane: %w", err)
		}
		if err := finiteNonNeg(fmt.Sprintf("x2[%d]", i), pp.X2[i]); err != nil {
			return fmt.Errorf("phase plane: %w", err)
		}
	}
	return finiteNonNeg("phase plane: capacity_mbps", pp.CapacityMbps)
}
