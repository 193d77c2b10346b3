package scenario

import (
	"time"

	"github.com/leolab/leolab/link/ptot"
	"github.com/leolab/leolab/orbit"
	"go.yaml.in/yaml/v3"
)

// LossModel is path.loss_model: a loss stage whose probability comes from
// a model of the path rather than one number (path.loss).
type LossModel struct {
	Kind string // ptot (the only one)
	// PTot are seed 000's leg probabilities and the handover window.
	PTot ptot.Params
}

// LossModelKinds lists the kinds of path.loss_model.
var LossModelKinds = []string{"ptot"}

// OrbitPath is path.orbit: the constellation geometry whose slots feed
// loss_model (ISL counts, handovers) and owd_source: orbit (propagation
// delay), as `leolab orbit path` computes it.
type OrbitPath struct {
	From, To string // LAT,LON in degrees
	Mode     string // bentpipe or isl (orbit.ParseMode)
	Policy   string // highest, dwell or sticky (orbit.ParsePolicy)
	Shell    string // a Walker shell (orbit.ShellByName)
	// TLE is a file of element sets (relative to the scenario file)
	// propagated with SGP4/SDP4 instead of the Walker shell.
	TLE          string
	MinElevation float64 // degrees
	// Slot is a fixed path's slot length; a Starlink path's slots are its
	// reconfiguration intervals.
	Slot time.Duration

	minElGiven, shellGiven bool
}

// OWD sources of path.owd_source: the path's own model (a fixed path's
// rtt and delay_file, the Starlink model's drift) or the orbit path's
// per-slot propagation delay.
const (
	OWDModel = "model"
	OWDOrbit = "orbit"
)

// OWDSources lists the values of path.owd_source.
var OWDSources = []string{OWDModel, OWDOrbit}

var (
	lossModelFields = []string{"kind", "p_cap", "p_at", "p_ho", "p_gw", "p_isl", "handover_window"}
	orbitFields     = []string{"from", "to", "mode", "policy", "shell", "tle", "min_elevation", "slot"}
)

func (d *decoder) lossModel(n *yaml.Node, path string) *LossModel {
	m := &LossModel{PTot: ptot.Params{Window: ptot.DefaultWindow}}
	d.fields(n, path, lossModelFields, func(k string, v *yaml.Node) {
		f := path + "." + k
		switch k {
		case "kind":
			m.Kind = d.str(v, f)
		case "p_cap":
			m.PTot.Cap = d.float(v, f)
		case "p_at":
			m.PTot.At = d.float(v, f)
		case "p_ho":
			m.PTot.Ho = d.float(v, f)
		case "p_gw":
			m.PTot.Gw = d.float(v, f)
		case "p_isl":
			m.PTot.ISL = d.float(v, f)
		case "handover_window":
			m.PTot.Window = d.duration(v, f)
		}
	})
	return m
}

func (d *decoder) orbitPath(n *yaml.Node, path string) *OrbitPath {
	o := &OrbitPath{Mode: "bentpipe", Policy: "highest", Shell: defaultShell, MinElevation: orbit.DefaultMinElevation}
	d.fields(n, path, orbitFields, func(k string, v *yaml.Node) {
		f := path + "." + k
		switch k {
		case "from":
			o.From = d.str(v, f)
		case "to":
			o.To = d.str(v, f)
		case "mode":
			o.Mode = d.str(v, f)
		case "policy":
			o.Policy = d.str(v, f)
		case "shell":
			o.Shell, o.shellGiven = d.str(v, f), true
		case "tle":
			o.TLE = d.str(v, f)
		case "min_elevation":
			o.MinElevation, o.minElGiven = d.float(v, f), true
		case "slot":
			o.Slot = d.duration(v, f)
		}
	})
	return o
}

// defaultShell is Starlink's first shell, the one LeoEM (seed 002) uses and
// `leolab orbit path`'s default.
const defaultShell = "starlink-1"

// orbitUsed reports whether the path uses the orbit geometry at all.
func (p *Path) orbitUsed() bool {
	return p.LossModel != nil || p.Orbit != nil || p.OWDSource != ""
}
