package scenario

import (
	"strconv"
	"strings"

	"github.com/leolab/leolab/link/qdisc"

	"go.yaml.in/yaml/v3"
)

func (d *decoder) scenario(root *yaml.Node) *Scenario {
	s := &Scenario{Seed: DefaultSeed, Interval: DefaultInterval}
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		d.fail(root, "", "empty scenario (needs version, duration, path, flows)")
		return s
	}
	doc := root.Content[0]
	var have = map[string]bool{}
	d.fields(doc, "", []string{"version", "name", "duration", "seed", "epoch_utc", "interval", "path", "links", "flows"}, func(k string, v *yaml.Node) {
		have[k] = true
		switch k {
		case "version":
			if ver := d.integer(v, k); d.err == nil && ver != Version {
				d.fail(v, k, "%d is not supported (allowed: %d)", ver, Version)
			}
		case "name":
			s.Name = d.str(v, k)
		case "duration":
			s.Duration = d.duration(v, k)
			if d.err == nil && s.Duration <= 0 {
				d.fail(v, k, "%v: must be > 0", s.Duration)
			}
		case "seed":
			seed := d.integer(v, k)
			if d.err == nil && seed < 0 {
				d.fail(v, k, "%d: must be >= 0", seed)
			}
			s.Seed = uint64(seed)
		case "epoch_utc":
			s.EpochUTC = d.instant(v, k)
		case "interval":
			s.Interval = d.duration(v, k)
			if d.err == nil && s.Interval <= 0 {
				d.fail(v, k, "%v: must be > 0", s.Interval)
			}
		case "path":
			s.Path = d.path(v)
		case "links":
			s.Links = d.links(v)
		case "flows":
			s.Flows = d.flows(v)
		}
	})
	for _, req := range []struct{ field, hint string }{
		{"version", "version: 1"},
		{"duration", "a positive duration such as duration: 60s"},
		{"path", "a path such as {profile: fixed, rate: 100Mbps, rtt: 50ms}, or links: (a topology)"},
		{"flows", "a list such as [{cca: cubic}]"},
	} {
		if req.field == "path" && have["links"] {
			if have["path"] {
				d.fail(doc, "path", "give path (one link) or links (a topology), not both")
			}
			continue
		}
		if d.err == nil && !have[req.field] {
			d.fail(doc, req.field, "missing (needs %s)", req.hint)
		}
	}
	return s
}

func (d *decoder) path(n *yaml.Node) Path {
	p := Path{}
	d.fields(n, "path", []string{"profile", "city", "direction", "overrides", "rate", "rtt", "queue", "loss", "reverse", "schedule", "delay_file", "trace", "loss_model", "orbit", "owd_source"}, func(k string, v *yaml.Node) {
		f := "path." + k
		switch k {
		case "profile":
			p.Profile = d.str(v, f)
		case "city":
			p.City = d.str(v, f)
		case "direction":
			p.Direction = d.str(v, f)
		case "overrides":
			if v.Kind != yaml.MappingNode {
				d.fail(v, f, "must be a mapping of parameter paths to values")
				return
			}
			p.Overrides = map[string]any{}
			if err := v.Decode(&p.Overrides); err != nil {
				d.fail(v, f, "%v", err)
			}
		case "rate":
			p.RateBps = d.rate(v, f)
		case "rtt":
			p.RTT = d.duration(v, f)
		case "queue":
			p.Queue = d.queue(v, f)
		case "loss":
			p.Loss = d.float(v, f)
		case "schedule":
			p.Schedule = d.schedule(v, f)
		case "delay_file":
			p.DelayFile = d.delayFile(v, f)
		case "trace":
			p.Trace = d.tracePath(v, f)
		case "loss_model":
			p.LossModel = d.lossModel(v, f)
		case "orbit":
			p.Orbit = d.orbitPath(v, f)
		case "owd_source":
			p.OWDSource = d.str(v, f)
		case "reverse":
			p.Reverse = d.reverse(v, f)
		}
	})
	return p
}

// reverse reads the ACK direction of a fixed link.
func (d *decoder) reverse(n *yaml.Node, f string) Reverse {
	var r Reverse
	d.fields(n, f, []string{"rate", "queue", "loss"}, func(k string, v *yaml.Node) {
		switch k {
		case "rate":
			r.RateBps = d.rate(v, f+".rate")
		case "queue":
			r.Queue = d.queue(v, f+".queue")
		case "loss":
			r.Loss = d.float(v, f+".loss")
		}
	})
	return r
}

func (d *decoder) queue(n *yaml.Node, path string) Queue {
	q := Queue{}
	var params *yaml.Node
	d.fields(n, path, []string{"discipline", "limit_packets", "limit_bytes", "ecn", "params"}, func(k string, v *yaml.Node) {
		switch k {
		case "discipline":
			q.Discipline = d.str(v, path+"."+k)
		case "limit_packets":
			q.LimitPackets = int(d.integer(v, path+"."+k))
		case "limit_bytes":
			q.LimitBytes = int(d.size(v, path+"."+k))
		case "ecn":
			q.ECN = d.boolean(v, path+"."+k)
		case "params":
			params = v
		}
	})
	if params != nil && d.err == nil {
		q.Params = d.queueParams(params, path+".params", q.Discipline)
	}
	return q
}

// queueParams reads a discipline's params: durations (5ms) for duration
// parameters, numbers otherwise.
func (d *decoder) queueParams(n *yaml.Node, path, discipline string) map[string]float64 {
	if n.Kind != yaml.MappingNode {
		d.fail(n, path, "must be a mapping of parameter names to values")
		return nil
	}
	if discipline == "" {
		discipline = "droptail"
	}
	info, ok := qdisc.Lookup(discipline)
	if !ok {
		return nil // Validate names the discipline
	}
	out := map[string]float64{}
	for j := 0; j+1 < len(n.Content) && d.err == nil; j += 2 {
		key, v := n.Content[j], n.Content[j+1]
		fp := path + "." + key.Value
		d.lines[fp] = key.Line
		if _, dup := out[key.Value]; dup {
			d.fail(key, fp, "given twice")
			break
		}
		p, ok := info.Param(key.Value)
		switch {
		case !ok:
			allowed := "none"
			if len(info.Params) > 0 {
				allowed = strings.Join(info.ParamNames(), ", ")
			}
			d.fail(key, fp, "unknown parameter of %s (allowed: %s)", discipline, allowed)
		case p.Duration:
			out[key.Value] = float64(d.duration(v, fp))
		default:
			out[key.Value] = d.float(v, fp)
		}
	}
	return out
}

func (d *decoder) flows(n *yaml.Node) []Flow {
	if n.Kind != yaml.SequenceNode {
		d.fail(n, "flows", "must be a list of flows, e.g. [{cca: cubic}]")
		return nil
	}
	if len(n.Content) > MaxFlows { // each entry is at least one flow
		d.fail(n, "flows", "%d entries: at most %d flows in all", len(n.Content), MaxFlows)
		return nil
	}
	var out []Flow
	for i, fn := range n.Content {
		path := "flows[" + strconv.Itoa(i) + "]"
		f := Flow{Count: 1}
		d.fields(fn, path, []string{"cca", "params", "start", "stop", "count", "bytes", "sndbuf", "rwnd", "max_rate", "max_rate_burst", "extra_rtt", "rate", "packet_size", "record", "path", "moves"}, func(k string, v *yaml.Node) {
			fp := path + "." + k
			switch k {
			case "cca":
				f.CCA = d.str(v, fp)
			case "params":
				if v.Kind != yaml.MappingNode {
					d.fail(v, fp, "must be a mapping of parameter names to numbers")
					return
				}
				f.Params = map[string]float64{}
				for j := 0; j+1 < len(v.Content); j += 2 {
					key, val := v.Content[j], v.Content[j+1]
					d.lines[fp+"."+key.Value] = key.Line
					// A string value is a file parameter (lmbbr's model:
					// FILE), resolved against the scenario's directory as
					// every file a scenario names; numbers are knobs.
					if val.Kind == yaml.ScalarNode && val.Tag == "!!str" && !isNumber(val.Value) {
						if f.Files == nil {
							f.Files = map[string]string{}
						}
						f.Files[key.Value] = resolveFile(d.file, val.Value)
						continue
					}
					f.Params[key.Value] = d.float(val, fp+"."+key.Value)
				}
			case "start":
				f.Start = d.duration(v, fp)
			case "stop":
				f.Stop = d.duration(v, fp)
			case "count":
				f.Count = int(d.integer(v, fp))
			case "bytes":
				f.Bytes = d.size(v, fp)
			case "sndbuf":
				f.SndBuf = d.size(v, fp)
			case "rwnd":
				f.Rwnd = d.size(v, fp)
			case "max_rate":
				f.MaxRateBps = d.rate(v, fp)
			case "max_rate_burst":
				f.MaxRateBurst = d.size(v, fp)
			case "extra_rtt":
				f.ExtraRTT = d.duration(v, fp)
			case "rate":
				f.RateBps = d.rate(v, fp)
			case "packet_size":
				f.PacketSize = int(d.integer(v, fp))
			case "record":
				f.Record = d.boolean(v, fp)
			case "path":
				f.Route = d.route(v, fp)
			case "moves":
				f.Moves = d.moves(v, fp)
			}
		})
		if d.err == nil && f.CCA == "" {
			d.fail(fn, path+".cca", "missing (a congestion control from `leolab cca list`, or cbr)")
		}
		out = append(out, f)
		if d.err != nil {
			break
		}
	}
	return out
}

// isNumber tells a number written as a string (NaN, Inf) from a file
// name, so that such a value is still a number's error.
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}
