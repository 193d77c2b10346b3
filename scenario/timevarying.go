package scenario

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/link/schedule"
	"go.yaml.in/yaml/v3"
)

// Change is one entry of a fixed path's schedule: from At (over Ramp,
// linearly, when Ramp > 0) the path's rate, rtt or loss become the values
// set here (Has* says which).
type Change struct {
	At, Ramp                 time.Duration
	RateBps                  float64
	RTT                      time.Duration
	Loss                     float64
	HasRate, HasRTT, HasLoss bool
}

// DelayFile replays a path file's one-way delays on a fixed path, in both
// directions, on top of the path's rtt (see link/schedule).
type DelayFile struct {
	File   string        // as written; resolved against the scenario's directory
	Format string        // leoem, or orbit (`leolab orbit path --csv`/`--json` output)
	Offset time.Duration // file time at run time 0
	// Handovers makes the file's route changes the run's cc.Schedule
	// (default true); HandoverError names an ECDF file of prediction
	// errors (LeoEM's timing_err_ecdf.dat) that moves each one.
	Handovers     bool
	HandoverError string
	// HandoverOutage adds LeoEM's handover interruptions: the path is
	// down for 3 × (old + new first-hop delay) when the first satellite
	// changes (the same at the far end), a few ms (link/schedule).
	HandoverOutage bool
}

// DelayFormats lists the path-file formats of delay_file.
var DelayFormats = []string{"leoem", "orbit"}

// scheduleFields and delayFileFields are the fields of path.schedule[i]
// and path.delay_file.
var (
	scheduleFields  = []string{"at", "ramp", "rate", "rtt", "loss"}
	delayFileFields = []string{"file", "format", "offset", "handovers", "handover_error", "handover_outage"}
)

func (d *decoder) schedule(n *yaml.Node, path string) []Change {
	if !d.list(n, path, "must be a list of changes such as [{at: 30s, rate: 20Mbps}, {at: 60s, ramp: 10s, rtt: 100ms}]", false, MaxScheduleEntries, "entries") {
		return nil
	}
	out := make([]Change, 0, len(n.Content))
	for i, en := range n.Content {
		at := path + "[" + strconv.Itoa(i) + "]"
		c := Change{At: -1}
		d.lines[at] = en.Line
		d.lines[at+".at"] = en.Line // the entry's line until its at key says
		d.fields(en, at, scheduleFields, func(k string, v *yaml.Node) {
			f := at + "." + k
			switch k {
			case "at":
				c.At = d.duration(v, f)
			case "ramp":
				c.Ramp = d.duration(v, f)
			case "rate":
				c.RateBps, c.HasRate = d.rate(v, f), true
			case "rtt":
				c.RTT, c.HasRTT = d.duration(v, f), true
			case "loss":
				c.Loss, c.HasLoss = d.float(v, f), true
			}
		})
		if d.err != nil {
			return nil
		}
		out = append(out, c)
	}
	return out
}

func (d *decoder) delayFile(n *yaml.Node, path string) *DelayFile {
	df := &DelayFile{Format: "leoem", Handovers: true}
	d.fields(n, path, delayFileFields, func(k string, v *yaml.Node) {
		f := path + "." + k
		switch k {
		case "file":
			df.File = d.str(v, f)
		case "format":
			df.Format = d.str(v, f)
		case "offset":
			df.Offset = d.duration(v, f)
		case "handovers":
			df.Handovers = d.boolean(v, f)
		case "handover_error":
			df.HandoverError = d.str(v, f)
		case "handover_outage":
			df.HandoverOutage = d.boolean(v, f)
		}
	})
	return df
}

// MaxScheduleEntries bounds a schedule: a change a second for an hour is
// far more than any micro-benchmark writes (a path file is the way to give
// one per second).
const MaxScheduleEntries = 4096

// timeVarying reports whether the fixed path changes during the run.
func (p *Path) timeVarying() bool { return len(p.Schedule) > 0 || p.DelayFile != nil }

// validateTimeVarying checks path.schedule and path.delay_file of a fixed
// path and reads the delay file (and its handover-error file).
func (s *Scenario) validateTimeVarying(fail failFunc) error {
	p := &s.Path
	if err := s.validateSchedule("path.schedule", p.Schedule, fail); err != nil {
		return err
	}
	return s.validateDelayFile(fail)
}

// validateSchedule checks the changes of a schedule at field (path.schedule
// or links[i].schedule).
func (s *Scenario) validateSchedule(field string, sched []Change, fail failFunc) error {
	prevEnd, prevAt := time.Duration(0), -1
	for i, c := range sched {
		at := field + "[" + strconv.Itoa(i) + "]"
		switch {
		case c.At < 0:
			return fail(at+".at", "missing or negative: every change needs at, a time in [0, duration %v)", s.Duration)
		case c.At >= s.Duration:
			return fail(at+".at", "%v: after the run ends (allowed: [0, duration %v))", c.At, s.Duration)
		case c.Ramp < 0 || c.Ramp > s.Duration:
			return fail(at+".ramp", "%v: must be in [0, duration %v]", c.Ramp, s.Duration)
		case !c.HasRate && !c.HasRTT && !c.HasLoss:
			return fail(at, "changes nothing: set rate, rtt or loss (allowed fields: %s)", strings.Join(scheduleFields, ", "))
		case prevAt >= 0 && c.At < prevEnd:
			return fail(at+".at", "%v: before the previous change (line %d) ends at %v; entries must be in time order, each after the previous one's ramp", c.At, s.lines[field+"["+strconv.Itoa(prevAt)+"]"], prevEnd)
		case prevAt >= 0 && c.At == sched[prevAt].At:
			return fail(at+".at", "%v: the same time as the previous change; put both in one entry", c.At)
		}
		if c.HasRate {
			if err := quantity.LinkRate(c.RateBps); err != nil {
				return fail(at+".rate", "%v", err)
			}
		}
		if c.HasRTT {
			if err := quantity.Delay(c.RTT); err != nil {
				return fail(at+".rtt", "%v", err)
			}
		}
		if c.HasLoss {
			if err := quantity.Probability(c.Loss); err != nil {
				return fail(at+".loss", "%v", err)
			}
		}
		prevAt, prevEnd = i, c.At+c.Ramp
	}
	return nil
}

// validateDelayFile checks path.delay_file and reads the file (and its
// handover-error file).
func (s *Scenario) validateDelayFile(fail failFunc) error {
	var err error
	s.pathLog, s.handoverErr, err = s.readDelayFile("path.delay_file", s.Path.DelayFile, fail)
	return err
}

// readDelayFile checks a delay_file at field (path.delay_file or
// links[i].delay_file) and reads its path file and handover-error file;
// nil, nil without one.
func (s *Scenario) readDelayFile(field string, df *DelayFile, fail failFunc) (*schedule.PathLog, *schedule.ECDF, error) {
	if df == nil {
		return nil, nil, nil
	}
	for _, f := range delayFileFields { // a missing field: the delay_file's line
		s.lineOf(field+"."+f, field)
	}
	switch {
	case df.File == "":
		return nil, nil, fail(field+".file", "missing: the path file to replay, e.g. Starlink_SD_NY_15_BP_path.log")
	case !slices.Contains(DelayFormats, df.Format):
		return nil, nil, fail(field+".format", "%q (allowed: %s)", df.Format, strings.Join(DelayFormats, ", "))
	case df.Offset < 0:
		return nil, nil, fail(field+".offset", "%v: must be >= 0", df.Offset)
	case df.HandoverError != "" && !df.Handovers:
		return nil, nil, fail(field+".handover_error", "applies when handovers is true")
	case df.HandoverOutage && df.Format == "orbit":
		return nil, nil, fail(field+".handover_outage", "needs LeoEM's per-hop delays (format leoem); format orbit has none")
	}
	name := s.resolve(df.File)
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, fail(field+".file", "%v", err)
	}
	defer f.Close()
	read := schedule.ReadLeoEM
	if df.Format == "orbit" {
		read = readOrbitDelayFile
	}
	pl, err := read(name, f)
	if err != nil {
		return nil, nil, fail(field+".file", "%v", err)
	}
	if df.Offset+s.Duration > pl.Len() {
		return nil, nil, fail(field+".offset", "%v + duration %v: beyond the file's %v (allowed: offset + duration <= %v)", df.Offset, s.Duration, pl.Len(), pl.Len())
	}
	if df.HandoverError == "" {
		return pl, nil, nil
	}
	ename := s.resolve(df.HandoverError)
	ef, err := os.Open(ename)
	if err != nil {
		return nil, nil, fail(field+".handover_error", "%v", err)
	}
	defer ef.Close()
	ecdf, err := schedule.ReadECDF(ename, ef)
	if err != nil {
		return nil, nil, fail(field+".handover_error", "%v", err)
	}
	return pl, ecdf, nil
}

// resolve finds a file named in the scenario: relative to the scenario
// file's directory (the working directory for the flag form).
func (s *Scenario) resolve(name string) string { return resolveFile(s.File, name) }

// resolveFile is name relative to the directory of scenario file file
// (as is for the flag form, file "", and for absolute names).
func resolveFile(file, name string) string {
	if filepath.IsAbs(name) || file == "" || name == "" {
		return name
	}
	return filepath.Join(filepath.Dir(file), name)
}

// PathLog returns the path file a validated scenario's delay_file read,
// nil without one (tests and tools compare a run with it).
func (s *Scenario) PathLog() *schedule.PathLog { return s.pathLog }

// maxRate is the highest rate a fixed path has during the run (its rate or
// a scheduled one), for the budget.
func (p *Path) maxRate() float64 {
	r := p.RateBps
	for _, c := range p.Schedule {
		if c.HasRate {
			r = max(r, c.RateBps)
		}
	}
	return r
}
