package qdisc

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/leolab/leolab/link"
)

// Config selects and configures a discipline.
type Config struct {
	Discipline string
	// Limit bounds the queue; zero on both axes means the discipline's
	// default limit (Info.DefaultLimit; droptail and headdrop: unbounded).
	Limit link.QueueLimit
	ECN   bool
	// Params overrides the discipline's parameters by name; durations are
	// given as time.Duration values converted to float64 (nanoseconds).
	Params map[string]float64
	// RateBps is the rate of the server in front of the queue (RED's idle
	// decay, ARED's automatic parameters).
	RateBps float64
}

// Param describes one parameter of a discipline.
type Param struct {
	Name     string
	Duration bool // a time.Duration (nanoseconds as float64)
	Default  float64
	Min, Max float64 // inclusive bounds
	Doc      string  // meaning and source of the default
}

// Info describes a discipline.
type Info struct {
	Name        string
	Description string
	// DefaultLimit is the limit in packets used when none is given (0:
	// unbounded).
	DefaultLimit int
	ECN          bool // whether the discipline can mark instead of drop
	Params       []Param
	build        func(c Config, p func(string) float64, rng *rand.Rand, drop link.DropFunc) link.Queue
}

func dur(name string, d time.Duration, lo, hi time.Duration, doc string) Param {
	return Param{Name: name, Duration: true, Default: float64(d), Min: float64(lo), Max: float64(hi), Doc: doc}
}

func num(name string, v, lo, hi float64, doc string) Param {
	return Param{Name: name, Default: v, Min: lo, Max: hi, Doc: doc}
}

func d(p func(string) float64, name string) time.Duration { return time.Duration(p(name)) }

var (
	codelTarget   = dur("target", CoDelTarget, time.Microsecond, time.Second, "TARGET, RFC 8289 §4.4: 5ms")
	codelInterval = dur("interval", CoDelInterval, time.Millisecond, 10*time.Second, "INTERVAL, RFC 8289 §4.3: 100ms")
	pieParamList  = []Param{
		dur("target", PIETarget, time.Microsecond, time.Second, "QDELAY_REF, RFC 8033 §4.2: 15ms"),
		dur("tupdate", PIETupdate, 100*time.Microsecond, time.Second, "T_UPDATE, RFC 8033 §4.2: 15ms"),
		num("alpha", PIEAlpha, 0, 100, "alpha, Hz, RFC 8033 §4.2: 0.125"),
		num("beta", PIEBeta, 0, 100, "beta, Hz, RFC 8033 §4.2: 1.25"),
		dur("max_burst", PIEMaxBurst, 0, 10*time.Second, "MAX_BURST, RFC 8033 §4.4: 150ms"),
	}
	flows   = func(def int) Param { return num("flows", float64(def), 1, 65536, "hash buckets (Linux default)") }
	quantum = func(def int) Param { return num("quantum", float64(def), 64, 1<<20, "DRR quantum, bytes") }
)

var registry = []Info{
	{Name: "droptail", Description: "FIFO, drops the arrival when full (pfifo/bfifo)",
		build: func(c Config, _ func(string) float64, _ *rand.Rand, drop link.DropFunc) link.Queue {
			q, _ := link.NewTailDrop(c.Limit, drop)
			return q
		}},
	{Name: "headdrop", Description: "FIFO, drops the oldest packets when full (pfifo_head_drop)",
		build: func(c Config, _ func(string) float64, _ *rand.Rand, drop link.DropFunc) link.Queue {
			return NewHeadDrop(c.Limit, drop)
		}},
	{Name: "red", Description: "Random Early Detection (Floyd & Jacobson 1993)", DefaultLimit: REDLimit, ECN: true,
		Params: []Param{
			num("min_th", REDMinTh, 0, 1e6, "min_th, packets: 5 (Floyd & Jacobson 1993 §6)"),
			num("max_th", REDMaxTh, 0, 1e6, "max_th, packets: 15 (§6)"),
			num("wq", REDWq, 1e-6, 1, "w_q: 0.002 (§6)"),
			num("max_p", REDMaxP, 0, 1, "max_p: 1/50 (§6)"),
			num("gentle", 0, 0, 1, "1: p rises to 1 between max_th and 2·max_th (Floyd 2000)"),
		},
		build: func(c Config, p func(string) float64, rng *rand.Rand, drop link.DropFunc) link.Queue {
			return NewRED(p("min_th"), p("max_th"), p("wq"), p("max_p"), p("gentle") != 0, c.RateBps, c.Limit, c.ECN, rng, drop)
		}},
	{Name: "ared", Description: "Adaptive RED (Floyd, Gummadi & Shenker 2001), automatic parameters from the link rate", DefaultLimit: REDLimit, ECN: true,
		build: func(c Config, _ func(string) float64, rng *rand.Rand, drop link.DropFunc) link.Queue {
			return NewARED(c.RateBps, c.Limit, c.ECN, rng, drop)
		}},
	{Name: "codel", Description: "CoDel (RFC 8289)", DefaultLimit: CoDelLimit, ECN: true,
		Params: []Param{codelTarget, codelInterval},
		build: func(c Config, p func(string) float64, _ *rand.Rand, drop link.DropFunc) link.Queue {
			return NewCoDel(d(p, "target"), d(p, "interval"), c.Limit, c.ECN, drop)
		}},
	{Name: "pie", Description: "PIE (RFC 8033)", DefaultLimit: PIELimit, ECN: true, Params: pieParamList,
		build: func(c Config, p func(string) float64, rng *rand.Rand, drop link.DropFunc) link.Queue {
			return NewPIE(d(p, "target"), d(p, "tupdate"), p("alpha"), p("beta"), d(p, "max_burst"), c.Limit, c.ECN, rng, drop)
		}},
	{Name: "sfq", Description: "Stochastic Fairness Queueing (McKenney 1990; sch_sfq)", DefaultLimit: SFQLimit,
		Params: []Param{flows(SFQFlows), quantum(SFQQuantum),
			dur("perturb", SFQPerturb, 0, time.Hour, "hash re-keying period: 0, none (sch_sfq; tc-sfq(8) advises 60s)")},
		build: func(c Config, p func(string) float64, rng *rand.Rand, drop link.DropFunc) link.Queue {
			return NewSFQ(int(p("flows")), int(p("quantum")), d(p, "perturb"), c.Limit, rng, drop)
		}},
	{Name: "fq_codel", Description: "FlowQueue-CoDel (RFC 8290)", DefaultLimit: FQCoDelLimit, ECN: true,
		Params: []Param{flows(FQCoDelFlows), quantum(FQCoDelQuantum), codelTarget, codelInterval},
		build: func(c Config, p func(string) float64, rng *rand.Rand, drop link.DropFunc) link.Queue {
			return NewFQCoDel(int(p("flows")), int(p("quantum")), d(p, "target"), d(p, "interval"), c.Limit, c.ECN, rng, drop)
		}},
	{Name: "fq_pie", Description: "FlowQueue-PIE (Linux sch_fq_pie)", DefaultLimit: FQPIELimit, ECN: true,
		Params: append([]Param{flows(FQPIEFlows), quantum(FQPIEQuantum)}, pieParamList...),
		build: func(c Config, p func(string) float64, rng *rand.Rand, drop link.DropFunc) link.Queue {
			return NewFQPIE(int(p("flows")), int(p("quantum")), d(p, "target"), d(p, "tupdate"), p("alpha"), p("beta"), d(p, "max_burst"), c.Limit, c.ECN, rng, drop)
		}},
	{Name: "cake", Description: "CAKE's flow isolation and COBALT AQM with host isolation (Høiland-Jørgensen et al. 2018; sch_cake)", DefaultLimit: CakeLimit, ECN: true,
		build: func(c Config, _ func(string) float64, rng *rand.Rand, drop link.DropFunc) link.Queue {
			return NewCake(c.RateBps, c.Limit, c.ECN, rng, drop)
		}},
}

// Names lists the disciplines.
func Names() []string {
	out := make([]string, len(registry))
	for i, in := range registry {
		out[i] = in.Name
	}
	return out
}

// Lookup returns a discipline's description.
func Lookup(name string) (Info, bool) {
	for _, in := range registry {
		if in.Name == name {
			return in, true
		}
	}
	return Info{}, false
}

// Param returns the named parameter.
func (in Info) Param(name string) (Param, bool) {
	for _, p := range in.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// ParamNames lists the parameter names.
func (in Info) ParamNames() []string {
	out := make([]string, len(in.Params))
	for i, p := range in.Params {
		out[i] = p.Name
	}
	return out
}

// FieldError is a problem with one field of a Config: discipline, ecn or
// params.<name>.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks a configuration against its discipline; problems are
// *FieldError.
func (c Config) Validate() error {
	name := c.Discipline
	if name == "" {
		name = "droptail"
	}
	in, ok := Lookup(name)
	if !ok {
		return fieldErr("discipline", "%q (allowed: %s)", c.Discipline, strings.Join(Names(), ", "))
	}
	if c.Limit.Packets < 0 {
		return fieldErr("limit_packets", "%d: must be >= 0 (0: the discipline's default)", c.Limit.Packets)
	}
	if c.Limit.Bytes < 0 {
		return fieldErr("limit_bytes", "%d: must be >= 0 (0: the discipline's default)", c.Limit.Bytes)
	}
	if c.ECN && !in.ECN {
		return fieldErr("ecn", "%s does not mark (disciplines that do: %s)", name, strings.Join(ecnNames(), ", "))
	}
	keys := make([]string, 0, len(c.Params))
	for k := range c.Params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p, ok := in.Param(k)
		if !ok {
			allowed := "none"
			if len(in.Params) > 0 {
				allowed = strings.Join(in.ParamNames(), ", ")
			}
			return fieldErr("params."+k, "unknown parameter of %s (allowed: %s)", name, allowed)
		}
		if v := c.Params[k]; v < p.Min || v > p.Max {
			if p.Duration {
				return fieldErr("params."+k, "%v: must be in [%v, %v]", time.Duration(v), time.Duration(p.Min), time.Duration(p.Max))
			}
			return fieldErr("params."+k, "%g: must be in [%g, %g]", v, p.Min, p.Max)
		}
	}
	if name == "red" {
		lo, hi := c.get(in, "min_th"), c.get(in, "max_th")
		if hi <= lo {
			return fieldErr("params.max_th", "%g: must be above min_th %g", hi, lo)
		}
	}
	if (name == "red" || name == "ared" || name == "cake") && !(c.RateBps > 0) {
		return fieldErr("discipline", "%s needs the link rate", name)
	}
	return nil
}

func ecnNames() []string {
	var out []string
	for _, in := range registry {
		if in.ECN {
			out = append(out, in.Name)
		}
	}
	return out
}

func (c Config) get(in Info, name string) float64 {
	if v, ok := c.Params[name]; ok {
		return v
	}
	p, _ := in.Param(name)
	return p.Default
}

// New builds the configured queue; rng feeds its randomness (a seeded
// stream per link, for determinism).
func New(c Config, rng *rand.Rand, drop link.DropFunc) (link.Queue, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if c.Discipline == "" {
		c.Discipline = "droptail"
	}
	in, _ := Lookup(c.Discipline)
	if c.Limit == (link.QueueLimit{}) {
		c.Limit.Packets = in.DefaultLimit
	}
	return in.build(c, func(name string) float64 { return c.get(in, name) }, rng, drop), nil
}
