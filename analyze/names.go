package analyze

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Scenario kinds of the seed-000 dataset (its directory names
// "<direction>-<kind>-logs", ../shared/data/README.md) and of leolab results.
const (
	KindSequential  = "sequential"  // one flow alone on the path
	KindCompetitive = "competitive" // nine flows, one per CCA, at once
	KindSim         = "sim"         // a leolab result (any engine)
)

// Directions, as in scenario files and the dataset's directory names. The
// dataset's iperf3 logs mark downlink with "_REV_" (iperf3 -R: the AWS
// server sends) and uplink with "_FWD_".
const (
	Downlink = "downlink"
	Uplink   = "uplink"
)

// Meta is what is known about where a flow was measured.
type Meta struct {
	CCA       string `json:"cca"`       // as logged or named, lower case
	City      string `json:"city"`      // server city, lower case; "" unknown
	Direction string `json:"direction"` // Downlink, Uplink or ""
	Kind      string `json:"kind"`      // KindSequential, KindCompetitive, KindSim or ""
	Run       int    `json:"run"`       // run number; 0 unknown
	Scenario  string `json:"scenario"`  // leolab scenario name, if any
}

// ParseName reads a flow's metadata from its path, as the dataset names its
// files:
//
//	downlink-competitive-logs/London/bbr1_London__REV_run1.json
//	downlink-sequential-logs/Sydney/iperf3-downlink-sequential-logs/bbr_Sydney__REV_run1.json
//	traces/downlink_Sydney_cubic_run1.csv
//	flow0_cubic.json (leolab sim --iperf3-json)
//
// Directory names give direction and kind; the file name gives CCA, city,
// direction and run. Unknown parts stay empty.
func ParseName(path string) Meta {
	var m Meta
	for _, dir := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		for _, tok := range strings.FieldsFunc(strings.ToLower(dir), isSep) {
			m.setDirKind(tok)
		}
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	for _, tok := range strings.FieldsFunc(base, isSep) {
		m.setToken(tok)
	}
	return m
}

func isSep(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' }

// setDirKind takes direction and kind words (directory names).
func (m *Meta) setDirKind(tok string) bool {
	switch tok {
	case Downlink, "rev", "reverse":
		m.Direction = Downlink
	case Uplink, "fwd", "forward":
		m.Direction = Uplink
	case KindSequential, "dedicated":
		m.Kind = KindSequential
	case KindCompetitive, "concurrent":
		m.Kind = KindCompetitive
	default:
		return false
	}
	return true
}

// setToken classifies one token of a file name.
func (m *Meta) setToken(tok string) {
	low := strings.ToLower(tok)
	if m.setDirKind(low) {
		return
	}
	if n, ok := runNumber(low); ok {
		m.Run = n
		return
	}
	if c := cityName(low); c != "" {
		m.City = c
		return
	}
	if isCCAName(low) && m.CCA == "" {
		m.CCA = low
	}
}

// runNumber parses "run3" → 3.
func runNumber(tok string) (int, bool) {
	rest, ok := strings.CutPrefix(tok, "run")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n >= 0
}

// cityName recognises the server cities of the seed-000 dataset (AWS
// regions reached from the Melbourne dish; DESIGN.md "Terrestrial legs").
func cityName(tok string) string {
	switch tok {
	case "london", "mumbai", "ohio", "sydney", "tokyo", "melbourne":
		return tok
	case "saopaulo", "são paulo", "sãopaulo", "sao paulo":
		return "saopaulo"
	}
	return ""
}

// isCCAName recognises congestion-control names as they appear in file
// names: the nine of the seed-000 dataset (bbr, bbr1, bbr2, ccp, cubic,
// hybla, leocc, pcc, vegas), leolab's own names and Linux's other modules.
func isCCAName(tok string) bool {
	switch tok {
	case "bbr", "bbr1", "bbr2", "bbr3", "bbrv1", "bbrv2", "bbrv3", "ccp", "copa", "cubic",
		"hybla", "leocc", "pcc", "vegas", "reno", "newreno", "westwood", "htcp", "illinois",
		"dctcp", "bic", "highspeed", "scalable", "veno", "yeah", "lp", "nv", "cdg", "cbr":
		return true
	}
	return false
}
