package orbit

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Mode is how traffic crosses the constellation.
type Mode int

// Path modes.
const (
	// BentPipe: terminal → serving satellite → a gateway that satellite
	// sees → terrestrial fibre to the destination.
	BentPipe Mode = iota
	// ISL: terminal → serving satellite → inter-satellite links (+Grid,
	// shortest by delay) → the gateway nearest the destination → fibre.
	ISL
)

var modeNames = []string{"bentpipe", "isl"}

func (m Mode) String() string {
	if m >= 0 && int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode parses a mode name.
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if s == n {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown mode %q (allowed: %s)", s, strings.Join(modeNames, ", "))
}

// PathConfig describes a path schedule: which ends, when, how often the
// serving satellite is chosen, and how.
type PathConfig struct {
	From, To     Site
	Start        time.Time
	Duration     time.Duration
	Slot         time.Duration
	Mode         Mode
	Policy       Policy
	MinElevation float64 // degrees, for the terminal and the gateways
	Gateways     []Site
}

// Validate checks the configuration.
func (c PathConfig) Validate() error {
	switch {
	case c.Slot <= 0:
		return fmt.Errorf("slot %v: want > 0", c.Slot)
	case c.Duration <= 0:
		return fmt.Errorf("duration %v: want > 0", c.Duration)
	case c.Duration/c.Slot > 1_000_000:
		return fmt.Errorf("duration %v / slot %v: more than 1,000,000 slots", c.Duration, c.Slot)
	case !(c.MinElevation > 0 && c.MinElevation < 90): // NaN too
		return fmt.Errorf("minimum elevation %v°: want 0 < el < 90", c.MinElevation)
	case len(c.Gateways) == 0:
		return fmt.Errorf("no gateways")
	case c.Mode != BentPipe && c.Mode != ISL:
		return fmt.Errorf("mode %v: allowed %s", c.Mode, strings.Join(modeNames, ", "))
	case c.Policy < Highest || c.Policy > Sticky:
		return fmt.Errorf("policy %v: allowed %s", c.Policy, strings.Join(policyNames, ", "))
	}
	return nil
}

// SlotPath is the path of one slot, computed at the slot's start.
type SlotPath struct {
	Start   time.Time     `json:"start"`
	Serving string        `json:"serving"`          // "" in an outage
	Gateway string        `json:"gateway"`          // where the path lands
	Nodes   []string      `json:"nodes"`            // terminal, satellites, gateway, destination
	Hops    int           `json:"hops"`             // radio and laser links, terminal to gateway
	ISLs    int           `json:"isls"`             // inter-satellite links among Hops
	SpaceKm float64       `json:"space_km"`         // at c in vacuum
	FibreKm float64       `json:"fibre_km"`         // great circle, at c/FibreIndex
	OneWay  time.Duration `json:"-"`                // propagation delay
	OWDms   float64       `json:"one_way_delay_ms"` // OneWay in ms
	Changed bool          `json:"changed"`          // route differs from the previous slot's
	Outage  bool          `json:"outage"`           // no satellite path this slot
}

// PropagationDelay is seed 000 eq. 13's propagation term for one
// direction: space legs (radio and ISLs) at c, fibre at c/FibreIndex.
func PropagationDelay(spaceKm, fibreKm float64) time.Duration {
	s := (spaceKm + fibreKm*FibreIndex) / SpeedOfLight
	return time.Duration(math.Round(s * 1e9))
}

// Planner computes slot paths over one source; it keeps its buffers
// between slots.
type Planner struct {
	src      Source
	grid     Grid // nil unless ISL mode
	cfg      PathConfig
	term     Station
	gws      []Station
	gwFibre  []float64 // km from each gateway to the destination
	egress   int       // ISL mode: the gateway nearest the destination
	pos      []Vec3
	cands    []int
	out      []int
	gwOf     []int
	rt       router
	route    []int
	prev     int
	prevPath []string
}

// NewPlanner validates cfg and prepares a planner. ISL mode needs a Grid
// source (a Walker constellation).
func NewPlanner(src Source, cfg PathConfig) (*Planner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p := &Planner{src: src, cfg: cfg, term: NewStation(cfg.From), prev: -1}
	for _, g := range cfg.Gateways {
		p.gws = append(p.gws, NewStation(g))
		p.gwFibre = append(p.gwFibre, GreatCircle(g, cfg.To))
	}
	if cfg.Mode == ISL {
		g, ok := src.(Grid)
		if !ok {
			return nil, fmt.Errorf("mode isl needs a constellation with inter-satellite links (a Walker shell), not element sets")
		}
		p.grid = g
		p.egress = slices.Index(p.gwFibre, slices.Min(p.gwFibre))
	}
	return p, nil
}

// Schedule returns the path of every slot from cfg.Start over cfg.Duration.
func Schedule(src Source, cfg PathConfig) ([]SlotPath, error) {
	p, err := NewPlanner(src, cfg)
	if err != nil {
		return nil, err
	}
	var out []SlotPath
	for d := time.Duration(0); d < cfg.Duration; d += cfg.Slot {
		out = append(out, p.Next(cfg.Start.Add(d)))
	}
	return out, nil
}

// Next computes the path of the slot starting at t, following the
// previous call's serving satellite for the sticky policy.
func (p *Planner) Next(t time.Time) SlotPath {
	p.pos = p.src.Positions(t, p.pos)
	sp := SlotPath{Start: t}
	var ok bool
	if p.cfg.Mode == ISL {
		ok = p.isl(t, &sp)
	} else {
		ok = p.bentPipe(t, &sp)
	}
	if !ok {
		sp.Outage, p.prev = true, -1
	}
	sp.OneWay = PropagationDelay(sp.SpaceKm, sp.FibreKm)
	sp.OWDms = float64(sp.OneWay) / 1e6
	sp.Changed = p.prevPath != nil && !slices.Equal(p.prevPath, sp.Nodes)
	p.prevPath = sp.Nodes
	return sp
}

// bestGateway returns the gateway seen from satellite s above the minimum
// elevation with the least delay to the destination, and that delay in
// vacuum-km; −1 if none.
func (p *Planner) bestGateway(s int) (int, float64) {
	best, bestKm := -1, math.Inf(1)
	for g := range p.gws {
		if p.gws[g].Elevation(p.pos[s]) < p.cfg.MinElevation {
			continue
		}
		if km := p.gws[g].pos.Dist(p.pos[s]) + p.gwFibre[g]*FibreIndex; km < bestKm {
			best, bestKm = g, km
		}
	}
	return best, bestKm
}

func (p *Planner) bentPipe(t time.Time, sp *SlotPath) bool {
	p.cands = Visible(&p.term, p.pos, p.cfg.MinElevation, p.cands[:0])
	// Only satellites that also see a gateway can carry the bent pipe.
	p.out, p.gwOf = p.out[:0], p.gwOf[:0]
	for _, c := range p.cands {
		if g, _ := p.bestGateway(c); g >= 0 {
			p.out = append(p.out, c)
			p.gwOf = append(p.gwOf, g)
		}
	}
	s := choose(p.cfg.Policy, p.src, p.pos, p.out, &p.term, t, p.cfg.MinElevation, p.prev)
	if s < 0 {
		return false
	}
	g := p.gwOf[slices.Index(p.out, s)]
	p.prev = s
	gw := &p.gws[g]
	sp.Serving, sp.Gateway = p.src.Name(s), gw.Name
	sp.Nodes = []string{"terminal", sp.Serving, gw.Name, "destination"}
	sp.Hops = 2
	sp.SpaceKm = p.term.pos.Dist(p.pos[s]) + gw.pos.Dist(p.pos[s])
	sp.FibreKm = p.gwFibre[g]
	return true
}

func (p *Planner) isl(t time.Time, sp *SlotPath) bool {
	p.cands = Visible(&p.term, p.pos, p.cfg.MinElevation, p.cands[:0])
	s := choose(p.cfg.Policy, p.src, p.pos, p.cands, &p.term, t, p.cfg.MinElevation, p.prev)
	if s < 0 {
		return false
	}
	gw := &p.gws[p.egress]
	p.out = Visible(gw, p.pos, p.cfg.MinElevation, p.out[:0])
	if len(p.out) == 0 {
		return false
	}
	p.rt.shortest(p.grid, p.pos, s)
	best, bestKm := -1, math.Inf(1)
	for _, e := range p.out {
		if km := p.rt.dist[e] + gw.pos.Dist(p.pos[e]); km < bestKm {
			best, bestKm = e, km
		}
	}
	if best < 0 || math.IsInf(bestKm, 1) {
		return false
	}
	p.prev = s
	p.route = p.rt.route(best, p.route[:0])
	sp.Serving, sp.Gateway = p.src.Name(s), gw.Name
	sp.Nodes = make([]string, 0, len(p.route)+3)
	sp.Nodes = append(sp.Nodes, "terminal")
	for _, r := range p.route {
		sp.Nodes = append(sp.Nodes, p.src.Name(r))
	}
	sp.Nodes = append(sp.Nodes, gw.Name, "destination")
	sp.ISLs = len(p.route) - 1
	sp.Hops = sp.ISLs + 2
	sp.SpaceKm = p.term.pos.Dist(p.pos[s]) + bestKm
	sp.FibreKm = p.gwFibre[p.egress]
	return true
}

// Stats summarises a schedule's one-way delays (outages excluded) and
// route changes.
type Stats struct {
	Slots, Outages, Changes int
	Min, Median, Mean, Max  time.Duration
	MeanChangeInterval      time.Duration // mean time between route changes
}

// Summarise computes the stats of a schedule.
func Summarise(slots []SlotPath) Stats {
	var st Stats
	var d []time.Duration
	var sum time.Duration
	var first, last time.Time
	for _, s := range slots {
		st.Slots++
		if s.Outage {
			st.Outages++
			continue
		}
		if s.Changed {
			if st.Changes == 0 {
				first = s.Start
			}
			last = s.Start
			st.Changes++
		}
		d = append(d, s.OneWay)
		sum += s.OneWay
	}
	if len(d) == 0 {
		return st
	}
	slices.Sort(d)
	st.Min, st.Max, st.Median = d[0], d[len(d)-1], d[len(d)/2]
	st.Mean = sum / time.Duration(len(d))
	if st.Changes > 1 {
		st.MeanChangeInterval = last.Sub(first) / time.Duration(st.Changes-1)
	}
	return st
}
