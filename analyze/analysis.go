package analyze

import (
	"math"
	"time"

	"github.com/leolab/leolab/internal/group"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/result"
)

// Sources of a flow's figures (FlowMetrics.From).
const (
	FromIntervals = "intervals" // computed from the per-interval series
	FromSummary   = "summary"   // the source's end summary (no series)
)

// FlowMetrics are one flow's figures. RTTs and the queue estimate are 0 when
// unknown.
type FlowMetrics struct {
	Group     string `json:"group"`
	Label     string `json:"label"`
	File      string `json:"file"`
	Meta      Meta   `json:"meta"`
	From      string `json:"from"`
	Intervals int    `json:"intervals"`

	Bytes          int64   `json:"bytes"`
	DurationS      float64 `json:"duration_s"`
	ThroughputMbps float64 `json:"throughput_mbps"`
	Retransmits    int64   `json:"retransmits"`
	RetransPerGB   float64 `json:"retrans_per_gb"`
	// MinRTTMs is the source's per-ACK minimum (the kernel's tcp_info
	// min_rtt in iperf3's end block, leolab's min_rtt_ms) when it reports
	// one, else the least per-interval srtt; MeanRTTMs and P95RTTMs are the
	// mean and nearest-rank 95th percentile of per-interval srtt.
	MinRTTMs     float64 `json:"min_rtt_ms"`
	MeanRTTMs    float64 `json:"mean_rtt_ms"`
	P95RTTMs     float64 `json:"p95_rtt_ms"`
	RTTInflation float64 `json:"rtt_inflation"` // mean / min RTT (seed 000 Fig. 9)

	// Share is S_i = T_i/ΣT within a concurrent group and FairShareMbps its
	// fair share ΣT/N (seed 000 Fig. 10); both 0 for a dedicated flow.
	Share         float64 `json:"share"`
	FairShareMbps float64 `json:"fair_share_mbps"`
	// QueuePkts is the mean of the seed-000 M/G/1 queue estimates over the
	// flow's 15 s windows (packets).
	QueuePkts float64 `json:"queue_pkts"`
	// PeakRetransS is the second of the 15 s reconfiguration slot with the
	// most retransmissions per interval (14: the second before a boundary);
	// -1 when unknown (no wall-clock start, or no retransmissions).
	PeakRetransS int `json:"peak_retrans_s"`

	Reported Reported `json:"reported"`
}

// Reported are the source's own summary figures, kept beside those
// computed from the series: iperf3's end block, a result's flow fields.
type Reported struct {
	Bytes       int64   `json:"bytes"`
	Retransmits int64   `json:"retransmits"`
	MinRTTMs    float64 `json:"min_rtt_ms"`
	MeanRTTMs   float64 `json:"mean_rtt_ms"`
}

// GroupMetrics are the fairness figures of a group of concurrent flows
// (seed 000; metrics.Allocation), over the flows' mean throughputs.
type GroupMetrics struct {
	Group      string  `json:"group"`
	Concurrent bool    `json:"concurrent"`
	N          int     `json:"n"`
	Jain       float64 `json:"jain"`
	MinMax     float64 `json:"max_min"`
	PF         float64 `json:"pf"`
	TotalMbps  float64 `json:"total_mbps"` // the α = 0 utility ΣT
	FairShare  float64 `json:"fair_share"` // S* = 1/N
	flowsIndex []int
}

// Analysis is the outcome of Analyze: per-flow figures ordered by group, and
// per-group fairness. The series and profiles behind them feed BuildReport.
type Analysis struct {
	Flows  []FlowMetrics  `json:"flows"`
	Groups []GroupMetrics `json:"groups"`
	detail []flowDetail
}

// flowDetail keeps what the figures need of one flow.
type flowDetail struct {
	flow   Flow
	series []metrics.Sample
	slots  *[metrics.SlotSeconds]metrics.SlotBin
	queue  []metrics.QueueEstimate
}

// Analyze computes the figures of flows. Flows are reordered by group (in
// order of first appearance), keeping their order within a group.
func Analyze(flows []Flow) *Analysis {
	a := &Analysis{}
	for _, idx := range group.ByFirstSeen(flows, func(f Flow) string { return f.Group }) {
		g := GroupMetrics{Group: flows[idx[0]].Group, Concurrent: flows[idx[0]].Concurrent, N: len(idx)}
		for _, i := range idx {
			g.flowsIndex = append(g.flowsIndex, len(a.Flows))
			m, d := flowMetrics(flows[i])
			a.Flows = append(a.Flows, m)
			a.detail = append(a.detail, d)
		}
		if g.Concurrent {
			a.fairness(&g)
		}
		a.Groups = append(a.Groups, g)
	}
	return a
}

// fairness fills g's indices and its flows' shares.
func (a *Analysis) fairness(g *GroupMetrics) {
	t := make([]float64, len(g.flowsIndex))
	for k, i := range g.flowsIndex {
		t[k] = a.Flows[i].ThroughputMbps
	}
	al := metrics.Allocation(t)
	g.Jain, g.MinMax, g.PF, g.TotalMbps, g.FairShare = al.Jain, al.MinMax, al.PF, al.Alpha0, al.FairShare
	for k, i := range g.flowsIndex {
		a.Flows[i].Share = al.Shares[k]
		a.Flows[i].FairShareMbps = al.Alpha0 / float64(al.N)
	}
}

// flowMetrics computes one flow's figures.
func flowMetrics(f Flow) (FlowMetrics, flowDetail) {
	d := f.Data
	m := FlowMetrics{Group: f.Group, Label: f.Label, File: f.File, Meta: f.Meta, PeakRetransS: -1,
		Reported: Reported{Bytes: d.BytesAcked, Retransmits: d.Retransmits, MinRTTMs: d.MinRTTMs, MeanRTTMs: d.MeanRTTMs}}
	det := flowDetail{flow: f}
	if f.SummaryOnly || len(d.Intervals) == 0 {
		m.From, m.Bytes, m.DurationS = FromSummary, d.BytesAcked, d.EndS-d.StartS
		m.ThroughputMbps, m.Retransmits, m.RetransPerGB = d.ThroughputMbps, d.Retransmits, d.RetransPerGB
		m.MinRTTMs, m.MeanRTTMs, m.P95RTTMs, m.RTTInflation = d.MinRTTMs, d.MeanRTTMs, d.P95RTTMs, d.RTTInflation
		return m, det
	}
	d = quantizeRTT(d)
	st := metrics.Stats(d)
	m.From, m.Intervals = FromIntervals, len(d.Intervals)
	m.Bytes, m.DurationS, m.Retransmits = st.Bytes, st.Duration.Seconds(), st.Retransmits
	m.ThroughputMbps, m.RetransPerGB = st.ThroughputBps/1e6, st.RetransPerGB
	m.MinRTTMs, m.MeanRTTMs, m.P95RTTMs = durMs(st.MinRTT), durMs(st.MeanRTT), durMs(st.P95RTT)
	if d.MinRTTMs > 0 && (m.MinRTTMs == 0 || d.MinRTTMs < m.MinRTTMs) {
		m.MinRTTMs = d.MinRTTMs
	}
	if m.MinRTTMs > 0 && m.MeanRTTMs > 0 {
		m.RTTInflation = m.MeanRTTMs / m.MinRTTMs
	}
	det.series = metrics.Series(d)
	det.queue = queueEstimate(det.series)
	m.QueuePkts = meanQueue(det.queue)
	if !f.Epoch.IsZero() {
		bins := metrics.SlotProfile(det.series, f.Epoch)
		det.slots = &bins
		if m.Retransmits > 0 {
			m.PeakRetransS = metrics.PeakRetransBin(bins)
		}
	}
	return m, det
}

// rttResolution: RTTs are compared at the kernel's resolution, tcp_info's
// microseconds (include/uapi/linux/tcp.h tcpi_rtt, tcpi_min_rtt), which is
// also iperf3's; a leolab result and its iperf3 rendering then give the same
// figures.
const rttResolution = 1e3 // per ms

func quantum(ms float64) float64 { return math.Round(ms*rttResolution) / rttResolution }

// quantizeRTT rounds a flow's RTT figures to the microsecond, leaving the
// input untouched.
func quantizeRTT(d result.Flow) result.Flow {
	d.MinRTTMs, d.MeanRTTMs = quantum(d.MinRTTMs), quantum(d.MeanRTTMs)
	ivs := make([]result.Interval, len(d.Intervals))
	for i, iv := range d.Intervals {
		iv.SRTTMs, iv.RTTVarMs = quantum(iv.SRTTMs), quantum(iv.RTTVarMs)
		ivs[i] = iv
	}
	d.Intervals = ivs
	return d
}

// queueEstimate runs the M/G/1 estimator with seed 000's defaults over the
// intervals that carry an RTT; nil when the flow is shorter than one window
// or has no RTT.
func queueEstimate(series []metrics.Sample) []metrics.QueueEstimate {
	var qs []metrics.QueueSample
	for _, s := range metrics.QueueSamples(series) {
		if s.RTT > 0 {
			qs = append(qs, s)
		}
	}
	est, err := metrics.EstimateQueue(qs, metrics.QueueOptions{})
	if err != nil {
		return nil
	}
	return est
}

func meanQueue(est []metrics.QueueEstimate) float64 {
	var s float64
	for _, e := range est {
		s += e.Q
	}
	if len(est) == 0 || math.IsNaN(s) {
		return 0
	}
	return s / float64(len(est))
}

func durMs(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
