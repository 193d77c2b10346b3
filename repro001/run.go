package repro001

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	_ "github.com/leolab/leolab/cc/all" // the TCP procedures name cubic, bbr1, bbr3, satcp, leocc
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

// flowSpec is one flow of a scenario, in the scenario file's syntax.
type flowSpec string

// cbr is a recorded constant-bit-rate probe flow; start and stop may be
// empty (the run's start and end).
func cbr(rate float64, size int, start, stop time.Duration) flowSpec {
	s := fmt.Sprintf("{cca: cbr, rate: %s, packet_size: %d, record: true", rateText(rate), size)
	if start > 0 {
		s += ", start: " + start.String()
	}
	if stop > 0 {
		s += ", stop: " + stop.String()
	}
	return flowSpec(s + "}")
}

// tcp is a bulk TCP flow of cca with params (a YAML map text, may be empty).
func tcp(cca, params string) flowSpec {
	if params == "" {
		return flowSpec("{cca: " + cca + "}")
	}
	return flowSpec("{cca: " + cca + ", params: " + params + "}")
}

// rateText writes a rate in bit/s as a scenario value.
func rateText(bps float64) string { return strconv.FormatFloat(bps/1e6, 'f', 3, 64) + "Mbps" }

// run is one simulator run of a procedure: a path (a scenario's path:
// value), flows, how long, and where in the UTC minute it starts.
type run struct {
	name, path, dur string
	seed            int
	epoch           time.Time // t = 0 on the wall clock: places the reconfigurations
	interval        string    // sampling of the per-flow series; default 1s
	flows           []flowSpec
}

// starlink is the path value of a Starlink run in direction dir with the
// variant's overrides and the procedure's extra ones on top.
func starlink(dir string, v Variant, extra map[string]any) string {
	return fmt.Sprintf("{profile: starlink, direction: %s, overrides: %s}", dir, v.overrides(extra))
}

// yaml is the run's scenario text: procedures are scenario files, the
// same a user could run with `leolab sim -f`.
func (r run) yaml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\nname: %s\nduration: %s\nseed: %d\nepoch_utc: %s\n", r.name, r.dur, max(r.seed, 1), r.epoch.UTC().Format(time.RFC3339Nano))
	if r.interval != "" {
		fmt.Fprintf(&b, "interval: %s\n", r.interval)
	}
	fmt.Fprintf(&b, "path: %s\nflows:\n", r.path)
	for _, f := range r.flows {
		fmt.Fprintf(&b, "  - %s\n", f)
	}
	return b.String()
}

// simulate runs r on the simulator.
func (r run) simulate() (*result.Result, error) {
	_, spec, err := scenario.ParseSpec(r.name+".yaml", []byte(r.yaml()))
	if err != nil {
		return nil, fmt.Errorf("procedure %s: %w", r.name, err)
	}
	res, err := netsim.Run(spec)
	if err != nil {
		return nil, fmt.Errorf("procedure %s: %w", r.name, err)
	}
	return res, nil
}

// exec runs r in l.
func (r run) exec(l lab) (*result.Result, error) { return l.exec(r) }

// inferred runs r in l and infers the link from its first flow's packets with
// opt: the simulate, read and infer steps every single-probe procedure
// takes.
func (r run) inferred(l lab, opt probe.Options) (*probe.Trace, *probe.Report, error) {
	res, err := r.exec(l)
	if err != nil {
		return nil, nil, err
	}
	tr, err := probe.FromResult(res, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("procedure %s: %w", r.name, err)
	}
	rep, err := probe.Infer(tr, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", r.name, err)
	}
	return tr, rep, nil
}

// pair returns the probe traces of flows 0 and 1 of res, or an error
// naming the procedure if either recorded nothing.
func pair(name string, res *result.Result) (a, b *probe.Trace, err error) {
	trs, err := traces(res)
	if err != nil {
		return nil, nil, fmt.Errorf("procedure %s: %w", name, err)
	}
	if trs[0] == nil || trs[1] == nil {
		return nil, nil, fmt.Errorf("procedure %s: a probe flow recorded no packets (flows with packets: %v)", name, probe.ProbeFlows(res))
	}
	return trs[0], trs[1], nil
}

// traces returns the probe traces of the result's flows, by flow id.
func traces(res *result.Result) (map[int]*probe.Trace, error) {
	out := map[int]*probe.Trace{}
	for _, id := range probe.ProbeFlows(res) {
		tr, err := probe.FromResult(res, id)
		if err != nil {
			return nil, err
		}
		out[id] = tr
	}
	return out, nil
}
