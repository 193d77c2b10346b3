package paper003

import (
	"math"
	"strings"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/result"
)

// CCAs are seed 003's four congestion controls in the dataset's names
// (bbr = BBRv3, seed 003 §II: "BBR ... compared with Cubic, Vegas and
// Hybla").
var CCAs = []string{"bbr", "cubic", "vegas", "hybla"}

// Cities in the order of their idle RTT (DESIGN.md: Sydney 26 ms ...
// São Paulo 383 ms), so RTT rises left to right in every figure.
var Cities = []string{"sydney", "tokyo", "mumbai", "ohio", "london", "saopaulo"}

// HeldOut is the city no leolab model is fitted on (shared/data README);
// the dataset holds no run of it.
const HeldOut = "tokyo"

// Metric is one panel of seed 003's Figs. 2–5.
type Metric int

// The panels we draw: (a) throughput, (b) retransmissions, (c) cwnd,
// (e) RTT, (f) RTT variance. Panel (d), the receiver's advertised window,
// is left out: the simulated receiver's window never binds (DESIGN.md:
// receivers autotune to ~12 MB) and the end summaries do not log it.
const (
	Throughput Metric = iota
	Retransmits
	CWnd
	RTT
	RTTVar
	nMetrics
)

type metricInfo struct {
	key, title, unit, panel string
}

var metricInfos = [nMetrics]metricInfo{
	{"throughput", "throughput", "Mbit/s", "a"},
	{"retransmits", "retransmissions", "segments per second", "b"},
	{"cwnd", "cwnd", "MB", "c"},
	{"rtt", "RTT", "ms", "e"},
	{"rttvar", "RTT variance", "ms", "f"},
}

// bytesPerMB: the seed's cwnd axis is in MB ("Q2 > 0.4 MB"); decimal,
// as iperf3 reports snd_cwnd in bytes.
const bytesPerMB = 1e6

// minInterval drops iperf3's short final interval (a fraction of a second
// whose rate is noise) from the per-second samples.
const minInterval = 0.5 // s

// Cell names one box position: kind (campaign.Dedicated or Concurrent),
// direction, city (profile name) and CCA (dataset name).
type Cell struct{ Kind, Direction, City, CCA string }

// Flow is one flow's series with what it stands for.
type Flow struct {
	Cell
	Seed uint64 // simulated flows
	Flow result.Flow
}

// samples are one cell's values per metric, by what they are over.
type samples struct {
	simSec, simRun, realRun, realSec [nMetrics][]float64
}

// Data holds every cell's samples.
type Data map[Cell]*samples

func (d Data) get(c Cell) *samples {
	s, ok := d[c]
	if !ok {
		s = &samples{}
		d[c] = s
	}
	return s
}

// Collect sorts the simulated flows, the real end summaries and the real
// traces into cells. Real summaries of other CCAs (the dataset's
// concurrent runs have nine flows) are ignored.
func Collect(sim []Flow, realRuns []iperf.Summary, realTraces []Flow) Data {
	d := Data{}
	for _, f := range sim {
		s := d.get(f.Cell)
		addSeconds(&s.simSec, f.Flow)
		addRun(&s.simRun, runValues(f.Flow))
	}
	for _, f := range realTraces {
		addSeconds(&d.get(f.Cell).realSec, f.Flow)
	}
	for _, r := range realRuns {
		if !isCCA(r.CCA) {
			continue
		}
		kind := campaign.Dedicated
		if r.Concurrent {
			kind = campaign.Concurrent
		}
		c := Cell{Kind: kind, Direction: r.Direction, City: strings.ToLower(r.City), CCA: r.CCA}
		addRun(&d.get(c).realRun, summaryValues(r))
	}
	return d
}

func isCCA(name string) bool {
	for _, c := range CCAs {
		if c == name {
			return true
		}
	}
	return false
}

// addSeconds appends one sample per interval of at least minInterval:
// throughput over the interval, retransmissions per second, cwnd, srtt and
// rttvar at its end (iperf3's interval fields).
func addSeconds(dst *[nMetrics][]float64, f result.Flow) {
	for _, s := range metrics.Series(f) {
		dur := s.Dur.Seconds()
		if dur < minInterval {
			continue
		}
		dst[Throughput] = append(dst[Throughput], s.ThroughputBps/1e6)
		dst[Retransmits] = append(dst[Retransmits], float64(s.Retransmits)/dur)
		dst[CWnd] = append(dst[CWnd], float64(s.CWnd)/bytesPerMB)
		dst[RTT] = append(dst[RTT], ms(s.SRTT.Seconds()))
		dst[RTTVar] = append(dst[RTTVar], ms(s.RTTVar.Seconds()))
	}
}

func ms(s float64) float64 { return s * 1e3 }

func addRun(dst *[nMetrics][]float64, v [nMetrics]float64) {
	for m, x := range v {
		if !math.IsNaN(x) {
			dst[m] = append(dst[m], x)
		}
	}
}

// runValues are a simulated run's values as an iperf3 end summary has
// them: mean throughput, retransmissions per second, the largest cwnd
// (max_snd_cwnd), the mean of the per-interval srtt (mean_rtt), and the
// mean rttvar (which the end summary lacks).
func runValues(f result.Flow) [nMetrics]float64 {
	var v [nMetrics]float64
	dur := f.EndS - f.StartS
	if n := len(f.Intervals); dur <= 0 && n > 0 {
		// The campaign store keeps no end_s: the last interval ends the run.
		dur = f.Intervals[n-1].T - f.StartS
	}
	v[Throughput] = f.ThroughputMbps
	v[Retransmits] = math.NaN()
	if dur > 0 {
		v[Retransmits] = float64(f.Retransmits) / dur
	}
	maxCwnd, vars := 0, make([]float64, 0, len(f.Intervals))
	for _, iv := range f.Intervals {
		maxCwnd = max(maxCwnd, iv.CWndBytes)
		vars = append(vars, iv.RTTVarMs)
	}
	v[CWnd] = float64(maxCwnd) / bytesPerMB
	v[RTT] = f.MeanRTTMs
	v[RTTVar] = metrics.Mean(vars)
	if len(vars) == 0 {
		v[RTTVar] = math.NaN()
	}
	return v
}

// summaryValues are a real run's values from its end summary; it has no
// RTT variance (NaN).
func summaryValues(r iperf.Summary) [nMetrics]float64 {
	v := [nMetrics]float64{r.SenderBps / 1e6, math.NaN(), float64(r.MaxSndCwnd) / bytesPerMB,
		ms(r.MeanRTT.Seconds()), math.NaN()}
	if r.Seconds > 0 {
		v[Retransmits] = float64(r.Retransmits) / r.Seconds
	}
	return v
}
