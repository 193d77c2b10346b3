package scenario

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/link/tracelink"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/sim"
	"github.com/leolab/leolab/trace"
	"go.yaml.in/yaml/v3"
)

// ProfileTrace is the path profile replaying Mahimahi or LeoReplayer traces
// (path.trace).
const ProfileTrace = "trace"

// TraceFormats lists path.trace.format's values.
var TraceFormats = []string{"leoreplayer", "mahimahi"}

// DefaultTraceQueuePackets is a trace path's drop-tail limit when
// path.trace.queue is omitted: LeoReplayer's example replays with
// drop-tail queues of 500 packets (../shared/data README; Mahimahi's own
// default, an unbounded queue, would let a saturating flow fill memory).
const DefaultTraceQueuePackets = 500

// TracePath is path.trace: the trace files (as written, relative to the
// scenario file) and how to replay them.
type TracePath struct {
	Format           string
	Uplink, Downlink string
	Delay            string        // leoreplayer: the delay trace
	DelayInterval    time.Duration // leoreplayer: its step (trace.DelayInterval)
	OWD              time.Duration // mahimahi: a fixed one-way delay per direction (mm-delay)
	Queue            Queue         // both directions; zero: droptail DefaultTraceQueuePackets
	UplinkLoss       float64       // i.i.d. loss per direction (mm-loss)
	DownlinkLoss     float64

	given    bool
	up, down *trace.Opportunities // read by Validate
	delays   *trace.Delays
}

var traceFields = []string{"format", "uplink", "downlink", "delay", "delay_interval", "owd", "queue", "loss"}

// tracePath decodes path.trace.
func (d *decoder) tracePath(n *yaml.Node, path string) TracePath {
	t := TracePath{given: true}
	d.fields(n, path, traceFields, func(k string, v *yaml.Node) {
		f := path + "." + k
		switch k {
		case "format":
			t.Format = d.str(v, f)
		case "uplink":
			t.Uplink = d.str(v, f)
		case "downlink":
			t.Downlink = d.str(v, f)
		case "delay":
			t.Delay = d.str(v, f)
		case "delay_interval":
			t.DelayInterval = d.duration(v, f)
		case "owd":
			t.OWD = d.duration(v, f)
		case "queue":
			t.Queue = d.queue(v, f)
		case "loss":
			d.fields(v, f, Directions, func(k string, v *yaml.Node) {
				if k == "uplink" {
					t.UplinkLoss = d.float(v, f+".uplink")
				} else {
					t.DownlinkLoss = d.float(v, f+".downlink")
				}
			})
		}
	})
	return t
}

// validateTracePath checks path.trace when the profile is trace (done is
// true then) and refuses a path.trace given with another profile.
func (s *Scenario) validateTracePath(fail failFunc) (done bool, err error) {
	p := &s.Path
	if p.Profile != ProfileTrace {
		if p.Trace.given {
			return true, fail("path.trace", "applies to profile trace only (path.profile: trace)")
		}
		return false, nil
	}
	if !p.Trace.given {
		return true, fail("path", "profile trace needs path.trace, e.g. {format: leoreplayer, uplink: bw.txt, downlink: bw.txt, delay: delay.txt}")
	}
	if p.City != "" || len(p.Overrides) > 0 || p.RateBps != 0 || p.RTT != 0 || p.Loss != 0 || !p.Queue.IsZero() || p.Reverse.RateBps != 0 || p.Reverse.Loss != 0 || !p.Reverse.Queue.IsZero() {
		return true, fail("path", "profile trace takes direction and trace only (queue and loss go under path.trace)")
	}
	if p.Direction == "" {
		p.Direction = "downlink"
	}
	if !slices.Contains(Directions, p.Direction) {
		return true, fail("path.direction", "%q (allowed: %s)", p.Direction, strings.Join(Directions, ", "))
	}
	return true, s.validateTrace(&p.Trace, fail)
}

func (s *Scenario) validateTrace(t *TracePath, fail failFunc) error {
	const at = "path.trace"
	if !slices.Contains(TraceFormats, t.Format) {
		return fail(at+".format", "%q (allowed: %s)", t.Format, strings.Join(TraceFormats, ", "))
	}
	leo := t.Format == "leoreplayer"
	// a missing field is reported at the line of path.trace
	missing := func(field, format string, args ...any) error {
		return &Error{File: s.File, Line: s.lines[at], Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case t.Uplink == "":
		return missing(at+".uplink", "missing: the uplink delivery-opportunity trace (a file, relative to the scenario)")
	case t.Downlink == "":
		return missing(at+".downlink", "missing: the downlink delivery-opportunity trace (a file, relative to the scenario)")
	case leo && t.Delay == "":
		return missing(at+".delay", "missing: format leoreplayer needs its delay trace (one-way delay in ms per interval)")
	case !leo && (t.Delay != "" || t.DelayInterval != 0):
		return fail(at+".delay", "applies to format leoreplayer; a Mahimahi path takes a fixed owd (e.g. owd: 10ms)")
	case leo && t.OWD != 0:
		return fail(at+".owd", "applies to format mahimahi; format leoreplayer takes its delay from the delay trace")
	}
	if t.DelayInterval == 0 {
		t.DelayInterval = trace.DelayInterval
	}
	if err := quantity.Duration(t.DelayInterval, time.Millisecond, time.Hour); err != nil {
		return fail(at+".delay_interval", "%v", err)
	}
	if err := quantity.Delay(t.OWD); err != nil {
		return fail(at+".owd", "%v", err)
	}
	if err := quantity.Probability(t.UplinkLoss); err != nil {
		return fail(at+".loss.uplink", "%v", err)
	}
	if err := quantity.Probability(t.DownlinkLoss); err != nil {
		return fail(at+".loss.downlink", "%v", err)
	}
	if t.Queue.IsZero() {
		t.Queue = Queue{Discipline: "droptail", LimitPackets: DefaultTraceQueuePackets}
	}
	var err error
	if t.up, err = readTrace(s, at+".uplink", t.Uplink, fail, trace.ReadMahimahiFile); err != nil {
		return err
	}
	if t.down, err = readTrace(s, at+".downlink", t.Downlink, fail, trace.ReadMahimahiFile); err != nil {
		return err
	}
	rate := min(t.up.MeanRateBps(trace.OpportunityBytes), t.down.MeanRateBps(trace.OpportunityBytes))
	if err := validateQueue(at+".queue", t.Queue, rate, fail); err != nil {
		return err
	}
	if leo {
		readDelay := func(file string) (*trace.Delays, error) { return trace.ReadDelayFile(file, t.DelayInterval) }
		if t.delays, err = readTrace(s, at+".delay", t.Delay, fail, readDelay); err != nil {
			return err
		}
	}
	return nil
}

// readTrace reads a trace named in field, relative to the scenario file. A
// problem inside the trace is reported at the trace's own file and line.
func readTrace[T any](s *Scenario, field, name string, fail failFunc, read func(string) (T, error)) (T, error) {
	file := name
	if !filepath.IsAbs(file) && s.File != "" {
		file = filepath.Join(filepath.Dir(s.File), file)
	}
	v, err := read(file)
	var te *trace.Error
	switch {
	case errors.As(err, &te):
		return v, &Error{File: te.File, Line: te.Line, Msg: fmt.Sprintf("%s (%s of %s)", te.Msg, field, s.where())}
	case err != nil:
		return v, fail(field, "%v", err)
	}
	return v, nil
}

func (s *Scenario) where() string {
	if s.File == "" {
		return "the scenario"
	}
	return s.File
}

// traceRateBps is the data direction's mean capacity of a trace path.
func (s *Scenario) traceRateBps() (float64, bool) {
	t := &s.Path.Trace
	if s.Path.Profile != ProfileTrace || t.down == nil {
		return 0, false
	}
	o := t.down
	if s.Path.Direction == "uplink" {
		o = t.up
	}
	return o.MeanRateBps(trace.OpportunityBytes), true
}

// tracePathSpec builds the trace-driven path: in each direction i.i.d.
// loss, then the delay (trace or fixed) and the trace's server in
// Mahimahi's shell order (tracelink.Direction.DelayFirst: towards the
// terminal, delay then link).
func (s *Scenario) tracePathSpec(spec *netsim.Spec) {
	t := s.Path.Trace
	owd := t.OWD
	if t.delays != nil {
		owd = slices.Min(t.delays.D)
	}
	spec.BaseRTT = 2 * owd
	dir := func(name string) netsim.LinkSpec {
		d := tracelink.Direction{Opportunities: t.up, Queue: t.Queue.config(0), Delays: t.delays, OWD: t.OWD, Loss: t.UplinkLoss}
		if name == "downlink" {
			d.Opportunities, d.Loss, d.DelayFirst = t.down, t.DownlinkLoss, true
		}
		// Timed: a trace's time 0 is the flows' time 0, in emu too.
		return netsim.LinkSpec{Name: name, Timed: true, Build: func(drop link.DropFunc) (link.Stage, error) {
			return d.Build(sim.Stream(s.Seed, "trace/"+name+"/loss"), sim.Stream(s.Seed, "trace/"+name+"/qdisc"), drop)
		}}
	}
	if s.Path.Direction == "uplink" {
		spec.Forward, spec.Reverse = dir("uplink"), dir("downlink")
		return
	}
	spec.Forward, spec.Reverse = dir("downlink"), dir("uplink")
}
