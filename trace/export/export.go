package export

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
	"github.com/leolab/leolab/trace"
)

// Recording constants (see the package doc).
const (
	// saturation is the CBR rate over the direction's largest allocation:
	// enough to keep the access queue full through every burst of grants.
	saturation = 1.2
	// probeSize and probeSpacing make the delay probe: 100 bytes every
	// 1 ms (0.8 Mbit/s, under 3 % of the smallest base allocation), ten
	// per delay interval (LeoReplayer pings every 5 ms for its 10 ms
	// series; leoreplayer/recorder/generate_trace_downlink.py).
	probeSize    = 100
	probeSpacing = time.Millisecond
)

// Model is what to record.
type Model struct {
	Profile   string // profile.NameStarlink (default) or profile.NameStarlinkSeed001
	City      string
	Direction string // the delay trace's direction: downlink (default) or uplink
	Duration  time.Duration
	Seed      uint64
	EpochUTC  time.Time // zero: drawn from the seed, as `leolab sim` does
}

// Traces is the recorded model.
type Traces struct {
	Uplink, Downlink []uint32        // delivery opportunities, ms
	Delay            []time.Duration // per trace.DelayInterval, Direction's one-way delay
	// Propagation is what was taken off each direction's deliveries.
	UplinkPropagation, DownlinkPropagation time.Duration
	EpochUTC                               string
}

// FromModel records the model (three simulator runs).
func FromModel(m Model) (*Traces, error) {
	m = m.withDefaults()
	if m.Duration <= 0 {
		return nil, errors.New("trace export: duration must be > 0")
	}
	sp, err := profile.StarlinkNamed(m.Profile, m.City, nil)
	if err != nil {
		return nil, fmt.Errorf("trace export: %w", err)
	}
	out := &Traces{
		UplinkPropagation:   sp.Uplink.BaseOWD + sp.Terrestrial.OneWay,
		DownlinkPropagation: sp.Downlink.BaseOWD + sp.Terrestrial.OneWay,
	}
	for _, dir := range scenario.Directions {
		maxRate, prop := sp.Downlink.MaxRate(), out.DownlinkPropagation
		if dir == "uplink" {
			maxRate, prop = sp.Uplink.MaxRate(), out.UplinkPropagation
		}
		flow := fmt.Sprintf("{cca: cbr, rate: %.0fbps, packet_size: %d, record: true}", saturation*maxRate, trace.OpportunityBytes)
		res, err := m.run(dir, flow)
		if err != nil {
			return nil, err
		}
		ops, err := Opportunities(res.Flows[0].Packets, prop)
		if err != nil {
			return nil, fmt.Errorf("trace export: %s: %w", dir, err)
		}
		if dir == "uplink" {
			out.Uplink = ops
		} else {
			out.Downlink = ops
		}
		out.EpochUTC = res.EpochUTC
	}
	flow := fmt.Sprintf("{cca: cbr, rate: %.0fbps, packet_size: %d, record: true}", probeSize*8/probeSpacing.Seconds(), probeSize)
	res, err := m.run(m.Direction, flow)
	if err != nil {
		return nil, err
	}
	if out.Delay, err = Delays(res.Flows[0].Packets, trace.DelayInterval, m.Duration); err != nil {
		return nil, fmt.Errorf("trace export: delay: %w", err)
	}
	return out, nil
}

func (m Model) withDefaults() Model {
	if m.Profile == "" {
		m.Profile = profile.NameStarlink
	}
	if m.Direction == "" {
		m.Direction = "downlink"
	}
	return m
}

// run simulates one recording flow on the model's path in direction dir.
func (m Model) run(dir, flow string) (*result.Result, error) {
	m = m.withDefaults()
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\nname: trace-export-%s\nduration: %v\nseed: %d\n", dir, m.Duration, m.Seed)
	if !m.EpochUTC.IsZero() {
		fmt.Fprintf(&b, "epoch_utc: %s\n", m.EpochUTC.UTC().Format(time.RFC3339Nano))
	}
	fmt.Fprintf(&b, "path: {profile: %s, direction: %s", m.Profile, dir)
	if m.City != "" {
		fmt.Fprintf(&b, ", city: %s", m.City)
	}
	fmt.Fprintf(&b, "}\nflows: [%s]\n", flow)
	sc, err := scenario.Parse("trace export", []byte(b.String()))
	if err != nil {
		return nil, err
	}
	if err := sc.CheckBudget(true); err != nil {
		return nil, fmt.Errorf("trace export: %w (a shorter --duration)", err)
	}
	spec, err := sc.Spec()
	if err != nil {
		return nil, err
	}
	return netsim.Run(spec)
}

// Opportunities turns the deliveries of a saturating flow's records into
// delivery opportunities: receive time less prop, rounded up to the
// millisecond, sorted. It needs at least one delivery after 0 ms.
func Opportunities(pkts []result.ProbePacket, prop time.Duration) ([]uint32, error) {
	var ms []uint32
	for _, p := range pkts {
		if p.OWDMs <= 0 {
			continue // lost, or in flight at the end
		}
		t := seconds(p.SentS) + millis(p.OWDMs) - prop
		m := (max(t, 0) + time.Millisecond - 1) / time.Millisecond
		ms = append(ms, uint32(m))
	}
	slices.Sort(ms)
	if len(ms) == 0 || ms[len(ms)-1] == 0 {
		return nil, errors.New("no deliveries to make opportunities of")
	}
	return ms, nil
}

// Delays turns a probe flow's records into a delay trace of the given
// interval covering duration: each interval's smallest one-way delay of
// the probes sent in it; an interval with none delivered (lost) repeats
// the one before (the first delivered one for leading intervals).
func Delays(pkts []result.ProbePacket, interval, duration time.Duration) ([]time.Duration, error) {
	if interval <= 0 || duration < interval {
		return nil, fmt.Errorf("interval %v and duration %v: need 0 < interval <= duration", interval, duration)
	}
	n := int(duration / interval)
	d := make([]time.Duration, n)
	have := make([]bool, n)
	for _, p := range pkts {
		if p.OWDMs <= 0 || p.SentS < 0 {
			continue
		}
		k := int(seconds(p.SentS) / interval)
		if k >= n {
			continue
		}
		owd := millis(p.OWDMs)
		if !have[k] || owd < d[k] {
			d[k], have[k] = owd, true
		}
	}
	first := slices.Index(have, true)
	if first < 0 {
		return nil, errors.New("no probe delivered: nothing to make a delay trace of")
	}
	prev := d[first]
	for k := range d {
		if have[k] {
			prev = d[k]
		} else {
			d[k] = prev
		}
	}
	return d, nil
}

// RecordedDelays is a recorded run's delay trace: flow id's records (a cbr
// flow run with record: true), or the first flow with records when id < 0.
func RecordedDelays(res *result.Result, id int, interval time.Duration) ([]time.Duration, error) {
	var with []int
	for _, f := range res.Flows {
		if len(f.Packets) == 0 {
			continue
		}
		with = append(with, f.ID)
		if id < 0 || f.ID == id {
			dur := time.Duration(res.DurationS * float64(time.Second))
			return Delays(f.Packets, interval, dur)
		}
	}
	if len(with) == 0 {
		return nil, errors.New("no flow has per-packet records: record the run with a cbr flow with record: true")
	}
	return nil, fmt.Errorf("flow %d has no per-packet records (flows with records: %v)", id, with)
}

func seconds(s float64) time.Duration { return time.Duration(s*float64(time.Second) + 0.5) }
func millis(ms float64) time.Duration { return time.Duration(ms*float64(time.Millisecond) + 0.5) }
